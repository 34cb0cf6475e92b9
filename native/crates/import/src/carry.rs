//! Rates into whole counts without losing the fractions (docs/import.md, "From rates to
//! counts"): each interval's count is rate × Δt plus what the intervals before it left over,
//! rounded; the rounding error is carried to the next interval (error diffusion), per device
//! and per counter. The counts of a device over its intervals then add up to Σ rate × Δt of
//! the source within half a unit (half an I/O, half a byte, half a millisecond), however many
//! intervals there are, where rounding each interval alone loses up to half a unit per interval.

use super::{Counts, Rates};

/// The counters that add up over intervals, in the order of [`RateToCount::carry`].
const SUMMED: usize = 15;

/// The conversion of one device's rates, interval after interval, in time order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RateToCount {
    /// What was left over of each summed counter (in [-0.5, 0.5]): reads, writes, read and
    /// write merges, read and write bytes, read and write time, busy, weighted time, discards,
    /// discard bytes, discard time, flushes, flush time.
    pub carry: [f64; SUMMED],
}

fn valid(x: f64) -> Option<f64> {
    (x.is_finite() && x >= 0.0).then_some(x)
}

impl RateToCount {
    /// Counts of the interval of `dt_ms` that follows the ones already converted: count =
    /// rate × Δt; time = average time per I/O × count (the unrounded count); busy = busy
    /// share × Δt; weighted time = average queue × Δt (Little's law: the sum of the times the
    /// requests spent queued or in service); each plus its carry, rounded to a whole unit.
    /// The requests in flight are a level, not a sum: rounded alone.
    pub fn next(&mut self, r: &Rates, dt_ms: f64) -> Counts {
        let dt_s = dt_ms / 1000.0;
        let n = |x: Option<f64>| x.map(|v| v * dt_s).and_then(valid);
        let reads = n(r.reads_per_s);
        let writes = n(r.writes_per_s);
        let discards = n(r.discards_per_s);
        let flushes = n(r.flushes_per_s);
        let time = |per: Option<f64>, cnt: Option<f64>| match (per, cnt) {
            (Some(p), Some(c)) => valid(p * c),
            _ => None,
        };
        let exact = [
            reads,
            writes,
            n(r.read_merges_per_s),
            n(r.write_merges_per_s),
            n(r.read_bytes_per_s),
            n(r.write_bytes_per_s),
            time(r.read_ms_per_io, reads),
            time(r.write_ms_per_io, writes),
            r.busy_frac.and_then(|b| valid(b.clamp(0.0, 1.0) * dt_ms)),
            r.queue_avg.and_then(|q| valid(q * dt_ms)),
            discards,
            n(r.discard_bytes_per_s),
            time(r.discard_ms_per_io, discards),
            flushes,
            time(r.flush_ms_per_io, flushes),
        ];
        let mut out = [None; SUMMED];
        for (i, x) in exact.into_iter().enumerate() {
            if let Some(x) = x {
                let want = x + self.carry[i];
                // never below zero (a carry of −0.5 on an interval of nothing stays a carry)
                let whole = want.round().max(0.0);
                self.carry[i] = want - whole;
                out[i] = Some(whole as i64);
            }
        }
        Counts {
            reads: out[0],
            writes: out[1],
            read_merges: out[2],
            write_merges: out[3],
            read_bytes: out[4],
            write_bytes: out[5],
            read_time_ms: out[6],
            write_time_ms: out[7],
            busy_ms: out[8],
            weighted_ms: out[9],
            in_flight: r.in_flight.and_then(valid).map(|x| x.round() as i64),
            discards: out[10],
            discard_bytes: out[11],
            discard_time_ms: out[12],
            flushes: out[13],
            flush_time_ms: out[14],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_third_of_an_io_per_interval_adds_up() {
        // 0.1 I/O per s over 3.333… s: rounded alone, every interval would be 0
        let r = Rates {
            reads_per_s: Some(0.1),
            ..Rates::default()
        };
        let mut c = RateToCount::default();
        let got: Vec<i64> = (0..9)
            .map(|_| c.next(&r, 10_000.0 / 3.0).reads.unwrap_or(-1))
            .collect();
        assert_eq!(got.iter().sum::<i64>(), 3, "{got:?}");
        assert!(got.iter().all(|&x| x == 0 || x == 1), "{got:?}");
    }

    #[test]
    fn a_blank_figure_is_none_and_keeps_the_carry() {
        let mut c = RateToCount::default();
        let half = Rates {
            writes_per_s: Some(0.4),
            ..Rates::default()
        };
        assert_eq!(c.next(&half, 1000.0).writes, Some(0));
        assert_eq!(c.next(&Rates::default(), 1000.0).writes, None);
        assert_eq!(c.next(&half, 1000.0).writes, Some(1));
    }

    proptest! {
        /// Over any prefix of intervals the counts are within half a unit of the exact sum,
        /// and never negative.
        #[test]
        fn prefix_sums_within_half(xs in proptest::collection::vec((0.0f64..500.0, 1.0f64..700_000.0), 1..200)) {
            let mut c = RateToCount::default();
            let (mut exact, mut got) = (0.0f64, 0i64);
            for (rate, dt) in xs {
                let r = Rates { reads_per_s: Some(rate), queue_avg: Some(rate / 100.0), ..Rates::default() };
                let k = c.next(&r, dt);
                let n = k.reads.unwrap_or(-1);
                prop_assert!(n >= 0 && k.weighted_ms.unwrap_or(-1) >= 0);
                exact += rate * dt / 1000.0;
                got += n;
                prop_assert!((got as f64 - exact).abs() <= 0.5 + 1e-6 * exact.max(1.0), "{got} vs {exact}");
            }
        }
    }
}
