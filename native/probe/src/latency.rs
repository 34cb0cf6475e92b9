//! Completion latency of traced block requests (`cacheproof-probe latency`, docs/simulate.md
//! § Latency from the trace): per device, per phase window, reads and writes apart, a log-scale
//! histogram of `complete_ns − issue_ns` and its p50/p95/p99/p99.9.
//!
//! Buckets: 4 per octave of microseconds. Bucket 0 holds [0, 1 µs); bucket k ≥ 1 holds
//! [2^((k−1)/4), 2^(k/4)) µs, so each bucket is 18.9 % wider than the one before. The trace's
//! times have µs resolution (tracefs `mono` clock printed with 6 decimals). The trace measures
//! the time the request spent in the driver (issue to completion); what an application sees
//! (fio's `clat`) adds the kernel's path above the driver, tens of µs (docs/simulate.md). A percentile is the bucket holding the request of rank
//! ⌈p × n⌉ (nearest rank) among the n completed requests: it is given as that bucket's edges.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::capture::Capture;
use crate::error::{ProbeError, Result};

/// Buckets per doubling of the latency.
pub const BUCKETS_PER_OCTAVE: u32 = 4;
/// The percentiles reported.
pub const PERCENTILES: [f64; 4] = [50.0, 95.0, 99.0, 99.9];

/// Bucket index of a latency in ns (see the module doc).
pub fn bucket_of_ns(ns: u64) -> u32 {
    let us = ns as f64 / 1000.0;
    if us < 1.0 {
        return 0;
    }
    let k = (us.log2() * f64::from(BUCKETS_PER_OCTAVE)).floor() as u32 + 1;
    // Guard the float at the exact edges: the bucket's low edge must be ≤ us.
    if low_us(k) > us {
        k - 1
    } else if high_us(k) <= us {
        k + 1
    } else {
        k
    }
}

/// Low edge of bucket k in µs.
pub fn low_us(k: u32) -> f64 {
    if k == 0 {
        0.0
    } else {
        2f64.powf(f64::from(k - 1) / f64::from(BUCKETS_PER_OCTAVE))
    }
}

/// High edge (exclusive) of bucket k in µs.
pub fn high_us(k: u32) -> f64 {
    2f64.powf(f64::from(k) / f64::from(BUCKETS_PER_OCTAVE))
}

/// Bucket index of a latency given in µs (e.g. fio's `clat_ns` percentiles / 1000).
pub fn bucket_of_us(us: f64) -> u32 {
    bucket_of_ns((us * 1000.0).round().max(0.0) as u64)
}

/// A latency histogram.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hist {
    pub counts: BTreeMap<u32, u64>,
    pub n: u64,
    pub sum_ns: u128,
}

impl Hist {
    pub fn add(&mut self, ns: u64) {
        *self.counts.entry(bucket_of_ns(ns)).or_default() += 1;
        self.n += 1;
        self.sum_ns += u128::from(ns);
    }
    /// Bucket of the nearest-rank percentile p (0 < p ≤ 100); None when empty.
    pub fn percentile_bucket(&self, p: f64) -> Option<u32> {
        if self.n == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.n as f64).ceil().max(1.0) as u64;
        let mut cum = 0;
        for (k, c) in &self.counts {
            cum += c;
            if cum >= rank {
                return Some(*k);
            }
        }
        self.counts.keys().next_back().copied()
    }
}

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

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LatencyJson {
    pub capture: String,
    pub buckets_per_octave: u32,
    /// The bucket rule in words.
    pub buckets: &'static str,
    /// Share of requests the trace kept (`record --trace-sample`); 1 = every request.
    pub sample_rate: f64,
    pub series: Vec<SeriesJson>,
}

pub const BUCKET_RULE: &str = "bucket 0 = [0, 1 µs); bucket k ≥ 1 = [2^((k−1)/4), 2^(k/4)) µs; a percentile is the bucket of the nearest-rank request";

fn series(device: &str, window: &str, op: &'static str, requests: u64, h: &Hist) -> SeriesJson {
    SeriesJson {
        device: device.into(),
        window: window.into(),
        op,
        requests,
        completed: h.n,
        mean_us: (h.n > 0).then(|| h.sum_ns as f64 / h.n as f64 / 1000.0),
        percentiles: PERCENTILES
            .iter()
            .filter_map(|p| {
                h.percentile_bucket(*p).map(|k| PercentileJson {
                    p: *p,
                    bucket: k,
                    low_us: low_us(k),
                    high_us: high_us(k),
                })
            })
            .collect(),
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

/// The trace sampling rate a capture's meta records (1 when absent).
pub fn sample_rate(cap: &Capture) -> Result<f64> {
    Ok(cap
        .meta("trace_sample_rate")?
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|r| *r > 0.0 && *r <= 1.0)
        .unwrap_or(1.0))
}

/// Latency histograms of a capture's block requests: per device, for the whole trace and for
/// each finished phase, reads and writes apart. Requests without a completion count in
/// `requests` only; a completion before its issue (never written by the probe, but possible in
/// an edited capture) is an error naming the row.
pub fn of_capture(cap: &Capture) -> Result<LatencyJson> {
    let conn = cap.conn();
    let has: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='block_requests'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record with 'record --trace'",
            cap.path().display()
        )));
    }
    let mut phases: Vec<(String, i64, i64)> = Vec::new();
    {
        let mut q = conn.prepare(
            "SELECT name, start_utc_ms, end_utc_ms FROM phases WHERE end_utc_ms IS NOT NULL AND end_utc_ms > start_utc_ms ORDER BY start_utc_ms",
        )?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        for r in rows {
            phases.push(r?);
        }
    }
    // (device, window index (0 = all, i+1 = phases[i]), op) → (requests, hist)
    type Key = (String, usize, &'static str);
    let mut acc: BTreeMap<Key, (u64, Hist)> = BTreeMap::new();
    let mut q = conn.prepare(
        "SELECT b.rowid, d.name, b.issue_ns, b.complete_ns, b.utc_ms, b.op FROM block_requests b JOIN devices d ON d.id = b.device_id WHERE b.op IN ('R','W')",
    )?;
    let mut rows = q.query([])?;
    let mut total = 0u64;
    while let Some(r) = rows.next()? {
        let rowid: i64 = r.get(0)?;
        let dev: String = r.get(1)?;
        let issue: i64 = r.get(2)?;
        let complete: Option<i64> = r.get(3)?;
        let utc: i64 = r.get(4)?;
        let op: String = r.get(5)?;
        let op: &'static str = if op == "R" { "read" } else { "write" };
        if let Some(c) = complete {
            if c < issue {
                return Err(ProbeError::BadTrace(format!(
                    "{}: block_requests row {rowid} completes {} ns before its issue (times going backwards): the capture was edited or damaged",
                    cap.path().display(),
                    issue - c
                )));
            }
        }
        total += 1;
        let mut windows = vec![0usize];
        for (i, (_, s, e)) in phases.iter().enumerate() {
            if utc >= *s && utc < *e {
                windows.push(i + 1);
            }
        }
        for w in windows {
            let e = acc.entry((dev.clone(), w, op)).or_default();
            e.0 += 1;
            if let Some(c) = complete {
                e.1.add((c - issue) as u64);
            }
        }
    }
    if total == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no traced read or write: record with 'record --trace' while the devices are in use",
            cap.path().display()
        )));
    }
    let series = acc
        .iter()
        .map(|((dev, w, op), (n, h))| {
            let window = if *w == 0 {
                "all"
            } else {
                phases[w - 1].0.as_str()
            };
            series(dev, window, op, *n, h)
        })
        .collect();
    Ok(LatencyJson {
        capture: cap.path().display().to_string(),
        buckets_per_octave: BUCKETS_PER_OCTAVE,
        buckets: BUCKET_RULE,
        sample_rate: sample_rate(cap)?,
        series,
    })
}

/// `latency CAPTURE [--store]`: the histograms; with `store`, also written to the capture's
/// meta `trace_latency` (the JSON without the capture's path).
pub fn run(path: &Path, store: bool) -> Result<LatencyJson> {
    let cap = Capture::open(path, store)?;
    let j = of_capture(&cap)?;
    if store {
        let mut v = serde_json::to_value(&j).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.remove("capture");
        }
        cap.set_meta("trace_latency", &v.to_string())?;
    }
    Ok(j)
}

/// Text rendering.
pub fn render(j: &LatencyJson) -> String {
    let mut s = format!(
        "{}: completion latency from the trace ({}; sample rate {})\n",
        j.capture, j.buckets, j.sample_rate
    );
    for x in &j.series {
        let ps = x
            .percentiles
            .iter()
            .map(|p| format!("p{} {:.0}–{:.0} µs", p.p, p.low_us, p.high_us))
            .collect::<Vec<_>>()
            .join(", ");
        s += &format!(
            "  {} {} {}: {} requests, {} completed, mean {}; {}\n",
            x.device,
            x.window,
            x.op,
            x.requests,
            x.completed,
            x.mean_us
                .map(|m| format!("{m:.1} µs"))
                .unwrap_or_else(|| "-".into()),
            ps
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_have_the_stated_edges() {
        assert_eq!(bucket_of_ns(0), 0);
        assert_eq!(bucket_of_ns(999), 0);
        assert_eq!(bucket_of_ns(1000), 1);
        assert_eq!(bucket_of_ns(2000), 5);
        assert_eq!(bucket_of_ns(1999), 4);
        assert_eq!(bucket_of_ns(1_024_000), 41);
        for k in 1..200 {
            let lo = low_us(k);
            let hi = high_us(k);
            assert!((hi / lo - 2f64.powf(0.25)).abs() < 1e-9);
            assert_eq!(bucket_of_us(lo * 1.001), k, "bucket {k}");
            assert_eq!(bucket_of_us(hi * 0.999), k, "bucket {k}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut h = Hist::default();
        for us in 1..=100u64 {
            h.add(us * 1000);
        }
        // rank 50 is 50 µs, rank 99 is 99 µs, rank 100 (p99.9) is 100 µs
        assert_eq!(h.percentile_bucket(50.0), Some(bucket_of_ns(50_000)));
        assert_eq!(h.percentile_bucket(99.0), Some(bucket_of_ns(99_000)));
        assert_eq!(h.percentile_bucket(99.9), Some(bucket_of_ns(100_000)));
        assert_eq!(Hist::default().percentile_bucket(50.0), None);
    }
}
