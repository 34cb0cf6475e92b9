//! Partial logs (issue #26): a 48-hour PerfMon log whose only disk counter is
//! `LogicalDisk(_Total)\% Disk Time` imports as a partial capture (its queue length; the other
//! figures NULL, named in the preview), never refused with the false "no PhysicalDisk or
//! LogicalDisk counters"; a disk object whose counters the capture cannot store is refused with
//! a sentence naming them and the counters needed; sadf logs with only %util or only aqu-sz
//! import likewise, named as partial.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{one_sentence, probe, TempDir};
use rusqlite::{Connection, OpenFlags};

const ROWS: usize = 48 * 60; // 48 hours at one row a minute

/// end_utc_ms, interval_ms, reads, writes, busy_ms, weighted_ms of one interval.
type IntervalCols = (i64, f64, Option<i64>, Option<i64>, Option<i64>, Option<i64>);

/// A PerfMon CSV as a Data Collector Set writes it (header `"(PDH-CSV 4.0) (Zone)(bias)"`, every
/// cell quoted, CRLF, the first row's rate counters blank), one row a minute from 2024-03-04
/// 00:00 local (India, bias −330) for `rows` rows; `value(row, column)` gives each cell.
fn perfmon(path: &Path, counters: &[&str], rows: usize, value: impl Fn(usize, usize) -> String) {
    let mut s = String::from("\"(PDH-CSV 4.0) (India Standard Time)(-330)\"");
    for c in counters {
        s.push_str(&format!(",\"\\\\SRV-SQL01\\{c}\""));
    }
    s.push_str("\r\n");
    for r in 0..rows {
        let (day, min) = (4 + r / 1440, r % 1440);
        s.push_str(&format!(
            "\"03/{day:02}/2024 {:02}:{:02}:00.000\"",
            min / 60,
            min % 60
        ));
        for c in 0..counters.len() {
            s.push_str(&format!(
                ",\"{}\"",
                if r == 0 { " ".into() } else { value(r, c) }
            ));
        }
        s.push_str("\r\n");
    }
    std::fs::write(path, s).unwrap();
}

/// `% Disk Time` of row `r` (above 100 at times, as it is on a disk with a queue).
fn disk_time(r: usize) -> f64 {
    12.5 + (r % 97) as f64 * 1.75
}

fn db(p: &Path) -> Connection {
    Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

/// The preview's notes (under `preview` in an import's JSON, at the top in `--preview --json`).
fn notes(j: &serde_json::Value) -> Vec<String> {
    j.get("preview").unwrap_or(j)["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

const PERFMON_NEEDED: &str = "Disk Reads/sec, Disk Writes/sec, Disk Read Bytes/sec, Disk Write Bytes/sec, Avg. Disk sec/Read, Avg. Disk sec/Write (and % Idle Time, Avg. Disk Queue Length) of PhysicalDisk: add them to the Data Collector Set (logman create counter \"cacheproof\" -c \"\\PhysicalDisk(*)\\*\" \"\\LogicalDisk(*)\\*\" -si 00:00:15 -f csv -o \"C:\\PerfLogs\\cacheproof.csv\", then logman start cacheproof; or typeperf \"\\PhysicalDisk(*)\\*\" -si 15 -f CSV -o disks.csv) and import the new log";

#[test]
fn perfmon_disk_time_only_imports_as_a_partial_queue_profile() {
    let t = TempDir::new("partial-dt");
    let f = t.join("SRV-SQL01_000001.csv");
    perfmon(
        &f,
        &[
            "Processor(_Total)\\% Processor Time",
            "Memory\\Available MBytes",
            "Memory\\Pages/sec",
            "LogicalDisk(_Total)\\% Disk Time",
        ],
        ROWS,
        |r, c| match c {
            0 => format!("{:.13}", 20.0 + (r % 13) as f64),
            1 => format!("{}", 8192 - r % 50),
            2 => format!("{:.13}", (r % 7) as f64 * 0.5),
            _ => format!("{:.13}", disk_time(r)),
        },
    );
    let out = t.join("x.capture");
    let o = probe(&[
        "import",
        "perfmon",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "refused: {err}");
    assert!(!err.contains("no PhysicalDisk or LogicalDisk"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let devs = j["preview"]["devices"].as_array().unwrap();
    assert_eq!(devs.len(), 1, "{devs:?}");
    assert_eq!(devs[0]["name"], "LogicalDisk(_Total)");
    assert_eq!(devs[0]["role"], "backing");
    let mapping = j["preview"]["files"][0]["mapping"].to_string();
    assert!(
        mapping.contains("queue_avg × 0.01"),
        "% Disk Time is mapped as the queue length × 100: {mapping}"
    );
    let n = notes(&j);
    let expected = format!(
        "SRV-SQL01_000001.csv: a partial log: it has queue length only, and no reads, writes, bytes, response times or busy time; it is imported as it is (the missing figures stay empty, never 0), but no workload profile or before/after can be computed from it, as analyze says; for those it needs {PERFMON_NEEDED}"
    );
    assert!(n.contains(&expected), "{n:#?}");
    // the same in codes, for the app to say in the person's language and refuse to analyse
    let partial = &j["preview"]["partial"];
    assert_eq!(partial["has"], "queue", "{partial}");
    assert_eq!(
        partial["missing"],
        serde_json::json!(["reads", "writes", "bytes", "times", "busy"])
    );
    assert!(partial["needed"]
        .as_str()
        .unwrap()
        .starts_with("Disk Reads/sec"));
    assert_eq!(partial["commands"][1], "logman start cacheproof");
    assert_eq!(j["preview"]["analysable"], false);
    // every row after the first is an interval whose queue is % Disk Time / 100
    let c = db(&out);
    let rows: Vec<IntervalCols> = c
        .prepare(
            "SELECT end_utc_ms, interval_ms, reads, writes, busy_ms, weighted_ms FROM intervals i
             JOIN devices d ON d.id=i.device_id WHERE d.name='LogicalDisk(_Total)' ORDER BY start_utc_ms",
        )
        .unwrap()
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), ROWS - 1);
    // 2024-03-04 00:00 IST = 2024-03-03 18:30 UTC
    let t0 = 1_709_490_600_000i64;
    let mut sum = 0i64;
    for (k, (end, dt, reads, writes, busy, weighted)) in rows.iter().enumerate() {
        let r = k + 1;
        assert_eq!(*end, t0 + r as i64 * 60_000);
        assert_eq!(*dt, 60_000.0);
        assert_eq!(
            (*reads, *writes, *busy),
            (None, None, None),
            "NULL, never 0"
        );
        sum += weighted.unwrap();
    }
    let want: f64 = (1..ROWS).map(|r| disk_time(r) / 100.0 * 60_000.0).sum();
    assert!(
        (sum as f64 - want).abs() <= 1.0,
        "queue × time over the file: {sum} vs {want}"
    );
}

#[test]
fn perfmon_disk_object_with_no_storable_counter_is_refused_truthfully() {
    let t = TempDir::new("partial-none");
    let f = t.join("SRV-SQL01_000002.csv");
    perfmon(
        &f,
        &[
            "Processor(_Total)\\% Processor Time",
            "Memory\\Available MBytes",
            "LogicalDisk(_Total)\\Disk Transfers/sec",
            "LogicalDisk(_Total)\\% Free Space",
        ],
        120,
        |r, _| format!("{}", 10 + r % 9),
    );
    let o = probe(&[
        "import",
        "perfmon",
        f.to_str().unwrap(),
        "--out",
        t.join("x.capture").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(12));
    let e = one_sentence(&o);
    assert_eq!(
        e,
        format!(
            "cacheproof-probe: {}, line 1: no disk counter that can be imported: the log's disk counters are LogicalDisk(_Total)\\Disk Transfers/sec, LogicalDisk(_Total)\\% Free Space, none of which the capture stores (reads and writes apart, bytes, response times, busy time or queue length); a profile needs {PERFMON_NEEDED} (counters named in another language: add their names with --names FILE)",
            f.display()
        )
    );
    assert!(!t.join("x.capture").exists());
}

#[test]
fn perfmon_without_disk_objects_keeps_its_true_refusal() {
    let t = TempDir::new("partial-cpu");
    let f = t.join("cpu.csv");
    perfmon(
        &f,
        &[
            "Processor(_Total)\\% Processor Time",
            "Memory\\Available MBytes",
        ],
        30,
        |r, _| format!("{r}"),
    );
    let o = probe(&["import", "perfmon", f.to_str().unwrap(), "--preview"]);
    let e = one_sentence(&o);
    assert!(
        e.contains("cpu.csv, line 1: no PhysicalDisk or LogicalDisk counters to import (objects in the file: Processor, Memory)"),
        "{e}"
    );
}

/// A `sadf -d` log (sysstat's own header) with one figure column.
fn sadf(path: &Path, col: &str, value: impl Fn(usize) -> f64) {
    let mut s = format!("# hostname;interval;timestamp;DEV;{col}\n");
    for i in 0..30 {
        s.push_str(&format!(
            "db01;60;2024-03-04 00:{:02}:00 UTC;dev8-0;{:.2}\n",
            i + 1,
            value(i)
        ));
    }
    std::fs::write(path, s).unwrap();
}

#[test]
fn sadf_util_only_or_queue_only_imports_as_partial() {
    let t = TempDir::new("partial-sadf");
    for (col, has, missing, fig) in [
        (
            "%util",
            "busy time",
            "reads, writes, bytes, response times or queue length",
            4usize,
        ),
        (
            "aqu-sz",
            "queue length",
            "reads, writes, bytes, response times or busy time",
            5,
        ),
    ] {
        let f = t.join(&format!("sa-{}.csv", col.trim_start_matches('%')));
        sadf(&f, col, |i| 10.0 + i as f64 * 2.0);
        let out = t.join(&format!("{}.capture", col.trim_start_matches('%')));
        let o = probe(&[
            "import",
            "sadf",
            f.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let name = f.file_name().unwrap().to_str().unwrap();
        let expected = format!(
            "{name}: a partial log: it has {has} only, and no {missing}; it is imported as it is (the missing figures stay empty, never 0), but no workload profile or before/after can be computed from it, as analyze says; for those it needs r/s, w/s, rkB/s, wkB/s, r_await and w_await per device: log them with iostat -dxty -o JSON 15 COUNT > FILE.json (docs/collect.md) and import that file as iostat-json"
        );
        let n = notes(&j);
        assert!(n.contains(&expected), "{n:#?}");
        let c = db(&out);
        let (k, reads, val): (i64, Option<i64>, i64) = c
            .query_row(
                &format!(
                    "SELECT COUNT(*), MAX(reads), SUM({}) FROM intervals",
                    ["busy_ms", "weighted_ms"][fig - 4]
                ),
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(k, 30, "every line is an interval");
        assert_eq!(reads, None, "no reads: NULL, never 0");
        let want: f64 = (0..30)
            .map(|i| {
                let v = 10.0 + i as f64 * 2.0;
                if fig == 4 {
                    (v / 100.0).min(1.0) * 60_000.0
                } else {
                    v * 60_000.0
                }
            })
            .sum();
        assert!((val as f64 - want).abs() <= 1.0, "{col}: {val} vs {want}");
    }
}

#[test]
fn a_full_log_has_no_partial_note() {
    let t = TempDir::new("partial-full");
    let f = t.join("full.csv");
    perfmon(
        &f,
        &[
            "PhysicalDisk(0 C:)\\Disk Reads/sec",
            "PhysicalDisk(0 C:)\\Disk Writes/sec",
            "PhysicalDisk(0 C:)\\% Disk Time",
        ],
        60,
        |r, c| format!("{}", [50 + r % 5, 20 + r % 3, 40][c]),
    );
    let o = probe(&[
        "import",
        "perfmon",
        f.to_str().unwrap(),
        "--preview",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let n = notes(&j);
    assert!(!n.iter().any(|s| s.contains("partial log")), "{n:#?}");
}
