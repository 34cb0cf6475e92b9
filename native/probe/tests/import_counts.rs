//! No interval lost, no I/O rounded away (issue 26): for every rate-based format, a synthetic
//! file in the real format with random rates and intervals is imported, and each device's
//! totals in the capture (reads, writes, bytes) equal Σ rate × interval of the file within half
//! a unit; a sar and a sadf file keep all their lines (one interval per line and device).
//! The rates are printed as the tools print them (2 decimals for sysstat, full precision for
//! PerfMon and esxtop) and the expected sums are computed from the printed figures.
//! windows_exporter (counters read from a Prometheus server) goes through its series and the
//! conversion here; import_prometheus_windows.rs imports it through a real Prometheus.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cacheproof_probe::import::carry::RateToCount;
use cacheproof_probe::import::prometheus::{to_parsed, Series};
use cacheproof_probe::import::write::{self, Options, Part};
use cacheproof_probe::import::{Kind, ParseOpts};
use common::TempDir;
use rusqlite::{Connection, OpenFlags};

/// Cases per format (each a file of random rates, 1 to 40 lines a device).
const CASES: u64 = 12;

/// xorshift64*: a seeded stream, so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A whole number in [a, b].
    fn int(&mut self, a: u64, b: u64) -> u64 {
        a + self.next() % (b - a + 1)
    }
    /// A figure with 2 decimals in [0, max), as sysstat prints it (a few exact zeros too).
    fn cents(&mut self, max: u64) -> f64 {
        if self.int(0, 9) == 0 {
            return 0.0;
        }
        self.int(1, max * 100) as f64 / 100.0
    }
    /// A figure in [0, max) at full precision, as PerfMon prints it.
    fn real(&mut self, max: f64) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * max
    }
}

/// Expected per device: Σ reads, writes, read bytes, write bytes (None: the file has no such
/// figure) and the number of intervals.
#[derive(Debug, Default, Clone)]
struct Want {
    sums: [f64; 4],
    intervals: i64,
}

fn import(kind: Kind, text: &str, name: &str) -> (TempDir, PathBuf) {
    import_with(kind, text, name, ParseOpts::default())
}

fn import_with(kind: Kind, text: &str, name: &str, parse: ParseOpts) -> (TempDir, PathBuf) {
    let t = TempDir::new("imp-counts");
    let f = t.join(name);
    std::fs::write(&f, text).unwrap();
    let out = t.join("x.capture");
    let o = Options {
        kind,
        inputs: vec![(f, Part::All)],
        out: Some(out.clone()),
        switch_at: None,
        encoding: None,
        parse,
        roles: Vec::new(),
        out_dir: None,
        command: "import_counts".into(),
    };
    if let Err(e) = write::import(&o) {
        panic!("import {}: {e}\n{text}", kind.as_str());
    }
    (t, out)
}

/// Per device name: (ok intervals, Σ reads, writes, read bytes, write bytes).
fn totals(cap: &Path) -> BTreeMap<String, (i64, [i64; 4])> {
    let c = Connection::open_with_flags(cap, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut st = c
        .prepare(
            "SELECT d.name, COUNT(*), TOTAL(reads), TOTAL(writes), TOTAL(read_bytes), TOTAL(write_bytes)
             FROM intervals i JOIN devices d ON d.id = i.device_id WHERE i.status = 'ok' GROUP BY d.name",
        )
        .unwrap();
    st.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            (
                r.get(1)?,
                [
                    r.get::<_, f64>(2)? as i64,
                    r.get::<_, f64>(3)? as i64,
                    r.get::<_, f64>(4)? as i64,
                    r.get::<_, f64>(5)? as i64,
                ],
            ),
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

fn check(
    what: &str,
    seed: u64,
    got: &BTreeMap<String, (i64, [i64; 4])>,
    want: &BTreeMap<String, Want>,
) {
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{what} seed {seed}: devices"
    );
    for (dev, w) in want {
        let (n, sums) = got[dev];
        assert_eq!(n, w.intervals, "{what} seed {seed} {dev}: intervals");
        for (k, name) in ["reads", "writes", "read bytes", "write bytes"]
            .iter()
            .enumerate()
        {
            let exact = w.sums[k];
            let err = (sums[k] as f64 - exact).abs();
            assert!(
                err <= 0.5 + 1e-9 * exact.max(1.0),
                "{what} seed {seed} {dev}: {name} {} where Σ rate × interval is {exact} (off by {err})",
                sums[k]
            );
        }
    }
}

/// `HH:MM:SS` (24 h) of seconds since midnight.
fn hms(s: u64) -> String {
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `HH:MM:SS AM` of seconds since midnight (before noon).
fn hms_am(s: u64) -> String {
    format!("{} AM", hms(s))
}

/// sar's and sadf's read share of tps (docs/import.md: tps shared in proportion to the bytes).
fn split(tps: f64, rk: f64, wk: f64) -> (f64, f64) {
    if tps == 0.0 || rk + wk == 0.0 {
        (0.0, 0.0)
    } else {
        (tps * rk / (rk + wk), tps * wk / (rk + wk))
    }
}

/// One line of sar -d / sadf -d: tps, rkB/s, wkB/s (bytes > 0 whenever tps > 0, so that every
/// line has reads and writes), and the rest.
fn sar_line(g: &mut Rng) -> [f64; 8] {
    let tps = g.cents(3000);
    let (rk, wk) = if tps > 0.0 {
        (g.cents(50_000) + 0.01, g.cents(50_000))
    } else {
        (0.0, 0.0)
    };
    [
        tps,
        rk,
        wk,
        0.0,
        g.cents(64),
        g.cents(20),
        g.cents(50),
        g.cents(100),
    ]
}

fn add_sar(w: &mut Want, v: &[f64; 8], secs: f64) {
    let (r, wr) = split(v[0], v[1], v[2]);
    w.sums[0] += r * secs;
    w.sums[1] += wr * secs;
    w.sums[2] += v[1] * 1024.0 * secs;
    w.sums[3] += v[2] * 1024.0 * secs;
    w.intervals += 1;
}

fn fmt(v: &[f64], sep: &str, width: usize) -> String {
    v.iter()
        .map(|x| format!("{x:>width$.2}"))
        .collect::<Vec<_>>()
        .join(sep)
}

#[test]
fn sadf_keeps_every_line_and_every_io() {
    for seed in 0..CASES {
        let mut g = Rng::new(seed);
        let interval = g.int(1, 600);
        let lines = g.int(1, 40);
        let devs = ["sda", "sdb", "nvme0n1"];
        let mut text = String::from(
            "# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util\n",
        );
        let mut want: BTreeMap<String, Want> = BTreeMap::new();
        for i in 0..lines {
            let t = 3600 + (i + 1) * interval;
            for d in devs {
                let v = sar_line(&mut g);
                text.push_str(&format!(
                    "db01;{interval};2024-05-02 {} UTC;{d};{}\n",
                    hms(t),
                    fmt(&v, ";", 0)
                ));
                add_sar(want.entry(d.into()).or_default(), &v, interval as f64);
            }
        }
        let (_t, cap) = import(Kind::Sadf, &text, "sadf.csv");
        check("sadf", seed, &totals(&cap), &want);
    }
}

#[test]
fn sar_keeps_every_line_and_every_io() {
    for seed in 0..CASES {
        let mut g = Rng::new(100 + seed);
        let interval = g.int(1, 600);
        let lines = g.int(1, 40);
        // even seeds: `sar -d --pretty` (DEV last, 24 h); odd: plain `sar -d` (DEV first, AM/PM)
        let pretty = seed % 2 == 0;
        let devs: &[&str] = if pretty {
            &["sda", "sdb"]
        } else {
            &["dev8-0", "dev8-16"]
        };
        let cols = [
            "tps", "rkB/s", "wkB/s", "dkB/s", "areq-sz", "aqu-sz", "await", "%util",
        ];
        let time = |s: u64| if pretty { hms(s) } else { hms_am(s) };
        let mut text =
            String::from("Linux 5.14.0-362.el9.x86_64 (db01) \t05/02/24 \t_x86_64_\t(8 CPU)\n\n");
        let start = 3600;
        text.push_str(&if pretty {
            format!("{}  {} DEV\n", time(start), fmt_cols(&cols))
        } else {
            format!("{}       DEV {}\n", time(start), fmt_cols(&cols))
        });
        let mut want: BTreeMap<String, Want> = BTreeMap::new();
        for i in 0..lines {
            let t = start + (i + 1) * interval;
            for d in devs {
                let v = sar_line(&mut g);
                text.push_str(&if pretty {
                    format!("{}  {} {d}\n", time(t), fmt(&v, " ", 9))
                } else {
                    format!("{} {d:>9} {}\n", time(t), fmt(&v, " ", 9))
                });
                add_sar(want.entry(d.to_string()).or_default(), &v, interval as f64);
            }
        }
        text.push_str("\nAverage:  0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 sda\n");
        let (_t, cap) = import(Kind::Sar, &text, "sar.txt");
        check("sar", seed, &totals(&cap), &want);
    }
}

fn fmt_cols(c: &[&str]) -> String {
    c.iter()
        .map(|x| format!("{x:>9}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn iostat_keeps_every_report_after_the_one_since_boot() {
    iostat_cases(false);
}

#[test]
fn iostat_y_keeps_every_report() {
    // `iostat -y` (the app's collection guide runs `iostat -dxty`): no report since boot
    iostat_cases(true);
}

fn iostat_cases(y: bool) {
    let cols = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util";
    for seed in 0..CASES {
        let mut g = Rng::new(if y { 250 } else { 200 } + seed);
        let interval = g.int(1, 600);
        let reports = g.int(2, 40);
        let mut text = String::from(
            "Linux 5.17.11-300.fc36.x86_64 (db01) \t05/02/2024 \t_x86_64_\t(12 CPU)\n\n",
        );
        let mut want: BTreeMap<String, Want> = BTreeMap::new();
        for k in 0..reports {
            text.push_str(&format!(
                "05/02/2024 {}\n{cols}\n",
                hms_am(3600 + k * interval)
            ));
            for d in ["nvme0n1", "sda"] {
                // r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s … %util (22 figures)
                let mut v = [0.0f64; 22];
                for x in v.iter_mut() {
                    *x = g.cents(100);
                }
                v[0] = g.cents(5000);
                v[1] = g.cents(200_000);
                v[6] = g.cents(5000);
                v[7] = g.cents(200_000);
                text.push_str(&format!("{d:<10} {}\n", fmt(&v, " ", 8)));
                let w = want.entry(d.into()).or_default();
                if k > 0 || y {
                    // without -y, the first report covers the time since boot: no interval
                    let s = interval as f64;
                    w.sums[0] += v[0] * s;
                    w.sums[1] += v[6] * s;
                    w.sums[2] += v[1] * 1024.0 * s;
                    w.sums[3] += v[7] * 1024.0 * s;
                    w.intervals += 1;
                }
            }
            text.push('\n');
        }
        let parse = ParseOpts {
            iostat_no_since_boot: y,
            ..ParseOpts::default()
        };
        let (_t, cap) = import_with(Kind::Iostat, &text, "iostat.txt", parse);
        check(
            if y { "iostat -y" } else { "iostat" },
            seed,
            &totals(&cap),
            &want,
        );
    }
}

/// A PerfMon (or esxtop batch) CSV of random rates at irregular times (±20 % of the interval,
/// in ms), full precision; the first row's rates give no interval.
fn pdh_case(seed: u64, esxtop: bool) {
    let mut g = Rng::new(if esxtop { 400 } else { 300 } + seed);
    let base = g.int(1000, 60_000);
    let rows = g.int(2, 40);
    let (objs, counters, scale): (Vec<String>, [&str; 4], f64) = if esxtop {
        (
            vec![
                "Physical Disk SCSI Device(naa.600508b1001c4d)".into(),
                "Physical Disk SCSI Device(naa.600508b1001c7e)".into(),
            ],
            [
                "Reads/sec",
                "Writes/sec",
                "MBytes Read/sec",
                "MBytes Written/sec",
            ],
            1_048_576.0,
        )
    } else {
        (
            vec!["PhysicalDisk(0 C:)".into(), "PhysicalDisk(1 D:)".into()],
            [
                "Disk Reads/sec",
                "Disk Writes/sec",
                "Disk Read Bytes/sec",
                "Disk Write Bytes/sec",
            ],
            1.0,
        )
    };
    let host = if esxtop { "esx01" } else { "SQL01" };
    let mut text = String::from("\"(PDH-CSV 4.0) (UTC)(0)\"");
    for o in &objs {
        for c in counters {
            text.push_str(&format!(",\"\\\\{host}\\{o}\\{c}\""));
        }
    }
    text.push_str("\r\n");
    let mut want: Vec<Want> = vec![Want::default(); objs.len()];
    let mut t_ms: u64 = 8 * 3_600_000;
    for k in 0..rows {
        let dt = if k == 0 {
            0
        } else {
            base * 8 / 10 + g.int(0, base * 4 / 10)
        };
        t_ms += dt;
        text.push_str(&format!(
            "\"01/02/2024 {}.{:03}\"",
            hms(t_ms / 1000),
            t_ms % 1000
        ));
        for w in want.iter_mut() {
            let max = [3000.0, 3000.0, 200_000_000.0 / scale, 200_000_000.0 / scale];
            for (i, m) in max.iter().enumerate() {
                let v = g.real(*m);
                text.push_str(&format!(",\"{v}\""));
                if k > 0 {
                    let f = if i >= 2 { scale } else { 1.0 };
                    w.sums[i] += v * f * dt as f64 / 1000.0;
                }
            }
            if k > 0 {
                w.intervals += 1;
            }
        }
        text.push_str("\r\n");
    }
    let kind = if esxtop { Kind::Esxtop } else { Kind::Perfmon };
    let (_t, cap) = import(kind, &text, "log.csv");
    let got = totals(&cap);
    // the capture names the devices its own way: match them by the source's name in them
    let mut named = BTreeMap::new();
    for (o, w) in objs.iter().zip(want) {
        let key = o.split('(').nth(1).unwrap().trim_end_matches(')');
        let name = got
            .keys()
            .find(|n| n.contains(key))
            .unwrap_or_else(|| panic!("no device for {o} in {:?}", got.keys()));
        named.insert(name.clone(), w);
    }
    check(kind.as_str(), seed, &got, &named);
}

#[test]
fn perfmon_totals_are_the_rates_times_the_intervals() {
    for seed in 0..CASES {
        pdh_case(seed, false);
    }
}

#[test]
fn esxtop_totals_are_the_rates_times_the_intervals() {
    for seed in 0..CASES {
        pdh_case(seed, true);
    }
}

#[test]
fn windows_exporter_totals_are_the_counters_increase() {
    // Counters with fractional increases (as Prometheus may hand them back after a
    // rate-preserving downsample), scraped at irregular times: the intervals' counts add up to
    // the increase of each counter within half a unit.
    for seed in 0..CASES {
        let mut g = Rng::new(500 + seed);
        let scrapes = g.int(2, 40);
        let mut s = Series::default();
        let mut c = [1000.0f64; 4];
        let names = [
            "reads_total",
            "writes_total",
            "read_bytes_total",
            "write_bytes_total",
        ];
        let mut t = 1_714_636_800_000i64;
        for k in 0..scrapes {
            if k > 0 {
                t += g.int(10_000, 20_000) as i64;
                for (i, x) in c.iter_mut().enumerate() {
                    *x += g.real(if i < 2 { 500.0 } else { 5e7 });
                }
            }
            for (i, m) in names.iter().enumerate() {
                s.put(
                    "host:9182",
                    &format!("windows_logical_disk_{m}"),
                    |l| (l == "volume").then(|| "C:".to_string()),
                    t,
                    c[i],
                );
            }
        }
        let p = to_parsed(&s, "windows_exporter".into());
        assert_eq!(p.devices.len(), 1);
        let mut conv = RateToCount::default();
        let mut got = [0i64; 4];
        for w in p.samples.windows(2) {
            let Some(Some(r)) = w[1].rates.first() else {
                continue;
            };
            let k = conv.next(r, (w[1].utc_ms - w[0].utc_ms) as f64);
            for (i, x) in [k.reads, k.writes, k.read_bytes, k.write_bytes]
                .into_iter()
                .enumerate()
            {
                got[i] += x.unwrap();
            }
        }
        for i in 0..4 {
            let exact = c[i] - 1000.0;
            assert!(
                (got[i] as f64 - exact).abs() <= 0.5 + 1e-9 * exact,
                "seed {seed} {}: {} where the counter rose {exact}",
                names[i],
                got[i]
            );
        }
    }
}
