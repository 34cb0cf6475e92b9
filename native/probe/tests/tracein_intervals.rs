//! `import-trace` writes the trace's per-interval counters (docs/simulate.md § Intervals), worked
//! by hand on a five-request WPA export: counted where each request completes, busy time the
//! union of the requests in flight, weighted time their sum, times as cumulative ms rounded down;
//! the disks are the front. A format without completions (CloudPhysics) has counts and no times.
#![allow(clippy::unwrap_used)]

mod common;

use common::{probe, TempDir};
use rusqlite::Connection;

/// (start, reads, writes, read_bytes, write_bytes, read_time_ms, write_time_ms, busy_ms, weighted_ms, flushes, flush_time_ms)
type Iv = (
    i64,
    i64,
    i64,
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    i64,
    Option<i64>,
);

fn intervals(cap: &std::path::Path) -> Vec<(String, String, Iv)> {
    let c = Connection::open(cap).unwrap();
    let mut q = c
        .prepare(
            "SELECT d.name, d.role, start_utc_ms, reads, writes, read_bytes, write_bytes, read_time_ms,
               write_time_ms, busy_ms, weighted_ms, flushes, flush_time_ms
             FROM intervals i JOIN devices d ON d.id = i.device_id ORDER BY d.name, start_utc_ms",
        )
        .unwrap();
    q.query_map([], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            (
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
                r.get(12)?,
            ),
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

#[test]
fn a_wpa_export_gives_the_intervals_worked_by_hand() {
    let d = TempDir::new("trace-intervals");
    let f = d.join("Disk_Usage.csv");
    // two overlapping reads (0.5 and 0.7 ms; in flight together 1.0000–1.0009 s), a write of
    // 2 ms, a flush of 10 µs, and a read of 2 ms across the 4 s boundary
    std::fs::write(
        &f,
        "Disk,IO Type,Init Time (s),Complete Time (s),Size (B),Offset\n\
         0,Read,1.000000000,1.000500000,4096,0x0\n\
         0,Read,1.000200000,1.000900000,4096,0x1000\n\
         0,Write,2.500000000,2.502000000,8192,0x2000\n\
         0,Flush,3.000000000,3.000010000,0,0x0\n\
         0,Read,3.999000000,4.001000000,4096,0x0\n",
    )
    .unwrap();
    let cap = d.join("t.capture");
    let o = probe(&[
        "import-trace",
        "wpa",
        f.to_str().unwrap(),
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = intervals(&cap);
    let s = |x: i64| Some(x);
    // the grid: whole seconds from the first request's ms (1000) past the last completion (4001)
    // interval 1: reads 2, 1.2 ms of reads → 1; busy 0.9 → 0; weighted 1.2 → 1
    // interval 2: the write, 2 ms; busy 2.9 cumulative → 2; weighted 3.2 → 3 (+2)
    // interval 3: the flush (0.01 ms → 0) and the last read's first ms in flight: busy 3.91 → 3 (+1), weighted 4.21 → 4 (+1)
    // interval 4: the last read completes (2 ms: reads 3.2 → 3, +2); busy 4.91 → 4 (+1); weighted 5.21 → 5 (+1)
    let want: Vec<Iv> = vec![
        (1000, 2, 0, 8192, 0, s(1), s(0), s(0), s(1), 0, s(0)),
        (2000, 0, 1, 0, 8192, s(0), s(2), s(2), s(2), 0, s(0)),
        (3000, 0, 0, 0, 0, s(0), s(0), s(1), s(1), 1, s(0)),
        (4000, 1, 0, 4096, 0, s(2), s(0), s(1), s(1), 0, s(0)),
    ];
    assert_eq!(got.iter().map(|g| g.2).collect::<Vec<_>>(), want);
    assert!(got.iter().all(|g| g.0 == "disk0" && g.1 == "front"));
    let c = Connection::open(&cap).unwrap();
    let samples: i64 = c
        .query_row("SELECT count(*) FROM samples", [], |r| r.get(0))
        .unwrap();
    assert_eq!(samples, 5);
}

#[test]
fn a_trace_without_completions_has_counts_and_no_times() {
    let d = TempDir::new("trace-intervals-cp");
    let f = d.join("cp.csv");
    // CloudPhysics: time in µs, op 28 READ(10), 2a WRITE(10), lbn in 512-byte sectors
    std::fs::write(
        &f,
        "version,time,op,size,lbn\n1,0,28,4096,0\n1,500000,2a,8192,8\n1,1500000,28,4096,0\n",
    )
    .unwrap();
    let cap = d.join("t.capture");
    let o = probe(&[
        "import-trace",
        "cloudphysics",
        f.to_str().unwrap(),
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = intervals(&cap);
    let rows: Vec<Iv> = got.iter().map(|g| g.2).collect();
    assert_eq!(
        rows,
        vec![
            (0, 1, 1, 4096, 8192, None, None, None, None, 0, None),
            (1000, 1, 0, 4096, 0, None, None, None, None, 0, None),
        ]
    );
}
