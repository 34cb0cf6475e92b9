//! A trace's per-interval counters (docs/simulate.md § Intervals): every source maps into the
//! capture's canonical per-interval record per device, so an imported trace opens as a workload
//! profile like an imported log. From the requests, as the kernel's diskstats count them: a
//! request is counted in the interval where it completes (its count, bytes and the time it took:
//! `read_time_ms`, `write_time_ms`, `discard_time_ms`, `flush_time_ms`); `busy_ms` is the time
//! of the interval with at least one request in flight, `weighted_ms` the sum over requests of
//! their time in flight within the interval. Merges and the in-flight count are not in a trace
//! (NULL). A device with a request whose completion the format does not give (CloudPhysics,
//! DiskSim, MSN, oracleGeneral) has its counts but no times (NULL).
//!
//! Times in ms are cumulative sums rounded down, so a device's total over the trace is within
//! 1 ms of the sum of its requests' ns (no rounding error piles up across intervals).

use super::Trace;
use crate::capture::imported::IntervalRow;
use crate::request::Op;

/// The interval length for a trace of `span_ms`: 1 s, or whole seconds keeping at most
/// [`MAX_INTERVALS`] intervals per device.
pub const MAX_INTERVALS: i64 = 21_600;

pub fn interval_ms(span_ms: i64) -> i64 {
    let s = (span_ms.max(1) + MAX_INTERVALS * 1000 - 1) / (MAX_INTERVALS * 1000);
    s.max(1) * 1000
}

/// Kind of request for the counters.
#[derive(Clone, Copy)]
enum K {
    Read,
    Write,
    Discard,
    Flush,
}

/// A request as (issue ns, completion ns or None, bytes, kind).
type DevReq = (i64, Option<i64>, u64, K);

/// Request `i` of `tr`: its requests, then its flushes.
fn req(tr: &Trace, i: u32) -> DevReq {
    let i = i as usize;
    match tr.reqs.get(i) {
        Some(r) => {
            let k = match r.op {
                Op::Read => K::Read,
                Op::Write => K::Write,
                Op::Discard => K::Discard,
            };
            (r.t_ns, tr.complete_ns[i], r.bytes, k)
        }
        None => {
            let f = &tr.flushes[i - tr.reqs.len()];
            (f.t_ns, Some(f.complete_ns), 0, K::Flush)
        }
    }
}

/// Counters of one interval, with ns times before rounding.
#[derive(Default, Clone)]
struct Acc {
    n: [i64; 4],
    bytes: [i64; 4],
    time_ns: [i64; 4],
    busy_ns: i64,
    weighted_ns: i64,
}

/// The one grid of intervals every device's rows share.
struct Grid {
    start_ms: i64,
    /// Interval length, ms.
    len: i64,
    /// Number of intervals.
    n: usize,
    /// The first interval's start, ns from the trace's origin.
    grid0_ns: i64,
    len_ns: i64,
}

impl Grid {
    /// The interval holding time `ns` (the first or last for times outside).
    fn at(&self, ns: i64) -> usize {
        (((ns - self.grid0_ns).max(0) / self.len_ns) as usize).min(self.n - 1)
    }

    /// The counters of requests `reqs` (indexes into `tr`, see [`req`]) in each interval.
    fn accumulate(&self, tr: &Trace, reqs: &[u32], timed: bool) -> Vec<Acc> {
        let mut acc = vec![Acc::default(); self.n];
        for &i in reqs {
            let (t, c, bytes, k) = req(tr, i);
            let done = c.unwrap_or(t).max(t);
            let a = &mut acc[self.at(done)];
            a.n[k as usize] += 1;
            a.bytes[k as usize] += bytes as i64;
            a.time_ns[k as usize] += done - t;
            // time in flight, split over the intervals it spans
            let mut s = t;
            while s < done {
                let i = self.at(s);
                let e = done.min(self.grid0_ns + (i as i64 + 1) * self.len_ns);
                acc[i].weighted_ns += e - s;
                s = e;
            }
        }
        if timed {
            busy(tr, reqs, &mut acc, self.grid0_ns, self.len_ns);
        }
        acc
    }

    /// One device's rows from its counters; its times only when every request is `timed`.
    fn rows(&self, acc: &[Acc], timed: bool) -> Vec<IntervalRow<'static>> {
        let mut cum = [0i64; 6];
        let mut ms = |slot: usize, ns: i64| -> i64 {
            let before = cum[slot] / 1_000_000;
            cum[slot] += ns;
            cum[slot] / 1_000_000 - before
        };
        acc.iter()
            .enumerate()
            .map(|(i, a)| {
                let s = self.start_ms + i as i64 * self.len;
                let mut t = [0i64; 6];
                for (k, v) in t.iter_mut().enumerate().take(4) {
                    *v = ms(k, a.time_ns[k]);
                }
                t[4] = ms(4, a.busy_ns);
                t[5] = ms(5, a.weighted_ns);
                let tm = |v: i64| timed.then_some(v);
                IntervalRow {
                    device_id: 0,
                    start_utc_ms: s,
                    end_utc_ms: s + self.len,
                    interval_ms: self.len as f64,
                    status: "ok",
                    counters: [
                        Some(a.n[0]),
                        Some(a.n[1]),
                        None,
                        None,
                        Some(a.bytes[0]),
                        Some(a.bytes[1]),
                        tm(t[0]),
                        tm(t[1]),
                        tm(t[4]),
                        tm(t[5]),
                        None,
                        Some(a.n[2]),
                        Some(a.bytes[2]),
                        tm(t[2]),
                        Some(a.n[3]),
                        tm(t[3]),
                    ],
                }
            })
            .collect()
    }
}

/// The intervals of every device of `tr` (device index, rows with `device_id` 0 to be set), the
/// sample times (ms after the origin) and the interval length. `origin_ms` is the UTC ms of
/// t_ns = 0. Empty when the trace has no request.
pub fn trace_intervals(
    tr: &Trace,
    origin_ms: i64,
) -> (Vec<(usize, Vec<IntervalRow<'static>>)>, Vec<i64>) {
    // each device's requests by index (4 bytes each: a day's trace is millions of requests)
    let mut per: Vec<Vec<u32>> = vec![Vec::new(); tr.devices.len()];
    for (i, r) in tr.reqs.iter().enumerate() {
        per[r.dev as usize].push(i as u32);
    }
    for (i, f) in tr.flushes.iter().enumerate() {
        per[f.dev as usize].push((tr.reqs.len() + i) as u32);
    }
    // the span over every device: one grid for all
    let ends = per.iter().flatten().map(|&i| {
        let (t, c, _, _) = req(tr, i);
        (t, c.unwrap_or(t).max(t))
    });
    let (lo, hi) = ends.fold((i64::MAX, i64::MIN), |(a, b), (t, c)| (a.min(t), b.max(c)));
    if lo > hi {
        return (Vec::new(), Vec::new());
    }
    let start_ms = origin_ms + lo.div_euclid(1_000_000);
    let end_ms = origin_ms + hi.div_euclid(1_000_000) + 1;
    let len = interval_ms(end_ms - start_ms);
    let grid = Grid {
        start_ms,
        len,
        n: ((end_ms - start_ms + len - 1) / len) as usize,
        grid0_ns: (start_ms - origin_ms) * 1_000_000,
        len_ns: len * 1_000_000,
    };
    let mut out = Vec::new();
    for (d, reqs) in per.iter().enumerate() {
        if reqs.is_empty() {
            continue;
        }
        let timed = reqs.iter().all(|&i| req(tr, i).1.is_some());
        let acc = grid.accumulate(tr, reqs, timed);
        out.push((d, grid.rows(&acc, timed)));
    }
    let samples = (0..=grid.n as i64).map(|i| start_ms + i * len).collect();
    (out, samples)
}

/// `busy_ns` of each interval: the union of the requests' time in flight, clipped to it.
fn busy(tr: &Trace, reqs: &[u32], acc: &mut [Acc], grid0_ns: i64, len_ns: i64) {
    let span = |i: u32| {
        let (t, c, _, _) = req(tr, i);
        (t, c.unwrap_or(t).max(t))
    };
    // in issue order (the requests are in it, the flushes follow them: a sort of indices)
    let mut order = reqs.to_vec();
    order.sort_by_key(|&i| span(i).0);
    let spans = order.into_iter().map(span).filter(|(t, c)| c > t);
    let n = acc.len();
    let mut add = |s: i64, e: i64| {
        let mut s = s;
        while s < e {
            let i = (((s - grid0_ns).max(0) / len_ns) as usize).min(n - 1);
            let end = e.min(grid0_ns + (i as i64 + 1) * len_ns);
            let end = if i == n - 1 { e } else { end };
            acc[i].busy_ns += end - s;
            s = end;
        }
    };
    let mut cur: Option<(i64, i64)> = None;
    for (s, e) in spans {
        match cur {
            Some((cs, ce)) if s <= ce => cur = Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                add(cs, ce);
                cur = Some((s, e));
            }
            None => cur = Some((s, e)),
        }
    }
    if let Some((cs, ce)) = cur {
        add(cs, ce);
    }
}
