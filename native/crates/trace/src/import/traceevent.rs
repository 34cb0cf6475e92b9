//! PerfView / TraceEvent text dumps of kernel DiskIO events:
//! `EVENT <ms>: Windows Kernel/DiskIO/Read PID=…; DiskNumber=0; TransferSize=4,096;
//! ByteOffset=7,379,673,088; …; ElapsedTimeMSec=5.423; …`. The event is logged when the request
//! completes: `<ms>` is the completion, the issue `<ms> − ElapsedTimeMSec`.

use super::etw::{decide, offset, scaled, Cell, Dec, EtwReq};
use super::Trace;
use crate::error::Result;
use crate::request::Op;
use std::path::Path;

struct Ev<'a> {
    line: u64,
    name: &'a str,
    ts: &'a str,
    fields: Vec<(&'a str, &'a str)>,
}

fn field<'a>(e: &Ev<'a>, k: &str) -> Option<&'a str> {
    e.fields.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
}

/// The DiskIO Read, Write and FlushBuffers events of the dump; other lines are counted.
fn events<'a>(text: &'a str, tr: &mut Trace) -> Vec<Ev<'a>> {
    let mut evs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(rest) = line.trim().strip_prefix("EVENT ") else {
            if !line.trim().is_empty() {
                tr.other_lines += 1;
            }
            continue;
        };
        let Some((ts, rest)) = rest.split_once(": ") else {
            tr.other_lines += 1;
            continue;
        };
        let Some(rest) = rest.strip_prefix("Windows Kernel/DiskIO/") else {
            tr.other_lines += 1;
            continue;
        };
        let (name, payload) = rest.split_once(' ').unwrap_or((rest, ""));
        if !matches!(name, "Read" | "Write" | "FlushBuffers") {
            tr.other_lines += 1;
            continue;
        }
        let fields = payload
            .split("; ")
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.trim(), v.trim().trim_end_matches(';')))
            .collect();
        evs.push(Ev {
            line: i as u64 + 1,
            name,
            ts,
            fields,
        });
    }
    evs
}

/// The events' numeric cells, for deciding the decimal separator.
fn cells<'a>(evs: &'a [Ev<'a>]) -> Vec<Cell<'a>> {
    let mut cells = Vec::new();
    for e in evs {
        cells.push(Cell {
            line: e.line,
            field: "EVENT time",
            text: e.ts,
            integer: false,
        });
        for (k, integer) in [
            ("TransferSize", true),
            ("ByteOffset", true),
            ("ElapsedTimeMSec", false),
        ] {
            if let Some(v) = field(e, k) {
                cells.push(Cell {
                    line: e.line,
                    field: k,
                    text: v,
                    integer,
                });
            }
        }
    }
    cells
}

/// Event `e` as a request, or `None` when a field it needs is missing or not a number (the
/// event skipped and counted).
fn request(e: &Ev<'_>, dec: Dec, tr: &mut Trace) -> Option<EtwReq> {
    tr.records += 1;
    let op = match e.name {
        "Read" => Some(Op::Read),
        "Write" => Some(Op::Write),
        _ => None,
    };
    let mut get = |k: &str, scale: Option<u32>| -> Option<i128> {
        let Some(v) = field(e, k) else {
            tr.skip(e.line, k, format!("no {k}= field"), "wrong column count");
            return None;
        };
        let r = match scale {
            Some(s) => scaled(v, dec, s),
            None => offset(v, dec),
        };
        if r.is_none() {
            tr.skip(e.line, k, format!("'{v}' is not a number"), "bad number");
        }
        r
    };
    let Some(done) = scaled(e.ts, dec, 6) else {
        tr.skip(
            e.line,
            "EVENT time",
            format!("'{}' is not a number", e.ts),
            "bad number",
        );
        return None;
    };
    let elapsed = get("ElapsedTimeMSec", Some(6))?;
    let disk = get("DiskNumber", None)?;
    let (off, bytes) = match op {
        Some(_) => {
            let o = get("ByteOffset", None)?;
            (o, get("TransferSize", None)?)
        }
        None => (0, 0),
    };
    Some(EtwReq {
        line: e.line,
        issue_ns: (done - elapsed) as i64,
        complete_ns: done as i64,
        disk: format!("disk{disk}"),
        offset: off,
        bytes,
        op,
        op_text: e.name.to_string(),
    })
}

pub(super) fn read_traceevent(path: &Path, text: &str, tr: &mut Trace) -> Result<Vec<EtwReq>> {
    let evs = events(text, tr);
    let dec = decide(path, &cells(&evs), false)?;
    Ok(evs.iter().filter_map(|e| request(e, dec, tr)).collect())
}
