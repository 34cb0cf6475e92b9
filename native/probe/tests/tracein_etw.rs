//! `import-trace wpa|xperf|traceevent|tracerpt`: Windows' ETW exports. The real exports of
//! ../shared/realdata/etw (a WPA "Utilization by Disk" table, PerfView/TraceEvent dumps) give
//! their counts and request fields as the file says (computed here from the file); 200,000-row
//! synthetic exports written in each format, in two number locales, round-trip exactly; a table
//! without offsets is refused for simulation with the export to make; bad lines and ambiguous
//! numbers are named by file, line and field.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::testenv;
use common::{probe, TempDir};
use rusqlite::Connection;

fn real(test: &str, name: &str) -> Option<PathBuf> {
    testenv::realdata(test, &format!("etw/{name}"))
}

#[derive(Debug, PartialEq, Clone)]
struct Row {
    issue_ns: i64,
    complete_ns: Option<i64>,
    sector: i64,
    bytes: i64,
    op: String,
    rwbs: String,
    device: String,
}

fn rows(cap: &Path) -> Vec<Row> {
    let c = Connection::open(cap).unwrap();
    let mut q = c
        .prepare(
            "SELECT issue_ns,complete_ns,sector,bytes,op,rwbs,d.name FROM block_requests b
             JOIN devices d ON d.id=b.device_id ORDER BY b.rowid",
        )
        .unwrap();
    let v = q
        .query_map([], |r| {
            Ok(Row {
                issue_ns: r.get(0)?,
                complete_ns: r.get(1)?,
                sector: r.get(2)?,
                bytes: r.get(3)?,
                op: r.get(4)?,
                rwbs: r.get(5)?,
                device: r.get(6)?,
            })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    v
}

fn import(kind: &str, file: &Path, out: &Path) -> std::process::Output {
    probe(&[
        "import-trace",
        kind,
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn ok(o: &std::process::Output) {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A decimal text with `scale` decimals (e.g. ms "98.092") to ns, by hand.
fn dec_ns(s: &str, ns_per_unit: i64) -> i64 {
    let s = s.replace(',', "");
    let (i, f) = s.split_once('.').unwrap_or((&s, ""));
    let digits = ns_per_unit.to_string().len() - 1;
    let f = format!("{f:0<digits$}");
    i.parse::<i64>().unwrap() * ns_per_unit + f[..digits].parse::<i64>().unwrap_or(0)
}

fn ev_field<'a>(line: &'a str, k: &str) -> &'a str {
    let i = line.find(&format!("; {k}=")).unwrap() + k.len() + 3;
    line[i..].split(';').next().unwrap()
}

/// The DiskIO Read/Write events of a TraceEvent dump as rows, and the flush count, read here
/// by hand.
fn traceevent_expected(text: &str) -> (Vec<Row>, usize) {
    let mut v = Vec::new();
    let mut flushes = 0;
    for l in text.lines() {
        let Some(rest) = l.strip_prefix("EVENT ") else {
            continue;
        };
        let (ts, rest) = rest.split_once(": ").unwrap();
        let op = if rest.starts_with("Windows Kernel/DiskIO/Read ") {
            "Read"
        } else if rest.starts_with("Windows Kernel/DiskIO/Write ") {
            "Write"
        } else {
            if rest.starts_with("Windows Kernel/DiskIO/FlushBuffers ") {
                flushes += 1;
            }
            continue;
        };
        let done = dec_ns(ts, 1_000_000);
        let issue = done - dec_ns(ev_field(l, "ElapsedTimeMSec"), 1_000_000);
        let off: i64 = ev_field(l, "ByteOffset").replace(',', "").parse().unwrap();
        v.push(Row {
            issue_ns: issue,
            complete_ns: Some(done),
            sector: off / 512,
            bytes: ev_field(l, "TransferSize")
                .replace(',', "")
                .parse()
                .unwrap(),
            op: op[..1].into(),
            rwbs: op.into(),
            device: format!("disk{}", ev_field(l, "DiskNumber")),
        });
    }
    v.sort_by_key(|r| r.issue_ns);
    (v, flushes)
}

#[test]
fn traceevent_real_dumps() {
    for name in [
        "microsoft_perfview__net.4.5.x64.baseline.txt",
        "microsoft_perfview__netcore.3.1.x64.twocontainers.baseline.txt",
    ] {
        let Some(f) = real("traceevent_real_dumps", name) else {
            return;
        };
        let d = TempDir::new("etw-te");
        let out = d.join("t.capture");
        let o = import("traceevent", &f, &out);
        ok(&o);
        let text = std::fs::read_to_string(&f).unwrap();
        let (want, flushes) = traceevent_expected(&text);
        let got = rows(&out);
        let (data, fl): (Vec<Row>, Vec<Row>) = got.into_iter().partition(|r| r.op != "F");
        assert_eq!(data, want, "{name}");
        assert_eq!(fl.len(), flushes, "{name}");
        assert!(fl.iter().all(|r| r.bytes == 0 && r.rwbs == "FlushBuffers"));
        if name.contains("net.4.5") {
            // Line 65: "EVENT 103.515: …/Read …; DiskNumber=0; …; TransferSize=4,096;
            // ByteOffset=7,379,673,088; …; ElapsedTimeMSec=5.423": issued at 98.092 ms.
            assert_eq!(
                data[0],
                Row {
                    issue_ns: 98_092_000,
                    complete_ns: Some(103_515_000),
                    sector: 7_379_673_088 / 512,
                    bytes: 4096,
                    op: "R".into(),
                    rwbs: "Read".into(),
                    device: "disk0".into()
                }
            );
            // Line 143, the last write: 1,641.296 ms − 0.275 ms, 4,096 bytes at 3,624,427,520.
            let last = data.last().unwrap();
            assert_eq!(
                (last.issue_ns, last.complete_ns, last.sector, last.bytes),
                (
                    1_641_021_000,
                    Some(1_641_296_000),
                    3_624_427_520 / 512,
                    4096
                )
            );
            assert_eq!((data.len(), fl.len()), (10, 4));
        } else {
            assert_eq!((data.len(), fl.len()), (10, 5));
            let disks: std::collections::BTreeSet<_> =
                fl.iter().map(|r| r.device.as_str()).collect();
            assert_eq!(disks.into_iter().collect::<Vec<_>>(), ["disk0", "disk4"]);
        }
        let c = Connection::open(&out).unwrap();
        let n: String = c
            .query_row(
                "SELECT value FROM meta WHERE key='import_flushes'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, flushes.to_string());
    }
}

/// Nearest-rank percentile of µs texts, as the refusal prints it (ms, 3 decimals).
fn p_ms(mut v: Vec<f64>, q: f64) -> String {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    format!("{:.3}", v[i] / 1000.0)
}

#[test]
fn wpa_utilization_by_disk_is_refused_with_its_figures() {
    let Some(f) = real(
        "wpa_utilization_by_disk_is_refused_with_its_figures",
        "Siemens-Healthineers_ETWAnalyzer__Disk_Usage_Utilization_by_Disk.csv",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&f).unwrap();
    // The figures from the file: IO Type is column 5, IO Time (µs) column 8 (quoted when ≥ 1000).
    let mut by: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    let mut r = csv_rows(&text);
    let head = r.remove(0);
    assert_eq!(head[4], "IO Type");
    assert_eq!(head[7], "IO Time (µs)");
    for row in &r {
        let us: f64 = row[7].replace(',', "").parse().unwrap();
        by.entry(row[4].clone()).or_default().push(us);
    }
    let d = TempDir::new("etw-wpa");
    let o = import("wpa", &f, &d.join("w.capture"));
    assert_eq!(o.status.code(), Some(12));
    let e = err(&o);
    for (ty, word) in [("Read", "reads"), ("Write", "writes"), ("Flush", "flushes")] {
        let v = by[ty].clone();
        let want = format!(
            "of {word}: {} requests, p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
            v.len(),
            p_ms(v.clone(), 0.5),
            p_ms(v.clone(), 0.9),
            p_ms(v.clone(), 0.99),
            p_ms(v, 1.0)
        );
        assert!(e.contains(&want), "{want} not in {e}");
    }
    assert_eq!(
        (by["Read"].len(), by["Write"].len(), by["Flush"].len()),
        (116, 456, 28)
    );
    let sentence = "A cache cannot be simulated without each request's offset: export the Disk Usage graph with the Offset column";
    assert!(e.contains(sentence), "{e}");
    assert!(!d.join("w.capture").exists());
    // simulate reads it the same way, and refuses it the same way.
    let o = probe(&[
        "simulate",
        f.to_str().unwrap(),
        "--kind",
        "wpa",
        "--sizes",
        "1GiB",
    ]);
    assert_eq!(o.status.code(), Some(12));
    assert!(err(&o).contains(sentence), "{}", err(&o));
    // The wrong Windows kind names the right one.
    let o = import("xperf", &f, &d.join("x.capture"));
    assert_eq!(o.status.code(), Some(12));
    assert!(err(&o).contains("is a wpa export, not xperf: run import-trace wpa"));
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| {
            let mut out = vec![String::new()];
            let mut q = false;
            for c in l.chars() {
                match c {
                    '"' => q = !q,
                    ',' if !q => out.push(String::new()),
                    c => out.last_mut().unwrap().push(c),
                }
            }
            out
        })
        .collect()
}

#[path = "tracein_etw/synthetic.rs"]
mod synthetic;
#[path = "tracein_etw/tracerpt.rs"]
mod tracerpt;

/// `--start` anchors an export whose times count from the trace's start: the requests and the
/// per-interval samples at that day (not 1 January 1970), the capture saying the start was given;
/// a time that is not one is refused naming the option.
#[test]
fn start_anchors_a_relative_export() {
    let Some(f) = real(
        "start_anchors_a_relative_export",
        "microsoft_perfview__net.4.5.x64.baseline.txt",
    ) else {
        return;
    };
    let d = TempDir::new("etw-start");
    let out = d.join("t.capture");
    let f_s = f.to_str().unwrap();
    let o = probe(&[
        "import-trace",
        "traceevent",
        f_s,
        "--out",
        out.to_str().unwrap(),
        "--start",
        "2026-11-20T08:00:00+01:00",
    ]);
    ok(&o);
    // 2026-11-20T07:00:00Z; the first read is issued at 98.092 ms (line 65: 103.515 − 5.423)
    let start = 1_795_158_000_000i64;
    let c = Connection::open(&out).unwrap();
    let q = |sql: &str| -> i64 { c.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(q("SELECT min(utc_ms) FROM block_requests"), start + 98);
    assert!(q("SELECT min(utc_ms) FROM samples") >= start);
    let origin: String = c
        .query_row(
            "SELECT value FROM meta WHERE key='trace_time_origin'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(origin, "given");
    // the same file without --start: times after 1 January 1970, said so
    let plain = d.join("plain.capture");
    ok(&import("traceevent", &f, &plain));
    let c2 = Connection::open(&plain).unwrap();
    let first: i64 = c2
        .query_row("SELECT min(utc_ms) FROM block_requests", [], |r| r.get(0))
        .unwrap();
    assert_eq!(first, 98);
    let bad = probe(&[
        "import-trace",
        "traceevent",
        f_s,
        "--out",
        d.join("bad.capture").to_str().unwrap(),
        "--start",
        "yesterday",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        err(&bad)
            .contains("invalid value 'yesterday' for '--start <TIME>': 'yesterday' is not a time"),
        "{}",
        err(&bad)
    );
}
