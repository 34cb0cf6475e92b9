//! Around a recording: detach into the background, wait for it to start, stop it, mark it.

use std::os::unix::io::AsRawFd;
use std::path::Path;

use super::lock::{lock_path, sidecar, RecorderLock};
use crate::capture::Capture;
use crate::clock;
use crate::error::{ProbeError, Result};

/// The capture of a background recorder vanished: it found the disk full before its first
/// sample and removed it. Its sentence is the last line of `CAPTURE.log` (written as it
/// exits); the log goes too, as nothing was recorded.
fn vanished(capture: &Path) -> ProbeError {
    let log = sidecar(capture, ".log");
    let prefix = "cacheproof-probe: ";
    let t0 = clock::mono_ns();
    let sentence = loop {
        let line = std::fs::read_to_string(&log).ok().and_then(|t| {
            t.lines()
                .rev()
                .find(|l| l.starts_with(prefix) && l.contains("nothing was recorded"))
                .map(|l| l[prefix.len()..].to_string())
        });
        if let Some(l) = line {
            break l;
        }
        if clock::mono_ns() - t0 > 2_000_000_000 {
            break format!(
                "the file system holding {} is full: nothing was recorded, and the capture was removed; {} is free there: free some space or choose another --out",
                capture.display(),
                crate::capture::space::free_text(capture)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = std::fs::remove_file(&log);
    ProbeError::NothingRecorded(sentence)
}

/// Detach: double fork and setsid, so the recorder survives the terminal and the app closing.
/// Returns `Ok(true)` in the background process (which must then record), `Ok(false)` in the
/// original process once the recorder has taken the lock (or failed).
pub fn detach(capture: &Path) -> Result<bool> {
    let log = sidecar(capture, ".log");
    // SAFETY: the process is single-threaded here (no SQLite connection open), so fork is safe.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(ProbeError::io("fork", std::io::Error::last_os_error()));
    }
    if pid > 0 {
        let mut status = 0;
        // SAFETY: reap the intermediate child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        return Ok(false);
    }
    // SAFETY: child: new session, second fork so it can never reacquire a terminal.
    unsafe {
        libc::setsid();
        let p2 = libc::fork();
        if p2 != 0 {
            libc::_exit(0);
        }
        libc::umask(0o022);
    }
    let devnull = std::fs::OpenOptions::new().read(true).open("/dev/null");
    let logf = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log);
    // SAFETY: dup2 onto the standard descriptors.
    unsafe {
        if let Ok(n) = &devnull {
            libc::dup2(n.as_raw_fd(), 0);
        }
        if let Ok(l) = &logf {
            libc::dup2(l.as_raw_fd(), 1);
            libc::dup2(l.as_raw_fd(), 2);
        }
    }
    Ok(true)
}

/// After `detach` returned false: wait until the background recorder runs (or failed).
/// `previous` is the lock file's pid before the fork (`RecorderLock::holder_pid`): after a
/// crash the capture still says `running` (or `failed`) with the old pid, so only a state
/// written by a new lock holder counts.
pub fn wait_started(capture: &Path, timeout_s: f64, previous: Option<&str>) -> Result<String> {
    let t0 = clock::mono_ns();
    loop {
        if !capture.exists() {
            return Err(vanished(capture));
        }
        if let Ok(c) = Capture::open(capture, false) {
            let st = c.recorder("state").ok().flatten().unwrap_or_default();
            let pid = c.recorder("pid").ok().flatten().unwrap_or_default();
            let held = RecorderLock::is_held(capture);
            // Read after is_held: once the new recorder holds the lock, the file has its pid.
            let holder = RecorderLock::holder_pid(capture);
            let fresh = match previous {
                None => true,
                Some(p) => holder.as_deref().is_some_and(|h| h != p && h == pid),
            };
            // Running once its first sample is stored: a recorder that finds the disk full
            // before that removes the capture, and that is what the caller must hear.
            let sampled = c
                .recorder("samples")
                .ok()
                .flatten()
                .and_then(|n| n.parse::<i64>().ok())
                .is_some_and(|n| n > 0);
            if st == "running"
                && sampled
                && held
                && fresh
                && holder.as_ref().is_none_or(|h| *h == pid)
            {
                return Ok(pid);
            }
            if st == "failed" && fresh {
                let e = c.recorder("error").ok().flatten().unwrap_or_default();
                return Err(ProbeError::NotRunning(format!(
                    "the background recorder failed: {e}"
                )));
            }
        }
        if (clock::mono_ns() - t0) as f64 / 1e9 > timeout_s {
            return Err(ProbeError::NotRunning(format!(
                "the background recorder did not start within {timeout_s} s; see {}.log",
                capture.display()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// `stop CAPTURE`: SIGTERM the recorder and wait until it has released the lock.
pub fn stop(capture: &Path) -> Result<()> {
    let c = Capture::open(capture, false)?;
    if !RecorderLock::is_held(capture) {
        let st = c.recorder("state")?.unwrap_or_default();
        return Err(ProbeError::NotRunning(format!(
            "no recorder is running for {} (state: {st})",
            capture.display()
        )));
    }
    let pid: i32 = std::fs::read_to_string(lock_path(capture))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .or_else(|| {
            c.recorder("pid")
                .ok()
                .flatten()
                .and_then(|s| s.parse().ok())
        })
        .unwrap_or(0);
    // A stopping recorder writes the interval table's columnar blocks (about 1.3 s per 2.8
    // million rows): the wait allows for them beside the usual 15 s.
    let rows: i64 = c
        .conn()
        .query_row("SELECT coalesce(max(rowid),0) FROM intervals", [], |r| {
            r.get(0)
        })
        .unwrap_or(0);
    let wait_ms = 15_000 + (rows.max(0) as u64 / 1_000_000) * 2_000;
    drop(c);
    if pid <= 0 {
        return Err(ProbeError::NotRunning(
            "the recorder's pid is unknown".into(),
        ));
    }
    // SAFETY: signal a pid we read from the lock file held by that recorder.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    for _ in 0..wait_ms / 50 {
        if !RecorderLock::is_held(capture) {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Err(ProbeError::NotRunning(format!(
        "the recorder (pid {pid}) did not stop within {} s",
        wait_ms / 1000
    )))
}

/// `mark CAPTURE KIND`: record a moment (a `switch` is picked up by the recorder at its next sample).
pub fn mark(capture: &Path, kind: &str, note: Option<&str>) -> Result<i64> {
    let c = Capture::open(capture, true)?;
    c.add_mark(clock::utc_ms(), clock::mono_ns(), kind, note)
}
