//! Real diskstats files from ../shared/realdata: every file parses (mixed field counts), and
//! the rates computed from sysstat's own root1 → root2 snapshots match its expected
//! `iostat -x` output to the printed precision. Without the folder it skips with a message, and fails in CI (`testenv::realdata`).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cacheproof_probe::delta::{self, Snapshot};
use cacheproof_probe::diskstats;
use cacheproof_probe::testenv;

fn realdata(test: &str) -> Option<PathBuf> {
    testenv::realdata(test, "linux_iostat_sar_diskstats")
}

#[test]
fn every_real_diskstats_file_parses() {
    let Some(dir) = realdata("every_real_diskstats_file_parses") else {
        return;
    };
    let mut n = 0;
    let mut counts = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.contains("diskstats") || !name.ends_with(".txt") || name.ends_with(".source.txt") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let lines = diskstats::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let nonblank = text.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!(lines.len(), nonblank, "{name}: every line kept");
        for l in &lines {
            counts.insert(l.fields.len());
            let c = l.counters();
            assert_eq!(c.reads, l.fields[0]);
        }
        n += 1;
    }
    assert!(n >= 4, "found {n} diskstats files");
    // node_exporter's fixture mixes 11, 15 and 17 fields; sysstat's has a 14-field line.
    for k in [11, 14, 15, 17] {
        assert!(counts.contains(&k), "a {k}-field line was seen");
    }
}

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap()
}

fn uptime_ns(dir: &Path, f: &str) -> u64 {
    let t = read(dir, f);
    let s: f64 = t.split_whitespace().next().unwrap().parse().unwrap();
    (s * 100.0).round() as u64 * 10_000_000
}

/// The two reports of the expected file: device -> column -> value.
fn expected(dir: &Path) -> Vec<BTreeMap<String, BTreeMap<String, f64>>> {
    let text = read(dir, "sysstat_expected_iostat-x_from_root1.txt");
    let mut reports = Vec::new();
    let mut cols: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("Device") {
            cols = line.split_whitespace().skip(1).map(String::from).collect();
            reports.push(BTreeMap::new());
        } else if !cols.is_empty() && !line.trim().is_empty() && !line.starts_with("avg-cpu") {
            let mut t = line.split_whitespace();
            let dev = t.next().unwrap().to_string();
            let vals: Vec<f64> = t.map(|x| x.parse().unwrap()).collect();
            if vals.len() != cols.len() {
                continue;
            }
            let m = cols.iter().cloned().zip(vals).collect();
            reports.last_mut().unwrap().insert(dev, m);
        } else if line.trim().is_empty() {
            cols.clear();
        }
    }
    reports
}

fn ours(d: &delta::Deltas, ms: f64) -> BTreeMap<&'static str, f64> {
    let r = delta::rates(d, ms);
    let pct = |m: f64, n: f64| {
        if m + n > 0.0 {
            m / (m + n) * 100.0
        } else {
            0.0
        }
    };
    BTreeMap::from([
        ("r/s", r.r_s),
        ("rkB/s", r.rkb_s),
        ("rrqm/s", r.rrqm_s),
        ("%rrqm", pct(r.rrqm_s, r.r_s)),
        ("r_await", r.r_await),
        ("rareq-sz", r.rareq_sz_kb),
        ("w/s", r.w_s),
        ("wkB/s", r.wkb_s),
        ("wrqm/s", r.wrqm_s),
        ("%wrqm", pct(r.wrqm_s, r.w_s)),
        ("w_await", r.w_await),
        ("wareq-sz", r.wareq_sz_kb),
        ("d/s", r.d_s),
        ("dkB/s", r.dkb_s),
        ("d_await", r.d_await),
        ("f/s", r.f_s),
        ("f_await", r.f_await),
        ("aqu-sz", r.aqu_sz),
        ("%util", r.util_pct),
    ])
}

fn check(
    report: &BTreeMap<String, BTreeMap<String, f64>>,
    prev: &Snapshot,
    cur: &Snapshot,
    label: &str,
) {
    let step = delta::step(prev, cur, 1e12);
    let mut checked = 0;
    for (dev, cols) in report {
        let iv = step
            .intervals
            .iter()
            .find(|i| &i.device == dev)
            .unwrap_or_else(|| panic!("{label}: no interval for {dev}"));
        let d = iv
            .deltas
            .unwrap_or_else(|| panic!("{label}: {dev} is {:?}", iv.status));
        let mine = ours(&d, iv.interval_ms);
        for (col, want) in cols {
            let Some(got) = mine.get(col.as_str()) else {
                continue;
            };
            // Printed with 2 decimals: equal to half a unit of the last digit.
            assert!(
                (got - want).abs() <= 0.005 + 1e-9,
                "{label} {dev} {col}: ours {got:.4}, iostat {want}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 5 * 19, "{label}: checked {checked} values");
}

#[test]
fn rates_match_sysstat_iostat_x() {
    let Some(dir) = realdata("rates_match_sysstat_iostat_x") else {
        return;
    };
    let snap = |ds: &str, up: &str| {
        let ns = uptime_ns(&dir, up);
        Snapshot::from_lines(
            ns,
            (ns / 1_000_000) as i64,
            "b",
            diskstats::parse(&read(&dir, ds)).unwrap(),
            |_| true,
        )
    };
    let s1 = snap(
        "sysstat_root1_proc_diskstats.txt",
        "sysstat_root1_proc_uptime.txt",
    );
    let s2 = snap(
        "sysstat_root2_proc_diskstats.txt",
        "sysstat_root2_proc_uptime.txt",
    );
    let reports = expected(&dir);
    assert_eq!(reports.len(), 2);
    // Report 1 is "since boot": root1 against all-zero counters over the uptime.
    let mut zero = s1.clone();
    zero.mono_ns = 0;
    zero.utc_ms = 0;
    for d in zero.devices.values_mut() {
        d.fields.iter_mut().for_each(|f| *f = 0);
    }
    check(&reports[0], &zero, &s1, "since boot");
    // Report 2: root1 -> root2, Δt from the two uptime files (31.17 s).
    assert_eq!(s2.mono_ns - s1.mono_ns, 31_170_000_000);
    check(&reports[1], &s1, &s2, "root1->root2");
}
