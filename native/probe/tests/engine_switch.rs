//! The scheduled switch's bad cases, with the `command` adapter and a script engine (no root):
//! a switch that fails is recorded and the plan goes on in the engine's real state (`status
//! --json` says so); a recorder killed during the switch and resumed never switches twice; a
//! shell string in the config, a missing executable and a device outside the analysis are one
//! sentence before anything is created.
#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use common::*;

/// An engine script: `on`/`off` log their call and set the mode (`on` sleeps first when the file
/// `slow` exists; exits 4 when `broken` exists); `status` prints the mode and a counter.
fn engine(dir: &Path) -> String {
    let p = dir.join("engine.sh");
    let d = dir.display();
    std::fs::write(
        &p,
        format!(
            r#"#!/bin/sh
case "$1" in
  on|off) echo "$1" >> "{d}/calls"
          [ -f "{d}/broken" ] && {{ echo "engine refuses: controller offline" >&2; exit 4; }}
          [ "$1" = on ] && [ -f "{d}/slow" ] && /bin/sleep 3
          echo "$1" > "{d}/mode" ;;
  status) echo "mode: $(/bin/cat "{d}/mode" 2>/dev/null || echo off)"; echo "read_hits 7 requests" ;;
esac
"#
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

fn config(dir: &Path, body: &str) -> String {
    let p = dir.join("engine.json");
    std::fs::write(&p, body).unwrap();
    p.display().to_string()
}

fn good_config(dir: &Path) -> String {
    let e = engine(dir);
    config(
        dir,
        &format!(
            r#"{{"devices":["{}"],"enable":["{e}","on"],"disable":["{e}","off"],"status":["{e}","status"],"parser":"key-value","timeoutS":10}}"#,
            first_device()
        ),
    )
}

fn calls(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("calls"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

fn q(cap: &Path, sql: &str) -> String {
    rusqlite::Connection::open(cap)
        .unwrap()
        .query_row(sql, [], |r| r.get::<_, rusqlite::types::Value>(0))
        .map(|v| match v {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(t) => t,
            rusqlite::types::Value::Null => "NULL".into(),
            other => format!("{other:?}"),
        })
        .unwrap()
}

#[test]
fn bad_switch_settings_are_one_sentence_and_create_nothing() {
    let d = TempDir::new("swbad");
    let e = engine(&d.0);
    let dev = first_device();
    let cap = d.join("x.capture");
    let c = cap.to_str().unwrap();
    let plan = "baseline=2s,warmup=1s,measure=1s";
    let shell = config(
        &d.0,
        &format!(r#"{{"devices":["{dev}"],"enable":"{e} on; {e} off","disable":["{e}","off"]}}"#),
    );
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &dev,
        "--plan",
        plan,
        "--switch",
        &format!("command:{shell}"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("field 'enable' is a shell string"));
    assert!(!cap.exists());
    // The engine serves a device that is not recorded: refused.
    let other = config(
        &d.0,
        &format!(
            r#"{{"devices":["sdzz"],"device":"sdzz","enable":["{e}","on"],"disable":["{e}","off"]}}"#
        ),
    );
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &dev,
        "--plan",
        plan,
        "--switch",
        &format!("command:{other}"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("is not part of this analysis"));
    assert!(!cap.exists());
    // No plan to switch in, and --restore without an adapter.
    let g = good_config(&d.0);
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &dev,
        "--switch",
        &format!("command:{g}"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("needs a --plan"));
    let o = probe(&[
        "record",
        "--out",
        c,
        "--devices",
        &dev,
        "--plan",
        plan,
        "--switch",
        "manual",
        "--restore",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!cap.exists());
    assert!(calls(&d.0).is_empty(), "nothing switched");
}

#[test]
fn a_failed_switch_is_recorded_and_the_plan_goes_on_in_the_real_state() {
    let d = TempDir::new("swfail");
    let g = good_config(&d.0);
    std::fs::write(d.join("broken"), "").unwrap();
    let cap = d.join("f.capture");
    let o = probe(&[
        "record",
        "--out",
        cap.to_str().unwrap(),
        "--devices",
        &first_device(),
        "--interval",
        "500ms",
        "--plan",
        "baseline=1s,warmup=1s,measure=1s",
        "--switch",
        &format!("command:{g}"),
        "--restore",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = status_json(&cap);
    assert_eq!(s["state"], "done");
    assert_eq!(s["engine"]["switch"], "failed");
    assert_eq!(s["engine"]["mode"], "off");
    let err = s["engine"]["error"].as_str().unwrap();
    assert!(err.contains("failed: engine refuses: controller offline; the engine is still in mode off (unchanged)"), "{err}");
    assert!(s["hint"].as_str().unwrap().contains("in mode off"), "{s}");
    assert_eq!(q(&cap, "SELECT ok||' '||exit_status||' '||mode_after FROM engine_actions WHERE action='enable'"), "0 4 off");
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM warnings WHERE code='switch-failed'"
        ),
        "1"
    );
    assert_eq!(
        q(
            &cap,
            "SELECT count(*) FROM phases WHERE name='measure' AND end_utc_ms IS NOT NULL"
        ),
        "1"
    );
    // Nothing to restore to: the engine never left 'off' (one row saying so, no command run).
    assert_eq!(s["engine"]["restore"], "done");
    assert_eq!(calls(&d.0), vec!["on"]);
    assert!(
        q(
            &cap,
            "SELECT count(*) FROM engine_stats WHERE name='read_hits' AND value=7"
        )
        .parse::<i64>()
        .unwrap()
            > 0
    );
}

#[test]
fn a_recorder_killed_during_the_switch_never_switches_twice() {
    let d = TempDir::new("swresume");
    let g = good_config(&d.0);
    std::fs::write(d.join("slow"), "").unwrap();
    let cap = d.join("r.capture");
    let _r = record_detached(
        &cap,
        &[
            "--interval",
            "500ms",
            "--plan",
            "baseline=1s,warmup=1s,measure=2s",
            "--switch",
            &format!("command:{g}"),
        ],
    );
    wait_for("the switch to start", Duration::from_secs(20), || {
        calls(&d.0).len() == 1
    });
    let pid: i32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    // SAFETY: killing the recorder this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    wait_for("the recorder to die", Duration::from_secs(10), || {
        status_json(&cap)["state"] == "stale"
    });
    assert_eq!(status_json(&cap)["engine"]["switch"], "pending");
    // The engine finishes switching on its own (the script sets its mode after its 3 s).
    wait_for(
        "the engine to finish switching on",
        Duration::from_secs(20),
        || std::fs::read_to_string(d.join("mode")).is_ok_and(|m| m.trim() == "on"),
    );
    let o = probe(&["record", "--resume", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = status_json(&cap);
    assert_eq!(s["state"], "done");
    assert_eq!(calls(&d.0), vec!["on"], "switched once");
    assert_eq!(s["engine"]["switch"], "done");
    assert_eq!(s["engine"]["mode"], "on");
    let w = q(
        &cap,
        "SELECT message FROM warnings WHERE code='switch-interrupted'",
    );
    assert!(
        w.contains("it is not attempted again") && w.contains("in mode on"),
        "{w}"
    );
    assert_eq!(
        q(&cap, "SELECT count(*) FROM marks WHERE kind='switch'"),
        "1"
    );
    assert_eq!(
        q(&cap, "SELECT count(*) FROM phases WHERE name='switch'"),
        "1"
    );
    // Resuming the finished capture: exit 2, nothing switched.
    let o = probe(&["record", "--resume", cap.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(calls(&d.0), vec!["on"]);
}
