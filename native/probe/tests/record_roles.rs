//! `record --role NAME=ROLE`: the roles the person chose are stored in the capture's
//! `devices.role` over the guessed ones, survive `record --resume`, and a device that is not
//! recorded or a role that does not exist is exit 2 with a sentence naming it, before any
//! capture is created (docs/probe.md § record).
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;

/// Two devices of /proc/diskstats (any device will do for recording).
fn two_devices() -> Option<(String, String)> {
    let t = std::fs::read_to_string("/proc/diskstats").unwrap();
    let names: Vec<String> = t
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect();
    Some((names.first()?.clone(), names.get(1)?.clone()))
}

/// The guessed role of every device (`devices --json`).
fn guessed() -> BTreeMap<String, String> {
    let o = probe(&["devices", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (s("name"), s("role"))
        })
        .collect()
}

fn roles(cap: &Path) -> BTreeMap<String, String> {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c.prepare("SELECT name, role FROM devices").unwrap();
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows
}

#[test]
fn chosen_roles_are_stored_and_kept_on_resume() {
    let _s = serial();
    let Some((a, b)) = two_devices() else {
        skip("chosen_roles", "fewer than two devices in /proc/diskstats");
        return;
    };
    // A role other than the guessed one, so the test sees the choice, not the guess.
    let g = guessed();
    let other = |n: &str, first: &str, second: &str| {
        if g.get(n).map(String::as_str) == Some(first) {
            second.to_string()
        } else {
            first.to_string()
        }
    };
    let (ra, rb) = (other(&a, "front", "backing"), other(&b, "backing", "front"));
    let d = TempDir::new("roles");
    let cap = d.join("roles.capture");
    let c = cap.to_str().unwrap();
    let devices = format!("{a},{b}");
    let (va, vb) = (format!("/dev/{a}={ra}"), format!("{b}={rb}"));
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &devices,
        "--role",
        &va,
        "--role",
        &vb,
        "--interval",
        "100ms",
        "--detach",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let g1 = RecorderGuard(cap.clone());
    let want = BTreeMap::from([(a.clone(), ra.clone()), (b.clone(), rb.clone())]);
    assert_eq!(roles(&cap), want, "the chosen roles, not the guessed ones");
    assert!(probe(&["stop", c]).status.success());
    drop(g1);

    let o = probe(&["record", "--resume", c, "--detach"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _g2 = RecorderGuard(cap.clone());
    assert!(probe(&["stop", c]).status.success());
    assert_eq!(roles(&cap), want, "record --resume keeps the chosen roles");

    // --role with --resume: the capture's own roles, the flag is refused.
    let o = probe(&["record", "--resume", c, "--role", &vb]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_role_for_a_device_not_recorded_or_an_unknown_role_is_exit_2() {
    let Some((a, b)) = two_devices() else {
        skip("role_errors", "fewer than two devices in /proc/diskstats");
        return;
    };
    let d = TempDir::new("roles-bad");
    let cap = d.join("bad.capture");
    let c = cap.to_str().unwrap();
    let cases: Vec<(String, String)> = vec![
        (format!("{b}=backing"), b.clone()),
        ("nosuchdisk9=front".into(), "nosuchdisk9".into()),
        (format!("{a}=fast"), "fast".into()),
        ("front".into(), "NAME=ROLE".into()),
    ];
    for (value, named) in cases {
        let o = probe(&[
            "record",
            "--out",
            c,
            "--devices",
            &a,
            "--role",
            &value,
            "--detach",
        ]);
        assert_eq!(o.status.code(), Some(2), "--role {value}");
        let e = one_sentence(&o);
        assert!(e.contains(named.as_str()), "--role {value}: {e}");
        assert!(!cap.exists(), "--role {value}: no capture is created");
    }
    let twice = format!("{a}=front");
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &a,
        "--role",
        &twice,
        "--role",
        &twice,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("twice"));
    assert!(!cap.exists());
}
