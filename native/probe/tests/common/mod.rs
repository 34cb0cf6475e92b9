//! Shared helpers of the integration tests: the binary, root/fio checks, cleanup guards.
#![allow(dead_code, clippy::unwrap_used)]

pub mod perfmon;
pub mod prom;
pub mod views;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_cacheproof-probe");

pub fn probe(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

pub fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

pub fn has(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Skip `test` for `reason` (prints `SKIP test: reason`), or fail with that sentence in CI and
/// with `CACHEPROOF_REQUIRE_ALL=1` (`cacheproof_probe::testenv`).
pub fn skip(test: &str, reason: &str) -> bool {
    cacheproof_probe::testenv::skip(test, reason)
}

/// Print why a test is skipped and return true when it must be (root and `tools` missing);
/// in CI and with `CACHEPROOF_REQUIRE_ALL=1` that is a failure instead.
pub fn skip_unless_root_with(tools: &[&str], test: &str) -> bool {
    if !is_root() {
        return skip(test, "needs root (loop devices)");
    }
    for t in tools {
        if !has(t) {
            return skip(
                test,
                &format!("'{t}' is not installed (apt-get install -y fio util-linux e2fsprogs)"),
            );
        }
    }
    false
}

/// A fresh temp directory, removed on drop.
pub struct TempDir(pub PathBuf);
impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "cp-{tag}-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ nanos()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn join(&self, s: &str) -> PathBuf {
        self.0.join(s)
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

pub fn sh(cmd: &str) -> String {
    let o = Command::new("sh").args(["-c", cmd]).output().unwrap();
    assert!(
        o.status.success(),
        "{cmd}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Detaches a loop device on drop (even when the test panics).
pub struct LoopGuard(pub String);
impl Drop for LoopGuard {
    fn drop(&mut self) {
        let _ = Command::new("losetup").args(["-d", &self.0]).output();
    }
}

/// A raw loop device with direct I/O on a file of `mb` MiB written from `source` (`/dev/zero`,
/// `/dev/urandom`: written blocks, not a sparse file, so that reads reach the disk underneath),
/// one request per fio I/O (`nomerges=2`).
pub fn raw_loop(d: &TempDir, mb: u32, source: &str) -> (String, LoopGuard) {
    let img = d.join("disk.img");
    sh(&format!(
        "dd if={source} of={} bs=1M count={mb} conv=fsync status=none",
        img.display()
    ));
    let dev = sh(&format!(
        "losetup -f --show --direct-io=on {}",
        img.display()
    ));
    let g = LoopGuard(dev.clone());
    let name = dev.trim_start_matches("/dev/").to_string();
    std::fs::write(format!("/sys/block/{name}/queue/nomerges"), "2").unwrap();
    (dev, g)
}

/// Runs fio with `args` and its JSON report written to `out` (`prefix`, e.g. `["chrt", "-f",
/// "10"]`, runs it under another command), asserts it succeeded and its job had no error, and
/// returns the report's first job.
pub fn fio_job(prefix: &[&str], args: &[String], out: &Path) -> serde_json::Value {
    let mut cmd = match prefix.split_first() {
        Some((p, rest)) => {
            let mut c = Command::new(p);
            c.args(rest).arg("fio");
            c
        }
        None => Command::new("fio"),
    };
    let o = cmd
        .args(args)
        .arg("--output-format=json")
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
    let job = j["jobs"][0].clone();
    assert_eq!(job["error"], 0, "fio job error");
    job
}

/// Unmounts on drop.
pub struct MountGuard(pub PathBuf);
impl Drop for MountGuard {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

/// Stops a recorder on drop, then kills it if needed.
pub struct RecorderGuard(pub PathBuf);
impl Drop for RecorderGuard {
    fn drop(&mut self) {
        let _ = Command::new(BIN)
            .args(["stop", self.0.to_str().unwrap()])
            .output();
    }
}

/// The first device listed in /proc/diskstats (any device will do for recording).
pub fn first_device() -> String {
    let t = std::fs::read_to_string("/proc/diskstats").unwrap();
    t.lines()
        .next()
        .unwrap()
        .split_whitespace()
        .nth(2)
        .unwrap()
        .to_string()
}

/// `record --out CAP --devices <first device> EXTRA… --detach`: asserts that the background
/// recorder started and returns the guard that stops it when the test ends.
pub fn record_detached(cap: &Path, extra: &[&str]) -> RecorderGuard {
    let dev = first_device();
    let mut args = vec!["record", "--out", cap.to_str().unwrap(), "--devices", &dev];
    args.extend_from_slice(extra);
    args.push("--detach");
    let o = probe(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    RecorderGuard(cap.to_path_buf())
}

pub fn status_json(cap: &Path) -> serde_json::Value {
    let o = probe(&["status", cap.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Reads completed so far by `devices` (`/sys/block/<dev>/stat`, field 1): how a test sees a
/// workload start.
pub fn reads_of(devices: &[&str]) -> u64 {
    devices
        .iter()
        .map(|d| {
            let stat = std::fs::read_to_string(format!("/sys/block/{d}/stat")).unwrap();
            stat.split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum()
}

/// Whether the recorder of `cap` is alive (`status --json`'s `recorderAlive`).
pub fn recorder_alive(cap: &Path) -> bool {
    status_json(cap)["recorderAlive"].as_bool().unwrap()
}

/// The samples `cap` holds so far (`status --json`), 0 while it cannot be read (not created yet).
pub fn samples(cap: &Path) -> i64 {
    Command::new(BIN)
        .args(["status", cap.to_str().unwrap(), "--json"])
        .output()
        .ok()
        .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
        .and_then(|s| s["samples"].as_i64())
        .unwrap_or(0)
}

/// The one poll of the integration tests: calls `check` every `every` until it gives `Ok(value)`
/// and returns the value; after `timeout` it fails with `timed out after N s waiting for
/// <what>; last seen: <the last Err(..) of check>`. Tests wait on the state they need this
/// way, never on a sleep (docs/ARCHITECTURE.md, process rules).
pub fn poll<T>(
    what: &str,
    timeout: Duration,
    every: Duration,
    mut check: impl FnMut() -> Result<T, String>,
) -> T {
    let t0 = Instant::now();
    loop {
        let seen = match check() {
            Ok(v) => return v,
            Err(seen) => seen,
        };
        assert!(
            t0.elapsed() < timeout,
            "timed out after {:.1} s waiting for {what}; last seen: {seen}",
            timeout.as_secs_f64()
        );
        std::thread::sleep(every);
    }
}

/// [`poll`] every 50 ms for a condition without a value to report.
pub fn wait_for(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    poll(what, timeout, Duration::from_millis(50), || {
        if f() {
            Ok(())
        } else {
            Err("not yet".into())
        }
    })
}

/// Waits until the recorder of `cap` holds a sample taken wholly after this call: two samples
/// more than it holds now (the first of them may have read its counters just before). Once a
/// workload that ran before this call has returned, that sample's counters hold all its I/O, and
/// every traced request of it was issued before the last sample (what `stop` writes).
pub fn wait_sample_after_now(cap: &Path, timeout: Duration) {
    let now = samples(cap);
    poll(
        "two samples more than when the workload ended",
        timeout,
        Duration::from_millis(50),
        || {
            let n = samples(cap);
            if n >= now + 2 {
                Ok(())
            } else {
                Err(format!("{n} samples, {now} when the workload ended"))
            }
        },
    )
}

/// One-sentence error check: non-empty, a single line.
pub fn one_sentence(o: &Output) -> String {
    let e = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert!(!e.is_empty(), "no error message");
    assert_eq!(e.lines().count(), 1, "more than one line: {e}");
    e
}

/// Serialises the tests that use loop devices, fio and timing within one test binary.
pub static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}
