//! `tracerpt trace.etl -o out.csv -of CSV`: the kernel `DiskIo` events of Windows' own trace
//! dumper. Layout from Microsoft's documentation, not from a real export (none was at hand):
//! a header line naming the columns (`Event Name, Type, …, Clock-Time, Kernel(ms), User(ms),
//! User Data`), then one event a line whose `User Data` spreads over the columns that follow, in
//! the order of the event's MOF class:
//! - `Read`/`Write` (DiskIo_TypeGroup1): DiskNumber, IrpFlags, TransferSize, Reserved,
//!   ByteOffset, FileObject, Irp, HighResResponseTime, IssuingThreadId;
//! - `FlushBuffers` (DiskIo_TypeGroup3): DiskNumber, IrpFlags, HighResResponseTime, Irp, …;
//! - `ReadInit`/`WriteInit`/`FlushInit` (DiskIo_TypeGroup2): Irp, IssuingThreadId.
//!
//! `Clock-Time` counts 100 ns (a FILETIME). The kernel logs a request when it completes; it was
//! issued at its `…Init` event, found by its `Irp`. `HighResResponseTime` counts
//! QueryPerformanceCounter ticks whose frequency the rows do not give: it times a request
//! without its init event only when the frequency is given (`--qpc-hz`); else that request is
//! skipped and counted (record with the DiskIoInit keyword, or give the frequency).
//! Numbers are integers (or `0x…` hexadecimal); a file re-saved with `;` separators groups
//! thousands with `.`.

use super::etw::{offset, split_csv, Dec, EtwReq};
use super::Trace;
use crate::error::{ProbeError, Result};
use crate::request::Op;
use std::collections::HashMap;
use std::path::Path;

struct Cols {
    name: usize,
    kind: usize,
    clock: usize,
    user: usize,
}

fn header(fields: &[String]) -> Option<Cols> {
    let at = |n: &str| fields.iter().position(|f| f.eq_ignore_ascii_case(n));
    Some(Cols {
        name: at("Event Name")?,
        kind: at("Type")?,
        clock: at("Clock-Time")?,
        user: at("User Data")?,
    })
}

/// How the event lines are laid out, read from the header line.
struct Layout {
    cols: Cols,
    sep: char,
    dec: Dec,
}

/// The header line's layout, or `None` (and the line counted) when `t` is not one.
fn header_line(t: &str, tr: &mut Trace) -> Option<Layout> {
    let sep = if t.contains(',') { ',' } else { ';' };
    let f: Vec<String> = split_csv(t, sep).iter().map(|s| s.trim().into()).collect();
    if let Some(cols) = header(&f) {
        let dec = if sep == ';' { Dec::Comma } else { Dec::Point };
        Some(Layout { cols, sep, dec })
    } else {
        tr.other_lines += 1;
        None
    }
}

/// What a `DiskIo` event of type `kind` is: `Some(None)` an init event, `Some(Some(op))` a
/// completion (`op` `None` for a flush), `None` any other event.
fn disk_io(name: &str, kind: &str) -> Option<Option<Option<Op>>> {
    if !name.eq_ignore_ascii_case("DiskIo") {
        return None;
    }
    match kind {
        "Read" => Some(Some(Some(Op::Read))),
        "Write" => Some(Some(Some(Op::Write))),
        "FlushBuffers" => Some(Some(None)),
        "ReadInit" | "WriteInit" | "FlushInit" => Some(None),
        _ => None,
    }
}

/// The event lines after the header: the trace's origin, the init events waiting for their
/// completion (by Irp) and the requests read so far.
struct Events<'a> {
    tr: &'a mut Trace,
    qpc_hz: Option<u64>,
    origin: Option<i128>,
    init: HashMap<i128, i128>,
    reqs: Vec<EtwReq>,
}

impl Events<'_> {
    /// One event line `t` (line `n`).
    fn line(&mut self, n: u64, t: &str, l: &Layout) {
        let c = &l.cols;
        let f: Vec<String> = split_csv(t, l.sep)
            .iter()
            .map(|s| s.trim().to_string())
            .collect();
        let field = |k: usize| f.get(k).map_or("", String::as_str);
        let (name, kind) = (field(c.name), field(c.kind));
        if name.eq_ignore_ascii_case("EventTrace") && kind.eq_ignore_ascii_case("Header") {
            if self.origin.is_none() {
                self.origin = offset(field(c.clock), l.dec);
            }
            self.tr.other_lines += 1;
            return;
        }
        let Some(op) = disk_io(name, kind) else {
            self.tr.other_lines += 1;
            return;
        };
        if op.is_some() {
            self.tr.records += 1;
        } else {
            self.tr.other_lines += 1;
        }
        let user = f.get(c.user..).unwrap_or(&[]);
        // (User Data index, name, the fields an event of this type has at least).
        let (need, at): (usize, &[(usize, &str)]) = match op {
            None => (1, &[(0, "Irp")]),
            Some(None) => (4, &[(0, "DiskNumber"), (3, "Irp")]),
            Some(Some(_)) => (
                8,
                &[
                    (0, "DiskNumber"),
                    (2, "TransferSize"),
                    (4, "ByteOffset"),
                    (6, "Irp"),
                ],
            ),
        };
        if user.len() < need {
            self.tr.skip(
                n,
                "User Data",
                format!(
                    "{} User Data fields where DiskIo {kind} has {need} or more",
                    user.len()
                ),
                "wrong column count",
            );
            return;
        }
        let named = at.iter().map(|(k, nm)| (*nm, user[*k].as_str()));
        let Some(vals) = self.numbers(
            n,
            std::iter::once(("Clock-Time", field(c.clock))).chain(named),
            l.dec,
        ) else {
            return;
        };
        let clock = vals[0];
        let irp = *vals.last().unwrap_or(&0);
        let Some(op) = op else {
            self.origin.get_or_insert(clock);
            self.init.insert(irp, clock);
            return;
        };
        self.completion(n, kind, op, &vals, user, l.dec);
    }

    /// The fields' values, in order, or `None` (and the line skipped) at the first that is not
    /// a number.
    fn numbers<'s>(
        &mut self,
        n: u64,
        fields: impl Iterator<Item = (&'s str, &'s str)>,
        dec: Dec,
    ) -> Option<Vec<i128>> {
        let mut vals = Vec::new();
        for (label, s) in fields {
            if let Some(v) = offset(s, dec) {
                vals.push(v);
            } else {
                self.tr
                    .skip(n, label, format!("'{s}' is not a number"), "bad number");
                return None;
            }
        }
        Some(vals)
    }

    /// A completion event (`op` `None` for a flush) whose numbers are `vals`: Clock-Time,
    /// DiskNumber, then TransferSize and ByteOffset for a read or write, then Irp.
    fn completion(
        &mut self,
        n: u64,
        kind: &str,
        op: Option<Op>,
        vals: &[i128],
        user: &[String],
        dec: Dec,
    ) {
        let clock = vals[0];
        let o = *self.origin.get_or_insert(clock);
        let irp = *vals.last().unwrap_or(&0);
        let irp_text = &user[if op.is_some() { 6 } else { 3 }];
        // Without its init event: completion − HighResResponseTime (User Data 7, a flush's 2).
        let issue_ns = match (self.init.remove(&irp), self.qpc_hz) {
            (Some(issued), _) => (issued - o) * 100,
            (None, Some(hz)) => {
                let k = if op.is_some() { 7 } else { 2 };
                let s = user[k].as_str();
                let Some(ticks) = offset(s, dec) else {
                    self.tr.skip(
                        n,
                        "HighResResponseTime",
                        format!("'{s}' is not a number"),
                        "bad number",
                    );
                    return;
                };
                let hz = i128::from(hz);
                (clock - o) * 100 - (ticks * 1_000_000_000 + hz / 2) / hz
            }
            (None, None) => {
                self.tr.skip(
                    n,
                    "Irp",
                    format!("no DiskIo ReadInit/WriteInit/FlushInit event before it with Irp {irp_text}: record with the DiskIoInit keyword, or give the traced machine's QueryPerformanceCounter frequency (--qpc-hz) to time it by HighResResponseTime"),
                    "no init event",
                );
                return;
            }
        };
        let (off, bytes) = if op.is_some() {
            (vals[3], vals[2])
        } else {
            (0, 0)
        };
        self.reqs.push(EtwReq {
            line: n,
            issue_ns: issue_ns as i64,
            complete_ns: ((clock - o) * 100) as i64,
            disk: format!("disk{}", vals[1]),
            offset: off,
            bytes,
            op,
            op_text: kind.to_string(),
        });
    }
}

pub(super) fn read_tracerpt(
    path: &Path,
    text: &str,
    tr: &mut Trace,
    qpc_hz: Option<u64>,
) -> Result<Vec<EtwReq>> {
    let mut layout: Option<Layout> = None;
    let mut ev = Events {
        tr,
        qpc_hz,
        origin: None,
        init: HashMap::new(),
        reqs: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let t = line.trim().trim_start_matches('\u{feff}');
        if t.is_empty() {
            continue;
        }
        match &layout {
            None => layout = header_line(t, ev.tr),
            Some(l) => ev.line(n, t, l),
        }
    }
    if layout.is_none() {
        return Err(ProbeError::BadTrace(format!(
            "{}:1: no tracerpt header line (Event Name, Type, …, Clock-Time, Kernel(ms), User(ms), User Data): export with tracerpt trace.etl -o out.csv -of CSV",
            path.display()
        )));
    }
    if let Some(o) = ev.origin.filter(|o| *o > 100_000_000_000_000_000) {
        ev.tr.origin_utc_ms = Some((o / 10_000) as i64 - 11_644_473_600_000);
    }
    Ok(ev.reqs)
}
