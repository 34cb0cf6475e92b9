//! What keeps a lab loop device attached after `lab down` detached it: `losetup -d` on a device
//! some process still has open only marks it for auto-clear (the kernel detaches it when the
//! last opener closes) and exits 0, so `lab down` looks again and names the holders.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::lab::kname;

/// Whether loop device `dev` (`/dev/loopN`) is still bound to a file.
pub fn attached(dev: &str) -> bool {
    Path::new(&format!("/sys/block/{}/loop/backing_file", kname(dev))).exists()
}

/// Wait until none of `devs` is attached, for at most `limit` (a short-lived opener such as
/// udev's probe delays the auto-clear by milliseconds); returns the devices still attached.
pub fn still_attached(devs: &[String], limit: Duration) -> Vec<String> {
    let start = Instant::now();
    loop {
        let left: Vec<String> = devs.iter().filter(|d| attached(d)).cloned().collect();
        if left.is_empty() || start.elapsed() >= limit {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The processes for which `hit` is true of one of their `/proc/PID/fd` links (or, with
/// `cwd`, of their working directory): (pid, command name), by pid.
fn processes(hit: &dyn Fn(&Path) -> bool, cwd: bool) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in rd.filter_map(|e| e.ok()) {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let in_cwd = cwd && std::fs::read_link(e.path().join("cwd")).is_ok_and(|l| hit(&l));
        let in_fd = || {
            std::fs::read_dir(e.path().join("fd")).is_ok_and(|fds| {
                fds.filter_map(|f| f.ok())
                    .any(|f| std::fs::read_link(f.path()).is_ok_and(|l| hit(&l)))
            })
        };
        if in_cwd || in_fd() {
            let comm = std::fs::read_to_string(e.path().join("comm"))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| "?".into());
            out.push((pid, comm));
        }
    }
    out.sort();
    out
}

/// The processes holding `dev` (`/dev/loopN`) open.
pub fn holders_of(dev: &str) -> Vec<(u32, String)> {
    let target = Path::new(dev);
    processes(&|l| l == target, false)
}

/// The processes with a file open, or their working directory, under the mount `mnt`.
pub fn users_of(mnt: &str) -> Vec<(u32, String)> {
    let root = Path::new(mnt);
    processes(&|l| l.starts_with(root), true)
}

/// The sentence on a lab mount that cannot be unmounted because processes use it.
pub fn mount_sentence(mnt: &str, users: &[(u32, String)]) -> String {
    let who: Vec<String> = users.iter().map(|(p, c)| format!("{p} ({c})")).collect();
    let pids: Vec<String> = users.iter().map(|(p, _)| p.to_string()).collect();
    let (noun, verb) = if users.len() == 1 {
        ("process", "works")
    } else {
        ("processes", "work")
    };
    format!(
        "the lab's file system at {mnt} is busy: {noun} {} {verb} in it; run 'kill {}', then 'cacheproof-probe lab down' again",
        who.join(", "),
        pids.join(" ")
    )
}

/// One sentence on a device `lab down` could not remove: who holds it and what to do.
/// `below` names the lab device stacked on it, when that one is what keeps it busy.
pub fn sentence(dev: &str, held: &[(u32, String)], below: Option<&str>) -> String {
    if held.is_empty() {
        return match below {
            Some(up) => format!(
                "{dev} is still attached: the lab's file system on it holds the image of {up}, which is still in use; free {up}, then run 'cacheproof-probe lab down' again"
            ),
            None => format!(
                "{dev} is still attached and no process has it open (a mount or another device may use it; see 'losetup -l' and 'lsblk {dev}'); free it, then run 'cacheproof-probe lab down' again"
            ),
        };
    }
    let who: Vec<String> = held.iter().map(|(p, c)| format!("{p} ({c})")).collect();
    let pids: Vec<String> = held.iter().map(|(p, _)| p.to_string()).collect();
    let (noun, verb) = if held.len() == 1 {
        ("process", "holds")
    } else {
        ("processes", "hold")
    };
    format!(
        "{dev} is still attached: {noun} {} {verb} it open; run 'kill {}', then 'cacheproof-probe lab down' again",
        who.join(", "),
        pids.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_name_the_pids_and_what_to_do() {
        let s = sentence("/dev/loop3", &[(42, "fio".into())], None);
        assert_eq!(s, "/dev/loop3 is still attached: process 42 (fio) holds it open; run 'kill 42', then 'cacheproof-probe lab down' again");
        let s = sentence("/dev/loop3", &[(4, "sh".into()), (7, "fio".into())], None);
        assert!(s.contains("processes 4 (sh), 7 (fio) hold it open; run 'kill 4 7'"));
        let s = sentence("/dev/loop2", &[], Some("/dev/loop3"));
        assert!(s.contains("holds the image of /dev/loop3, which is still in use"));
    }

    #[test]
    fn a_process_holding_a_file_is_found_by_its_fd() {
        // Our own open file stands in for a device: the same /proc/PID/fd link.
        let p = std::env::temp_dir().join(format!("cp-hold-{}", std::process::id()));
        let f = std::fs::File::create(&p).ok();
        let h = holders_of(&p.to_string_lossy());
        drop(f);
        let _ = std::fs::remove_file(&p);
        assert!(h.iter().any(|(pid, _)| *pid == std::process::id()), "{h:?}");
    }
}
