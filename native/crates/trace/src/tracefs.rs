//! tracefs: whether block tracing is available (mounting tracefs when it is not), the probe's
//! private instances (`instances/cacheproof-<pid>`), their filters, and the clean-up of
//! instances left by killed recorders.

use std::path::{Path, PathBuf};

use super::{BUFFER_SIZE_KB, EVENTS, INSTANCE_PREFIX};
use crate::error::{ProbeError, Result};

/// The comm of a running recorder as /proc shows it (15 characters).
const RECORDER_COMM: &str = "cacheproof-prob";

fn unavailable(msg: String) -> ProbeError {
    ProbeError::TraceUnavailable(msg)
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn events_present(root: &Path) -> bool {
    EVENTS
        .iter()
        .all(|e| root.join("events/block").join(e).join("enable").exists())
        && root.join("instances").is_dir()
}

/// Whether a tracefs is mounted at `root` (/proc/self/mounts).
fn tracefs_mounted(root: &Path) -> bool {
    let Ok(m) = std::fs::read_to_string("/proc/self/mounts") else {
        return false;
    };
    let want = root.to_string_lossy().replace(' ', "\\040");
    m.lines().any(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() >= 3 && f[1] == want && f[2] == "tracefs"
    })
}

fn mount_tracefs(root: &Path) -> std::io::Result<()> {
    let target = std::ffi::CString::new(root.as_os_str().as_encoded_bytes())
        .map_err(|_| std::io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: mount(2) with NUL-terminated strings we own and no data.
    let r = unsafe {
        libc::mount(
            c"nodev".as_ptr(),
            target.as_ptr(),
            c"tracefs".as_ptr(),
            0,
            std::ptr::null(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Check that block tracing can be set up: root, tracefs (mounted here when it is not) and the
/// block events. The error says what is missing and what to do.
pub fn ensure_available(root: &Path) -> Result<()> {
    if !is_root() {
        return Err(ProbeError::NeedsRoot(
            "record --trace (block tracing)".into(),
        ));
    }
    if events_present(root) {
        return Ok(());
    }
    let mounted = tracefs_mounted(root);
    if !mounted {
        if let Err(e) = mount_tracefs(root) {
            return Err(unavailable(format!(
                "block tracing needs tracefs, which is not mounted at {r} and could not be mounted there ({e}): run 'mount -t tracefs nodev {r}' as root and try again, or record without --trace",
                r = root.display()
            )));
        }
        if events_present(root) {
            return Ok(());
        }
    }
    Err(unavailable(format!(
        "block tracing needs the kernel's block trace events, and {}/events/block/block_rq_issue is missing: this kernel was built without event tracing (CONFIG_FTRACE, CONFIG_EVENT_TRACING); record without --trace",
        root.display()
    )))
}

/// The kernel's dev_t of (major, minor): `major << 20 | minor`.
pub fn dev_t(major: u32, minor: u32) -> u64 {
    (u64::from(major) << 20) | u64::from(minor)
}

/// The events' filter for these devices (`dev == N || dev == M`); `0` (nothing) when empty.
pub fn filter_for(devices: &[(u32, u32)]) -> String {
    if devices.is_empty() {
        return "0".into();
    }
    devices
        .iter()
        .map(|&(a, b)| format!("dev == {}", dev_t(a, b)))
        .collect::<Vec<_>>()
        .join(" || ")
}

/// Disable an instance's events and remove it (waiting up to 1 s while a reader lets go).
fn remove_instance(dir: &Path) -> std::io::Result<()> {
    let _ = std::fs::write(dir.join("events/enable"), "0");
    let mut last = None;
    for _ in 0..50 {
        match std::fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                last = Some(e);
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::from_raw_os_error(libc::EBUSY)))
}

/// Whether `pid` is a live (not zombie) process whose name is the recorder's.
fn recorder_alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // pid (comm) S ...
    let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
        return false;
    };
    let comm = &stat[open + 1..close];
    let state = stat[close + 1..].split_whitespace().next().unwrap_or("");
    comm.starts_with(RECORDER_COMM) && !matches!(state, "Z" | "X" | "x")
}

/// Remove every `instances/cacheproof-<pid>` whose recorder is gone (killed with SIGKILL, or a
/// pid now used by another program); other instances are never touched. Returns the names
/// removed. Needs root; without tracefs there is nothing to do.
pub fn remove_stale_instances(root: &Path) -> Vec<String> {
    let own = std::process::id() as i32;
    let Ok(rd) = std::fs::read_dir(root.join("instances")) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(p) = name.strip_prefix(INSTANCE_PREFIX) else {
            continue;
        };
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(pid) = p.parse::<i32>() else { continue };
        // Our own name can only be left by an earlier process with the same pid.
        if pid != own && recorder_alive(pid) {
            continue;
        }
        if remove_instance(&e.path()).is_ok() {
            removed.push(name);
        }
    }
    removed.sort();
    removed
}

/// The probe's private tracefs instance; dropping it disables the events and removes it.
#[derive(Debug)]
pub struct Instance {
    dir: PathBuf,
    removed: bool,
}

impl Instance {
    /// `mkdir instances/cacheproof-<pid>`, then `trace_clock` = mono, `buffer_size_kb`, the
    /// filter (`None`: every device) and the two events enabled.
    pub fn create(root: &Path, devices: Option<&[(u32, u32)]>) -> Result<Instance> {
        let dir = root
            .join("instances")
            .join(format!("{INSTANCE_PREFIX}{}", std::process::id()));
        if dir.exists() {
            let _ = remove_instance(&dir);
        }
        std::fs::create_dir(&dir).map_err(|e| {
            unavailable(format!(
                "cannot create the tracefs instance {}: {e}",
                dir.display()
            ))
        })?;
        let inst = Instance {
            dir,
            removed: false,
        };
        inst.write("trace_clock", "mono")?;
        inst.write("buffer_size_kb", &BUFFER_SIZE_KB.to_string())?;
        if let Some(d) = devices {
            let f = filter_for(d);
            for e in EVENTS {
                inst.write(&format!("events/block/{e}/filter"), &f)?;
            }
        }
        for e in EVENTS {
            inst.write(&format!("events/block/{e}/enable"), "1")?;
        }
        Ok(inst)
    }

    fn write(&self, rel: &str, value: &str) -> Result<()> {
        let p = self.dir.join(rel);
        std::fs::write(&p, value).map_err(|e| {
            unavailable(format!(
                "cannot set up block tracing: writing '{value}' to {}: {e}",
                p.display()
            ))
        })
    }

    /// The instance's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Disable the events and remove the instance (once).
    pub fn remove(&mut self) -> std::io::Result<()> {
        if self.removed {
            return Ok(());
        }
        let r = remove_instance(&self.dir);
        if r.is_ok() {
            self.removed = true;
        }
        r
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.remove();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_and_dev_t() {
        assert_eq!(dev_t(7, 0), 7 << 20);
        assert_eq!(dev_t(259, 3), (259 << 20) | 3);
        assert_eq!(
            filter_for(&[(7, 0), (8, 16)]),
            format!("dev == {} || dev == {}", 7 << 20, (8 << 20) | 16)
        );
        assert_eq!(filter_for(&[]), "0");
    }
}
