//! Tracing on a kernel without tracefs (root): a traced capture resumed where block tracing is
//! unavailable (`CACHEPROOF_TRACEFS` pointing at a missing directory stands for such a kernel)
//! goes on recording its counters without the trace, says so on stderr and in a `trace-error`
//! warning, and loses nothing already recorded. (A new `record --trace` there is refused before
//! the capture exists, exit 11: tests/trace.rs.) Skips with a message when not root.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;
use std::time::Duration;

use common::*;

fn samples(cap: &std::path::Path) -> i64 {
    status_json(cap)["samples"].as_i64().unwrap_or(0)
}

#[test]
fn a_traced_capture_resumed_without_tracefs_records_on_without_the_trace() {
    if skip_unless_root_with(
        &[],
        "a_traced_capture_resumed_without_tracefs_records_on_without_the_trace",
    ) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("trace-unavailable");
    let cap = d.join("t.capture");
    let g = record_detached(&cap, &["--interval", "200ms"]);
    wait_for("3 samples", Duration::from_secs(10), || samples(&cap) >= 3);
    let o = probe(&["stop", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = samples(&cap);
    // the capture says it is traced, as one recorded with --trace does
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES('trace', 'block')",
            [],
        )
        .unwrap();

    let missing = d.join("no-tracefs-here");
    let o = Command::new(BIN)
        .args(["record", "--resume", cap.to_str().unwrap(), "--detach"])
        .env("CACHEPROOF_TRACEFS", &missing)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "resume refused: {err}");
    assert!(
        err.contains("block tracing needs tracefs")
            && err.contains("continues without the block trace"),
        "{err}"
    );
    wait_for("more samples", Duration::from_secs(10), || {
        samples(&cap) >= before + 3
    });
    let s = status_json(&cap);
    assert_eq!(s["state"], "running", "{s}");
    let w = rusqlite::Connection::open(&cap)
        .unwrap()
        .query_row(
            "SELECT message FROM warnings WHERE code='trace-error' ORDER BY id DESC LIMIT 1",
            [],
            |r| r.get::<_, String>(0),
        )
        .unwrap();
    assert!(
        w.starts_with("block tracing could not start: block tracing needs tracefs")
            && w.ends_with("the counters go on without the trace"),
        "{w}"
    );
    drop(g);
    let after = samples(&cap);
    assert!(
        after > before,
        "{after} samples after the resume, {before} before"
    );
}
