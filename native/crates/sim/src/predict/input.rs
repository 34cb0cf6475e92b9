//! `predict`'s input: the options checked, the window and devices of the capture, and the
//! traced requests read in issue order.

use std::collections::BTreeMap;
use std::path::Path;

use super::super::{Op, Req};
use super::replays::Progress;
use super::{usage, PredictOptions};
use crate::capture::Capture;
use crate::error::{ProbeError, Result};
use crate::trace::sampling::StoredSampling;

/// A device of the capture: id, name, size in bytes (if known), role.
pub(super) type Device = (i64, String, Option<i64>, String);

/// Refuses a block size that is not whole sectors and a cache smaller than one block.
pub(super) fn check_options(o: &PredictOptions) -> Result<()> {
    if o.block == 0 || !o.block.is_multiple_of(512) {
        return Err(usage(format!(
            "--block {} must be a whole number of 512-byte sectors (e.g. 4KiB)",
            o.block
        )));
    }
    if o.size == 0 {
        return Err(usage(
            "a cache size of 0 bytes holds nothing: give the cache's size, e.g. --size 64MiB",
        ));
    }
    if o.size < o.block {
        return Err(usage(format!(
            "cache size {} bytes is smaller than one {}-byte block",
            o.size, o.block
        )));
    }
    Ok(())
}

/// Refuses a capture without a block trace (v1).
pub(super) fn require_trace(cap: &Capture, path: &Path) -> Result<()> {
    let has: i64 = cap.conn().query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='block_requests'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record the baseline with 'record --trace'",
            path.display()
        )));
    }
    Ok(())
}

/// The window the requests are taken from: the finished baseline, else the whole trace.
pub(super) struct Window {
    /// `baseline` or `all`.
    pub name: &'static str,
    pub start: i64,
    pub end: i64,
}

impl Window {
    pub fn of(cap: &Capture, path: &Path) -> Result<Window> {
        let baseline: Option<(i64, Option<i64>)> = cap
            .conn()
            .query_row(
                "SELECT start_utc_ms, end_utc_ms FROM phases WHERE name='baseline' ORDER BY start_utc_ms LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .ok();
        let (name, start, end) = match baseline {
            Some((s, Some(e))) => ("baseline", s, e),
            Some((_, None)) => {
                return Err(ProbeError::BadTrace(format!(
                    "{}: the baseline has not ended yet: predict once the recorder has passed the baseline (cacheproof-probe status {})",
                    path.display(),
                    path.display()
                )))
            }
            None => ("all", i64::MIN, i64::MAX),
        };
        Ok(Window { name, start, end })
    }

    /// The window's bounds (ms UTC) once its requests are known: the baseline's, else those of
    /// the first and last request.
    pub fn bounds(&self, first: i64, last: i64) -> (i64, i64) {
        if self.name == "baseline" {
            (self.start, self.end)
        } else {
            (first, last)
        }
    }
}

/// The warm-up of the plan (seconds): the phase's, else (before it has started) the plan's.
pub(super) fn plan_warmup(cap: &Capture) -> Option<f64> {
    cap.conn()
        .query_row(
            "SELECT planned_s FROM phases WHERE name='warmup' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok()
        .flatten()
        .or_else(|| {
            // before the warm-up has started, the plan says how long it will be
            cap.meta("plan")
                .ok()
                .flatten()
                .and_then(|p| serde_json::from_str::<serde_json::Value>(&p).ok())
                .and_then(|p| p["warmupS"].as_f64())
        })
}

/// The devices whose requests the cache sees: as asked, else the front devices, else all.
pub(super) fn choose_devices(
    cap: &Capture,
    path: &Path,
    asked: Option<&[String]>,
) -> Result<Vec<Device>> {
    let mut devs: Vec<Device> = Vec::new();
    {
        let mut q = cap
            .conn()
            .prepare("SELECT id, name, size_bytes, role FROM devices ORDER BY id")?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        for r in rows {
            devs.push(r?);
        }
    }
    let Some(names) = asked else {
        let front: Vec<_> = devs.iter().filter(|d| d.3 == "front").cloned().collect();
        return Ok(if front.is_empty() { devs } else { front });
    };
    let mut v = Vec::new();
    for n in names {
        match devs.iter().find(|d| &d.1 == n) {
            Some(d) => v.push(d.clone()),
            None => {
                return Err(usage(format!(
                    "--devices: {} has no device '{n}' (it has {})",
                    path.display(),
                    devs.iter()
                        .map(|d| d.1.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        }
    }
    Ok(v)
}

/// The traced requests of the chosen devices in the window, in issue order.
#[derive(Default)]
pub(super) struct Trace {
    pub reqs: Vec<Req>,
    /// Each request's wall-clock label (ms UTC).
    pub utcs: Vec<i64>,
    /// Each request's traced latency (ns), when it completed after its issue.
    pub lats: Vec<Option<u64>>,
    /// Requests that complete before their issue.
    pub backwards: u64,
    /// Requests skipped as bad, by why.
    pub skipped: BTreeMap<String, u64>,
}

impl Trace {
    fn skip(&mut self, why: &str) {
        *self.skipped.entry(why.to_string()).or_default() += 1;
    }

    /// Reads the requests of `chosen` in `window` that the final sample keeps; progress from 0
    /// to 40 %.
    pub fn read(
        cap: &Capture,
        chosen: &[Device],
        window: &Window,
        sampling: &StoredSampling,
        progress: &mut Progress,
    ) -> Result<Trace> {
        let conn = cap.conn();
        let ids = chosen
            .iter()
            .map(|d| d.0.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let rows_total: i64 = conn
            .query_row(
                "SELECT coalesce(max(rowid), 0) FROM block_requests",
                [],
                |r| r.get(0),
            )
            .unwrap_or(0);
        let mut q = conn.prepare(&format!(
            "SELECT rowid, device_id, issue_ns, utc_ms, sector, bytes, op, complete_ns FROM block_requests WHERE device_id IN ({ids}) AND utc_ms >= ?1 AND utc_ms < ?2 ORDER BY issue_ns, rowid"
        ))?;
        let mut rows = q.query([window.start, window.end])?;
        let mut t = Trace::default();
        let mut read_rows = 0i64;
        while let Some(r) = rows.next()? {
            read_rows += 1;
            if read_rows % 65_536 == 0 {
                progress.at(
                    0.4 * read_rows as f64 / rows_total.max(1) as f64,
                    "reading the trace",
                );
            }
            t.add_row(r, chosen, sampling)?;
        }
        Ok(t)
    }

    /// One row of `block_requests`: a read or write of a chosen device that the final sample
    /// keeps is added; a flush or discard is left out; a bad row is counted by why.
    fn add_row(
        &mut self,
        r: &rusqlite::Row,
        chosen: &[Device],
        sampling: &StoredSampling,
    ) -> Result<()> {
        let dev_id: i64 = r.get(1)?;
        let issue: i64 = r.get(2)?;
        let utc: i64 = r.get(3)?;
        let sector: i64 = r.get(4)?;
        let bytes: i64 = r.get(5)?;
        let op = r.get_ref(6)?;
        let complete: Option<i64> = r.get(7)?;
        let read = match op.as_bytes().unwrap_or(b"?") {
            b"R" => true,
            b"W" => false,
            b"D" | b"F" | b"N" => return Ok(()),
            _ => {
                self.skip("unknown opcode");
                return Ok(());
            }
        };
        if bytes < 0 || sector < 0 {
            self.skip("negative length");
            return Ok(());
        }
        if bytes == 0 {
            self.skip("zero length");
            return Ok(());
        }
        let Some(i) = chosen.iter().position(|d| d.0 == dev_id) else {
            return Ok(());
        };
        if !in_final_sample(sampling, dev_id, sector) {
            return Ok(());
        }
        if let Some(sz) = chosen[i].2 {
            if sector.saturating_mul(512).saturating_add(bytes) > sz {
                self.skip("past the device's end");
                return Ok(());
            }
        }
        self.reqs.push(Req {
            t_ns: issue,
            dev: i as u32,
            offset: sector as u64 * 512,
            bytes: bytes as u64,
            op: if read { Op::Read } else { Op::Write },
        });
        self.utcs.push(utc);
        self.lats.push(match complete {
            Some(c) if c >= issue => Some((c - issue) as u64),
            Some(_) => {
                self.backwards += 1;
                None
            }
            None => None,
        });
        Ok(())
    }

    /// Requests skipped as bad.
    pub fn n_skipped(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Refuses a trace with no read or write to predict from.
    pub fn require_requests(&self, path: &Path, chosen: &[Device], window: &Window) -> Result<()> {
        if !self.reqs.is_empty() {
            return Ok(());
        }
        let n_skipped = self.n_skipped();
        Err(ProbeError::BadTrace(format!(
            "{}: no traced read or write of {} in the {} window{}: record the baseline with 'record --trace' while the workload runs",
            path.display(),
            chosen.iter().map(|d| d.1.as_str()).collect::<Vec<_>>().join(", "),
            window.name,
            if n_skipped > 0 { format!(" ({n_skipped} requests skipped as bad)") } else { String::new() }
        )))
    }
}

/// Scaling by the sampling rate (trace::sampling, "How readers scale"): a trace whose rate fell
/// under its budget holds rows above the final threshold; only the rows below it form a uniform
/// sample at the final rate, the rate every distance and the footprint are scaled by.
fn in_final_sample(sampling: &StoredSampling, dev_id: i64, sector: i64) -> bool {
    sampling.keeps(dev_id, sector)
}

/// The warm-up (seconds): as asked (refused when not shorter than the window), else the plan's,
/// at most half the window.
pub(super) fn warmup_s(
    asked: Option<f64>,
    plan: Option<f64>,
    span_s: f64,
    window: &Window,
) -> Result<f64> {
    let window = window.name;
    match asked {
        Some(w) => {
            if w >= span_s {
                return Err(usage(format!(
                    "--warmup {w} s is not shorter than the {window} window ({span_s:.1} s): nothing would be counted"
                )));
            }
            Ok(w)
        }
        None => Ok(plan.unwrap_or(0.0).min(span_s / 2.0)),
    }
}
