//! Completion latency of traced block requests (`cacheproof-probe latency`, docs/simulate.md
//! § Latency from the trace): per device, for the whole trace, each phase window and each clock
//! hour, reads and writes apart, a log-scale histogram of `complete_ns − issue_ns` and its
//! p50/p95/p99/p99.9 (buckets and percentiles: [`hist`]).
//!
//! Two methods, named in the output's `method`:
//! - `interval-histograms` (captures recorded by this probe, schema v6): the tracer counts every
//!   completed request into a histogram per sample interval, device and operation
//!   (`latency_histograms`) before the trace's sampling (`--trace-sample`, `--trace-budget`)
//!   keeps a share of the requests, so the percentiles are those of every request whatever the
//!   sampling. An interval belongs to a phase or an hour by its start.
//! - `stored-requests` (captures without that table: older traced captures, imported traces):
//!   the stored `block_requests` rows, labelled by their issue's wall-clock time; for a sampled
//!   trace, the percentiles of the sample.
//!
//! The trace's times have µs resolution (tracefs `mono` clock printed with 6 decimals). The
//! trace measures the time the request spent in the driver (issue to completion); what an
//! application sees (fio's `clat`) adds the kernel's path above the driver, tens of µs
//! (docs/simulate.md).

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::Connection;
use serde::Serialize;

use crate::capture::Capture;
use crate::error::{ProbeError, Result};

pub use cacheproof_core::hist;
pub use hist::{
    bucket_of_ns, bucket_of_us, high_us, low_us, Hist, BUCKETS_PER_OCTAVE, PERCENTILES,
};

/// An hour, in ms.
pub const HOUR_MS: i64 = 3_600_000;
/// `method` of the per-interval histograms.
pub const METHOD_HISTOGRAMS: &str = "interval-histograms";
/// `method` of the stored requests.
pub const METHOD_REQUESTS: &str = "stored-requests";
/// `meta.latency_histograms` of a capture whose tracer kept the histograms from its start.
pub const HISTOGRAMS_FROM_START: &str = "from-start";

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PercentileJson {
    /// 50, 95, 99, 99.9.
    pub p: f64,
    pub bucket: u32,
    pub low_us: f64,
    pub high_us: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BucketJson {
    pub bucket: u32,
    pub low_us: f64,
    pub high_us: f64,
    pub count: u64,
}

/// One device × window × operation.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesJson {
    pub device: String,
    /// `all` (the whole trace) or a phase name (`baseline`, `warmup`, `measure`).
    pub window: String,
    /// `read` or `write`.
    pub op: &'static str,
    /// Requests traced in the window (completed or not).
    pub requests: u64,
    /// Requests with a completion (the histogram's n).
    pub completed: u64,
    pub mean_us: Option<f64>,
    pub percentiles: Vec<PercentileJson>,
    pub histogram: Vec<BucketJson>,
}

/// One device × clock hour × operation (no histogram: the percentiles only).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HourJson {
    pub device: String,
    pub op: &'static str,
    /// The hour: [start, start + 1 h), UTC, on whole hours.
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub requests: u64,
    pub completed: u64,
    pub mean_us: Option<f64>,
    pub percentiles: Vec<PercentileJson>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LatencyJson {
    pub capture: String,
    /// `interval-histograms` (every request, counted before sampling) or `stored-requests`.
    pub method: &'static str,
    pub buckets_per_octave: u32,
    /// The bucket rule in words.
    pub buckets: &'static str,
    /// Share of requests the stored trace kept (the final rate; 1 = every request). With
    /// `interval-histograms` the percentiles do not depend on it.
    pub sample_rate: f64,
    pub series: Vec<SeriesJson>,
    /// Per clock hour (UTC), device and operation, oldest first.
    pub hours: Vec<HourJson>,
}

pub const BUCKET_RULE: &str = "bucket 0 = [0, 1 µs); bucket k ≥ 1 = [2^((k−1)/4), 2^(k/4)) µs; a percentile is the bucket of the nearest-rank request";

fn percentiles(h: &Hist) -> Vec<PercentileJson> {
    PERCENTILES
        .iter()
        .filter_map(|p| {
            h.percentile_bucket(*p).map(|k| PercentileJson {
                p: *p,
                bucket: k,
                low_us: low_us(k),
                high_us: high_us(k),
            })
        })
        .collect()
}

fn mean_us(h: &Hist) -> Option<f64> {
    (h.n > 0).then(|| h.sum_ns as f64 / h.n as f64 / 1000.0)
}

fn series(device: &str, window: &str, op: &'static str, requests: u64, h: &Hist) -> SeriesJson {
    SeriesJson {
        device: device.into(),
        window: window.into(),
        op,
        requests,
        completed: h.n,
        mean_us: mean_us(h),
        percentiles: percentiles(h),
        histogram: h
            .counts
            .iter()
            .map(|(k, c)| BucketJson {
                bucket: *k,
                low_us: low_us(*k),
                high_us: high_us(*k),
                count: *c,
            })
            .collect(),
    }
}

/// The trace sampling rate a capture's meta records (1 when absent): the final rate.
pub fn sample_rate(cap: &Capture) -> Result<f64> {
    Ok(crate::sampling::StoredSampling::read(cap)?.rate)
}

fn has_table(conn: &Connection, name: &str) -> Result<bool> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?1",
        [name],
        |r| r.get(0),
    )?;
    Ok(n > 0)
}

/// A window a latency counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Window {
    All,
    Phase(usize),
    Hour(i64),
}

/// Requests and histograms per (device, window, op).
#[derive(Default)]
struct Acc {
    phases: Vec<(String, i64, i64)>,
    cells: BTreeMap<(String, Window, &'static str), (u64, Hist)>,
}

impl Acc {
    /// Count `requests` traced and the histogram `h` at wall-clock time `utc` (a request's issue,
    /// or an interval's start).
    fn add(&mut self, dev: &str, utc: i64, op: &'static str, requests: u64, h: &Hist) {
        let mut windows = vec![Window::All, Window::Hour(utc.div_euclid(HOUR_MS))];
        for (i, (_, s, e)) in self.phases.iter().enumerate() {
            if utc >= *s && utc < *e {
                windows.push(Window::Phase(i));
            }
        }
        for w in windows {
            let e = self.cells.entry((dev.to_string(), w, op)).or_default();
            e.0 += requests;
            e.1.merge(h);
        }
    }
}

fn op_name(op: &str) -> &'static str {
    if op == "R" {
        "read"
    } else {
        "write"
    }
}

/// The per-interval histograms (v6) into the accumulator; false when the capture has none.
fn from_histograms(cap: &Capture, acc: &mut Acc) -> Result<bool> {
    let conn = cap.conn();
    // Only a capture whose trace had histograms from its first request (a trace begun by an
    // earlier probe and resumed by this one has requests the histograms do not hold).
    if cap.meta("latency_histograms")?.as_deref() != Some(HISTOGRAMS_FROM_START)
        || !has_table(conn, "latency_histograms")?
    {
        return Ok(false);
    }
    let mut q = conn.prepare(
        "SELECT 0, d.name, h.start_utc_ms, h.op, h.requests, h.completed, h.sum_ns, h.buckets FROM latency_histograms h JOIN devices d ON d.id = h.device_id WHERE h.op IN ('R','W')",
    )?;
    let mut rows = q.query([])?;
    let mut any = false;
    while let Some(r) = rows.next()? {
        let dev: String = r.get(1)?;
        let start: i64 = r.get(2)?;
        let op: String = r.get(3)?;
        let requests: i64 = r.get(4)?;
        let completed: i64 = r.get(5)?;
        let sum_ns: i64 = r.get(6)?;
        let buckets: Vec<u8> = r.get(7)?;
        let h = (requests >= completed && completed >= 0 && sum_ns >= 0)
            .then(|| Hist::decode(&buckets, completed as u64, sum_ns as u128))
            .flatten()
            .ok_or_else(|| {
                ProbeError::BadTrace(format!(
                    "{}: the latency_histograms row of {dev}, {op}, interval from {start} (UTC ms) does not add up (requests {requests}, completed {completed}, its buckets): the capture was edited or damaged",
                    cap.path().display()
                ))
            })?;
        any = true;
        acc.add(&dev, start, op_name(&op), requests as u64, &h);
    }
    Ok(any)
}

/// The stored block requests into the accumulator; how many reads and writes there were.
fn from_requests(cap: &Capture, acc: &mut Acc) -> Result<u64> {
    let conn = cap.conn();
    let mut q = conn.prepare(
        "SELECT b.rowid, d.name, b.issue_ns, b.complete_ns, b.utc_ms, b.op FROM block_requests b JOIN devices d ON d.id = b.device_id WHERE b.op IN ('R','W')",
    )?;
    let mut rows = q.query([])?;
    let mut total = 0u64;
    let mut one = Hist::default();
    while let Some(r) = rows.next()? {
        let rowid: i64 = r.get(0)?;
        let dev: String = r.get(1)?;
        let issue: i64 = r.get(2)?;
        let complete: Option<i64> = r.get(3)?;
        let utc: i64 = r.get(4)?;
        let op: String = r.get(5)?;
        one.counts.clear();
        one.n = 0;
        one.sum_ns = 0;
        if let Some(c) = complete {
            if c < issue {
                return Err(ProbeError::BadTrace(format!(
                    "{}: block_requests row {rowid} completes {} ns before its issue (times going backwards): the capture was edited or damaged",
                    cap.path().display(),
                    issue - c
                )));
            }
            one.add((c - issue) as u64);
        }
        total += 1;
        acc.add(&dev, utc, op_name(&op), 1, &one);
    }
    Ok(total)
}

/// Latency histograms of a capture: per device, for the whole trace, each finished phase and
/// each clock hour, reads and writes apart, from the per-interval histograms when the capture
/// has them, else from the stored requests. Requests without a completion count in `requests`
/// only; a completion before its issue, or a histogram row whose counts do not add up (neither
/// is ever written by the probe, but possible in an edited capture), is an error naming the row.
pub fn of_capture(cap: &Capture) -> Result<LatencyJson> {
    let conn = cap.conn();
    if !has_table(conn, "block_requests")? {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record with 'record --trace'",
            cap.path().display()
        )));
    }
    let mut acc = Acc::default();
    {
        let mut q = conn.prepare(
            "SELECT name, start_utc_ms, end_utc_ms FROM phases WHERE end_utc_ms IS NOT NULL AND end_utc_ms > start_utc_ms ORDER BY start_utc_ms",
        )?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        for r in rows {
            acc.phases.push(r?);
        }
    }
    let method = if from_histograms(cap, &mut acc)? {
        METHOD_HISTOGRAMS
    } else if from_requests(cap, &mut acc)? > 0 {
        METHOD_REQUESTS
    } else {
        return Err(ProbeError::BadTrace(format!(
            "{} has no traced read or write: record with 'record --trace' while the devices are in use",
            cap.path().display()
        )));
    };
    let mut series_out = Vec::new();
    let mut hours = Vec::new();
    for ((dev, w, op), (n, h)) in &acc.cells {
        match w {
            Window::All => series_out.push(series(dev, "all", op, *n, h)),
            Window::Phase(i) => series_out.push(series(dev, &acc.phases[*i].0, op, *n, h)),
            Window::Hour(k) => hours.push(HourJson {
                device: dev.clone(),
                op,
                start_utc_ms: k * HOUR_MS,
                end_utc_ms: (k + 1) * HOUR_MS,
                requests: *n,
                completed: h.n,
                mean_us: mean_us(h),
                percentiles: percentiles(h),
            }),
        }
    }
    hours.sort_by(|a, b| (a.start_utc_ms, &a.device, a.op).cmp(&(b.start_utc_ms, &b.device, b.op)));
    Ok(LatencyJson {
        capture: cap.path().display().to_string(),
        method,
        buckets_per_octave: BUCKETS_PER_OCTAVE,
        buckets: BUCKET_RULE,
        sample_rate: sample_rate(cap)?,
        series: series_out,
        hours,
    })
}

/// The JSON stored in meta `trace_latency`: the output without the capture's path.
pub fn store(cap: &Capture, j: &LatencyJson) -> Result<()> {
    let mut v = serde_json::to_value(j).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("capture");
    }
    cap.set_meta("trace_latency", &v.to_string())
}

/// `latency CAPTURE [--store]`: the histograms; with `store`, also written to the capture's
/// meta `trace_latency` (the JSON without the capture's path).
pub fn run(path: &Path, store_it: bool) -> Result<LatencyJson> {
    let cap = Capture::open(path, store_it)?;
    let j = of_capture(&cap)?;
    if store_it {
        store(&cap, &j)?;
    }
    Ok(j)
}

fn percentile_text(ps: &[PercentileJson]) -> String {
    ps.iter()
        .map(|p| format!("p{} {:.0}–{:.0} µs", p.p, p.low_us, p.high_us))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text rendering.
pub fn render(j: &LatencyJson) -> String {
    let how = if j.method == METHOD_HISTOGRAMS {
        "every request, from the tracer's histograms per interval".to_string()
    } else {
        format!("the stored requests; sample rate {}", j.sample_rate)
    };
    let mut s = format!(
        "{}: completion latency from the trace ({how}; {})\n",
        j.capture, j.buckets
    );
    let mean = |m: Option<f64>| m.map_or_else(|| "-".into(), |m| format!("{m:.1} µs"));
    for x in &j.series {
        s += &format!(
            "  {} {} {}: {} requests, {} completed, mean {}; {}\n",
            x.device,
            x.window,
            x.op,
            x.requests,
            x.completed,
            mean(x.mean_us),
            percentile_text(&x.percentiles)
        );
    }
    if !j.hours.is_empty() {
        s += "  per hour (UTC):\n";
    }
    for x in &j.hours {
        s += &format!(
            "  {} {} {}: {} requests, mean {}; {}\n",
            crate::clock::iso_utc(x.start_utc_ms),
            x.device,
            x.op,
            x.requests,
            mean(x.mean_us),
            percentile_text(&x.percentiles)
        );
    }
    s
}
