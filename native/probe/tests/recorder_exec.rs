//! `record` hands the recording to the small `cacheproof-probe-recorder` executable once clap has
//! checked its command line (src/recorder/handoff.rs, issue 38: the hours a recording runs map no
//! import, simulation, TLS or HTTP code). A detached recording's process is that executable, with
//! the same pid the status file names, and it records and stops as before. When the recorder is
//! not beside the probe, `record` would run in-process at the larger footprint: this test is what
//! notices a build or package that leaves it out.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::*;

#[test]
fn a_detached_recording_runs_as_the_recorder_executable() {
    let _s = serial();
    let d = TempDir::new("recorder-exec");
    let cap = d.join("exec.capture");
    let c = cap.to_str().unwrap();
    let _g = record_detached(
        &cap,
        &[
            "--interval",
            "100ms",
            "--plan",
            "baseline=30s,warmup=1s,measure=30s",
            "--switch",
            "manual",
        ],
    );
    let pid: i32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap();
    assert_eq!(
        exe.file_name().and_then(|n| n.to_str()),
        Some("cacheproof-probe-recorder"),
        "the recording's process {pid} runs {}",
        exe.display()
    );
    wait_for(
        "two samples in the capture",
        Duration::from_secs(20),
        || {
            rusqlite::Connection::open(&cap)
                .ok()
                .and_then(|db| {
                    db.query_row("SELECT count(*) FROM samples", [], |r| r.get::<_, i64>(0))
                        .ok()
                })
                .is_some_and(|n| n >= 2)
        },
    );
    let o = probe(&["stop", c]);
    assert!(
        o.status.success(),
        "stop: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    wait_for("the recorder to end", Duration::from_secs(20), || {
        !recorder_alive(&cap)
    });
    assert_eq!(status_json(&cap)["state"], "stopped");
}
