//! A damaged capture (cut short, overwritten, empty, not SQLite) in one sentence, the check
//! `record --resume` makes before writing, and the removal of a capture that holds nothing.

use std::path::{Path, PathBuf};

use super::{map_err, Capture};
use crate::error::{ProbeError, Result};

/// The error for a damaged capture: `what` SQLite found, and where a copy of the recorded
/// pages may be (the `-wal` file beside it, which holds the pages written since the last
/// checkpoint) or that there is none.
pub fn damaged(path: &Path, what: &str) -> ProbeError {
    let wal = wal_path(path);
    let copy = match std::fs::metadata(&wal) {
        // 32 bytes: a WAL header without frames.
        Ok(m) if m.len() > 32 => format!(
            "a copy of the pages recorded since the last checkpoint may be in {} ({} bytes): keep it beside the capture and copy both before any repair",
            wal.display(),
            m.len()
        ),
        _ => format!(
            "no copy of it exists: there is no {} with recorded pages beside it",
            wal.display()
        ),
    };
    ProbeError::Damaged {
        path: path.to_path_buf(),
        what: what.to_string(),
        copy,
    }
}

/// The page size in an SQLite file's header, when the file has one.
pub(super) fn header_page_size(path: &Path) -> Option<u64> {
    use std::io::Read;
    let mut h = [0u8; 18];
    std::fs::File::open(path).ok()?.read_exact(&mut h).ok()?;
    if &h[..16] != b"SQLite format 3\0" {
        return None;
    }
    match u16::from_be_bytes([h[16], h[17]]) {
        1 => Some(65536),
        n if n >= 512 && n.is_power_of_two() => Some(u64::from(n)),
        _ => None,
    }
}

/// `<capture>-wal`: SQLite's write-ahead log beside the capture.
pub fn wal_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push("-wal");
    PathBuf::from(s)
}

/// Name the capture in an error that came out of SQLite without it (a damaged file found by
/// a query rather than at open): `status` and `record --resume` say which file is damaged.
pub fn with_path(path: &Path, e: ProbeError) -> ProbeError {
    match e {
        ProbeError::Sqlite(s) => map_err(path, s, 0),
        other => other,
    }
}

/// Read every page of a capture (`PRAGMA quick_check`) without writing to it, so that
/// `record --resume` refuses a damaged file before it writes (a writer's checkpoint would
/// fold the `-wal` copy into the damaged file and delete it).
pub fn check_intact(path: &Path) -> Result<()> {
    let c = Capture::open(path, false)?;
    let r: String = c
        .conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(|e| map_err(path, e, 0))?;
    if r != "ok" {
        let found = r
            .lines()
            .filter(|l| !l.starts_with("***"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(damaged(
            path,
            &format!("SQLite's check of its pages found '{found}' (the file was cut short or overwritten)"),
        ));
    }
    Ok(())
}

/// Remove a capture that holds nothing recorded, with its sidecar files (SQLite's `-wal` and
/// `-shm`, the recorder's `.lock` and `.reserve`). Only for a capture this process created.
pub fn remove_unrecorded(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal", ".lock", ".reserve"] {
        let mut s = path.as_os_str().to_owned();
        s.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(s));
    }
}
