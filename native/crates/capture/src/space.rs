//! How much disk a recording needs, and how much its file system has free: the sentences of a
//! full disk (exit 8).
//!
//! The size model is the app's (`app/src/shared/estimate.ts`, where the method and the
//! measurements are written down: `dbstat` of a bundled capture, 4,096-byte pages): a capture of
//! N samples of D devices takes FIXED + N × (PER_SAMPLE + D × PER_DEVICE_SAMPLE) bytes, and while
//! the recorder runs its write-ahead log, the full-disk reserve and SQLite's shared memory add
//! RECORDING_EXTRA. The test `space_model_is_the_apps` keeps the two copies equal.

use std::path::Path;

/// Pages every capture has (bytes).
pub const FIXED_BYTES: u64 = 45_056;
/// The `samples` row of one read of /proc/diskstats (bytes).
pub const PER_SAMPLE_BYTES: u64 = 82;
/// One device's `intervals` row, its index entry and its `raw_counters` row (bytes).
pub const PER_DEVICE_SAMPLE_BYTES: u64 = 165;
/// Write-ahead log (up to 1,000 pages and headers), the 512 KiB reserve and SQLite's shared
/// memory, while recording (bytes).
pub const RECORDING_EXTRA_BYTES: u64 = 4_136_512 + 524_288 + 32_768;

/// What a recording of `devices` devices every `interval_ms` needs: `planned_s` seconds of
/// plan (baseline + warm-up + measure), or an open-ended recording when `None`. In words, with
/// the figure first.
pub fn needed_text(devices: u64, interval_ms: u64, planned_s: Option<f64>) -> String {
    let per_sample = PER_SAMPLE_BYTES + devices * PER_DEVICE_SAMPLE_BYTES;
    match planned_s {
        Some(s) => {
            let samples = (s * 1000.0 / interval_ms.max(1) as f64).floor() as u64 + 1;
            let file = FIXED_BYTES + samples * per_sample;
            format!(
                "about {} ({} samples of {devices} device(s) at {} each, {} of tables, and {} more while recording for SQLite's log and the full-disk reserve)",
                bytes(file + RECORDING_EXTRA_BYTES),
                group(samples),
                bytes(per_sample),
                bytes(FIXED_BYTES),
                bytes(RECORDING_EXTRA_BYTES)
            )
        }
        None => {
            let per_hour = 3_600_000 / interval_ms.max(1) * per_sample;
            format!(
                "about {} to start and {} per hour ({devices} device(s) every {interval_ms} ms)",
                bytes(FIXED_BYTES + per_sample + RECORDING_EXTRA_BYTES),
                bytes(per_hour)
            )
        }
    }
}

/// Bytes free to an unprivileged writer on the file system that holds `path` (or would hold it).
pub fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().filter(|p| !p.as_os_str().is_empty())?
    };
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the struct we own from a NUL-terminated path.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some(st.f_bavail as u64 * st.f_frsize as u64)
}

/// "0.3 MB" free, in words ("an unknown amount" when statvfs fails).
pub fn free_text(path: &Path) -> String {
    free_bytes(path).map_or_else(|| "an unknown amount".into(), bytes)
}

/// Whether the file system holding `path` has less free than a recording needs to start.
pub fn too_full_to_start(path: &Path) -> bool {
    free_bytes(path).is_some_and(|f| {
        f < FIXED_BYTES + PER_SAMPLE_BYTES + PER_DEVICE_SAMPLE_BYTES + RECORDING_EXTRA_BYTES
    })
}

/// Decimal units, as the app shows them: `512 B`, `45 kB`, `4.7 MB`, `1.25 GB`.
pub fn bytes(n: u64) -> String {
    let f = n as f64;
    if n < 1_000 {
        format!("{n} B")
    } else if n < 1_000_000 {
        format!("{:.0} kB", f / 1e3)
    } else if n < 1_000_000_000 {
        format!("{:.1} MB", f / 1e6)
    } else {
        format!("{:.2} GB", f / 1e9)
    }
}

fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_default_plan_is_the_apps_worked_example() {
        // estimate.ts: 24 h / 1 h / 24 h at 5 s, 2 devices: 35,281 samples, 14,580,828 B.
        let t = needed_text(2, 5000, Some(49.0 * 3600.0));
        assert!(t.contains("35,281 samples"), "{t}");
        assert!(t.starts_with("about 19.3 MB"), "{t}"); // 14,580,828 + 4,693,568
        assert!(needed_text(1, 1000, None).contains("per hour"));
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(45_056), "45 kB");
        assert_eq!(group(1234567), "1,234,567");
    }

    #[test]
    fn space_model_is_the_apps() {
        let ts = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../app/src/shared/estimate.ts");
        let Ok(src) = std::fs::read_to_string(&ts) else {
            panic!(
                "{} is missing: the probe's size model copies it",
                ts.display()
            );
        };
        let mut found = 0;
        for (name, v) in [
            ("CAPTURE_FIXED_BYTES", FIXED_BYTES),
            ("CAPTURE_BYTES_PER_SAMPLE", PER_SAMPLE_BYTES),
            ("CAPTURE_BYTES_PER_DEVICE_SAMPLE", PER_DEVICE_SAMPLE_BYTES),
        ] {
            let line = src
                .lines()
                .find(|l| l.contains(&format!("export const {name} =")))
                .unwrap();
            let n: u64 = line
                .split('=')
                .nth(1)
                .unwrap()
                .trim()
                .trim_end_matches(';')
                .replace('_', "")
                .parse()
                .unwrap();
            assert_eq!(n, v, "{name}");
            found += 1;
        }
        assert_eq!(found, 3);
        assert!(src.contains("CAPTURE_RECORDING_EXTRA_BYTES = 4_136_512 + 524_288 + 32_768;"));
    }
}
