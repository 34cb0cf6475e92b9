//! The lab's removal and its detected roles (issue 26), on the real lab: `lab down` while a
//! process holds the front loop device open exits 6 naming the device and the PID (it used to
//! say "removed" while the devices stayed attached), and succeeds once that process is gone;
//! `devices --json` proposes the lab's front and backing loop devices and marks the disk under
//! the backing image "holds the image of loopN: not counted", so the proposed roles count no
//! I/O twice. Root, losetup and mkfs.ext4 are needed (a skip otherwise; a failure in CI).

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use common::*;

struct LabGuard(String);
impl Drop for LabGuard {
    fn drop(&mut self) {
        let _ = Command::new(BIN)
            .args(["lab", "down", "--dir", &self.0])
            .output();
    }
}

struct ChildGuard(std::process::Child);
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn lab_status(ld: &str) -> serde_json::Value {
    serde_json::from_slice(&probe(&["lab", "status", "--dir", ld, "--json"]).stdout).unwrap()
}

fn attached(dev: &str) -> bool {
    Path::new(&format!(
        "/sys/block/{}/loop/backing_file",
        dev.trim_start_matches("/dev/")
    ))
    .exists()
}

fn lab_up(test: &str) -> Option<(TempDir, String, LabGuard)> {
    if skip_unless_root_with(&["losetup", "mkfs.ext4"], test) {
        return None;
    }
    let d = TempDir::new(test);
    let ld = d.join("lab").to_str().unwrap().to_string();
    let g = LabGuard(ld.clone());
    let o = probe(&["lab", "up", "--dir", &ld, "--size-mb", "16"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some((d, ld, g))
}

#[test]
fn lab_down_names_the_process_holding_a_loop_device_and_exits_6() {
    let Some((_d, ld, _g)) = lab_up("lab_down_held") else {
        return;
    };
    let st = lab_status(&ld);
    let front = st["frontDevice"].as_str().unwrap().to_string();
    let backing = st["backingDevice"].as_str().unwrap().to_string();
    // A process with the front open, as a fio left behind by a killed `lab workload` is.
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec 3<{front}; echo ready; exec sleep 600")])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready");
    let pid = child.id();
    let holder = ChildGuard(child);

    let o = probe(&["lab", "down", "--dir", &ld]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(6), "stdout: {out}\nstderr: {err}");
    assert!(!out.contains("removed"), "{out}");
    assert!(
        err.contains(&format!(
            "{front} is still attached: process {pid} (sleep) holds it open; run 'kill {pid}', then 'cacheproof-probe lab down' again"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{backing} is still attached")),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(attached(&front) && attached(&backing));
    assert!(
        Path::new(&ld).join("state.json").exists(),
        "the state is kept for the next lab down"
    );

    drop(holder); // kill and reap: the kernel then detaches the front (auto-clear)
    let o = probe(&["lab", "down", "--dir", &ld]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("removed"));
    assert!(!attached(&front), "{front} is still attached");
    assert!(!attached(&backing), "{backing} is still attached");
    assert!(!Path::new(&ld).exists(), "{ld} is still there");
}

#[test]
fn the_lab_roles_count_no_io_twice() {
    let Some((_d, ld, _g)) = lab_up("lab_roles_once") else {
        return;
    };
    let st = lab_status(&ld);
    let front = st["frontDevice"]
        .as_str()
        .unwrap()
        .trim_start_matches("/dev/")
        .to_string();
    let backing = st["backingDevice"]
        .as_str()
        .unwrap()
        .trim_start_matches("/dev/")
        .to_string();
    let o = probe(&["devices", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let devs: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let by: BTreeMap<&str, &serde_json::Value> = devs
        .iter()
        .map(|d| (d["name"].as_str().unwrap(), d))
        .collect();
    assert_eq!(by[front.as_str()]["role"], "front");
    assert_eq!(by[front.as_str()]["backingFileDevice"], backing.as_str());
    assert_eq!(by[backing.as_str()]["role"], "backing");
    // The device holding backing.img (the system disk here: vda) is shown, not counted.
    let disk = by[backing.as_str()]["backingFileDevice"].as_str().unwrap();
    assert_eq!(by[disk]["role"], "other", "{disk}: {}", by[disk]);
    // its reason names every lab image it holds (another test's lab may be up beside this one)
    let why = by[disk]["roleReason"].as_str().unwrap();
    let held: Vec<&str> = why
        .strip_prefix("holds the image of ")
        .or_else(|| why.strip_prefix("holds the images of "))
        .and_then(|r| r.strip_suffix(": not counted"))
        .unwrap_or_else(|| panic!("{disk}: {why}"))
        .split(", ")
        .collect();
    assert!(held.contains(&backing.as_str()), "{disk}: {why}");
    for l in &held {
        assert_eq!(by[l]["backingFileDevice"], disk, "{l} in '{why}'");
    }

    // The lab's stack, front down: no two devices of one role where one sits on the other.
    let lowers = |n: &str| -> Vec<String> {
        let d = by[n];
        let mut v: Vec<String> = d["slaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        v.extend(d["backingFileDevice"].as_str().map(String::from));
        v.extend(d["parent"].as_str().map(String::from));
        v
    };
    let mut stack = vec![front.clone()];
    let mut i = 0;
    while i < stack.len() && i < 32 {
        for l in lowers(&stack[i]) {
            if by.contains_key(l.as_str()) && !stack.contains(&l) {
                stack.push(l);
            }
        }
        i += 1;
    }
    let counted: BTreeSet<(&str, String)> = stack
        .iter()
        .map(|n| (by[n.as_str()]["role"].as_str().unwrap(), n.clone()))
        .filter(|(r, _)| *r == "front" || *r == "backing")
        .collect();
    assert_eq!(
        counted,
        BTreeSet::from([("backing", backing.clone()), ("front", front.clone())]),
        "the lab's stack {stack:?}"
    );
}
