//! Series of /proc/diskstats snapshots.

use std::collections::BTreeMap;

use super::super::time;
use super::super::{bad, lines, ParseOpts, Parsed, Sample};
use super::{tz_from, DevTable};
use crate::delta::{DevSample, Snapshot};
use crate::error::Result;

/// One time marker line of a diskstats series: epoch seconds, or ISO 8601, optionally after `#`.
fn marker(l: &str) -> Option<i64> {
    let t = l.trim().trim_start_matches('#').trim();
    let t = t
        .strip_prefix("time:")
        .or_else(|| t.strip_prefix("time="))
        .unwrap_or(t)
        .trim();
    if let Ok(x) = t.parse::<f64>() {
        if x > 1e8 {
            return Some((x * 1000.0).round() as i64);
        }
    }
    time::parse_iso(t).map(|x| x.0)
}

/// A series of /proc/diskstats snapshots. Each snapshot is preceded by a time line (epoch
/// seconds or ISO 8601, `# ` allowed); a file without time lines is one snapshot whose time
/// is the uptime in `uptime_text` (the file `…uptime…` beside it), placed after `--start`.
pub fn parse_diskstats(
    file: &str,
    text: &str,
    uptime_text: Option<&str>,
    opts: &ParseOpts,
) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    p.tz_source = "times are UTC (epoch or ISO 8601 with offset)".into();
    let all = lines(text);
    if let Some(first) = all.iter().find(|l| !l.trim().is_empty()) {
        let t: Vec<&str> = first.split_whitespace().collect();
        if t.len() == 2
            && t.iter()
                .all(|x| x.contains('.') && x.parse::<f64>().is_ok())
        {
            return Err(bad(file, Some(1), Some(1), "this is /proc/uptime, not /proc/diskstats: import the diskstats file; the uptime file beside it (same name with 'uptime' for 'diskstats') is read with it"));
        }
    }
    let chunks = chunks_of(&all);
    if chunks.is_empty() {
        return Err(bad(file, None, None, "the file is empty"));
    }
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    let mut prev = None;
    for (first_line, t, body) in chunks {
        let parsed = crate::diskstats::parse(&body).map_err(|e| match e {
            crate::error::ProbeError::Parse { line, message } => {
                bad(file, Some(first_line + line - 1), None, message)
            }
            other => other,
        })?;
        if parsed.is_empty() {
            return Err(bad(
                file,
                Some(first_line),
                None,
                "a time line with no diskstats lines after it",
            ));
        }
        let (utc, mono) = snapshot_time(file, first_line, t, uptime_text, opts, &mut p)?;
        if let Some(pv) = prev {
            if utc <= pv {
                return Err(bad(
                    file,
                    Some(first_line),
                    None,
                    format!(
                        "the snapshot time {} is not after the one before: times must increase",
                        time::iso(utc)
                    ),
                ));
            }
        }
        prev = Some(utc);
        add_snapshot(&mut p, &mut devs, first_line, utc, mono, parsed);
    }
    p.format = "/proc/diskstats snapshots".into();
    p.mapping = vec![(
        "fields 1-17".into(),
        "intervals, as the recorder computes them (delta of successive snapshots)".into(),
    )];
    Ok(p)
}

/// The snapshots of a file: (first line, time from its time line, its diskstats lines padded
/// with empty lines so that line numbers are kept).
fn chunks_of(all: &[&str]) -> Vec<(usize, Option<i64>, String)> {
    let mut chunks: Vec<(usize, Option<i64>, String)> = Vec::new();
    for (i, l) in all.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        if let Some(t) = marker(l) {
            chunks.push((i + 1, Some(t), String::new()));
            continue;
        }
        if l.trim_start().starts_with('#') {
            continue;
        }
        if chunks.is_empty() {
            chunks.push((i + 1, None, String::new()));
        }
        if let Some(c) = chunks.last_mut() {
            // keep line numbers: pad with empty lines up to this one
            let have = c.2.matches('\n').count();
            let want = i + 1 - c.0;
            for _ in have..want.saturating_sub(1) {
                c.2.push('\n');
            }
            c.2.push_str(l);
            c.2.push('\n');
        }
    }
    chunks
}

/// The time of the snapshot at `first_line`: its time line's `t`, or else the uptime after
/// `--start` (with the uptime as its monotonic clock).
fn snapshot_time(
    file: &str,
    first_line: usize,
    t: Option<i64>,
    uptime_text: Option<&str>,
    opts: &ParseOpts,
    p: &mut Parsed,
) -> Result<(i64, Option<u64>)> {
    if let Some(t) = t {
        return Ok((t, None));
    }
    let Some(u) = uptime_text.and_then(|u| u.split_whitespace().next()?.parse::<f64>().ok()) else {
        return Err(bad(file, Some(first_line), None, "no time for this snapshot: put a time line (epoch seconds or ISO 8601) before it, or keep the /proc/uptime read with it beside the file as …uptime…"));
    };
    p.tz_source = "uptime only: the absolute time is --start (or the epoch) + uptime".into();
    Ok((
        opts.start_utc_ms.unwrap_or(0) + (u * 1000.0).round() as i64,
        Some((u * 1e9) as u64),
    ))
}

/// One snapshot of the parsed diskstats lines, its devices added to the table.
fn add_snapshot(
    p: &mut Parsed,
    devs: &mut DevTable,
    first_line: usize,
    utc: i64,
    mono: Option<u64>,
    parsed: Vec<crate::diskstats::DiskLine>,
) {
    for l in &parsed {
        devs.get(p, &l.name);
    }
    let mut devices = BTreeMap::new();
    for l in parsed {
        devices.insert(
            l.name,
            DevSample {
                major: l.major,
                minor: l.minor,
                fields: l.fields,
                absent: 0,
            },
        );
    }
    p.samples.push(Sample {
        utc_ms: utc,
        line: first_line,
        rates: Vec::new(),
        snap: Some(Snapshot {
            mono_ns: mono.unwrap_or(0),
            utc_ms: utc,
            boot_id: "import".into(),
            devices,
        }),
    });
}
