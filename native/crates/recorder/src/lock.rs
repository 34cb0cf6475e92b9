//! The capture's sidecar files and the recorder's lock.

use std::fs::File;
use std::io::Write;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use crate::error::{ProbeError, Result};

/// `<capture><suffix>`.
pub fn sidecar(capture: &Path, suffix: &str) -> PathBuf {
    let mut s = capture.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The sidecar lock file of a capture.
pub fn lock_path(capture: &Path) -> PathBuf {
    sidecar(capture, ".lock")
}

/// An exclusive flock(2) on the capture's sidecar lock file, held while recording. The kernel
/// drops it when the process dies, even by kill -9, so a stale lock never blocks a resume.
pub struct RecorderLock {
    file: File,
}

impl RecorderLock {
    /// Take the lock or say who holds it.
    pub fn acquire(capture: &Path) -> Result<RecorderLock> {
        let lp = lock_path(capture);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lp)
            .map_err(|e| ProbeError::Unwritable {
                path: lp.clone(),
                reason: e.to_string(),
            })?;
        // SAFETY: flock on a descriptor we own.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r != 0 {
            let pid = std::fs::read_to_string(&lp)
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            return Err(ProbeError::Locked {
                path: capture.to_path_buf(),
                pid: if pid.is_empty() {
                    "unknown".into()
                } else {
                    pid
                },
            });
        }
        let mut l = RecorderLock { file };
        l.write_pid();
        Ok(l)
    }

    /// Rewrite the pid (after a fork the holder changes).
    pub fn write_pid(&mut self) {
        use std::os::unix::fs::FileExt;
        // At offset 0: a second call must not leave the first one's length as NULs in front.
        let _ = self.file.set_len(0);
        let _ = self
            .file
            .write_all_at(format!("{}\n", std::process::id()).as_bytes(), 0);
        let _ = self.file.flush();
    }

    /// The pid in the lock file of `capture` (that of the recorder that took the lock last).
    pub fn holder_pid(capture: &Path) -> Option<String> {
        std::fs::read_to_string(lock_path(capture))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Whether some process holds the lock of `capture` right now.
    pub fn is_held(capture: &Path) -> bool {
        let lp = lock_path(capture);
        let Ok(f) = File::open(&lp) else { return false };
        // SAFETY: flock on a descriptor we own; released when `f` drops.
        let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        r != 0
    }
}
