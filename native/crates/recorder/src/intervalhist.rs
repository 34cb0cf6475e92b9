//! The tracer's latency histograms per sample interval (`latency_histograms`, schema v6): every
//! completed read and write, counted as the writer receives it from the tracer and before the
//! trace's sampling keeps a share of the requests, so that percentiles keep every request.
//!
//! A request belongs to the interval [sample k, sample k+1) its issue falls in (the monotonic
//! clock of both). The tracer hands requests over up to 60 s after their issue (a request without
//! a completion is given up then), and samples can wait in the writer's queue, so a request can
//! arrive after its interval closed, or before the sample that closes it: requests issued at or
//! after the latest sample wait for the next one; an interval is written one sample after it
//! closed, and what arrives for it later is added to the written row. Intervals are kept for
//! [`RETAIN_NS`] after they close; a request older than that is not counted (`late` counts them).

use std::collections::{BTreeMap, VecDeque};

use crate::capture::HistRow;
use crate::trace::latency::Hist;

/// How long a closed interval is kept for late requests: the tracer's 60 s timeout, and 10 s.
pub(super) const RETAIN_NS: u64 = crate::trace::UNPAIRED_TIMEOUT_NS + 10_000_000_000;

struct Interval {
    start_mono: u64,
    start_utc: i64,
    /// The closing sample (mono, utc); None while the interval is open.
    end: Option<(u64, i64)>,
    /// (device id, op) → (requests, completed latencies) not yet written.
    cells: BTreeMap<(i64, char), (u64, Hist)>,
}

/// A request waiting for the sample that closes its interval.
struct Early {
    dev: i64,
    op: char,
    issue: u64,
    latency: Option<u64>,
}

/// The histograms of this session's intervals.
#[derive(Default)]
pub(super) struct IntervalHists {
    intervals: VecDeque<Interval>,
    early: Vec<Early>,
    ready: Vec<HistRow>,
    /// Requests that arrived after their interval was forgotten (not counted), every session.
    pub(super) late: u64,
}

impl IntervalHists {
    /// No interval yet; `late` requests counted by earlier sessions.
    pub(super) fn with_late(late: u64) -> IntervalHists {
        IntervalHists {
            late,
            ..IntervalHists::default()
        }
    }

    /// A sample was taken: the open interval closes at it and a new one opens.
    pub(super) fn on_sample(&mut self, mono: u64, utc: i64) {
        if let Some(last) = self.intervals.back_mut() {
            if last.end.is_none() {
                last.end = Some((mono, utc));
            }
        }
        // intervals closed before the previous sample are written now
        let prev = self.intervals.back().map(|i| i.start_mono);
        for iv in self.intervals.iter_mut() {
            if iv.end.is_some_and(|(m, _)| prev.is_some_and(|p| m <= p)) {
                flush(iv, &mut self.ready);
            }
        }
        while self.intervals.len() > 2
            && self
                .intervals
                .front()
                .and_then(|i| i.end)
                .is_some_and(|(m, _)| m.saturating_add(RETAIN_NS) < mono)
        {
            if let Some(mut iv) = self.intervals.pop_front() {
                flush(&mut iv, &mut self.ready);
            }
        }
        self.intervals.push_back(Interval {
            start_mono: mono,
            start_utc: utc,
            end: None,
            cells: BTreeMap::new(),
        });
        for e in std::mem::take(&mut self.early) {
            self.add(e.dev, e.op, e.issue, e.latency);
        }
    }

    /// A read or write (`op` R or W) issued at `issue` (mono ns), with its latency when it
    /// completed. Other operations are not counted.
    pub(super) fn add(&mut self, dev: i64, op: char, issue: u64, latency: Option<u64>) {
        if op != 'R' && op != 'W' {
            return;
        }
        let Some(last) = self.intervals.back() else {
            return;
        };
        if issue >= last.start_mono && last.end.is_none() {
            self.early.push(Early {
                dev,
                op,
                issue,
                latency,
            });
            return;
        }
        // the interval whose start is the latest at or before the issue
        let i = self.intervals.partition_point(|iv| iv.start_mono <= issue);
        if i == 0 {
            self.late += 1;
            return;
        }
        let cell = self.intervals[i - 1].cells.entry((dev, op)).or_default();
        cell.0 += 1;
        if let Some(l) = latency {
            cell.1.add(l);
        }
    }

    /// The rows to write now.
    pub(super) fn take_ready(&mut self) -> Vec<HistRow> {
        std::mem::take(&mut self.ready)
    }

    /// The recording ends at its last sample: every closed interval's rows; requests issued
    /// after the last sample are not counted (the requests table drops them too).
    pub(super) fn finish(&mut self) -> Vec<HistRow> {
        for iv in self.intervals.iter_mut() {
            if iv.end.is_some() {
                flush(iv, &mut self.ready);
            }
        }
        self.early.clear();
        self.take_ready()
    }
}

fn flush(iv: &mut Interval, ready: &mut Vec<HistRow>) {
    let Some((_, end_utc)) = iv.end else {
        return;
    };
    for ((dev, op), (requests, hist)) in std::mem::take(&mut iv.cells) {
        ready.push(HistRow {
            device_id: dev,
            start_utc_ms: iv.start_utc,
            end_utc_ms: end_utc,
            op,
            requests,
            hist,
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const S: u64 = 1_000_000_000;

    #[test]
    fn requests_land_in_the_interval_of_their_issue() {
        let mut h = IntervalHists::default();
        h.add(1, 'R', 5, Some(100)); // before the first sample: nowhere
        h.on_sample(10 * S, 10_000);
        h.add(1, 'R', 10 * S, Some(50_000)); // open interval: waits
        h.add(1, 'W', 10 * S + 5, None);
        h.add(1, 'F', 10 * S + 6, Some(1)); // a flush is not counted
        h.on_sample(11 * S, 11_000);
        assert!(
            h.take_ready().is_empty(),
            "written one sample after it closed"
        );
        h.add(1, 'R', 10 * S + 9, Some(60_000)); // arrives after the close, before the write
        h.add(2, 'R', 11 * S + 1, Some(7)); // next interval: waits
        h.on_sample(12 * S, 12_000);
        let rows = h.take_ready();
        assert_eq!(rows.len(), 2);
        let r = rows.iter().find(|r| r.op == 'R').unwrap();
        assert_eq!(
            (r.device_id, r.start_utc_ms, r.end_utc_ms),
            (1, 10_000, 11_000)
        );
        assert_eq!((r.requests, r.hist.n), (2, 2));
        assert_eq!(r.hist.sum_ns, 110_000);
        let w = rows.iter().find(|r| r.op == 'W').unwrap();
        assert_eq!((w.requests, w.hist.n), (1, 0));
        // a completion that comes late for the first interval: a new row to add to the stored one
        h.add(1, 'R', 10 * S + 20, Some(1_000));
        h.on_sample(13 * S, 13_000);
        let rows = h.take_ready();
        let mut starts: Vec<_> = rows.iter().map(|r| (r.start_utc_ms, r.device_id)).collect();
        starts.sort_unstable();
        assert_eq!(starts, vec![(10_000, 1), (11_000, 2)]);
        // the end: closed intervals are written, the open one and what waits for it are not
        h.add(3, 'R', 12 * S + 1, Some(1));
        h.add(3, 'R', 13 * S + 1, Some(1));
        let rows = h.finish();
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].device_id, rows[0].start_utc_ms), (3, 12_000));
        assert_eq!(h.late, 0);
    }

    #[test]
    fn old_intervals_are_forgotten_and_late_requests_counted() {
        let mut h = IntervalHists::default();
        for k in 0..100 {
            h.on_sample(k * S, k as i64 * 1000);
        }
        // intervals that closed more than 70 s ago are gone
        h.add(1, 'R', 5 * S, Some(1));
        assert_eq!(h.late, 1);
        h.add(1, 'R', 50 * S, Some(1));
        assert_eq!(h.late, 1);
        h.on_sample(100 * S, 100_000);
        assert_eq!(h.take_ready().len(), 1);
    }
}
