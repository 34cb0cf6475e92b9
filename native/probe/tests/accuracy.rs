//! Accuracy against fio (root, loop devices, fio, chrt): the capture's read/write counts and
//! bytes over the run equal fio's own totals exactly, and its mean read latency is within 10%
//! of fio's mean completion latency (`clat`); once on a raw loop device, once through the lab's
//! front/backing pair. Skips with a message when not root, a tool is missing or SCHED_FIFO is
//! refused.
//! Why this fio job (libaio, depth 8, 256 KiB, SCHED_FIFO): docs/probe.md, "Accuracy".
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::*;

struct Totals {
    reads: i64,
    writes: i64,
    read_bytes: i64,
    write_bytes: i64,
    read_time_ms: i64,
    merges: i64,
    not_ok: i64,
    intervals: i64,
}

fn totals(cap: &Path, dev: &str) -> Totals {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row(
        "SELECT coalesce(sum(reads),0), coalesce(sum(writes),0), coalesce(sum(read_bytes),0),
                coalesce(sum(write_bytes),0), coalesce(sum(read_time_ms),0),
                coalesce(sum(read_merges),0) + coalesce(sum(write_merges),0),
                sum(status<>'ok'), count(*)
         FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name=?1",
        [dev],
        |r| {
            Ok(Totals {
                reads: r.get(0)?,
                writes: r.get(1)?,
                read_bytes: r.get(2)?,
                write_bytes: r.get(3)?,
                read_time_ms: r.get(4)?,
                merges: r.get(5)?,
                not_ok: r.get(6)?,
                intervals: r.get(7)?,
            })
        },
    )
    .unwrap()
}

struct Fio {
    reads: i64,
    writes: i64,
    read_bytes: i64,
    write_bytes: i64,
    read_clat_ms: f64,
}

/// The fio job both tests run (docs/probe.md, "Accuracy"): direct random 256 KiB reads and
/// writes (70% reads) at queue depth 8 through libaio, fio in SCHED_FIFO so that its own
/// wake-ups do not wait behind other work on a busy machine.
const FIO_JOB: &[&str] = &[
    "--direct=1",
    "--ioengine=libaio",
    "--iodepth=8",
    "--rw=randrw",
    "--rwmixread=70",
    "--size=48M",
    "--time_based",
    "--randrepeat=0",
    "--output-format=json",
];
/// fio's block size (`--bs`), KiB.
const FIO_BS_KB: u64 = 256;

fn fio(dev: &str, seconds: u32, out: &Path) -> Fio {
    let o = Command::new("chrt")
        .args(["-f", "10", "fio", "--name=accuracy"])
        .arg(format!("--filename={dev}"))
        .arg(format!("--bs={FIO_BS_KB}k"))
        .args(FIO_JOB)
        .arg(format!("--runtime={seconds}"))
        .arg(format!("--output={}", out.display()))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "fio: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    let job = &j["jobs"][0];
    assert_eq!(job["error"], 0, "fio job error");
    Fio {
        reads: job["read"]["total_ios"].as_i64().unwrap(),
        writes: job["write"]["total_ios"].as_i64().unwrap(),
        read_bytes: job["read"]["io_bytes"].as_i64().unwrap(),
        write_bytes: job["write"]["io_bytes"].as_i64().unwrap(),
        read_clat_ms: job["read"]["clat_ns"]["mean"].as_f64().unwrap() / 1e6,
    }
}

/// Make one fio I/O one block-layer request on `name` (a device this test created), so that
/// the kernel's request counts can equal fio's I/O counts: no merging of adjacent requests
/// (`nomerges=2`), and requests of fio's block size are not split (`max_sectors_kb`).
fn one_request_per_io(name: &str) {
    let q = format!("/sys/block/{name}/queue");
    std::fs::write(format!("{q}/nomerges"), "2").unwrap();
    let max_kb: u64 = std::fs::read_to_string(format!("{q}/max_sectors_kb"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        max_kb >= FIO_BS_KB,
        "{name} splits requests above {max_kb} KiB, below fio's {FIO_BS_KB} KiB blocks: counts cannot match"
    );
}

/// SCHED_FIFO is allowed here (it is not inside a container or a cgroup without RT time).
fn can_run_fifo() -> bool {
    Command::new("chrt")
        .args(["-f", "10", "true"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Start a foreground recorder at 1 s and wait for its first sample.
fn record(cap: &Path, devices: &str) -> Child {
    // The recorder runs in SCHED_FIFO above fio (which is itself real-time): on a busy
    // machine its samples then never wait for a CPU long enough to make a `gap`.
    let child = Command::new("chrt")
        .args(["-f", "20", BIN])
        .args([
            "record",
            "--out",
            cap.to_str().unwrap(),
            "--devices",
            devices,
            "--interval",
            "1s",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("first sample", Duration::from_secs(10), || {
        cap.exists()
            && Command::new(BIN)
                .args(["status", cap.to_str().unwrap(), "--json"])
                .output()
                .ok()
                .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
                .is_some_and(|s| s["samples"].as_i64().unwrap_or(0) >= 1)
    });
    child
}

fn stop(cap: &Path, mut child: Child) {
    // a sample after the workload's end holds its last I/O in its counters
    wait_sample_after_now(cap, Duration::from_secs(20));
    let o = probe(&["stop", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(child.wait().unwrap().success());
}

/// The intervals that are not `ok`, with their status and length, for the failure message.
fn not_ok_detail(cap: &Path, dev: &str) -> String {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c
        .prepare(
            "SELECT i.status, i.interval_ms, i.end_utc_ms - i.start_utc_ms
             FROM intervals i JOIN devices d ON d.id=i.device_id
             WHERE d.name=?1 AND i.status<>'ok' ORDER BY i.start_utc_ms",
        )
        .unwrap();
    let rows = st
        .query_map([dev], |r| {
            Ok(format!(
                "{} (monotonic {:.0} ms, wall clock {} ms)",
                r.get::<_, String>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, i64>(2)?
            ))
        })
        .unwrap()
        .map(|r| r.unwrap())
        .collect::<Vec<_>>();
    rows.join("; ")
}

fn check(cap: &Path, dev: &str, f: &Fio, label: &str) -> Totals {
    let t = totals(cap, dev);
    assert_eq!(
        t.not_ok,
        0,
        "{label}: every interval ok; not ok: {}",
        not_ok_detail(cap, dev)
    );
    assert!(t.intervals >= 5, "{label}: {} intervals", t.intervals);
    assert_eq!(t.merges, 0, "{label}: no merged requests (nomerges=2)");
    assert_eq!(t.reads, f.reads, "{label}: reads");
    assert_eq!(t.writes, f.writes, "{label}: writes");
    assert_eq!(t.read_bytes, f.read_bytes, "{label}: read bytes");
    assert_eq!(t.write_bytes, f.write_bytes, "{label}: write bytes");
    t
}

/// Mean read latency: the kernel's total read time (ms, summed over requests, so overlapping
/// requests each count in full) over the reads, against fio's mean clat. Returns the relative
/// difference and a line that says it.
fn latency(t: &Totals, f: &Fio, label: &str) -> (f64, String) {
    let ours = t.read_time_ms as f64 / t.reads as f64;
    let rel = (ours - f.read_clat_ms) / f.read_clat_ms;
    let line = format!(
        "{label}: {} reads, {} writes; mean read latency: capture {ours:.4} ms, fio clat {:.4} ms ({:+.1}%)",
        t.reads,
        t.writes,
        f.read_clat_ms,
        rel * 100.0
    );
    println!("{line}");
    (rel, line)
}

/// Attempts of one fio run; counts and bytes must be exact in every attempt.
const ATTEMPTS: usize = 3;

/// Run `attempt` (record + fio + the exact checks, returning the latency comparison) until the
/// mean read latency is within 10% of fio's, at most ATTEMPTS times. Noise only ever adds to
/// fio's figure (its clat holds wake-ups and reaping the kernel does not count; docs/probe.md,
/// "Accuracy"), so a run on a machine that other work disturbs is measured again rather than
/// judged on its worst moment; every attempt's figures are in the failure message.
fn within_ten_percent(label: &str, mut attempt: impl FnMut(usize) -> (f64, String)) {
    let mut lines = Vec::new();
    for i in 1..=ATTEMPTS {
        let (rel, line) = attempt(i);
        if rel.abs() <= 0.10 {
            return;
        }
        lines.push(line);
    }
    panic!(
        "{label}: mean read latency off by more than the 10% the issue allows in all {ATTEMPTS} attempts:\n{}",
        lines.join("\n")
    );
}

/// Skip (with the reason) unless root, the tools and SCHED_FIFO are there.
fn skip(tools: &[&str], test: &str) -> bool {
    if skip_unless_root_with(tools, test) {
        return true;
    }
    if !can_run_fifo() {
        return common::skip(
            test,
            "'chrt -f 10' is refused here (no real-time scheduling for fio)",
        );
    }
    false
}

#[test]
fn raw_loop_device_matches_fio() {
    if skip(&["fio", "losetup", "chrt"], "raw_loop_device_matches_fio") {
        return;
    }
    let _s = serial();
    let d = TempDir::new("acc");
    let img = d.join("disk.img");
    // Written blocks, not a sparse file: reads of a hole never reach the disk underneath.
    sh(&format!(
        "dd if=/dev/zero of={} bs=1M count=64 conv=fsync status=none",
        img.display()
    ));
    // Direct I/O on the file: the loop device's reads really reach the disk underneath.
    let dev = sh(&format!(
        "losetup -f --show --direct-io=on {}",
        img.display()
    ));
    let _lg = LoopGuard(dev.clone());
    let name = dev.trim_start_matches("/dev/").to_string();
    assert_eq!(
        std::fs::read_to_string(format!("/sys/block/{name}/loop/dio"))
            .unwrap()
            .trim(),
        "1",
        "{dev} does direct I/O on {} (a file system without O_DIRECT?)",
        img.display()
    );
    one_request_per_io(&name);
    within_ten_percent("raw loop", |i| {
        let cap = d.join(&format!("acc-{i}.capture"));
        let _rg = RecorderGuard(cap.clone());
        let child = record(&cap, &name);
        let f = fio(&dev, 6, &d.join(&format!("fio-{i}.json")));
        stop(&cap, child);
        let t = check(&cap, &name, &f, "raw loop");
        latency(&t, &f, "raw loop")
    });
}

#[test]
fn lab_front_backing_pair_matches_fio() {
    if skip(
        &["fio", "losetup", "mkfs.ext4", "chrt"],
        "lab_front_backing_pair_matches_fio",
    ) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("labacc");
    let labdir = d.join("lab");
    let ld = labdir.to_str().unwrap().to_string();
    struct LabGuard(String);
    impl Drop for LabGuard {
        fn drop(&mut self) {
            let _ = Command::new(BIN)
                .args(["lab", "down", "--dir", &self.0])
                .output();
        }
    }
    let _lab = LabGuard(ld.clone());
    let o = probe(&["lab", "up", "--dir", &ld, "--size-mb", "64"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let st: serde_json::Value =
        serde_json::from_slice(&probe(&["lab", "status", "--dir", &ld, "--json"]).stdout).unwrap();
    assert_eq!(st["up"], true);
    assert_eq!(st["directIo"], true, "lab starts with the cache off");
    let front = st["frontDevice"].as_str().unwrap().to_string();
    let backing = st["backingDevice"].as_str().unwrap().to_string();
    let (fname, bname) = (
        front.trim_start_matches("/dev/").to_string(),
        backing.trim_start_matches("/dev/").to_string(),
    );
    // The inventory sees the pair and guesses the roles.
    let devs: serde_json::Value =
        serde_json::from_slice(&probe(&["devices", "--json"]).stdout).unwrap();
    let role = |n: &str| {
        devs.as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == n)
            .map(|d| d["role"].as_str().unwrap().to_string())
    };
    assert_eq!(role(&fname).as_deref(), Some("front"));
    assert_eq!(role(&bname).as_deref(), Some("backing"));
    one_request_per_io(&fname);

    within_ten_percent("lab front", |i| {
        let cap = d.join(&format!("lab-{i}.capture"));
        let _rg = RecorderGuard(cap.clone());
        let child = record(&cap, &format!("{fname},{bname}"));
        let f = fio(&front, 6, &d.join(&format!("fio-{i}.json")));
        stop(&cap, child);
        let t = check(&cap, &fname, &f, "lab front");
        // Cache off: every front read reaches the backing device (plus a little file-system
        // metadata).
        let b = totals(&cap, &bname);
        assert!(
            b.reads >= f.reads,
            "backing reads {} < front reads {}",
            b.reads,
            f.reads
        );
        assert!(
            (b.reads as f64) <= f.reads as f64 * 1.02 + 20.0,
            "backing reads {} far above front reads {}",
            b.reads,
            f.reads
        );
        assert!(b.writes >= f.writes);
        let topo: i64 = rusqlite::Connection::open(&cap)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM topology WHERE holder=?1 AND slave=?2 AND kind='loop-file'",
                [&fname, &bname],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(topo, 1, "the capture keeps the front->backing edge");
        latency(&t, &f, "lab front")
    });

    // Cache on, then down removes every trace.
    assert!(probe(&["lab", "switch", "on", "--dir", &ld])
        .status
        .success());
    let st: serde_json::Value =
        serde_json::from_slice(&probe(&["lab", "status", "--dir", &ld, "--json"]).stdout).unwrap();
    assert_eq!(st["directIo"], false);
    let o = probe(&["lab", "down", "--dir", &ld]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!labdir.exists(), "lab dir removed");
    let left = sh(&format!("losetup -a | grep -c '{ld}' || true"));
    assert_eq!(left, "0", "no loop device left on the lab's files");
}
