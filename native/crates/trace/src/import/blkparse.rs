//! `blkparse` default text output: issue (`D`) and complete (`C`) events.

use std::collections::BTreeMap;

use super::{num, Rec, State, Trace};
use crate::request::Op;

/// blkparse's default output: `maj,min cpu seq seconds pid action rwbs sector + sectors [proc]`.
/// `D` (issued to the driver) makes a request; a `C` (completed) of the same device, sector and
/// size gives its completion. Other actions are counted as other lines; so are the summary lines
/// blkparse prints at the end.
#[derive(Default)]
pub(super) struct Blk {
    pending: BTreeMap<(u32, u64, u64), Vec<usize>>,
    in_summary: bool,
}

/// A `D` or `C` event's line number, time (s), device (`maj,min`) and sectors.
struct Event<'a> {
    n: u64,
    t: f64,
    dev: &'a str,
    sector: i128,
    sectors: i128,
}

impl Blk {
    pub(super) fn line(&mut self, tr: &mut Trace, st: &mut State, n: u64, text: &str) {
        let c: Vec<&str> = text.split_whitespace().collect();
        if self.in_summary
            || c.first()
                .is_some_and(|x| x.starts_with("CPU") || x.starts_with("Total"))
        {
            self.in_summary = true;
            tr.other_lines += 1;
            return;
        }
        let is_event = c.len() >= 7 && c[0].contains(',') && c[3].contains('.');
        if !is_event {
            tr.records += 1;
            tr.skip(
                n,
                "line",
                "not a blkparse event line (maj,min cpu seq time pid action rwbs ...)".into(),
                "not an event line",
            );
            return;
        }
        let action = c[5];
        if action != "D" && action != "C" {
            tr.other_lines += 1;
            return;
        }
        tr.records += 1;
        let rwbs = c[6];
        let op = if rwbs.contains('D') {
            Op::Discard
        } else if rwbs.contains('R') {
            Op::Read
        } else if rwbs.contains('W') {
            Op::Write
        } else {
            // A flush without data (FN, N): no blocks to cache.
            tr.other_lines += 1;
            tr.records -= 1;
            return;
        };
        if c.len() < 10 || c[8] != "+" {
            tr.skip(
                n,
                "sector",
                format!("{action} event without 'sector + sectors'"),
                "wrong column count",
            );
            return;
        }
        let Ok(t) = num::<f64>(tr, n, "time", c[3]) else {
            return;
        };
        let Ok(sector) = num::<i128>(tr, n, "sector", c[7]) else {
            return;
        };
        let Ok(sectors) = num::<i128>(tr, n, "sectors", c[9]) else {
            return;
        };
        let ev = Event {
            n,
            t,
            dev: c[0],
            sector,
            sectors,
        };
        if action == "C" {
            self.complete(tr, st, &ev);
        } else {
            self.issue(tr, st, &ev, op, rwbs);
        }
    }

    /// A `C` event: the completion of the oldest pending request of its device, sector and
    /// size (kept only when the read keeps details).
    fn complete(&mut self, tr: &mut Trace, st: &State, ev: &Event<'_>) {
        let origin = st.origin.unwrap_or(ev.t);
        let t_ns = ((ev.t - origin) * 1e9).round() as i64;
        let di = tr.dev_index(ev.dev);
        let key = (di, ev.sector.max(0) as u64, ev.sectors.max(0) as u64);
        if let Some(q) = self.pending.get_mut(&key) {
            if !q.is_empty() && st.opts.detail {
                let i = q.remove(0);
                tr.complete_ns[i] = Some(t_ns.max(tr.reqs[i].t_ns));
            }
        }
    }

    /// A `D` event: a request, pending until its completion.
    fn issue(&mut self, tr: &mut Trace, st: &mut State, ev: &Event<'_>, op: Op, rwbs: &str) {
        let before = tr.reqs.len();
        st.push(
            tr,
            Rec {
                line: ev.n,
                t: ev.t,
                t_int: None,
                dev: ev.dev,
                offset: ev.sector * 512,
                bytes: ev.sectors * 512,
                op,
                op_text: rwbs,
                complete_ns: None,
            },
        );
        if tr.reqs.len() > before {
            let r = tr.reqs[before];
            self.pending
                .entry((r.dev, r.offset / 512, r.bytes / 512))
                .or_default()
                .push(before);
        }
    }

    pub(super) fn finish(&mut self, _tr: &mut Trace) {}
}
