//! The predicted backing I/O and response time of `predict` (docs/simulate.md § predict): each
//! counted request of the baseline, hit or not in the simulated cache, tallied with the weight it
//! stands for (1/R of a sampled trace), then turned into the JSON figures with their 95 % bounds
//! from the sampling (0 when every request is traced: an exact replay).

use serde::Serialize;

/// z of a two-sided 95 % interval.
const Z95: f64 = 1.96;

/// Counted requests of the window after the warm-up, as the primary policy served them.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Weighted counts (each traced request stands for `w` requests).
    reads: f64,
    writes: f64,
    read_hits: f64,
    /// Traced (unweighted) counts.
    n_reads: u64,
    n_read_hits: u64,
    /// Requests that reach the backing device: read misses and writes.
    n_backing: u64,
    /// Requests with a known completion latency (the response-time set).
    lat_n: u64,
    lat_w: f64,
    lat_hit_w: f64,
    pred_sum: f64,
    pred_sumsq: f64,
    base_sum: f64,
    miss_sum: f64,
    miss_w: f64,
    without_completion: u64,
}

/// The baseline's counted I/Os (what the front devices carried), estimated from the trace.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrontIos {
    pub reads: f64,
    pub writes: f64,
    pub total: f64,
    /// Seconds of the window that are counted (after the warm-up).
    pub seconds: f64,
    /// `total` / `seconds`; null when no second is counted.
    pub per_second: Option<f64>,
}

/// The predicted I/O that still reaches the backing device with the cache in place.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BackingIos {
    /// Reads that miss the cache.
    pub read_misses: f64,
    /// Writes (they go around the cache: `bypass`).
    pub writes: f64,
    pub total: f64,
    pub per_second: Option<f64>,
    /// Half-width of the 95 % interval of `total` from the sampling (0: every request traced).
    pub uncertainty: f64,
    pub per_second_uncertainty: Option<f64>,
}

/// The predicted average response time as the application would see it.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResponseTime {
    /// Hits at `hitUs`, the others at their own traced latency, averaged, µs.
    pub predicted_us: f64,
    /// Half-width of the 95 % interval of `predictedUs` from the sampling (0: every request traced).
    pub uncertainty_us: f64,
    /// The same requests at their own traced latency (the baseline without a cache), µs.
    pub baseline_us: f64,
    /// The cache device's read latency given for a hit, µs.
    pub hit_us: f64,
    /// Mean traced latency of the requests that are not hits (read misses and writes), µs;
    /// null when every request hits.
    pub miss_us: Option<f64>,
    /// Share of the averaged requests that hit (0–1): predictedUs = hitShare × hitUs + (1 −
    /// hitShare) × missUs.
    pub hit_share: f64,
    /// Requests averaged (traced, with a completion).
    pub requests: u64,
    /// Counted requests left out because the trace has no completion for them.
    pub without_completion: u64,
    pub method: &'static str,
}

pub const RESPONSE_METHOD: &str = "hits at the cache device's read latency, read misses and writes at their own completion latency traced in the baseline (the cache off: the backing device served them), averaged over the counted requests with a completion";

impl Tally {
    /// One counted request: a read (`hit` or not) or a write (never a hit: writes bypass), with
    /// its traced completion latency (µs) when known; `hit_us` the cache device's read latency
    /// when one is given; `w` the requests it stands for (1/R).
    pub fn add(
        &mut self,
        read: bool,
        hit: bool,
        latency_us: Option<f64>,
        hit_us: Option<f64>,
        w: f64,
    ) {
        let hit = read && hit;
        if read {
            self.reads += w;
            self.n_reads += 1;
            if hit {
                self.read_hits += w;
                self.n_read_hits += 1;
            }
        } else {
            self.writes += w;
        }
        if !hit {
            self.n_backing += 1;
        }
        let Some(own) = latency_us else {
            self.without_completion += 1;
            return;
        };
        self.lat_n += 1;
        self.lat_w += w;
        self.base_sum += w * own;
        let predicted = if hit {
            self.lat_hit_w += w;
            hit_us.unwrap_or(own)
        } else {
            self.miss_sum += w * own;
            self.miss_w += w;
            own
        };
        self.pred_sum += w * predicted;
        self.pred_sumsq += w * predicted * predicted;
    }

    /// Traced counted reads and their hits (for the hit share's binomial interval).
    pub fn traced_reads(&self) -> (u64, u64) {
        (self.n_reads, self.n_read_hits)
    }

    /// What the front devices carried in the counted seconds.
    pub fn front(&self, seconds: f64) -> FrontIos {
        let total = self.reads + self.writes;
        FrontIos {
            reads: self.reads,
            writes: self.writes,
            total,
            seconds,
            per_second: (seconds > 0.0).then(|| total / seconds),
        }
    }

    /// What reaches the backing device. `rate` is the trace's sampling rate R; `saved_unc_pp` the
    /// 95 % half-width of the I/Os saved share in percentage points. The interval combines the
    /// share's (total × its half-width) and the count's own (Horvitz–Thompson with each request
    /// kept with probability R: 1.96 × √(n × (1 − R)) / R over the n traced backing requests).
    pub fn backing(&self, seconds: f64, rate: f64, saved_unc_pp: f64) -> BackingIos {
        let total_front = self.reads + self.writes;
        let misses = self.reads - self.read_hits;
        let total = misses + self.writes;
        let unc = if rate < 1.0 {
            let share = total_front * saved_unc_pp / 100.0;
            let count = Z95 * (self.n_backing as f64 * (1.0 - rate)).sqrt() / rate;
            (share * share + count * count).sqrt()
        } else {
            0.0
        };
        let per = |x: f64| (seconds > 0.0).then(|| x / seconds);
        BackingIos {
            read_misses: misses,
            writes: self.writes,
            total,
            per_second: per(total),
            uncertainty: unc,
            per_second_uncertainty: per(unc),
        }
    }

    /// The predicted response time, or None without a cache device or without a request whose
    /// completion was traced. Its interval is that of a mean over the traced requests:
    /// 1.96 × √(variance / n), 0 with every request traced.
    pub fn response(&self, hit_us: Option<f64>, rate: f64) -> Option<ResponseTime> {
        let hit_us = hit_us?;
        if self.lat_n == 0 || self.lat_w <= 0.0 {
            return None;
        }
        let mean = self.pred_sum / self.lat_w;
        let var = (self.pred_sumsq / self.lat_w - mean * mean).max(0.0);
        Some(ResponseTime {
            predicted_us: mean,
            uncertainty_us: if rate < 1.0 {
                Z95 * (var / self.lat_n as f64).sqrt()
            } else {
                0.0
            },
            baseline_us: self.base_sum / self.lat_w,
            hit_us,
            miss_us: (self.miss_w > 0.0).then(|| self.miss_sum / self.miss_w),
            hit_share: self.lat_hit_w / self.lat_w,
            requests: self.lat_n,
            without_completion: self.without_completion,
            method: RESPONSE_METHOD,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_small_window_by_hand() {
        // 4 reads (2 hits) and 1 write over 10 s; latencies 100, 300 (hits), 500, 700 (misses),
        // 900 (write) µs; the cache answers in 10 µs.
        let mut t = Tally::default();
        t.add(true, true, Some(100.0), Some(10.0), 1.0);
        t.add(true, true, Some(300.0), Some(10.0), 1.0);
        t.add(true, false, Some(500.0), Some(10.0), 1.0);
        t.add(true, false, Some(700.0), Some(10.0), 1.0);
        t.add(false, true, Some(900.0), Some(10.0), 1.0); // a write is never a hit
        let b = t.backing(10.0, 1.0, 0.0);
        assert_eq!((b.read_misses, b.writes, b.total), (2.0, 1.0, 3.0));
        assert_eq!((b.per_second, b.uncertainty), (Some(0.3), 0.0));
        assert_eq!(t.front(10.0).per_second, Some(0.5));
        let r = t.response(Some(10.0), 1.0).unwrap();
        // (10 + 10 + 500 + 700 + 900) / 5 = 424; baseline (100+300+500+700+900)/5 = 500
        assert!((r.predicted_us - 424.0).abs() < 1e-9);
        assert!((r.baseline_us - 500.0).abs() < 1e-9);
        assert!((r.miss_us.unwrap() - 700.0).abs() < 1e-9);
        assert!((r.hit_share - 0.4).abs() < 1e-12);
        assert_eq!((r.uncertainty_us, r.requests), (0.0, 5));
        // no cache device: no response time
        assert!(t.response(None, 1.0).is_none());
    }

    #[test]
    fn a_sampled_trace_scales_counts_and_has_intervals() {
        let mut t = Tally::default();
        t.add(true, true, Some(100.0), Some(10.0), 2.0);
        t.add(true, false, Some(300.0), Some(10.0), 2.0);
        t.add(true, false, None, Some(10.0), 2.0);
        let b = t.backing(1.0, 0.5, 10.0);
        assert_eq!(b.total, 4.0);
        // share part 6 × 0.10 = 0.6; count part 1.96 × √(2 × 0.5) / 0.5 = 3.92
        assert!((b.uncertainty - (0.6f64.powi(2) + 3.92f64.powi(2)).sqrt()).abs() < 1e-9);
        let r = t.response(Some(10.0), 0.5).unwrap();
        assert_eq!((r.requests, r.without_completion), (2, 1));
        // predicted 10 and 300: mean 155, variance 145² → 1.96 × 145 / √2
        assert!((r.predicted_us - 155.0).abs() < 1e-9);
        assert!((r.uncertainty_us - 1.96 * 145.0 / 2f64.sqrt()).abs() < 1e-9);
    }
}
