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
use crate::sim::Op;
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

#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub(super) fn read_tracerpt(
    path: &Path,
    text: &str,
    tr: &mut Trace,
    qpc_hz: Option<u64>,
) -> Result<Vec<EtwReq>> {
    let mut cols: Option<(Cols, char, Dec)> = None;
    let mut origin: Option<i128> = None;
    let mut init: HashMap<i128, i128> = HashMap::new();
    let mut reqs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let t = line.trim().trim_start_matches('\u{feff}');
        if t.is_empty() {
            continue;
        }
        let Some((c, sep, dec)) = &cols else {
            let sep = if t.contains(',') { ',' } else { ';' };
            let f: Vec<String> = split_csv(t, sep).iter().map(|s| s.trim().into()).collect();
            match header(&f) {
                Some(h) => {
                    let dec = if sep == ';' { Dec::Comma } else { Dec::Point };
                    cols = Some((h, sep, dec));
                }
                None => tr.other_lines += 1,
            }
            continue;
        };
        let f: Vec<String> = split_csv(t, *sep)
            .iter()
            .map(|s| s.trim().to_string())
            .collect();
        let field = |k: usize| f.get(k).map_or("", String::as_str);
        let (name, kind) = (field(c.name), field(c.kind));
        if name.eq_ignore_ascii_case("EventTrace") && kind.eq_ignore_ascii_case("Header") {
            if origin.is_none() {
                origin = offset(field(c.clock), *dec);
            }
            tr.other_lines += 1;
            continue;
        }
        let op = match kind {
            _ if !name.eq_ignore_ascii_case("DiskIo") => {
                tr.other_lines += 1;
                continue;
            }
            "Read" => Some(Some(Op::Read)),
            "Write" => Some(Some(Op::Write)),
            "FlushBuffers" => Some(None),
            "ReadInit" | "WriteInit" | "FlushInit" => None,
            _ => {
                tr.other_lines += 1;
                continue;
            }
        };
        if op.is_some() {
            tr.records += 1;
        } else {
            tr.other_lines += 1;
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
            tr.skip(
                n,
                "User Data",
                format!(
                    "{} User Data fields where DiskIo {kind} has {need} or more",
                    user.len()
                ),
                "wrong column count",
            );
            continue;
        }
        let mut vals = Vec::with_capacity(at.len() + 1);
        let mut bad = false;
        for (label, s) in std::iter::once(("Clock-Time", field(c.clock)))
            .chain(at.iter().map(|(k, nm)| (*nm, user[*k].as_str())))
        {
            match offset(s, *dec) {
                Some(v) => vals.push(v),
                None => {
                    tr.skip(n, label, format!("'{s}' is not a number"), "bad number");
                    bad = true;
                    break;
                }
            }
        }
        if bad {
            continue;
        }
        let clock = vals[0];
        let o = *origin.get_or_insert(clock);
        let irp = *vals.last().unwrap_or(&0);
        let Some(op) = op else {
            init.insert(irp, clock);
            continue;
        };
        // Without its init event: completion − HighResResponseTime (User Data 7, a flush's 2).
        let issue_ns = match (init.remove(&irp), qpc_hz) {
            (Some(issued), _) => (issued - o) * 100,
            (None, Some(hz)) => {
                let k = if op.is_some() { 7 } else { 2 };
                let s = user[k].as_str();
                let Some(ticks) = offset(s, *dec) else {
                    tr.skip(
                        n,
                        "HighResResponseTime",
                        format!("'{s}' is not a number"),
                        "bad number",
                    );
                    continue;
                };
                let hz = i128::from(hz);
                (clock - o) * 100 - (ticks * 1_000_000_000 + hz / 2) / hz
            }
            (None, None) => {
                tr.skip(
                    n,
                    "Irp",
                    format!("no DiskIo ReadInit/WriteInit/FlushInit event before it with Irp {}: record with the DiskIoInit keyword, or give the traced machine's QueryPerformanceCounter frequency (--qpc-hz) to time it by HighResResponseTime", field(c.user + at[at.len() - 1].0)),
                    "no init event",
                );
                continue;
            }
        };
        let (off, bytes) = if op.is_some() {
            (vals[3], vals[2])
        } else {
            (0, 0)
        };
        reqs.push(EtwReq {
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
    if cols.is_none() {
        return Err(ProbeError::BadTrace(format!(
            "{}:1: no tracerpt header line (Event Name, Type, …, Clock-Time, Kernel(ms), User(ms), User Data): export with tracerpt trace.etl -o out.csv -of CSV",
            path.display()
        )));
    }
    if let Some(o) = origin.filter(|o| *o > 100_000_000_000_000_000) {
        tr.origin_utc_ms = Some((o / 10_000) as i64 - 11_644_473_600_000);
    }
    Ok(reqs)
}
