//! The work the server did (capture v8, `work_counters`; docs/capture-schema.md): a synthetic
//! PerfMon before/after pair in the real header form (tests/common/perfmon.rs) keeps every
//! interval of `Process(_Total)\IO Data / Read / Write Operations/sec` and SQL Server's `Batch
//! Requests/sec` with the file's rates, never `% Processor Time`; the first row (blank, as PDH
//! writes it) has no interval; French counter names map to the same work counters; the objects'
//! other counters are listed as not imported, never dropped silently.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::perfmon::pair;
use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

/// (name, instance) → [(start, end, rate)].
type Work = BTreeMap<(String, String), Vec<(i64, i64, f64)>>;

fn work(cap: &Path) -> Work {
    let c = Connection::open_with_flags(cap, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let v: i64 = c
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, 8);
    let mut st = c
        .prepare("SELECT name, instance, start_utc_ms, end_utc_ms, rate_per_s FROM work_counters ORDER BY start_utc_ms")
        .unwrap();
    let mut out = Work::new();
    let rows = st
        .query_map([], |r| {
            Ok((
                (r.get::<_, String>(0)?, r.get::<_, String>(1)?),
                (r.get(2)?, r.get(3)?, r.get(4)?),
            ))
        })
        .unwrap();
    for r in rows {
        let (k, v) = r.unwrap();
        out.entry(k).or_default().push(v);
    }
    out
}

fn import(d: &TempDir, before: &str, after: &str) -> std::path::PathBuf {
    let (b, a, cap) = (
        d.join("before.csv"),
        d.join("after.csv"),
        d.join("c.sqlite"),
    );
    std::fs::write(&b, before).unwrap();
    std::fs::write(&a, after).unwrap();
    let o = probe(&[
        "import",
        "perfmon",
        "--baseline",
        b.to_str().unwrap(),
        "--measure",
        a.to_str().unwrap(),
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    cap
}

#[test]
fn every_interval_of_the_work_counters_is_kept_with_its_rate() {
    let d = TempDir::new("work");
    let (b, a) = pair(1.75);
    let w = work(&import(&d, &b.text(), &a.text()));
    let keys: Vec<(&str, &str)> = w.keys().map(|(n, i)| (n.as_str(), i.as_str())).collect();
    assert_eq!(
        keys,
        [
            ("batches_per_s", "SQLServer"),
            ("io_ops_per_s", "_Total"),
            ("io_reads_per_s", "_Total"),
            ("io_writes_per_s", "_Total"),
        ]
    );
    let ops = &w[&("io_ops_per_s".to_string(), "_Total".to_string())];
    // 120 intervals in each file (121 rows, the first blank), none across the day between them
    assert_eq!(ops.len(), 240);
    for (s, e, _) in ops {
        assert_eq!(e - s, 15_000);
    }
    let first_ms = b.start * 1000;
    assert_eq!(ops[0].0, first_ms);
    assert_eq!(ops[120].0, a.start * 1000);
    assert!(ops[..120].iter().all(|r| r.2 == 200.0));
    assert!(ops[120..].iter().all(|r| r.2 == 350.0));
    let batches = &w[&("batches_per_s".to_string(), "SQLServer".to_string())];
    assert!(batches[120..].iter().all(|r| r.2 == 35.0));
}

#[test]
fn french_work_counter_names_are_the_same_counters() {
    let d = TempDir::new("work-fr");
    let (b, a) = pair(1.0);
    let fr = |t: String| {
        t.replace("Process(_Total)", "Processus(_Total)")
            .replace("IO Data Operations/sec", "Opérations de données E/S/s")
            .replace("IO Read Operations/sec", "Opérations de lecture E/S/s")
            .replace("IO Write Operations/sec", "Opérations d'écriture E/S/s")
            .replace("PhysicalDisk", "Disque physique")
            .replace("LogicalDisk", "Disque logique")
            .replace("Disk Reads/sec", "Lectures disque/s")
            .replace("Disk Writes/sec", "Écritures disque/s")
    };
    let w = work(&import(&d, &fr(b.text()), &fr(a.text())));
    let ops = &w[&("io_ops_per_s".to_string(), "_Total".to_string())];
    assert_eq!(ops.len(), 240);
    assert!(ops.iter().all(|r| r.2 == 200.0));
    assert_eq!(
        w[&("io_writes_per_s".to_string(), "_Total".to_string())][0].2,
        50.0
    );
}

#[test]
fn the_work_objects_other_counters_are_listed_as_not_imported() {
    let d = TempDir::new("work-pv");
    let (b, _) = pair(1.0);
    let f = d.join("b.csv");
    std::fs::write(&f, b.text()).unwrap();
    let o = probe(&[
        "import",
        "--preview",
        "perfmon",
        f.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pv: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let unmapped = pv["unmapped"].to_string();
    assert!(
        unmapped.contains("Process\\\\% Processor Time"),
        "{unmapped}"
    );
    assert!(unmapped.contains("not a work counter"), "{unmapped}");
    assert!(!unmapped.contains("IO Data Operations"), "{unmapped}");
}
