//! Block tracing (`record --trace`; root, tracefs, fio, losetup for the first two tests): the
//! traced requests of a raw loop device equal fio's own I/Os one for one, the private tracefs
//! instance is removed at the end, and after a `kill -9` (which leaves it behind) by the next
//! `record`. Also: `--trace` with `--resume` is a usage error, a missing tracefs fails before
//! the capture exists, and a v1 capture migrates to v2. Skips with a message when not root or a
//! tool is missing.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use cacheproof_probe::capture::Capture;
use cacheproof_probe::trace;
use common::*;

fn instances_dir() -> PathBuf {
    trace::tracefs_root().join("instances")
}

/// Names of the probe's tracefs instances now.
fn instances() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(instances_dir())
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(trace::INSTANCE_PREFIX))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn instance_of(pid: u32) -> PathBuf {
    instances_dir().join(format!("{}{pid}", trace::INSTANCE_PREFIX))
}

/// No instance of ours is left, and none of a dead process (a recorder that another user
/// runs on this machine at the same time may keep its own).
fn none_left(ours: &[u32]) {
    for n in instances() {
        let pid: u32 = n
            .trim_start_matches(trace::INSTANCE_PREFIX)
            .parse()
            .unwrap();
        assert!(!ours.contains(&pid), "instance {n} of our recorder is left");
        assert!(
            Path::new(&format!("/proc/{pid}")).exists(),
            "instance {n} of a dead process is left"
        );
    }
}

/// Skip (with the reason) unless root, the tools and block tracing are there. The probe
/// mounts tracefs when it is not; so does this check, the same way.
fn skip(tools: &[&str], test: &str) -> bool {
    if skip_unless_root_with(tools, test) {
        return true;
    }
    if let Err(e) = trace::ensure_available(&trace::tracefs_root()) {
        return common::skip(test, &e.to_string());
    }
    false
}

fn q(cap: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(cap)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

struct FioOp {
    ios: i64,
    bytes: i64,
}

/// fio on `dev` for `seconds`: direct random 256 KiB reads and writes (70% reads) at queue
/// depth 8 through libaio (the accuracy job of docs/probe.md, without SCHED_FIFO: only counts
/// are compared here). Returns (read, write).
fn fio(dev: &str, seconds: u32, out: &Path) -> (FioOp, FioOp) {
    let job = &fio_job(
        &[],
        &[
            "--name=trace".into(),
            format!("--filename={dev}"),
            "--bs=256k".into(),
            "--direct=1".into(),
            "--ioengine=libaio".into(),
            "--iodepth=8".into(),
            "--rw=randrw".into(),
            "--rwmixread=70".into(),
            "--size=48M".into(),
            "--time_based".into(),
            "--randrepeat=0".into(),
            format!("--runtime={seconds}"),
        ],
        out,
    );
    let op = |k: &str| FioOp {
        ios: job[k]["total_ios"].as_i64().unwrap(),
        bytes: job[k]["io_bytes"].as_i64().unwrap(),
    };
    (op("read"), op("write"))
}

/// A raw loop device with direct I/O on a 64 MiB file of written blocks, one request per fio
/// I/O (`nomerges=2`), as in tests/accuracy.rs, that does not split fio's 256 KiB requests.
fn raw_loop_256k(d: &TempDir) -> (String, LoopGuard) {
    let (dev, g) = raw_loop(d, 64, "/dev/zero");
    let name = dev.trim_start_matches("/dev/").to_string();
    let max_kb: u64 = std::fs::read_to_string(format!("/sys/block/{name}/queue/max_sectors_kb"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(max_kb >= 256, "{name} splits 256 KiB requests");
    (dev, g)
}

#[test]
fn traced_requests_match_fio_one_for_one() {
    if skip(&["fio", "losetup"], "traced_requests_match_fio_one_for_one") {
        return;
    }
    let _s = serial();
    let d = TempDir::new("trace");
    let (dev, _lg) = raw_loop_256k(&d);
    let name = dev.trim_start_matches("/dev/").to_string();
    let cap = d.join("trace.capture");
    let _rg = RecorderGuard(cap.clone());
    let mut child = Command::new(BIN)
        .args([
            "record",
            "--out",
            cap.to_str().unwrap(),
            "--devices",
            &name,
            "--interval",
            "1s",
            "--trace",
            // every request: the counts are compared with fio's (no budget, no sampling)
            "--trace-sample",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    wait_for("first sample", Duration::from_secs(10), || {
        cap.exists() && samples(&cap) >= 1
    });
    assert!(
        instance_of(pid).is_dir(),
        "the recorder traces through its own instance"
    );
    assert_eq!(
        std::fs::read_to_string(instance_of(pid).join("events/block/block_rq_issue/filter"))
            .unwrap()
            .trim(),
        format!("dev == {}", {
            let (ma, mi) = sh(&format!("cat /sys/block/{name}/dev"))
                .split_once(':')
                .map(|(a, b)| (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap()))
                .unwrap();
            trace::dev_t(ma, mi)
        })
    );
    let (r, w) = fio(&dev, 4, &d.join("fio.json"));
    // stop once a sample follows fio's last request: `stop` writes every request issued before it
    wait_sample_after_now(&cap, Duration::from_secs(20));
    let o = probe(&["stop", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(child.wait().unwrap().success());

    let per_op = |op: &str| -> (i64, i64) {
        rusqlite::Connection::open(&cap)
            .unwrap()
            .query_row(
                "SELECT count(*), coalesce(sum(bytes),0) FROM block_requests b
                 JOIN devices d ON d.id=b.device_id WHERE d.name=?1 AND b.op=?2",
                [&name, op],
                |x| Ok((x.get(0)?, x.get(1)?)),
            )
            .unwrap()
    };
    let (rn, rb) = per_op("R");
    let (wn, wb) = per_op("W");
    println!(
        "traced {rn} reads / {wn} writes, fio {} / {}; bytes {rb} / {wb}, fio {} / {}",
        r.ios, w.ios, r.bytes, w.bytes
    );
    assert!(r.ios > 100 && w.ios > 50, "fio did little I/O");
    assert_eq!(rn, r.ios, "traced reads = fio reads");
    assert_eq!(wn, w.ios, "traced writes = fio writes");
    assert_eq!(rb, r.bytes, "traced read bytes = fio read bytes");
    assert_eq!(wb, w.bytes, "traced write bytes = fio write bytes");
    let total = q(&cap, "SELECT count(*) FROM block_requests");
    assert_eq!(total, rn + wn, "nothing but fio's requests on the device");
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM block_requests WHERE complete_ns IS NULL OR complete_ns < issue_ns OR error IS NULL OR error <> 0"
        ),
        0,
        "every request completed, after its issue, without error"
    );
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM block_requests WHERE utc_ms < (SELECT min(utc_ms) FROM samples) OR utc_ms > (SELECT max(utc_ms) FROM samples)"
        ),
        0,
        "every request is labelled within the capture's first and last sample"
    );
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM block_requests WHERE issue_ns < (SELECT min(mono_ns) FROM samples) OR issue_ns > (SELECT max(mono_ns) FROM samples)"
        ),
        0,
        "every request was issued between the first and the last sample"
    );
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM block_requests WHERE bytes <> 262144 OR sector % 512 <> 0"
        ),
        0,
        "fio's 256 KiB blocks, aligned"
    );
    let s = status_json(&cap);
    assert_eq!(s["trace"]["requests"], total);
    assert_eq!(s["trace"]["lost"], 0);
    assert_eq!(
        s["schemaVersion"],
        cacheproof_probe::capture::SCHEMA_VERSION
    );
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM meta WHERE key='trace' AND value='block'"
        ),
        1
    );
    assert!(
        !instance_of(pid).exists(),
        "the instance is removed at the end"
    );
    none_left(&[pid]);
}

#[test]
fn kill_9_leaves_the_instance_and_the_next_record_removes_it() {
    if skip(
        &[],
        "kill_9_leaves_the_instance_and_the_next_record_removes_it",
    ) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("trace-kill");
    let cap = d.join("kill.capture");
    let c = cap.to_str().unwrap();
    let _g = record_detached(&cap, &["--interval", "200ms", "--trace"]);
    let old: u32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    assert!(instance_of(old).is_dir(), "instance of the recorder");
    // SAFETY: SIGKILL to the recorder this test started.
    unsafe { libc::kill(old as i32, libc::SIGKILL) };
    wait_for("the recorder to die", Duration::from_secs(5), || {
        status_json(&cap)["state"] == "stale"
    });
    assert!(
        instance_of(old).is_dir(),
        "kill -9 leaves the instance behind"
    );

    let o = probe(&["record", "--resume", c, "--detach"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let new: u32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    assert_ne!(
        new, old,
        "record --resume --detach reports the new recorder's pid"
    );
    wait_for(
        "the resumed recorder's instance",
        Duration::from_secs(10),
        || instance_of(new).is_dir(),
    );
    assert!(!instance_of(old).exists(), "the stale instance is removed");
    let s = status_json(&cap);
    assert!(
        s["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "trace-cleanup"
                && w["message"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("cacheproof-{old}"))),
        "{s}"
    );
    let o = probe(&["stop", c]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!instance_of(new).exists(), "removed at stop");
    assert!(!instance_of(old).exists());
    none_left(&[old, new]);
}

#[test]
fn trace_with_resume_is_a_usage_error() {
    let d = TempDir::new("trace-usage");
    let cap = d.join("x.capture");
    let o = probe(&["record", "--resume", cap.to_str().unwrap(), "--trace"]);
    assert_eq!(o.status.code(), Some(2));
    let e = one_sentence(&o);
    assert!(
        e.contains("'--resume <CAPTURE>' cannot be used with '--trace'"),
        "{e}"
    );
}

#[test]
fn no_tracefs_fails_before_the_capture_exists() {
    let d = TempDir::new("trace-none");
    let cap = d.join("none.capture");
    let o = Command::new(BIN)
        .env("CACHEPROOF_TRACEFS", d.join("no-such-dir"))
        .args([
            "record",
            "--out",
            cap.to_str().unwrap(),
            "--devices",
            &first_device(),
            "--trace",
        ])
        .output()
        .unwrap();
    let e = one_sentence(&o);
    if is_root() {
        assert_eq!(o.status.code(), Some(11), "{e}");
        assert!(e.contains("mount -t tracefs nodev"), "{e}");
    } else {
        assert_eq!(o.status.code(), Some(7), "{e}");
        assert!(e.contains("run it with sudo or as root"), "{e}");
    }
    assert!(!cap.exists(), "no capture is created");
}

#[test]
fn a_v1_capture_migrates_to_v2() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/fixtures/capture-v1.sqlite");
    if !fixture.exists()
        && common::skip(
            "a_v1_capture_migrates_to_v2",
            &format!("no {}", fixture.display()),
        )
    {
        return;
    }
    let d = TempDir::new("trace-v1");
    let copy = d.join("v1.capture");
    std::fs::copy(&fixture, &copy).unwrap();
    let has_table = |p: &Path| -> i64 {
        q(
            p,
            "SELECT count(*) FROM sqlite_master WHERE name IN ('block_requests','block_requests_by_device_time')",
        )
    };
    assert_eq!(q(&copy, "PRAGMA user_version"), 1);
    assert_eq!(has_table(&copy), 0);
    // Read-only (status): not migrated, and no trace.
    let s = status_json(&copy);
    assert_eq!(s["schemaVersion"], 1);
    assert!(s["trace"].is_null());
    // Opened for writing (as record --resume does): migrated by the numbered step.
    let c = Capture::open(&copy, true).unwrap();
    assert_eq!(
        c.user_version().unwrap(),
        cacheproof_probe::capture::SCHEMA_VERSION
    );
    drop(c);
    assert_eq!(
        q(&copy, "PRAGMA user_version"),
        cacheproof_probe::capture::SCHEMA_VERSION
    );
    assert_eq!(has_table(&copy), 2);
    assert_eq!(q(&copy, "SELECT count(*) FROM block_requests"), 0);
    assert_eq!(q(&copy, "SELECT count(*) FROM samples"), 199, "data kept");
    assert!(status_json(&copy)["trace"].is_null());
}
