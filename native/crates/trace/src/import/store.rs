//! `import-trace`'s capture: a trace written into a new capture (devices, block requests), and
//! a capture's block requests read back as a trace.

use std::collections::BTreeMap;
use std::path::Path;

use super::{read, BadRecord, Kind, ReadOptions, Trace};
use crate::capture::{BlockRow, Capture};
use crate::error::{ProbeError, Result};
use crate::request::{Op, Req};
use crate::sysfs::DeviceInfo;

/// Summary of an import.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    pub kind: String,
    pub file: String,
    pub out: String,
    pub records: u64,
    pub imported: u64,
    pub skipped: u64,
    pub skipped_by_reason: BTreeMap<String, u64>,
    pub skipped_examples: Vec<BadRecord>,
    pub devices: Vec<String>,
    /// Flushes (Windows exports): kept as `F` rows, not simulated.
    pub flushes: u64,
    /// From the first request issued to the last completed, ms (null without requests): what the
    /// preview shows before any cache size is chosen.
    pub span_ms: Option<f64>,
    /// The first and last request's UTC times, ms, when the trace carries UTC times or `--start`
    /// gave its start (null when its times only count from its start).
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
}

/// The trace's time span: (first issue, last completion or issue), ns from its origin.
fn span_ns(tr: &Trace) -> Option<(i64, i64)> {
    let first = tr.reqs.iter().map(|r| r.t_ns).min()?;
    let last = tr
        .reqs
        .iter()
        .enumerate()
        .map(|(i, r)| tr.complete_ns[i].unwrap_or(r.t_ns).max(r.t_ns))
        .max()?;
    Some((first, last))
}

fn sha256_hex(path: &Path) -> Option<String> {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&out.stdout);
    s.split_whitespace().next().map(str::to_string)
}

/// The UTC time (ms) the trace's times count from: its own, or `--start`'s (refused for a
/// trace that carries its own).
fn time_origin(file: &Path, kind: Kind, tr: &Trace, opts: ReadOptions) -> Result<Option<i64>> {
    match (tr.origin_utc_ms, opts.start_utc_ms) {
        (Some(_), Some(_)) => Err(ProbeError::Usage(format!(
            "{}: {} traces carry their own UTC times; --start is for exports whose times count from the trace's start (wpa, xperf, traceevent, blkparse and the public traces)",
            file.display(),
            kind.name()
        ))),
        (a, b) => Ok(a.or(b)),
    }
}

/// The trace's devices, each a `front` (what a cache would sit in front of: the disks the
/// trace recorded); their ids in the trace's device order.
fn write_devices(
    cap: &mut Capture,
    tr: &Trace,
    opts: ReadOptions,
    origin: Option<i64>,
) -> Result<Vec<i64>> {
    let mut ids = Vec::new();
    for (i, name) in tr.devices.iter().enumerate() {
        let d = DeviceInfo {
            name: name.clone(),
            major: 0,
            minor: i as u32,
            size_bytes: opts.device_bytes.map(|b| b as i64),
            logical_block_size: Some(512),
            role: "front".into(),
            ..Default::default()
        };
        ids.push(cap.upsert_device(&d, origin.unwrap_or(0))?);
    }
    Ok(ids)
}

/// The capture's meta: where it came from, when, and what the import counted and skipped.
fn write_meta(
    cap: &Capture,
    file: &Path,
    kind: Kind,
    tr: &Trace,
    opts: ReadOptions,
    now: i64,
) -> Result<()> {
    for (k, v) in [
        ("probe_version", env!("CARGO_PKG_VERSION").to_string()),
        ("created_utc_ms", now.to_string()),
        ("source", format!("import-trace:{}", kind.name())),
        ("import_file", file.display().to_string()),
        ("trace", "block".to_string()),
        (
            "trace_time_origin",
            match (tr.origin_utc_ms, opts.start_utc_ms) {
                (Some(_), _) => "utc".to_string(),
                (None, Some(_)) => "given".to_string(),
                _ => "trace-start".to_string(),
            },
        ),
        ("import_records", tr.records.to_string()),
        ("import_skipped", tr.bad().to_string()),
        ("import_flushes", tr.flushes.len().to_string()),
    ] {
        cap.set_meta(k, &v)?;
    }
    if let Some(h) = sha256_hex(file) {
        cap.set_meta("import_sha256", &h)?;
    }
    if tr.bad() > 0 {
        cap.set_meta(
            "import_skipped_examples",
            &serde_json::to_string(&tr.bad_examples).unwrap_or_default(),
        )?;
    }
    Ok(())
}

/// The trace's requests, then its flushes (`F` rows), as `block_requests`, 50,000 rows a write.
fn write_block_rows(cap: &mut Capture, tr: &Trace, ids: &[i64], origin: i64) -> Result<()> {
    let requests = tr.reqs.iter().enumerate().map(|(i, r)| BlockRow {
        device_id: ids[r.dev as usize],
        issue_ns: r.t_ns,
        complete_ns: tr.complete_ns[i],
        utc_ms: origin + r.t_ns / 1_000_000,
        sector: (r.offset / 512) as i64,
        bytes: r.bytes as i64,
        op: match r.op {
            Op::Read => 'R',
            Op::Write => 'W',
            Op::Discard => 'D',
        },
        rwbs: tr.op_text[i].clone(),
        error: None,
    });
    let flushes = tr.flushes.iter().map(|f| BlockRow {
        device_id: ids[f.dev as usize],
        issue_ns: f.t_ns,
        complete_ns: Some(f.complete_ns),
        utc_ms: origin + f.t_ns / 1_000_000,
        sector: 0,
        bytes: 0,
        op: 'F',
        rwbs: f.op_text.clone(),
        error: None,
    });
    let mut rows = Vec::with_capacity(50_000);
    for row in requests.chain(flushes) {
        rows.push(row);
        if rows.len() == 50_000 {
            cap.write_requests(&rows, &[], &[], &[])?;
            rows.clear();
        }
    }
    cap.write_requests(&rows, &[], &[], &[])
}

/// The canonical per-interval counters, from the requests (intervals.rs).
fn write_intervals(cap: &mut Capture, tr: &Trace, ids: &[i64], origin: i64) -> Result<()> {
    let (per_device, samples) = super::intervals::trace_intervals(tr, origin);
    if let Some(&t0) = samples.first() {
        cap.write_rate_series(t0, samples, |put| {
            for (d, rows) in per_device {
                for r in rows {
                    put(crate::capture::imported::IntervalRow {
                        device_id: ids[d],
                        ..r
                    })?;
                }
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// `import-trace`: read `file` as `kind` and write a new v2 capture at `out` (devices,
/// block_requests, meta `source` = `import-trace:<kind>`).
pub fn import(file: &Path, kind: Kind, out: &Path, opts: ReadOptions) -> Result<ImportSummary> {
    let opts = ReadOptions {
        detail: true,
        ..opts
    };
    let tr = read(file, kind, opts)?;
    let mut cap = Capture::create(out)?;
    let now = crate::clock::utc_ms();
    let origin = time_origin(file, kind, &tr, opts)?;
    let ids = write_devices(&mut cap, &tr, opts, origin)?;
    write_meta(&cap, file, kind, &tr, opts, now)?;
    write_block_rows(&mut cap, &tr, &ids, origin.unwrap_or(0))?;
    write_intervals(&mut cap, &tr, &ids, origin.unwrap_or(0))?;
    let span = span_ns(&tr);
    Ok(ImportSummary {
        kind: kind.name().into(),
        file: file.display().to_string(),
        out: out.display().to_string(),
        records: tr.records,
        imported: tr.reqs.len() as u64,
        skipped: tr.bad(),
        skipped_by_reason: tr.bad_by_reason.clone(),
        skipped_examples: tr.bad_examples.clone(),
        devices: tr.devices.clone(),
        flushes: tr.flushes.len() as u64,
        span_ms: span.map(|(a, b)| (b - a) as f64 / 1e6),
        first_utc_ms: origin
            .and(span)
            .map(|(a, _)| origin.unwrap_or(0) + a / 1_000_000),
        last_utc_ms: origin
            .and(span)
            .map(|(_, b)| origin.unwrap_or(0) + b / 1_000_000),
    })
}

/// One row of `block_requests`, as `load_capture` reads it.
struct StoredRow {
    rowid: i64,
    dev_id: i64,
    issue: i64,
    sector: i64,
    bytes: i64,
    op: String,
    rwbs: String,
}

impl StoredRow {
    const SELECT: &'static str = "SELECT rowid,device_id,issue_ns,sector,bytes,op,rwbs FROM block_requests ORDER BY issue_ns, rowid";

    fn read(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRow> {
        Ok(StoredRow {
            rowid: r.get(0)?,
            dev_id: r.get(1)?,
            issue: r.get(2)?,
            sector: r.get(3)?,
            bytes: r.get(4)?,
            op: r.get(5)?,
            rwbs: r.get(6)?,
        })
    }
}

/// A capture's requests read into a trace: its devices' names and sizes, its sampling, and the
/// first kept request's issue time (the trace's origin).
struct CaptureLoader {
    tr: Trace,
    sizes: Vec<(i64, String, Option<i64>)>,
    sampling: crate::sampling::StoredSampling,
    origin: Option<i64>,
}

impl CaptureLoader {
    /// Row `r` into the trace, or skipped and counted.
    fn add(&mut self, r: StoredRow) {
        let tr = &mut self.tr;
        let StoredRow {
            rowid,
            dev_id,
            issue,
            sector,
            bytes,
            ..
        } = r;
        tr.records += 1;
        let line = rowid as u64;
        if !self.sampling.keeps(dev_id, sector) {
            tr.above_final_rate += 1;
            return;
        }
        let op = match r.op.as_str() {
            "R" => Op::Read,
            "W" => Op::Write,
            "D" => Op::Discard,
            _ => {
                tr.other_lines += 1;
                return;
            }
        };
        if bytes <= 0 || sector < 0 {
            if bytes == 0 {
                tr.other_lines += 1;
            } else {
                tr.skip(
                    line,
                    if sector < 0 { "sector" } else { "bytes" },
                    format!("block_requests row {rowid}: sector {sector}, bytes {bytes}"),
                    "negative length",
                );
            }
            return;
        }
        let Some((_, name, size)) = self.sizes.iter().find(|d| d.0 == dev_id) else {
            tr.skip(
                line,
                "device_id",
                format!("block_requests row {rowid}: device {dev_id} is not in devices"),
                "unknown device",
            );
            return;
        };
        if let Some(sz) = size {
            if sector.saturating_mul(512).saturating_add(bytes) > *sz {
                tr.skip(
                    line,
                    "sector",
                    format!(
                        "block_requests row {rowid}: [{}, {}) ends past {name}'s {sz} bytes",
                        sector * 512,
                        sector * 512 + bytes
                    ),
                    "past the device's end",
                );
                return;
            }
        }
        let o = *self.origin.get_or_insert(issue);
        let dev = tr.dev_index(name);
        tr.reqs.push(Req {
            t_ns: issue - o,
            dev,
            offset: sector as u64 * 512,
            bytes: bytes as u64,
            op,
        });
        tr.op_text.push(r.rwbs);
        tr.complete_ns.push(None);
    }
}

/// Requests of a capture's `block_requests` (all devices, in issue order). Flushes and other
/// requests without data are counted in `other_lines`; requests past a device's recorded size
/// are skipped and counted.
pub fn load_capture(path: &Path) -> Result<Trace> {
    let cap = Capture::open(path, false)?;
    let conn = cap.conn();
    let has: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='block_requests'",
        [],
        |r| r.get(0),
    )?;
    let mut tr = Trace::default();
    if has == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record with 'record --trace' or import a trace with 'import-trace'",
            path.display()
        )));
    }
    let mut sizes: Vec<(i64, String, Option<i64>)> = Vec::new();
    {
        let mut q = conn.prepare("SELECT id,name,size_bytes FROM devices ORDER BY id")?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        for r in rows {
            sizes.push(r?);
        }
    }
    let sampling = crate::sampling::StoredSampling::read(&cap)?;
    if sampling.rate < 1.0 {
        tr.sample_rate = Some(sampling.rate);
    }
    let mut ld = CaptureLoader {
        tr,
        sizes,
        sampling,
        origin: None,
    };
    let mut q = conn.prepare(StoredRow::SELECT)?;
    let mut rows = q.query([])?;
    while let Some(r) = rows.next()? {
        ld.add(StoredRow::read(r)?);
    }
    let tr = ld.tr;
    if tr.reqs.is_empty() {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block request with data to simulate ({} rows): record with 'record --trace' or import a trace with 'import-trace'",
            path.display(),
            tr.records
        )));
    }
    Ok(tr)
}
