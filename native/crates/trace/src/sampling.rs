//! Spatial sampling of the block trace (`record --trace-sample R`, `--trace-budget SIZE`) and
//! what its readers need to scale every estimate by the rate the requests were kept at.
//!
//! A request is kept when the SHARDS hash of its device and first 4 KiB block is below a
//! threshold T out of P = 2^24 (rate R = T / P; docs/simulate.md, "Methods"): a block is always
//! kept or always dropped. Under a size budget the recorder lowers T as the trace grows (never
//! raises it), so the blocks kept at a later, lower threshold are a subset of those kept before:
//! the rows of a trace whose rate fell are a uniform sample at every threshold up to the one in
//! force when they were written.
//!
//! **How readers scale** (docs/probe.md, "Trace budget"): every estimate from the stored rows
//! (`predict`, `simulate` on a capture) keeps only the rows whose hash is below the *final*
//! threshold, `meta.trace_sample_threshold`, and scales by the final rate. That gives one uniform
//! spatial sample of the whole window, the case SHARDS' fixed-rate estimator is exact in
//! expectation for; weighting each row by the rate in force when it was written would use more
//! rows, but a reuse whose two references straddle a rate change would then be counted between a
//! block sampled at the old rate and a stack that no longer holds the blocks above the new one
//! (the eviction SHARDS' fixed-size mode does as it runs, which a reader replaying stored rows
//! would have to redo). The cost: the rows kept before the last change above the final threshold
//! are stored but not used by the estimates (at most the share of the budget the controller
//! allowed before that change).
//!
//! **The controller** ([`decide`]): the budget B is bytes of stored trace (rows of
//! `block_requests` and their index, [`ROW_BYTES`] each) per 24 h of tracing; what is stored
//! stays within B's share of the time traced, B × t / 24 h (pro rata), the first ten minutes'
//! share being there from the start (B × max(t, 10 min) / 24 h: the requests kept before the
//! first decision, and a first estimate made on a second of load, need that room). Two rules
//! lower T:
//! - the projection: from the requests handed over so far (their average rate over the time
//!   traced, and the share of them the current threshold keeps), the size per 24 h at T must be
//!   at most 90 % of B;
//! - the share: when what is stored exceeds its share (a load that grows outruns the projection
//!   of its average), T is lowered so that, at the recent rate of requests (since the last
//!   decision, when higher than the average), the excess is paid back within a tenth of the time
//!   traced (at least a minute).
//!
//! A new threshold is taken only when it is at least 5 % lower than the one in force. Decisions
//! come at 0.2 s, 0.4 s, 0.8 s, … of tracing (each one twice as late), then every minute, and
//! every second while what is stored exceeds its share ([`Controller`]); the recorder asks after
//! each batch of requests it writes, and not after its last sample.

use crate::capture::Capture;
use crate::error::Result;
use crate::request::block_key;
use crate::shards::{mix, SHARDS_P};
pub use crate::shards::{rate_of, threshold_of, RateChange};

mod budget;

pub use budget::{
    decide, next_decision_s, payback_s, share_of, BudgetView, Controller, Decision, DAY_S,
    HYSTERESIS, MARGIN, MIN_PERIOD_SEEN, SHARE_FLOOR_S,
};

/// Bytes of one stored request: its `block_requests` row and index entry. The app's size model
/// (`app/src/shared/estimate.ts`, `TRACE_BYTES_PER_REQUEST`) has the same figure; a unit test of
/// each side keeps them equal.
pub const ROW_BYTES: u64 = 64;
/// The budget of `record --trace` when neither `--trace-sample` nor `--trace-budget` is given:
/// 300 MB (decimal) of stored trace per 24 h of tracing.
pub const DEFAULT_BUDGET_BYTES: u64 = 300_000_000;

/// The SHARDS hash of a traced request (device id in the capture, first 512-byte sector) mod P.
pub fn hash_of(device_id: i64, sector: u64) -> u64 {
    mix(block_key(device_id as u32, sector / 8)) % SHARDS_P
}

/// How a capture's trace was sampled, as its readers need it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSampling {
    /// The rate every estimate scales by: the final one (1 = every request).
    pub rate: f64,
    /// The final threshold, when the recorder wrote it: readers keep only the rows below it.
    /// Absent in captures of earlier probes (their rows were all kept at `rate`) and imports.
    pub threshold: Option<u64>,
    /// `--trace-budget` in bytes per 24 h (absent: none).
    pub budget_bytes: Option<u64>,
    /// Every change of the rate, oldest first.
    pub changes: Vec<RateChange>,
}

impl StoredSampling {
    /// Read from a capture's meta and `trace_sample_rates` (v6; absent before).
    pub fn read(cap: &Capture) -> Result<StoredSampling> {
        let threshold = cap
            .meta("trace_sample_threshold")?
            .and_then(|s| s.parse::<u64>().ok())
            .map(|t| t.clamp(1, SHARDS_P));
        let rate = match threshold {
            Some(t) => rate_of(t),
            None => cap
                .meta("trace_sample_rate")?
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|r| *r > 0.0 && *r <= 1.0)
                .unwrap_or(1.0),
        };
        let budget_bytes = cap
            .meta("trace_budget_bytes")?
            .and_then(|s| s.parse::<u64>().ok());
        Ok(StoredSampling {
            rate,
            threshold,
            budget_bytes,
            changes: cap.rate_changes()?,
        })
    }

    /// Whether a stored row is in the uniform sample at the final rate.
    pub fn keeps(&self, device_id: i64, sector: i64) -> bool {
        match self.threshold {
            Some(t) if t < SHARDS_P => sector >= 0 && hash_of(device_id, sector as u64) < t,
            _ => true,
        }
    }
}

/// Bytes in words: kB, MB or GB (powers of 1000) with one decimal.
pub fn mb(b: f64) -> String {
    if b < 1e6 {
        format!("{:.1} kB", b / 1e3)
    } else if b < 1e9 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.1} GB", b / 1e9)
    }
}

/// A rate in words: up to 4 significant digits.
pub fn fmt_rate(r: f64) -> String {
    let s = format!("{r:.4}");
    if r >= 0.001 {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{r:.3e}")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn sizes_in_words() {
        assert_eq!(mb(3_456.0), "3.5 kB");
        assert_eq!(mb(300e6), "300.0 MB");
        assert_eq!(mb(5.5296e9), "5.5 GB");
    }

    #[test]
    fn thresholds_and_rates() {
        assert_eq!(threshold_of(1.0), SHARDS_P);
        assert_eq!(threshold_of(0.5), SHARDS_P / 2);
        assert_eq!(threshold_of(1e-12), 1);
        assert_eq!(rate_of(SHARDS_P / 4), 0.25);
        assert_eq!(fmt_rate(0.25), "0.25");
        assert_eq!(fmt_rate(1.0), "1");
        assert_eq!(fmt_rate(0.04883), "0.0488");
        assert_eq!(fmt_rate(0.0001234), "1.234e-4");
    }

    #[test]
    fn the_row_size_and_the_default_budget_are_the_apps() {
        // app/src/shared/estimate.ts: `export const TRACE_BYTES_PER_REQUEST = 64;`
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../app/src/shared/estimate.ts");
        let Ok(ts) = std::fs::read_to_string(&path) else {
            panic!("{} is missing: ROW_BYTES copies it", path.display());
        };
        assert!(
            ts.contains(&format!(
                "export const TRACE_BYTES_PER_REQUEST = {ROW_BYTES};"
            )),
            "estimate.ts and trace/sampling.rs disagree on the bytes of a stored request"
        );
        assert!(
            ts.contains(&format!(
                "export const TRACE_DEFAULT_BUDGET_BYTES = {};",
                group(DEFAULT_BUDGET_BYTES)
            )),
            "estimate.ts and trace/sampling.rs disagree on the default trace budget"
        );
    }

    /// 300000000 → "300_000_000", as the TypeScript source writes it.
    fn group(n: u64) -> String {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push('_');
            }
            out.push(c);
        }
        out
    }
}
