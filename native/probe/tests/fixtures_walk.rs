//! Walks the numbered snapshot roots in tests/fixtures (t0/proc/diskstats, t1/…) with an
//! injected clock (tN/clock: "mono_ns utc_ms boot_id") through a reset, a wrap, a device
//! vanishing and reappearing, a clock jump, a gap, a reboot and a partition, and writes
//! them through the real capture writer.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use cacheproof_probe::capture::Capture;
use cacheproof_probe::delta::{self, Snapshot, Status};
use cacheproof_probe::diskstats;
use cacheproof_probe::sysfs;

fn roots() -> Vec<PathBuf> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    (0..)
        .map(|i| base.join(format!("t{i}")))
        .take_while(|p| p.exists())
        .collect()
}

fn snap(root: &Path) -> Snapshot {
    let clock = std::fs::read_to_string(root.join("clock")).unwrap();
    let mut it = clock.split_whitespace();
    let mono: u64 = it.next().unwrap().parse().unwrap();
    let utc: i64 = it.next().unwrap().parse().unwrap();
    let boot = it.next().unwrap();
    Snapshot::from_lines(mono, utc, boot, diskstats::read_root(root).unwrap(), |_| {
        true
    })
}

fn status_of(step: &delta::Step, dev: &str) -> Option<Status> {
    step.intervals
        .iter()
        .find(|i| i.device == dev)
        .map(|i| i.status)
}

fn has_event(step: &delta::Step, code: &str, dev: Option<&str>) -> bool {
    step.events
        .iter()
        .any(|e| e.code == code && e.device.as_deref() == dev)
}

#[test]
fn walk_numbered_roots() {
    let snaps: Vec<Snapshot> = roots().iter().map(|r| snap(r)).collect();
    assert_eq!(snaps.len(), 8);
    let steps: Vec<delta::Step> = snaps
        .windows(2)
        .map(|w| delta::step(&w[0], &w[1], 1000.0))
        .collect();

    // t0 -> t1: everything ok; partitions are separate records, never added into the disk.
    let s = &steps[0];
    assert!(s.intervals.iter().all(|i| i.status == Status::Ok));
    let sda = s.intervals.iter().find(|i| i.device == "sda").unwrap();
    let d = sda.deltas.unwrap();
    assert_eq!(d.reads, 100);
    assert_eq!(d.read_bytes, 800 * 512);
    assert_eq!(d.read_time_ms, Some(100));
    assert_eq!(d.in_flight, Some(2));
    assert_eq!(d.discards, Some(5));
    assert_eq!(d.discard_bytes, Some(80 * 512));
    assert_eq!(d.flushes, None, "15-field layout has no flush fields");
    assert_eq!(sda.interval_ms, 1000.0);
    let part = s.intervals.iter().find(|i| i.device == "sda1").unwrap();
    assert_eq!(part.deltas.unwrap().reads, 20);
    let lo = s.intervals.iter().find(|i| i.device == "loop0").unwrap();
    assert_eq!(lo.deltas.unwrap().flushes, Some(1));
    let cc = s
        .intervals
        .iter()
        .find(|i| i.device == "cciss/c0d0")
        .unwrap();
    assert_eq!(cc.deltas.unwrap().reads, 100);
    assert_eq!(
        cc.deltas.unwrap().discards,
        None,
        "11-field layout has no discards"
    );

    // t1 -> t2: loop0 vanished, nvme0n1 appeared (no interval: its first sample), cciss wrapped.
    let s = &steps[1];
    assert!(has_event(s, "device-vanished", Some("loop0")));
    assert!(has_event(s, "device-appeared", Some("nvme0n1")));
    assert_eq!(status_of(s, "nvme0n1"), None);
    assert_eq!(status_of(s, "loop0"), None);
    assert_eq!(status_of(s, "cciss/c0d0"), Some(Status::Wrap));
    assert!(has_event(s, "wrap", Some("cciss/c0d0")));
    let w = s
        .intervals
        .iter()
        .find(|i| i.device == "cciss/c0d0")
        .unwrap();
    assert!(w.deltas.is_none(), "a wrap gets no numbers");
    assert_eq!(status_of(s, "sda"), Some(Status::Ok));

    // t2 -> t3: loop0 back (first sample again: no interval); the others ok.
    let s = &steps[2];
    assert!(has_event(s, "device-appeared", Some("loop0")));
    assert_eq!(status_of(s, "loop0"), None);
    assert_eq!(status_of(s, "cciss/c0d0"), Some(Status::Ok));
    assert_eq!(status_of(s, "nvme0n1"), Some(Status::Ok));

    // t3 -> t4: wall clock moved 10 s, monotonic 1 s: clock-jump, Δt stays 1 s, no numbers.
    let s = &steps[3];
    assert!(has_event(s, "clock-jump", None));
    for i in &s.intervals {
        assert_eq!(i.status, Status::ClockJump, "{}", i.device);
        assert_eq!(i.interval_ms, 1000.0);
        assert!(i.deltas.is_none());
    }

    // t4 -> t5: 5 s between samples at a 1 s interval: gap.
    let s = &steps[4];
    assert!(has_event(s, "gap", None));
    assert!(s.intervals.iter().all(|i| i.status == Status::Gap));

    // t5 -> t6: boot id changed: reset for every device, even where counters grew.
    let s = &steps[5];
    assert!(has_event(s, "reset", None));
    assert!(s.intervals.iter().all(|i| i.status == Status::Reset));
    assert_eq!(status_of(s, "nvme0n1"), Some(Status::Reset));
    assert!(has_event(s, "device-vanished", Some("loop0")));

    // t6 -> t7: sda re-created with another major:minor: reset; its partition ok.
    let s = &steps[6];
    assert_eq!(status_of(s, "sda"), Some(Status::Reset));
    assert!(has_event(s, "reset", Some("sda")));
    assert_eq!(status_of(s, "sda1"), Some(Status::Ok));
    assert_eq!(status_of(s, "nvme0n1"), Some(Status::Ok));
}

#[test]
fn walk_into_a_capture() {
    let dir = std::env::temp_dir().join(format!("cp-fixture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("walk.capture");
    let _ = std::fs::remove_file(&path);
    let mut cap = Capture::create(&path).unwrap();
    let mut prev: Option<Snapshot> = None;
    let mut n_intervals = 0;
    for r in roots() {
        let s = snap(&r);
        for (name, d) in &s.devices {
            if cap.device_id(name).is_none() {
                cap.upsert_device(&sysfs::bare(name, d.major, d.minor), s.utc_ms)
                    .unwrap();
            }
        }
        let step = prev
            .as_ref()
            .map(|p| delta::step(p, &s, 1000.0))
            .unwrap_or_default();
        n_intervals += step.intervals.len();
        cap.write_sample(&s, &step, &[]).unwrap();
        prev = Some(s);
    }
    let c = cap.conn();
    let stored: i64 = c
        .query_row("SELECT count(*) FROM intervals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored as usize, n_intervals);
    assert_last_seen(c);
    let null_counts: i64 = c
        .query_row(
            "SELECT count(*) FROM intervals WHERE status<>'ok' AND reads IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(null_counts, 0, "only ok intervals carry numbers");
    let fc: Vec<i64> = c
        .prepare("SELECT DISTINCT field_count FROM raw_counters ORDER BY 1")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|x| x.unwrap())
        .collect();
    assert_eq!(fc, vec![11, 15, 17]);
    let f15: Option<i64> = c
        .query_row(
            "SELECT f15 FROM raw_counters r JOIN devices d ON d.id=r.device_id WHERE d.name='cciss/c0d0' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(f15, None, "absent fields are NULL, never 0");
    let v: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, cacheproof_probe::capture::SCHEMA_VERSION);
    let last = cap.last_snapshot().unwrap().unwrap();
    assert_eq!(last, snap(roots().last().unwrap()));
    drop(cap);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each device was last seen in the last sample holding its counters: one update for all when
/// the sample has every device, one by one when one has vanished (the walk has both).
fn assert_last_seen(c: &rusqlite::Connection) {
    let stale: i64 = c
        .query_row(
            "SELECT count(*) FROM devices d WHERE d.last_seen_utc_ms IS NOT
               (SELECT max(s.utc_ms) FROM raw_counters r JOIN samples s ON s.id=r.sample_id
                WHERE r.device_id=d.id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        stale, 0,
        "devices.last_seen_utc_ms is the last sample holding the device"
    );
    let vanished: i64 = c
        .query_row(
            "SELECT count(*) FROM devices WHERE last_seen_utc_ms < (SELECT max(utc_ms) FROM samples)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        vanished > 0,
        "the walk has a device missing from its last sample"
    );
}
