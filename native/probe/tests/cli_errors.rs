//! Bad input: each gets one clear sentence and its documented exit code (docs/probe.md).
#![allow(clippy::unwrap_used)]

mod common;

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

use common::*;

#[test]
fn unknown_device_exit_3() {
    let d = TempDir::new("unk");
    let cap = d.join("x.capture");
    let o = probe(&[
        "record",
        "--out",
        cap.to_str().unwrap(),
        "--devices",
        "nosuchdisk9",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let e = one_sentence(&o);
    assert!(e.contains("unknown device 'nosuchdisk9'"), "{e}");
    assert!(!cap.exists(), "no capture is left behind");
}

#[test]
fn unwritable_output_exit_4() {
    let o = probe(&[
        "record",
        "--out",
        "/proc/cacheproof-nope/x.capture",
        "--all",
    ]);
    assert_eq!(o.status.code(), Some(4));
    let e = one_sentence(&o);
    assert!(e.contains("cannot write the capture"), "{e}");
}

#[test]
fn newer_schema_exit_5() {
    let d = TempDir::new("newer");
    let cap = d.join("future.capture");
    {
        let c = rusqlite::Connection::open(&cap).unwrap();
        c.pragma_update(None, "application_id", 0x4350_5246_i64)
            .unwrap();
        c.pragma_update(None, "user_version", 99).unwrap();
        c.execute_batch("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);")
            .unwrap();
    }
    for args in [
        vec!["status", cap.to_str().unwrap()],
        vec!["record", "--resume", cap.to_str().unwrap()],
    ] {
        let o = probe(&args);
        assert_eq!(o.status.code(), Some(5), "{args:?}");
        let e = one_sentence(&o);
        assert!(
            e.contains("schema version 99")
                && e.contains(&format!(
                    "supports ({})",
                    cacheproof_probe::capture::SCHEMA_VERSION
                )),
            "{e}"
        );
    }
    let plain = d.join("plain.sqlite");
    rusqlite::Connection::open(&plain)
        .unwrap()
        .execute_batch("CREATE TABLE t(x);")
        .unwrap();
    let o = probe(&["status", plain.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(5));
    assert!(one_sentence(&o).contains("not a CacheProof capture"));
}

#[test]
fn second_recorder_exit_6() {
    let d = TempDir::new("lock");
    let cap = d.join("one.capture");
    let c = cap.to_str().unwrap();
    let _g = record_detached(&cap, &["--interval", "200ms"]);
    let o = probe(&["record", "--resume", c]);
    assert_eq!(o.status.code(), Some(6));
    assert!(one_sentence(&o).contains("already recording into"));
    let o = probe(&["record", "--out", c, "--devices", &first_device()]);
    assert_eq!(o.status.code(), Some(6));
    one_sentence(&o);
    let o = probe(&["stop", c]);
    assert!(o.status.success());
    let o = probe(&["stop", c]);
    assert_eq!(o.status.code(), Some(10), "stop with no recorder");
    one_sentence(&o);
    let s = status_json(&cap);
    assert_eq!(s["state"], "stopped");
    assert!(s["samples"].as_i64().unwrap() >= 2);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["frobnicate"],
        vec!["record"],
        vec!["record", "--out", "/tmp/x.capture", "--interval", "fast"],
        vec!["record", "--out", "/tmp/x.capture", "--plan", "cooldown=1h"],
        vec!["status"],
    ] {
        let o = probe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        one_sentence(&o);
    }
    assert!(probe(&["--version"]).status.success());
    assert!(probe(&["--help"]).status.success());
}

#[test]
fn lab_up_without_root_exit_7() {
    let d = TempDir::new("nonroot");
    let mut cmd = Command::new(BIN);
    cmd.args(["lab", "up", "--dir", d.join("lab").to_str().unwrap()]);
    if is_root() {
        cmd.uid(65534).gid(65534);
    }
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(7));
    let e = one_sentence(&o);
    assert!(e.contains("lab up needs root"), "{e}");
}

/// A pipe whose read end is already closed: writing to it fails (EPIPE / SIGPIPE).
fn closed_pipe() -> OwnedFd {
    let mut fds = [0; 2];
    // SAFETY: pipe fills two new descriptors; we own both.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: fds[0] is ours and used nowhere else; fds[1] is owned by the OwnedFd.
    unsafe {
        libc::close(fds[0]);
        OwnedFd::from_raw_fd(fds[1])
    }
}

/// `cacheproof-probe devices --json | head` and the like: every command that prints ends
/// quietly when its stdout is closed (exit 0 or killed by SIGPIPE, as 141 in a shell), without
/// a panic, and what it did before printing is done.
#[test]
fn closed_stdout_ends_quietly() {
    let d = TempDir::new("pipe");
    let cap = d.join("p.capture");
    let c = cap.to_str().unwrap();
    let lab = d.join("no-lab");
    let l = lab.to_str().unwrap();
    let _g = record_detached(&cap, &["--interval", "100ms"]);
    let run = |args: &[&str]| {
        let o = Command::new(BIN)
            .args(args)
            .stdout(Stdio::from(closed_pipe()))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(
            o.status.success() || o.status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {:?} {e}",
            o.status
        );
    };
    run(&["--help"]);
    run(&["--version"]);
    run(&["devices"]);
    run(&["devices", "--json"]);
    run(&["status", c]);
    run(&["status", c, "--json"]);
    run(&["mark", c, "note", "--note", "piped"]);
    run(&["stop", c]);
    run(&["lab", "status", "--dir", l]);
    run(&["lab", "status", "--dir", l, "--json"]);
    let s = status_json(&cap);
    assert_eq!(s["state"], "stopped", "stop did its work before printing");
    let notes: i64 = rusqlite::Connection::open(&cap)
        .unwrap()
        .query_row("SELECT count(*) FROM marks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(notes, 1, "the mark is stored");
}
