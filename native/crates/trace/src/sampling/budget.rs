//! The budget's controller (the module doc of `trace::sampling`, "The controller"): when and how
//! far the recorder lowers the threshold so that the stored trace stays within its budget.

use super::{fmt_rate, mb, rate_of, ROW_BYTES};
use crate::shards::SHARDS_P;

/// Seconds in the budget's period.
pub const DAY_S: f64 = 86_400.0;
/// The projection is kept at most this share of the budget.
pub const MARGIN: f64 = 0.9;
/// A lower threshold is taken only when it is at least this much lower (relative).
pub const HYSTERESIS: f64 = 0.05;
/// The budget's share of this much tracing time is there from the start (seconds).
pub const SHARE_FLOOR_S: f64 = 600.0;

/// The budget's share after `traced_s` seconds of tracing (bytes): B × max(t, 10 min) / 24 h.
pub fn share_of(budget: u64, traced_s: f64) -> f64 {
    budget as f64 * traced_s.max(SHARE_FLOOR_S) / DAY_S
}

/// An excess over the budget's share is paid back within this many seconds, after `traced_s`.
pub fn payback_s(traced_s: f64) -> f64 {
    (traced_s / 10.0).max(60.0)
}

/// When the recorder decides next (seconds of tracing), after deciding at `t`.
pub fn next_decision_s(t: f64) -> f64 {
    (2.0 * t).max(t + 0.2).min(t + 60.0)
}
/// Requests seen at one threshold before the share they keep is measured rather than assumed.
pub const MIN_PERIOD_SEEN: u64 = 500;

/// Where a budgeted trace stands when the recorder decides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BudgetView {
    /// Seconds of tracing so far (every session).
    pub traced_s: f64,
    /// Requests handed over by the tracer so far (before sampling).
    pub seen: u64,
    /// Requests stored so far.
    pub stored: u64,
    /// Since the threshold was last set: requests seen and kept.
    pub period_seen: u64,
    pub period_kept: u64,
    pub threshold: u64,
    /// Requests per second seen since the last decision (None: too short a time to tell).
    pub recent_per_s: Option<f64>,
}

/// A lower threshold and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub threshold: u64,
    pub reason: String,
}

/// The controller (module doc): a lower threshold when the trace would exceed `budget` bytes
/// per 24 h, None to keep the one in force.
pub fn decide(v: &BudgetView, budget: u64) -> Option<Decision> {
    if v.traced_s <= 0.0 || v.seen == 0 || v.threshold <= 1 {
        return None;
    }
    let p = SHARDS_P as f64;
    let rate = rate_of(v.threshold);
    let lambda = v.seen as f64 / v.traced_s;
    // The share the threshold keeps per unit of rate: 1 in expectation, more or less when a few
    // hot blocks carry many requests.
    let q = if v.period_seen >= MIN_PERIOD_SEEN && v.period_kept > 0 {
        (v.period_kept as f64 / v.period_seen as f64 / rate).clamp(0.01, 100.0)
    } else {
        1.0
    };
    let bytes_per_s_per_threshold = lambda * q * ROW_BYTES as f64 / p;
    let day = budget as f64;
    let projected = bytes_per_s_per_threshold * v.threshold as f64 * DAY_S;
    let sustain = MARGIN * day / (bytes_per_s_per_threshold * DAY_S);
    let stored = v.stored as f64 * ROW_BYTES as f64;
    let share = share_of(budget, v.traced_s);
    let over = stored > share;
    let recent = v.recent_per_s.unwrap_or(lambda).max(lambda);
    let h = payback_s(v.traced_s);
    let pay = if over {
        ((share_of(budget, v.traced_s + h) - stored) / (recent * q * ROW_BYTES as f64 / p * h))
            .max(1.0)
    } else {
        f64::INFINITY
    };
    let target = sustain.min(pay).floor().max(1.0);
    let t = v.threshold as f64;
    if target >= t * (1.0 - HYSTERESIS) {
        return None;
    }
    let reason = if pay < sustain {
        format!(
            "{} stored after {:.0} s of tracing, above the budget's share of {} ({} per 24 h); at {:.0} requests/s the excess is paid back within {:.0} s",
            mb(stored),
            v.traced_s,
            mb(share),
            mb(day),
            recent,
            h
        )
    } else {
        format!(
            "at {:.0} requests/s (the average so far) the trace would take {} per 24 h at rate {}, above the budget of {} per 24 h",
            lambda,
            mb(projected),
            fmt_rate(rate),
            mb(day)
        )
    };
    Some(Decision {
        threshold: target as u64,
        reason,
    })
}

/// The recorder's sampler: the threshold in force and, under a budget, when and how it lowers it
/// (the module doc's rule and schedule). Pure: the recorder feeds it the requests it sees and the
/// time traced; tests drive it over hours of a synthetic load.
#[derive(Debug, Clone)]
pub struct Controller {
    threshold: u64,
    budget: Option<u64>,
    /// Since the threshold was last set: requests seen and kept.
    period_seen: u64,
    period_kept: u64,
    /// The last decision (time traced, requests seen then) and the time of the next.
    last: (f64, u64),
    next_s: f64,
}

impl Controller {
    /// At `threshold` (out of 2^24), under `budget` bytes per 24 h when given.
    pub fn new(threshold: u64, budget: Option<u64>) -> Controller {
        Controller {
            threshold: threshold.clamp(1, SHARDS_P),
            budget,
            period_seen: 0,
            period_kept: 0,
            last: (0.0, 0),
            next_s: 0.0,
        }
    }

    /// The threshold in force.
    pub fn threshold(&self) -> u64 {
        self.threshold
    }

    /// Whether the trace is sampled at all (a threshold below 2^24, or a budget that may lower it).
    pub fn samples(&self) -> bool {
        self.threshold < SHARDS_P || self.budget.is_some()
    }

    /// A request of hash `h` was seen: whether it is kept.
    pub fn keep(&mut self, h: u64) -> bool {
        self.period_seen += 1;
        let kept = self.threshold >= SHARDS_P || h < self.threshold;
        if kept {
            self.period_kept += 1;
        }
        kept
    }

    /// After a batch: `traced_s` seconds traced, `seen` requests seen and `stored` stored in all.
    /// Decides when one is due (or at once while what is stored exceeds its share, at most once
    /// a second) and returns the change it made.
    pub fn steer(&mut self, traced_s: f64, seen: u64, stored: u64) -> Option<Decision> {
        let budget = self.budget?;
        let over = stored as f64 * ROW_BYTES as f64 > share_of(budget, traced_s)
            && traced_s >= self.last.0 + 1.0;
        if traced_s < self.next_s && !over {
            return None;
        }
        let (t0, seen0) = self.last;
        let recent_per_s =
            (traced_s - t0 >= 0.5).then(|| seen.saturating_sub(seen0) as f64 / (traced_s - t0));
        self.last = (traced_s, seen);
        self.next_s = next_decision_s(traced_s);
        let d = decide(
            &BudgetView {
                traced_s,
                seen,
                stored,
                period_seen: self.period_seen,
                period_kept: self.period_kept,
                threshold: self.threshold,
                recent_per_s,
            },
            budget,
        )?;
        self.threshold = d.threshold;
        self.period_seen = 0;
        self.period_kept = 0;
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A view whose period (since the threshold was set) kept the nominal share of the seen.
    fn view(traced_s: f64, seen: u64, stored: u64, threshold: u64) -> BudgetView {
        BudgetView {
            traced_s,
            seen,
            stored,
            period_seen: seen,
            period_kept: (seen as f64 * rate_of(threshold)).round() as u64,
            threshold,
            recent_per_s: None,
        }
    }

    #[test]
    fn the_projection_is_kept_within_ninety_percent_of_the_budget() {
        // 1,000 requests/s at rate 1 for 100 s, all stored: 64 kB/s, 5.53 GB per 24 h. A budget of
        // 300 MB needs a rate of 0.9 × 300e6 / 5.5296e9 = 0.04883 (threshold 819,200).
        let budget = 300_000_000;
        // what is stored (6.4 MB) is above the budget's share (the first ten minutes': 2.08 MB)
        // and cannot be paid back within a minute: the lowest rate
        let d = decide(&view(100.0, 100_000, 100_000, SHARDS_P), budget).unwrap();
        assert_eq!(d.threshold, 1);
        assert!(d.reason.contains("paid back"), "{}", d.reason);
        // a second in, 20 kB stored: well within the first ten minutes' share, the projection
        // alone decides (at 320 requests/s)
        let d = decide(&view(1.0, 320, 320, SHARDS_P), budget).unwrap();
        let want = 0.9 * 300e6 / (320.0 * 64.0 / SHARDS_P as f64 * DAY_S);
        assert_eq!(d.threshold, want.floor() as u64);
        // an hour in, 1 MB over its share of 12.5 MB at a load that tripled lately: paid back within
        // 6 minutes at the recent rate, not the average
        let mut v = view(3600.0, 3_600_000, 211_000, SHARDS_P / 4);
        v.stored = (13.5e6 / 64.0) as u64;
        v.recent_per_s = Some(3000.0);
        let d = decide(&v, budget).unwrap();
        let q = v.period_kept as f64 / v.period_seen as f64 / rate_of(SHARDS_P / 4);
        let stored = v.stored as f64 * 64.0;
        let pay =
            (share_of(budget, 3960.0) - stored) / (3000.0 * q * 64.0 / SHARDS_P as f64 * 360.0);
        assert_eq!(d.threshold, pay.floor() as u64);
        // within its share: the projection alone decides
        let d = decide(&view(100.0, 100_000, 300, SHARDS_P), budget).unwrap();
        let want = 0.9 * 300e6 / (1000.0 * 64.0 / SHARDS_P as f64 * DAY_S);
        assert_eq!(d.threshold, want.floor() as u64);
        assert!(d.reason.contains("per 24 h"), "{}", d.reason);
        // at that threshold nothing changes
        let t = want.floor() as u64;
        let kept = (100_000.0 * rate_of(t)).round() as u64;
        assert_eq!(decide(&view(100.0, 100_000, 300, t), budget), None);
        // the measured share of a hot block: twice the nominal share kept halves the threshold
        let v = BudgetView {
            traced_s: 100.0,
            seen: 100_000,
            stored: 300,
            period_seen: 100_000,
            period_kept: 2 * kept,
            threshold: t,
            recent_per_s: None,
        };
        let d = decide(&v, budget).unwrap();
        assert!((d.threshold as f64 / (t as f64 / 2.0) - 1.0).abs() < 0.01);
    }

    #[test]
    fn small_changes_wait_and_the_threshold_never_rises() {
        let budget = 300_000_000;
        let want = 0.9 * 300e6 / (1000.0 * 64.0 / SHARDS_P as f64 * DAY_S);
        // 3 % above the sustainable threshold: within the hysteresis, no change
        let t = (want * 1.03) as u64;
        assert_eq!(decide(&view(100.0, 100_000, 300, t), budget), None);
        // a lighter load never raises it
        assert_eq!(decide(&view(100.0, 10, 10, 1000), budget), None);
        // nothing seen yet, or no time: no decision
        assert_eq!(decide(&view(0.0, 100, 100, SHARDS_P), budget), None);
        assert_eq!(decide(&view(5.0, 0, 0, SHARDS_P), budget), None);
        // the lowest threshold is 1
        let d = decide(&view(1.0, 10_000_000, 10_000_000, SHARDS_P), 1).unwrap();
        assert_eq!(d.threshold, 1);
        assert_eq!(decide(&view(1.0, 10_000_000, 10_000_000, 1), 1), None);
    }

    #[test]
    fn the_share_starts_with_ten_minutes_and_the_payback_takes_a_tenth_of_the_time() {
        assert_eq!(share_of(86_400, 1.0), 600.0);
        assert_eq!(share_of(86_400, 3600.0), 3600.0);
        assert_eq!(payback_s(5.0), 60.0);
        assert_eq!(payback_s(3600.0), 360.0);
    }

    #[test]
    fn decisions_come_twice_as_late_then_every_minute() {
        assert_eq!(next_decision_s(0.0), 0.2);
        assert_eq!(next_decision_s(0.2), 0.4);
        assert_eq!(next_decision_s(12.8), 25.6);
        assert_eq!(next_decision_s(100.0), 160.0);
    }

    /// The controller over hours of a load that triples, then falls: requests arrive in 0.2 s
    /// batches as the tracer hands them over, each kept with the probability of the rate in force
    /// (counted as the expected share, no randomness).
    #[test]
    fn over_hours_the_stored_trace_stays_within_its_share() {
        let budget = 300_000_000u64;
        let mut c = Controller::new(SHARDS_P, Some(budget));
        let (mut t, mut seen, mut stored) = (0.0f64, 0u64, 0f64);
        let mut changes = 0;
        let mut worst = 0.0f64;
        for (secs, per_s) in [(7200.0, 1000.0), (7200.0, 3000.0), (7200.0, 500.0)] {
            let end = t + secs;
            while t < end {
                t += 0.2;
                let n = (per_s * 0.2) as u64;
                seen += n;
                stored += n as f64 * rate_of(c.threshold());
                c.period_seen += n;
                c.period_kept += (n as f64 * rate_of(c.threshold())).round() as u64;
                if c.steer(t, seen, stored as u64).is_some() {
                    changes += 1;
                }
                worst = worst.max(stored * ROW_BYTES as f64 / share_of(budget, t));
            }
        }
        println!(
            "6 h at 1,000, 3,000 then 500 requests/s under 300 MB per 24 h: {changes} changes, final rate {}, at most {worst:.3} of the share, {:.3} at the end",
            fmt_rate(rate_of(c.threshold())),
            stored * ROW_BYTES as f64 / share_of(budget, t)
        );
        // within its share at every moment (the share of the first ten minutes from the start,
        // and the excess a tripled load causes paid back within a tenth of the time traced)
        assert!(worst <= 1.05, "stored / share reached {worst:.3}");
        // and close to it: the budget is used, not wasted (a falling load leaves room)
        let at_end = stored * ROW_BYTES as f64 / share_of(budget, t);
        assert!(at_end > 0.6, "only {at_end:.2} of the share used");
        // a handful of changes, not one a batch
        assert!((2..=40).contains(&changes), "{changes} changes");
    }
}
