//! The loop-device lab: a switchable RAM cache (the kernel page cache) in front of a loop
//! "disk", for tests and demos.
//!
//! Layout: `backing.img` (a plain file) → backing loop device (direct I/O, so its reads reach
//! the host disk) → ext4, mounted at `<dir>/mnt` → `front.img` on it → front loop device.
//! With the front's `--direct-io=on` the loop driver reads `front.img` with O_DIRECT: no cache.
//! With `--direct-io=off` it reads through the page cache: cache on, and the backing device
//! sees only the misses and the write-backs. Every step is written to a state file first, so
//! `down` removes every trace even after a crash half-way through `up`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::clock;
use crate::error::{ProbeError, Result};
use crate::lab_hold;

/// Default lab directory.
pub const DEFAULT_DIR: &str = "/var/lib/cacheproof-lab";

/// What `up` built so far.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LabState {
    pub dir: String,
    pub size_mb: u64,
    pub backing_img: String,
    pub backing_device: Option<String>,
    pub mount: Option<String>,
    pub front_img: String,
    pub front_device: Option<String>,
}

/// `lab status` report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabStatus {
    pub up: bool,
    pub dir: String,
    pub front_device: Option<String>,
    pub backing_device: Option<String>,
    pub mount: Option<String>,
    /// true: direct I/O (cache off); false: page cache (cache on); None: unknown.
    pub direct_io: Option<bool>,
    pub cache: Option<String>,
    pub size_mb: u64,
}

fn need_root(what: &str) -> Result<()> {
    if clock::is_root() {
        Ok(())
    } else {
        Err(ProbeError::NeedsRoot(what.to_string()))
    }
}

fn state_path(dir: &Path) -> PathBuf {
    dir.join("state.json")
}

fn save(st: &LabState) -> Result<()> {
    let p = state_path(Path::new(&st.dir));
    let tmp = p.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(st).unwrap_or_default();
    std::fs::write(&tmp, text)
        .map_err(|e| ProbeError::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, &p).map_err(|e| ProbeError::io(format!("writing {}", p.display()), e))
}

/// Read the lab's state file, if any.
pub fn load(dir: &Path) -> Option<LabState> {
    let t = std::fs::read_to_string(state_path(dir)).ok()?;
    serde_json::from_str(&t).ok()
}

fn run(tool: &str, args: &[&str]) -> Result<String> {
    let out = Command::new(tool)
        .args(args)
        .output()
        .map_err(|e| ProbeError::Tool {
            tool: tool.to_string(),
            message: format!("cannot run it ({e}); is it installed?"),
        })?;
    if !out.status.success() {
        return Err(ProbeError::Tool {
            tool: tool.to_string(),
            message: format!(
                "'{} {}' exited with {}: {}",
                tool,
                args.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Loop devices attached to `file` (`losetup -j`).
fn loops_of(file: &str) -> Vec<String> {
    run("losetup", &["-j", file])
        .map(|s| {
            s.lines()
                .filter_map(|l| l.split(':').next().map(|x| x.trim().to_string()))
                .filter(|x| !x.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn is_mounted(mnt: &str) -> bool {
    std::fs::read_to_string("/proc/mounts")
        .map(|m| m.lines().any(|l| l.split_whitespace().nth(1) == Some(mnt)))
        .unwrap_or(false)
}

/// Kernel name (`loop3`) of a `/dev/loop3` path.
pub fn kname(dev: &str) -> String {
    dev.trim_start_matches("/dev/").to_string()
}

/// Whether a loop device does direct I/O on its file (`/sys/block/loopN/loop/dio`).
pub fn direct_io(dev: &str) -> Option<bool> {
    std::fs::read_to_string(format!("/sys/block/{}/loop/dio", kname(dev)))
        .ok()
        .map(|s| s.trim() == "1")
}

/// `lab up`: build the testbed (cache off). Returns the state.
pub fn up(dir: &Path, size_mb: u64) -> Result<LabState> {
    need_root("lab up")?;
    if let Some(st) = load(dir) {
        if st
            .front_device
            .as_deref()
            .is_some_and(|d| Path::new(d).exists())
        {
            return Ok(st);
        }
        // A half-built lab from a crash: clear it first.
        down(dir)?;
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| ProbeError::io(format!("creating {}", dir.display()), e))?;
    let d = dir.to_string_lossy().to_string();
    let mut st = LabState {
        dir: d.clone(),
        size_mb,
        backing_img: format!("{d}/backing.img"),
        front_img: format!("{d}/mnt/front.img"),
        ..LabState::default()
    };
    save(&st)?;
    let backing_mb = size_mb + size_mb / 4 + 32;
    let f = std::fs::File::create(&st.backing_img)
        .map_err(|e| ProbeError::io(format!("creating {}", st.backing_img), e))?;
    f.set_len(backing_mb * 1024 * 1024)
        .map_err(|e| ProbeError::io(format!("sizing {}", st.backing_img), e))?;
    drop(f);
    let bdev = run(
        "losetup",
        &["-f", "--show", "--direct-io=on", &st.backing_img],
    )
    .or_else(|_| run("losetup", &["-f", "--show", &st.backing_img]))?;
    st.backing_device = Some(bdev.clone());
    save(&st)?;
    // No lazy init: ext4lazyinit would otherwise write to the backing device for minutes.
    run(
        "mkfs.ext4",
        &[
            "-q",
            "-F",
            "-E",
            "lazy_itable_init=0,lazy_journal_init=0",
            &bdev,
        ],
    )?;
    let mnt = format!("{d}/mnt");
    std::fs::create_dir_all(&mnt).map_err(|e| ProbeError::io(format!("creating {mnt}"), e))?;
    run("mount", &["-t", "ext4", "-o", "noatime", &bdev, &mnt])?;
    st.mount = Some(mnt.clone());
    save(&st)?;
    // Real blocks (not a sparse or unwritten file), so reads really reach the backing device.
    run(
        "dd",
        &[
            "if=/dev/zero",
            &format!("of={}", st.front_img),
            "bs=1M",
            &format!("count={size_mb}"),
            "oflag=direct",
            "conv=fsync",
            "status=none",
        ],
    )?;
    let fdev = run(
        "losetup",
        &["-f", "--show", "--direct-io=on", &st.front_img],
    )?;
    st.front_device = Some(fdev.clone());
    save(&st)?;
    if direct_io(&fdev) != Some(true) {
        return Err(ProbeError::Tool {
            tool: "losetup".into(),
            message: format!("{fdev} did not switch to direct I/O"),
        });
    }
    Ok(st)
}

/// `lab down`: remove every loop device, mount and file of the lab. Idempotent. A loop device
/// still attached after its detach (a process holds it open, so the kernel only marks it for
/// auto-clear) is named with its holders in a [`ProbeError::Held`], and the lab's state and
/// files are kept so a second `lab down` finishes the job.
pub fn down(dir: &Path) -> Result<()> {
    need_root("lab down")?;
    let d = dir.to_string_lossy().to_string();
    let st = load(dir).unwrap_or(LabState {
        dir: d.clone(),
        backing_img: format!("{d}/backing.img"),
        front_img: format!("{d}/mnt/front.img"),
        mount: Some(format!("{d}/mnt")),
        ..LabState::default()
    });
    let mut errors = Vec::new();
    let mut fronts = loops_of(&st.front_img);
    if let Some(f) = &st.front_device {
        let ours = std::fs::read_to_string(format!("/sys/block/{}/loop/backing_file", kname(f)))
            .map(|b| b.trim() == st.front_img)
            .unwrap_or(false);
        if ours && !fronts.contains(f) {
            fronts.push(f.clone());
        }
    }
    for f in &fronts {
        if let Err(e) = run("losetup", &["-d", f]) {
            errors.push(e.to_string());
        }
    }
    let settle = std::time::Duration::from_secs(2);
    let busy = lab_hold::still_attached(&fronts, settle);
    if !busy.is_empty() {
        // The front's image keeps the file system, and so the backing device, busy: leave
        // both for the next `lab down`.
        let mut s: Vec<String> = busy
            .iter()
            .map(|f| lab_hold::sentence(f, &lab_hold::holders_of(f), None))
            .collect();
        for b in loops_of(&st.backing_img) {
            s.push(lab_hold::sentence(
                &b,
                &lab_hold::holders_of(&b),
                busy.first().map(|x| x.as_str()),
            ));
        }
        return Err(held(dir, &s));
    }
    let mnt = st.mount.clone().unwrap_or_else(|| format!("{d}/mnt"));
    if is_mounted(&mnt) {
        if let Err(e) = run("umount", &[&mnt]) {
            let users = lab_hold::users_of(&mnt);
            if !users.is_empty() {
                return Err(held(dir, &[lab_hold::mount_sentence(&mnt, &users)]));
            }
            errors.push(e.to_string());
        }
    }
    let backs = loops_of(&st.backing_img);
    for b in &backs {
        if let Err(e) = run("losetup", &["-d", b]) {
            errors.push(e.to_string());
        }
    }
    let busy = lab_hold::still_attached(&backs, settle);
    if !busy.is_empty() {
        let s: Vec<String> = busy
            .iter()
            .map(|b| lab_hold::sentence(b, &lab_hold::holders_of(b), None))
            .collect();
        return Err(held(dir, &s));
    }
    if !is_mounted(&mnt) {
        let _ = std::fs::remove_dir(&mnt);
    }
    let _ = std::fs::remove_file(&st.backing_img);
    let _ = std::fs::remove_file(state_path(dir));
    let _ = std::fs::remove_dir(dir);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ProbeError::Tool {
            tool: "lab down".into(),
            message: errors.join("; "),
        })
    }
}

fn held(dir: &Path, sentences: &[String]) -> ProbeError {
    ProbeError::Held(format!(
        "lab down could not remove the lab in {}. {}.",
        dir.display(),
        sentences.join(". ")
    ))
}

/// `lab status`.
pub fn status(dir: &Path) -> LabStatus {
    let st = load(dir);
    let front = st.as_ref().and_then(|s| s.front_device.clone());
    let up = front.as_deref().is_some_and(|f| Path::new(f).exists());
    let dio = front.as_deref().and_then(direct_io);
    LabStatus {
        up,
        dir: dir.display().to_string(),
        front_device: front,
        backing_device: st.as_ref().and_then(|s| s.backing_device.clone()),
        mount: st.as_ref().and_then(|s| s.mount.clone()),
        direct_io: dio,
        cache: dio.map(|d| {
            if d {
                "off (direct I/O)".into()
            } else {
                "on (page cache)".into()
            }
        }),
        size_mb: st.map(|s| s.size_mb).unwrap_or(0),
    }
}

fn front_of(dir: &Path) -> Result<String> {
    let st = status(dir);
    match (st.up, st.front_device) {
        (true, Some(f)) => Ok(f),
        _ => Err(ProbeError::NotRunning(format!(
            "the lab is not up (no state in {}); run 'cacheproof-probe lab up' first",
            dir.display()
        ))),
    }
}

/// `lab switch on|off`: the lab's cache adapter. on = page cache (`--direct-io=off`),
/// off = direct I/O (`--direct-io=on`).
pub fn switch(dir: &Path, on: bool) -> Result<()> {
    need_root("lab switch")?;
    let f = front_of(dir)?;
    run(
        "losetup",
        &[
            if on {
                "--direct-io=off"
            } else {
                "--direct-io=on"
            },
            &f,
        ],
    )?;
    if direct_io(&f) != Some(!on) {
        return Err(ProbeError::Tool {
            tool: "losetup".into(),
            message: format!("{f} did not change its direct-I/O mode"),
        });
    }
    Ok(())
}

/// Options of `lab workload`.
#[derive(Debug, Clone)]
pub struct Workload {
    pub seconds: u64,
    /// Hot set, MiB from the start of the front device.
    pub hot_mb: u64,
    pub read_iops: u64,
    pub write_iops: u64,
    /// Reads only (`write_iops` ignored): after `lab switch on` the page cache absorbs nearly
    /// every read once the hot set is cached, while writes would keep reaching the backing
    /// device as ext4 write-back and journal traffic.
    pub read_only: bool,
    /// fio JSON output file, if wanted.
    pub json_out: Option<PathBuf>,
}

/// The fio arguments of [`workload`] on front device `front`.
pub fn workload_args(front: &str, w: &Workload) -> Vec<String> {
    let mut args = vec![
        "--name=cacheproof-lab".to_string(),
        format!("--filename={front}"),
        "--direct=1".into(),
        "--ioengine=psync".into(),
        if w.read_only {
            "--rw=randread".into()
        } else {
            "--rw=randrw".into()
        },
        "--bs=4k".into(),
        "--offset=0".into(),
        format!("--size={}M", w.hot_mb),
        "--time_based".into(),
        format!("--runtime={}", w.seconds),
    ];
    if w.read_only {
        args.push(format!("--rate_iops={}", w.read_iops));
    } else {
        args.push(format!("--rate_iops={},{}", w.read_iops, w.write_iops));
        args.push(format!(
            "--rwmixread={}",
            (w.read_iops * 100 / (w.read_iops + w.write_iops).max(1)).clamp(1, 100)
        ));
    }
    args.push("--randrepeat=0".into());
    if let Some(j) = &w.json_out {
        args.push("--output-format=json".into());
        args.push(format!("--output={}", j.display()));
    }
    args
}

/// `lab workload`: fio random 4 KiB reads over a hot set plus some writes (or reads only),
/// direct I/O on the front device (the application side; the cache under test is the loop
/// driver's page cache).
pub fn workload(dir: &Path, w: &Workload) -> Result<()> {
    need_root("lab workload")?;
    let f = front_of(dir)?;
    let args = workload_args(&f, w);
    let status = Command::new("fio")
        .args(&args)
        .status()
        .map_err(|e| ProbeError::Tool {
            tool: "fio".into(),
            message: format!("cannot run it ({e}); install it with 'apt-get install fio'"),
        })?;
    if !status.success() {
        return Err(ProbeError::Tool {
            tool: "fio".into(),
            message: format!("exited with {status}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(read_only: bool) -> Workload {
        Workload {
            seconds: 30,
            hot_mb: 16,
            read_iops: 800,
            write_iops: 100,
            read_only,
            json_out: None,
        }
    }

    #[test]
    fn read_only_workload_issues_only_rate_limited_random_reads() {
        let a = workload_args("/dev/loop9", &w(true));
        assert!(a.contains(&"--rw=randread".to_string()));
        assert!(a.contains(&"--rate_iops=800".to_string()));
        assert!(a.contains(&"--size=16M".to_string()));
        assert!(!a.iter().any(|x| x.starts_with("--rwmixread")));
    }

    #[test]
    fn mixed_workload_keeps_reads_and_writes() {
        let a = workload_args("/dev/loop9", &w(false));
        assert!(a.contains(&"--rw=randrw".to_string()));
        assert!(a.contains(&"--rate_iops=800,100".to_string()));
        assert!(a.contains(&"--rwmixread=88".to_string()));
    }
}
