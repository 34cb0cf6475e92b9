//! The interval table's columnar blocks (capture schema v5, docs/capture-schema.md
//! `interval_blocks`): a recording writes them when it stops or completes, a resumed recording
//! deletes them while it adds rows and writes them again at its end, an import writes them, and
//! `cacheproof-probe index` (re)writes them, refusing a capture being recorded. Whether the blocks
//! hold the rows' values exactly is tested by the app, which reads them
//! (app/test/capture-blocks.test.ts).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::*;

fn q(cap: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(cap)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// `meta.interval_blocks`, or None.
fn blocks_meta(cap: &Path) -> Option<serde_json::Value> {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row(
        "SELECT value FROM meta WHERE key='interval_blocks'",
        [],
        |r| r.get::<_, String>(0),
    )
    .ok()
    .map(|v| serde_json::from_str(&v).unwrap())
}

/// The blocks hold every row: the meta's count and highest rowid are the table's, and the blocks' row counts add up.
fn assert_blocks_hold_every_row(cap: &Path) {
    let m = blocks_meta(cap).expect("meta interval_blocks");
    let rows = q(cap, "SELECT count(*) FROM intervals");
    assert!(rows > 0);
    assert_eq!(m["format"], 1);
    assert_eq!(m["rows"].as_i64().unwrap(), rows);
    assert_eq!(
        m["maxRowid"].as_i64().unwrap(),
        q(cap, "SELECT max(rowid) FROM intervals")
    );
    assert_eq!(q(cap, "SELECT sum(rows) FROM interval_blocks"), rows);
    assert_eq!(
        q(cap, "SELECT count(DISTINCT device_id) FROM interval_blocks"),
        q(cap, "SELECT count(DISTINCT device_id) FROM intervals")
    );
    assert_eq!(
        q(cap, "PRAGMA user_version"),
        cacheproof_probe::capture::SCHEMA_VERSION
    );
}

#[test]
fn a_recording_writes_them_when_it_stops_and_a_resume_deletes_then_rewrites_them() {
    let _s = serial();
    let d = TempDir::new("blocks-rec");
    let cap = d.join("rec.capture");
    let c = cap.to_str().unwrap();
    let g = record_detached(
        &cap,
        &[
            "--interval",
            "200ms",
            "--plan",
            "baseline=1h,warmup=1s,measure=1h",
        ],
    );
    wait_for("a few intervals", Duration::from_secs(10), || {
        q(&cap, "SELECT count(*) FROM intervals") >= 5
    });
    assert!(
        blocks_meta(&cap).is_none(),
        "no blocks while the recording adds rows"
    );
    // `index` refuses a capture being recorded (its lock is held): exit 6
    let o = probe(&["index", c]);
    assert_eq!(o.status.code(), Some(6), "{}", one_sentence(&o));
    drop(g); // stop
    wait_for("the recorder to stop", Duration::from_secs(10), || {
        status_json(&cap)["state"] == "stopped"
    });
    assert_blocks_hold_every_row(&cap);
    let first = q(&cap, "SELECT count(*) FROM intervals");

    let o = probe(&["record", "--resume", c, "--detach"]);
    assert!(o.status.success(), "{}", one_sentence(&o));
    let g = RecorderGuard(cap.clone());
    wait_for("rows after the resume", Duration::from_secs(10), || {
        q(&cap, "SELECT count(*) FROM intervals") >= first + 3
    });
    assert!(
        blocks_meta(&cap).is_none(),
        "a resumed recording deletes the blocks"
    );
    assert_eq!(q(&cap, "SELECT count(*) FROM interval_blocks"), 0);
    drop(g);
    wait_for(
        "the recorder to stop again",
        Duration::from_secs(10),
        || status_json(&cap)["state"] == "stopped",
    );
    assert_blocks_hold_every_row(&cap);
    assert!(q(&cap, "SELECT count(*) FROM intervals") >= first + 3);
}

/// Imports a PerfMon log (typeperf's shape) of `objs` × `counters` with these data rows (each
/// a time cell and its values); the capture's path.
fn import_perfmon(
    d: &TempDir,
    objs: &[&str],
    counters: &[&str],
    rows: Vec<String>,
) -> std::path::PathBuf {
    let mut csv = String::from("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"");
    for obj in objs {
        for k in counters {
            csv.push_str(&format!(",\"\\\\HOST\\{obj}\\{k}\""));
        }
    }
    csv.push_str("\r\n");
    for r in rows {
        csv.push_str(&r);
        csv.push_str("\r\n");
    }
    let log = d.join("log.csv");
    std::fs::write(&log, csv).unwrap();
    let cap = d.join("imported.capture");
    let o = probe(&[
        "import",
        "perfmon",
        log.to_str().unwrap(),
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", one_sentence(&o));
    assert_blocks_hold_every_row(&cap);
    cap
}

#[test]
fn an_import_writes_them_and_index_rewrites_them_without_leaving_a_lock_file() {
    let d = TempDir::new("blocks-import");
    // A PerfMon log (typeperf's shape): two disks, 30 samples at 10 s.
    let counters = [
        "Disk Reads/sec",
        "Disk Writes/sec",
        "Disk Read Bytes/sec",
        "Disk Write Bytes/sec",
        "Avg. Disk sec/Read",
        "Avg. Disk sec/Write",
    ];
    let rows = (0..30)
        .map(|r| {
            let s = r * 10;
            let v = format!(
                ",\"{}\",\"50\",\"{}\",\"3276800\",\"0.004\",\"0.002\"",
                200 + r,
                (200 + r) * 65536
            );
            format!("\"01/15/2024 10:{:02}:{:02}.000\"{v}{v}", s / 60, s % 60)
        })
        .collect();
    let cap = import_perfmon(
        &d,
        &["LogicalDisk(C:)", "PhysicalDisk(0 C:)"],
        &counters,
        rows,
    );
    let blocks = q(&cap, "SELECT count(*) FROM interval_blocks");

    // rows added after the blocks: `index` writes them again, for every row
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute_batch(
            "INSERT INTO intervals(device_id,start_utc_ms,end_utc_ms,interval_ms,status,reads,writes)
             SELECT device_id, max(start_utc_ms)+10000, max(end_utc_ms)+10000, 10000, 'ok', 7, 7 FROM intervals GROUP BY device_id",
        )
        .unwrap();
    let o = probe(&["index", cap.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", one_sentence(&o));
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        s["rows"].as_i64().unwrap(),
        q(&cap, "SELECT count(*) FROM intervals")
    );
    assert_eq!(s["blocks"].as_i64().unwrap(), blocks);
    assert_blocks_hold_every_row(&cap);
    assert!(!d.join("imported.capture.lock").exists());

    // not a capture (the log itself): exit 5, one sentence
    let o = probe(&["index", d.join("log.csv").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5), "{}", one_sentence(&o));
}

/// Every block as stored: device, seq, rows, extents, sortedness, bytes.
fn blocks_dump(cap: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c
        .prepare(
            "SELECT device_id||' '||seq||' '||rows||' '||min_start_utc_ms||' '||max_end_utc_ms||' '||sorted||' '||
               first_start_utc_ms||' '||last_start_utc_ms||' '||hex(data) FROM interval_blocks ORDER BY device_id, seq",
        )
        .unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn an_import_builds_beside_its_rows_the_blocks_index_writes_from_them() {
    let d = TempDir::new("blocks-built");
    // two volumes and two disks, 9 000 samples at 5 s (blocks fill and a second one starts), a
    // gap of 10 minutes, blank cells (NULL), a -1 (PDH could not read: NULL)
    let counters = [
        "Disk Reads/sec",
        "Avg. Disk sec/Read",
        "% Idle Time",
        "Avg. Disk Queue Length",
    ];
    let objs = [
        "LogicalDisk(C:)",
        "LogicalDisk(D:)",
        "PhysicalDisk(0 C:)",
        "PhysicalDisk(1 D:)",
    ];
    let mut t = 1_705_312_800i64; // 2024-01-15T10:00:00Z
    let rows = (0..9000usize)
        .map(|r| {
            t += if r == 4000 { 600 } else { 5 };
            let (h, m, s) = ((t / 3600) % 24, (t / 60) % 60, t % 60);
            let day = 15 + (t - 1_705_276_800) / 86_400;
            let mut row = format!("\"01/{day:02}/2024 {h:02}:{m:02}:{s:02}.000\"");
            for o in 0..objs.len() {
                let reads = if r % 97 == 0 {
                    " ".to_string()
                } else {
                    format!("{}", (r * 7 + o * 13) % 400)
                };
                let lat = if r % 131 == 0 {
                    "-1".to_string()
                } else {
                    format!("0.00{}", 1 + (r + o) % 9)
                };
                row.push_str(&format!(
                    ",\"{reads}\",\"{lat}\",\"{}\",\"{}.5\"",
                    40 + (r + o) % 60,
                    (r + o) % 3
                ));
            }
            row
        })
        .collect();
    let cap = import_perfmon(&d, &objs, &counters, rows);
    assert!(q(&cap, "SELECT count(*) FROM intervals WHERE status='gap'") == 4);
    assert!(
        q(
            &cap,
            "SELECT count(*) FROM intervals WHERE reads IS NULL AND status='ok'"
        ) > 0
    );
    assert!(q(&cap, "SELECT count(*) FROM interval_blocks") > 4);
    let built = blocks_dump(&cap);
    let o = probe(&["index", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", one_sentence(&o));
    assert_eq!(
        built,
        blocks_dump(&cap),
        "the blocks built beside the rows are those read back from them"
    );
}
