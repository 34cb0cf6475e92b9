//! A damaged capture (cut short at several sizes, garbage pages, empty, not SQLite at all) is
//! exit 5 with one sentence in `status` and `record --resume`, naming the file, saying what
//! SQLite found in words and where a copy of the recorded pages may be (the `-wal` beside it,
//! or nowhere); neither command changes the file.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::*;

/// A finished capture (recorded for about a second at 20 ms, then stopped).
fn recorded(d: &TempDir) -> PathBuf {
    let cap = d.join("good.capture");
    let g = record_detached(&cap, &["--interval", "20ms"]);
    wait_for("samples", Duration::from_secs(20), || {
        status_json(&cap)["samples"].as_i64().unwrap() >= 40
    });
    drop(g);
    assert!(!recorder_alive(&cap), "the recorder stopped");
    cap
}

/// Both commands refuse the file with exit 5 and one sentence; the files are left as they were.
fn refused(cap: &Path, what: &str, copy: &str) {
    refused_by(cap, what, copy, true)
}

/// `with_status`: whether `status` sees the damage too (it reads the header, the file's size
/// and the tables it shows; `record --resume` checks every page first).
fn refused_by(cap: &Path, what: &str, copy: &str, with_status: bool) {
    let before = std::fs::read(cap).unwrap();
    let wal = PathBuf::from(format!("{}-wal", cap.display()));
    let wal_before = std::fs::read(&wal).ok();
    let mut commands = vec![vec!["record", "--resume", cap.to_str().unwrap()]];
    if with_status {
        commands.push(vec!["status", cap.to_str().unwrap()]);
        commands.push(vec!["status", cap.to_str().unwrap(), "--json"]);
    }
    for args in commands {
        let o = probe(&args);
        let e = one_sentence(&o);
        assert_eq!(o.status.code(), Some(5), "{args:?}: {e}");
        assert!(
            e.starts_with(&format!("cacheproof-probe: {} is damaged: ", cap.display())),
            "{args:?}: {e}"
        );
        assert!(e.contains(what), "{args:?}: expected '{what}' in: {e}");
        assert!(e.contains(copy), "{args:?}: expected '{copy}' in: {e}");
        assert!(!e.contains("Error code"), "raw SQLite text: {e}");
        assert!(o.stdout.is_empty(), "{args:?} printed a status");
    }
    assert_eq!(std::fs::read(cap).unwrap(), before, "the file was changed");
    if let Some(w) = wal_before.filter(|w| w.len() > 32) {
        assert_eq!(std::fs::read(&wal).unwrap(), w, "the -wal was changed");
    }
}

const NO_COPY: &str = "no copy of it exists: there is no ";

#[test]
fn truncated_at_several_sizes() {
    let _s = serial();
    let d = TempDir::new("dmg-trunc");
    let good = recorded(&d);
    let len = std::fs::metadata(&good).unwrap().len();
    assert!(len >= 8 * 4096, "a capture of {len} bytes is too small");
    let page = 4096;
    for (size, what) in [
        (0, "it is empty (0 bytes)"),
        (100, "not a whole number of its 4096-byte pages"),
        (page, "SQLite"),
        (len / 2 / page * page, "SQLite"),
        (len - page, "SQLite"),
        (len - 1000, "not a whole number of its 4096-byte pages"),
        (len / 2 + 7, "not a whole number of its 4096-byte pages"),
    ] {
        let cap = d.join(&format!("cut-{size}.capture"));
        std::fs::copy(&good, &cap).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&cap)
            .unwrap()
            .set_len(size)
            .unwrap();
        refused(&cap, what, NO_COPY);
    }
}

#[test]
fn garbage_pages_and_files_that_are_not_sqlite() {
    let _s = serial();
    let d = TempDir::new("dmg-garbage");
    let good = recorded(&d);
    let len = std::fs::metadata(&good).unwrap().len() as usize;
    // Pseudo-random bytes (xorshift), deterministic.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    // Garbage over pages 3-4 (tables' roots), over the last page (counters, which status
    // does not read), over the header.
    for (name, at, n, what, with_status) in [
        ("roots", 2 * 4096, 2 * 4096, "SQLite", true),
        // Which of SQLite's checks meets the garbage first (the page check, or a read that says
        // "malformed") depends on what the last page held: either way it is one sentence, exit 5.
        ("last", len - 4096, 4096, "SQLite", false),
        ("header", 0, 100, "not a database", true),
    ] {
        let cap = d.join(&format!("garbage-{name}.capture"));
        let mut b = std::fs::read(&good).unwrap();
        b[at..at + n].copy_from_slice(&noise(n));
        std::fs::write(&cap, &b).unwrap();
        refused_by(&cap, what, NO_COPY, with_status);
    }
    let text = d.join("notes.capture");
    std::fs::write(&text, "these are notes, not a capture\n".repeat(300)).unwrap();
    refused(&text, "not a database", NO_COPY);
    let empty = d.join("empty.capture");
    std::fs::write(&empty, b"").unwrap();
    refused(&empty, "it is empty (0 bytes)", NO_COPY);
}

#[test]
fn a_crashed_recording_cut_short_points_at_its_wal() {
    let _s = serial();
    let d = TempDir::new("dmg-wal");
    let cap = recorded(&d);
    let c = cap.to_str().unwrap();
    // Resume, then kill -9: the pages written since are in the -wal beside the capture.
    let before = samples(&cap);
    let o = probe(&["record", "--resume", c, "--detach"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _g = RecorderGuard(cap.clone());
    let pid: i32 = status_json(&cap)["pid"].as_str().unwrap().parse().unwrap();
    let wal = format!("{c}-wal");
    poll(
        "the resumed recorder to commit samples to the -wal",
        Duration::from_secs(20),
        Duration::from_millis(20),
        || {
            let (n, len) = (
                samples(&cap),
                std::fs::metadata(&wal).map_or(0, |m| m.len()),
            );
            if n >= before + 5 && len > 32 {
                Ok(())
            } else {
                Err(format!(
                    "{} samples since the resume, -wal {len} bytes",
                    n - before
                ))
            }
        },
    );
    // SAFETY: SIGKILL to the recorder this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    wait_for("the recorder's end", Duration::from_secs(10), || {
        !recorder_alive(&cap)
    });
    let wal_len = std::fs::metadata(&wal).unwrap().len();
    assert!(wal_len > 32, "the -wal holds frames ({wal_len} bytes)");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&cap)
        .unwrap()
        .set_len(4096)
        .unwrap();
    refused(
        &cap,
        "SQLite",
        &format!("a copy of the pages recorded since the last checkpoint may be in {wal} ("),
    );
}
