//! `xperf -i trace.etl -a dumper` text: `DiskRead`, `DiskWrite` and `DiskFlush` lines, their
//! columns named by the `BeginHeader` … `EndHeader` block at the top.

use super::etw::{offset, scaled, split_csv, Dec, EtwReq};
use super::Trace;
use crate::request::Op;
use std::collections::HashMap;

/// The layout xperf prints when a file's header block is cut off.
const DEFAULT_RW: &str = "TimeStamp,Process Name ( PID),ThreadID,IrpPtr,ByteOffset,IOSize,ElapsedTime,DiskNum,IrpFlags,DiskSvcTime,I/O Pri,VolSnap,FileObject,FileName";
const DEFAULT_FLUSH: &str =
    "TimeStamp,Process Name ( PID),ThreadID,IrpPtr,ElapsedTime,DiskNum,IrpFlags,DiskSvcTime,I/O Pri";

/// Reads the dump's lines into requests. `TimeStamp` is when the request completed (the
/// kernel logs DiskIo events at completion), µs after the trace's start; the issue is
/// `TimeStamp − ElapsedTime` (µs). `ByteOffset` and `IOSize` are hexadecimal.
pub(super) fn read_xperf(text: &str, tr: &mut Trace) -> Vec<EtwReq> {
    let mut layout: HashMap<String, Vec<String>> = HashMap::new();
    for (ev, cols) in [
        ("DiskRead", DEFAULT_RW),
        ("DiskWrite", DEFAULT_RW),
        ("DiskFlush", DEFAULT_FLUSH),
    ] {
        layout.insert(ev.into(), cols.split(',').map(str::to_string).collect());
    }
    let mut in_header = false;
    let mut reqs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        match t {
            "BeginHeader" => in_header = true,
            "EndHeader" => in_header = false,
            _ if in_header => {
                let f: Vec<String> = split_csv(t, ',')
                    .iter()
                    .map(|s| s.trim().to_string())
                    .collect();
                if let Some((ev, cols)) = f.split_first() {
                    layout.insert(ev.clone(), cols.to_vec());
                }
            }
            _ => {
                let f = split_csv(t, ',');
                let ev = f[0].trim();
                let op = match ev {
                    "DiskRead" => Some(Op::Read),
                    "DiskWrite" => Some(Op::Write),
                    "DiskFlush" => None,
                    _ => {
                        tr.other_lines += 1;
                        continue;
                    }
                };
                tr.records += 1;
                if let Some(r) = line_req(tr, n, ev, op, &f[1..], &layout[ev]) {
                    reqs.push(r);
                }
            }
        }
    }
    reqs
}

fn line_req(
    tr: &mut Trace,
    n: u64,
    ev: &str,
    op: Option<Op>,
    f: &[String],
    cols: &[String],
) -> Option<EtwReq> {
    if f.len() < cols.len().min(9) {
        tr.skip(
            n,
            ev,
            format!(
                "{} fields where the header has {}",
                f.len() + 1,
                cols.len() + 1
            ),
            "wrong column count",
        );
        return None;
    }
    let mut get = |name: &str, hex: bool| -> Option<i128> {
        let Some(i) = cols.iter().position(|c| c == name) else {
            tr.skip(
                n,
                name,
                format!("the header of {ev} has no {name} column"),
                "wrong column count",
            );
            return None;
        };
        let s = f.get(i).map_or("", |s| s.trim());
        let v = if hex {
            offset(s, Dec::Point)
        } else {
            scaled(s, Dec::Point, 3)
        };
        if v.is_none() {
            tr.skip(n, name, format!("'{s}' is not a number"), "bad number");
        }
        v
    };
    let done = get("TimeStamp", false)?;
    let elapsed = get("ElapsedTime", false)?;
    let disk = get("DiskNum", true)?;
    let (off, bytes) = match op {
        Some(_) => (get("ByteOffset", true)?, get("IOSize", true)?),
        None => (0, 0),
    };
    Some(EtwReq {
        line: n,
        issue_ns: (done - elapsed) as i64,
        complete_ns: done as i64,
        disk: format!("disk{disk}"),
        offset: off,
        bytes,
        op,
        op_text: ev.to_string(),
    })
}
