//! Scrape files imported directly (`import node-exporter FILE|DIR…`, docs/import.md,
//! "node-exporter"): a folder of windows_exporter scrapes named by epoch, built from the real
//! windows_exporter 0.20.0 scrape (tests/fixtures/windows_exporter/) with its counters advanced
//! by known amounts, and node_exporter scrapes built likewise from the real node_exporter scrape
//! (../shared/realdata/node_exporter/, `testenv::realdata`: skipped with a message when absent,
//! a failure under CI=true). The imported totals equal the counters' differences exactly; one
//! scrape is refused (exit 12) with the sentence that names the file and what to run.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use cacheproof_probe::testenv;
use common::prom::advance;
use common::{one_sentence, probe, TempDir};
use rusqlite::{Connection, OpenFlags};

const WIN: &str = include_str!("fixtures/windows_exporter/netdata-v0.20.0-logical-disk.prom");
const T0: i64 = 1_764_000_000;

/// Per-scrape increments: reads and writes by whole I/Os per volume, latency in seconds.
fn win_inc(name: &str, labels: &str) -> f64 {
    let c = labels.contains("\"C:\"");
    match (name, c) {
        ("windows_logical_disk_reads_total", true) => 1234.0,
        ("windows_logical_disk_reads_total", false) => 7.0,
        ("windows_logical_disk_writes_total", true) => 321.0,
        ("windows_logical_disk_read_bytes_total", true) => 1234.0 * 4096.0,
        ("windows_logical_disk_read_latency_seconds_total", true) => 2.468,
        ("windows_logical_disk_idle_seconds_total", _) => 30.0,
        _ => 0.0,
    }
}

fn db(p: &Path) -> Connection {
    Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

/// Σ reads, Σ writes, Σ read time and the number of intervals of a device.
fn totals(cap: &Path, dev: &str) -> (i64, i64, i64, i64) {
    db(cap)
        .query_row(
            "SELECT COALESCE(SUM(reads),0), COALESCE(SUM(writes),0), COALESCE(SUM(read_time_ms),0), COUNT(*)
             FROM intervals i JOIN devices d ON d.id = i.device_id WHERE d.name = ?1",
            [dev],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap()
}

fn import(args: &[&str]) -> std::process::Output {
    let mut a = vec!["import", "node-exporter"];
    a.extend_from_slice(args);
    probe(&a)
}

#[test]
fn windows_exporter_folder_of_scrapes_named_by_epoch() {
    let d = TempDir::new("scrapes-win");
    let dir = d.join("scrapes");
    std::fs::create_dir_all(&dir).unwrap();
    let n = 5;
    for i in 0..n {
        let t = T0 + 60 * i as i64;
        std::fs::write(
            dir.join(format!("scrape-{t}.prom")),
            advance(WIN, i, &win_inc),
        )
        .unwrap();
    }
    let out = d.join("win.capture");
    let o = import(&[dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let k = (n - 1) as i64;
    let (r, w, rt, count) = totals(&out, "LogicalDisk(C:)");
    assert_eq!(count, k, "one interval between two successive scrapes");
    assert_eq!(r, 1234 * k);
    assert_eq!(w, 321 * k);
    assert_eq!(
        rt,
        2468 * k,
        "read time = Δ read_latency_seconds_total × 1000"
    );
    let (r, w, _, _) = totals(&out, "LogicalDisk(HarddiskVolume4)");
    assert_eq!((r, w), (7 * k, 0));
    let span: (i64, i64) = db(&out)
        .query_row(
            "SELECT MIN(start_utc_ms), MAX(end_utc_ms) FROM intervals",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        span,
        (T0 * 1000, (T0 + 60 * k) * 1000),
        "times from the file names"
    );
    // a counter that goes down (the exporter restarted) is a reset, as in the Prometheus import
    let again = d.join("again");
    std::fs::create_dir_all(&again).unwrap();
    for (j, i) in [3usize, 4, 0, 1].into_iter().enumerate() {
        let t = T0 + 60 * j as i64;
        std::fs::write(again.join(format!("s-{t}.prom")), advance(WIN, i, &win_inc)).unwrap();
    }
    let out2 = d.join("reset.capture");
    let o = import(&[again.to_str().unwrap(), "--out", out2.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (r, _, _, count) = totals(&out2, "LogicalDisk(C:)");
    assert_eq!(
        (r, count),
        (2 * 1234, 3),
        "the interval across the reset has no numbers"
    );
}

#[test]
fn one_scrape_is_refused_with_what_to_run() {
    let d = TempDir::new("scrapes-one");
    let f = d.join("metrics.prom");
    std::fs::write(&f, WIN).unwrap();
    let out = d.join("one.capture");
    let o = import(&[f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(12),
        "docs/probe.md: a file that cannot be imported"
    );
    let e = one_sentence(&o);
    assert!(e.contains(f.to_str().unwrap()), "{e}");
    assert!(
        e.contains("two scrapes at least are needed to get a rate"),
        "{e}"
    );
    assert!(e.contains("curl -s http://HOST:9182/metrics"), "{e}");
    assert!(!out.exists());
    // copies made at once: their modification times (300 ms apart) are not scrape times. Set
    // here: written one after the other, they can be seconds apart on a loaded machine.
    let g = d.join("copy.prom");
    std::fs::write(&g, advance(WIN, 1, &win_inc)).unwrap();
    let copied = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_790_000_000);
    for (p, ms) in [(&f, 0), (&g, 300)] {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(copied + std::time::Duration::from_millis(ms))
            .unwrap();
    }
    let o = import(&[
        f.to_str().unwrap(),
        g.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(12));
    assert!(
        one_sentence(&o).contains("not scrape times"),
        "{}",
        one_sentence(&o)
    );
    // two scrapes appended to one file: refused, one file per scrape
    let both = d.join("both.prom");
    std::fs::write(&both, format!("{WIN}{}", advance(WIN, 1, &win_inc))).unwrap();
    let o = import(&[both.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(12));
    assert!(
        one_sentence(&o).contains("one file per scrape"),
        "{}",
        one_sentence(&o)
    );
}

#[test]
fn node_exporter_scrapes_by_modification_time() {
    let Some(src) = testenv::realdata(
        "node_exporter_scrapes_by_modification_time",
        "node_exporter/node_exporter_e2e-output_linux.prom",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(src).unwrap();
    let inc = |name: &str, labels: &str| -> f64 {
        match (name, labels.contains("\"sda\"")) {
            ("node_disk_reads_completed_total", true) => 500.0,
            ("node_disk_writes_completed_total", true) => 250.0,
            ("node_disk_read_time_seconds_total", true) => 1.5,
            _ => 0.0,
        }
    };
    let d = TempDir::new("scrapes-node");
    let mut files = Vec::new();
    for i in 0..3usize {
        let f = d.join(&format!("node-{i}.prom"));
        std::fs::write(&f, advance(&text, i, &inc)).unwrap();
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs((T0 + 15 * i as i64) as u64);
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(t)
            .unwrap();
        files.push(f);
    }
    let out = d.join("node.capture");
    let mut a: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    a.extend(["--out", out.to_str().unwrap()]);
    let o = import(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (r, w, rt, count) = totals(&out, "sda");
    assert_eq!((r, w, rt, count), (1000, 500, 3000, 2));
    let (r, w, _, _) = totals(&out, "sdb");
    assert_eq!(
        (r, w),
        (0, 0),
        "a device whose counters stay level did nothing"
    );
    let end: i64 = db(&out)
        .query_row("SELECT MAX(end_utc_ms) FROM intervals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(end, (T0 + 30) * 1000, "times from the modification times");
}
