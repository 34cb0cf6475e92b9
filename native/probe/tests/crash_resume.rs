//! Crash safety: kill -9 of a detached recorder at a random moment leaves a consistent
//! capture with every interval before the kill, and `record --resume` completes the plan.
//! And a full disk (a small loop-mounted ext4, root only): a clear error, exit 8,
//! state = failed, no corruption.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn integrity_ok(cap: &Path) {
    let c = rusqlite::Connection::open(cap).unwrap();
    let r: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(r, "ok");
}

fn q(cap: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(cap)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

#[test]
fn kill_9_then_resume_completes_the_plan() {
    let _s = serial();
    let d = TempDir::new("crash");
    let cap = d.join("crash.capture");
    let c = cap.to_str().unwrap();
    let _g = record_detached(
        &cap,
        &[
            "--interval",
            "100ms",
            "--plan",
            "baseline=2s,warmup=500ms,measure=1s",
            "--switch",
            "manual",
        ],
    );
    let pid: i32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    // A random moment between 0.3 and 1.8 s. This sleep is the thing under test (a kill at an
    // unforeseen moment of the plan), not a wait for a state.
    let wait_ms = 300 + (nanos() % 1500) as u64;
    std::thread::sleep(Duration::from_millis(wait_ms));
    // SAFETY: SIGKILL to the recorder we started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    wait_for(
        "the killed recorder to be gone",
        Duration::from_secs(10),
        || !recorder_alive(&cap),
    );
    integrity_ok(&cap);
    let samples = q(&cap, "SELECT count(*) FROM samples");
    let intervals = q(&cap, "SELECT count(*) FROM intervals");
    assert!(samples >= 2, "samples before the kill: {samples}");
    assert_eq!(
        intervals,
        samples - 1,
        "every interval between committed samples is there"
    );
    // Nothing committed is lost: the last sample is at most ~2 intervals before the kill.
    let span_ms = q(
        &cap,
        "SELECT (max(mono_ns)-min(mono_ns))/1000000 FROM samples",
    );
    assert!(
        span_ms + 250 >= wait_ms as i64 - 300,
        "last sample {span_ms} ms after the first, killed after {wait_ms} ms"
    );
    let s = status_json(&cap);
    assert_eq!(s["state"], "stale", "status sees the dead recorder");

    let o = probe(&["record", "--resume", c, "--detach"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    wait_for("switch phase", Duration::from_secs(20), || {
        status_json(&cap)["phase"] == "switch"
    });
    assert!(probe(&["mark", c, "switch"]).status.success());
    wait_for("plan done", Duration::from_secs(20), || {
        status_json(&cap)["state"] == "done"
    });
    integrity_ok(&cap);
    let s = status_json(&cap);
    assert_eq!(s["percent"], 100.0);
    let phases = q(
        &cap,
        "SELECT count(*) FROM phases WHERE end_utc_ms IS NOT NULL",
    );
    assert_eq!(phases, 4, "baseline, switch, warmup, measure all closed");
    let names: Vec<String> = rusqlite::Connection::open(&cap)
        .unwrap()
        .prepare("SELECT name FROM phases ORDER BY start_utc_ms, rowid")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|x| x.unwrap())
        .collect();
    assert_eq!(names, ["baseline", "switch", "warmup", "measure"]);
    assert_eq!(
        q(&cap, "SELECT count(*) FROM warnings WHERE code='resumed'"),
        1
    );
    let all = q(&cap, "SELECT count(*) FROM samples");
    assert_eq!(q(&cap, "SELECT count(*) FROM intervals"), all - 1);
}

#[test]
fn disk_full_is_a_clear_error_without_corruption() {
    if skip_unless_root_with(
        &["mkfs.ext4", "losetup"],
        "disk_full_is_a_clear_error_without_corruption",
    ) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("full");
    let img = d.join("small.img");
    let mnt = d.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    sh(&format!(
        "truncate -s 8M {0} && mkfs.ext4 -q -F {0}",
        img.display()
    ));
    let dev = sh(&format!("losetup -f --show {}", img.display()));
    let _lg = LoopGuard(dev.clone());
    sh(&format!("mount -t ext4 {dev} {}", mnt.display()));
    let _mg = MountGuard(mnt.clone());
    // Leave about 1.5 MiB free.
    let avail_kb: i64 = sh(&format!("df --output=avail -k {} | tail -1", mnt.display()))
        .trim()
        .parse()
        .unwrap();
    sh(&format!(
        "dd if=/dev/zero of={}/filler bs=1K count={} status=none",
        mnt.display(),
        (avail_kb - 1536).max(0)
    ));
    let cap = mnt.join("full.capture");
    let t0 = Instant::now();
    let child = Command::new(BIN)
        .args([
            "record",
            "--out",
            cap.to_str().unwrap(),
            "--all",
            "--interval",
            "10ms",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(120));
    assert_eq!(
        out.status.code(),
        Some(8),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e = String::from_utf8_lossy(&out.stderr);
    let last = e.trim().lines().last().unwrap();
    assert!(
        last.contains("is full") && last.contains("safe in the capture"),
        "{last}"
    );
    integrity_ok(&cap);
    let s = status_json(&cap);
    assert_eq!(s["state"], "failed");
    assert!(s["error"].as_str().unwrap().contains("full"));
    let samples = q(&cap, "SELECT count(*) FROM samples");
    assert!(samples > 10);
    assert!(!cap.with_extension("capture.reserve").exists());
}

/// The interval that spans a stop and `record --resume`: (status, reads, the raw read count
/// difference between its two samples, its length in ms).
fn interval_across_resume(cap: &Path) -> (String, i64, i64, i64) {
    let c = rusqlite::Connection::open(cap).unwrap();
    let resumed: i64 = c
        .query_row(
            "SELECT utc_ms FROM warnings WHERE code='resumed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    c.query_row(
        "SELECT i.status, i.reads,
           (SELECT r2.f1 FROM raw_counters r2 JOIN samples s2 ON s2.id=r2.sample_id
              WHERE r2.device_id=i.device_id AND s2.utc_ms=i.end_utc_ms)
         - (SELECT r1.f1 FROM raw_counters r1 JOIN samples s1 ON s1.id=r1.sample_id
              WHERE r1.device_id=i.device_id AND s1.utc_ms=i.start_utc_ms),
           CAST(i.interval_ms AS INTEGER)
         FROM intervals i WHERE i.start_utc_ms < ?1 AND i.end_utc_ms >= ?1",
        [resumed],
        |r| {
            Ok((
                r.get(0)?,
                r.get::<_, Option<i64>>(1)?.unwrap_or(-1),
                r.get(2)?,
                r.get(3)?,
            ))
        },
    )
    .unwrap()
}

/// docs/probe.md (`record --resume`): a break shorter than 3 intervals is an `ok` interval
/// with the exact counts of the break; a longer one is `gap`.
#[test]
fn the_interval_across_a_resume_is_ok_when_short_and_gap_when_long() {
    let _s = serial();
    let d = TempDir::new("resume-gap");
    for (interval, pause_ms, want) in [("1s", 0u64, "ok"), ("100ms", 1500, "gap")] {
        let cap = d.join(&format!("r-{interval}.capture"));
        let c = cap.to_str().unwrap();
        let g = record_detached(&cap, &["--interval", interval]);
        wait_for("2 samples", Duration::from_secs(20), || {
            status_json(&cap)["samples"].as_i64().unwrap() >= 2
        });
        drop(g);
        // the break's length is the thing under test (shorter or longer than 3 intervals), not a
        // wait for a state: `drop(g)` has already waited for the recorder to stop
        std::thread::sleep(Duration::from_millis(pause_ms));
        let n = status_json(&cap)["samples"].as_i64().unwrap();
        let o = probe(&["record", "--resume", c, "--detach"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let g = RecorderGuard(cap.clone());
        wait_for(
            "2 samples after the resume",
            Duration::from_secs(20),
            || status_json(&cap)["samples"].as_i64().unwrap() >= n + 2,
        );
        drop(g);
        let (status, reads, raw, ms) = interval_across_resume(&cap);
        assert_eq!(
            status, want,
            "{interval} interval, {pause_ms} ms pause: {ms} ms"
        );
        if want == "ok" {
            assert_eq!(
                reads, raw,
                "the ok interval holds the exact reads of the break"
            );
            assert!(ms < 3000, "{ms} ms");
        } else {
            assert!(ms > 300, "{ms} ms");
        }
    }
}
