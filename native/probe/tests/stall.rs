//! A capture whose disk stalls does not lose samples: the recorder samples on its own thread, so
//! a write that waits (here another connection holds the capture's write lock for 4 s, as a
//! WAL checkpoint or a commit does on a busy file system) delays the writing, never the
//! samples. Before, such a stall made a `gap` interval, whose counts are not kept.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

#[test]
fn a_stalled_write_is_not_a_gap() {
    let d = TempDir::new("stall");
    let cap = d.join("stall.capture");
    let c = cap.to_str().unwrap().to_string();
    let child = Command::new(BIN)
        .args(["record", "--out", &c, "--all", "--interval", "500ms"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("two samples", Duration::from_secs(10), || {
        samples(&cap) >= 2
    });
    let before = samples(&cap);
    {
        // Hold the write lock for 4 s (the recorder's busy timeout is 10 s): 8 ticks at 500 ms.
        // This sleep is the thing under test (a stall of a known length), not a wait for a state.
        let conn = rusqlite::Connection::open(&cap).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        std::thread::sleep(Duration::from_secs(4));
        conn.execute_batch("COMMIT").unwrap();
    }
    // stop once the ticks held back by the stall are written, and two more after it
    poll(
        "the 8 samples taken during the stall and 2 after it",
        Duration::from_secs(20),
        Duration::from_millis(50),
        || {
            let n = samples(&cap);
            if n >= before + 10 {
                Ok(())
            } else {
                Err(format!("{} samples since the stall began", n - before))
            }
        },
    );
    let o = probe(&["stop", &c]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let conn = rusqlite::Connection::open(&cap).unwrap();
    let (not_ok, longest_ms, n): (i64, f64, i64) = conn
        .query_row(
            "SELECT sum(status<>'ok'), max(interval_ms), count(DISTINCT start_utc_ms) FROM intervals",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(not_ok, 0, "every interval ok while the writes waited");
    assert!(
        longest_ms < 1500.0,
        "the longest interval is {longest_ms:.0} ms: sampling waited for the writes"
    );
    assert!(
        n >= 9,
        "{n} intervals over more than 5 s at 500 ms: samples taken during the stall were lost"
    );
}
