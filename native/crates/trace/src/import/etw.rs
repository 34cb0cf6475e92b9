//! What the Windows (ETW) exports share: numbers in any locale's format, CSV fields, requests
//! collected whole and then put in issue-time order (the exports are grouped by disk or event
//! type, or logged at completion), flushes kept apart.

use super::{Flush, Kind, Rec, State, Trace};
use crate::error::{ProbeError, Result};
use crate::request::Op;
use std::path::Path;

/// The decimal separator of a file's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dec {
    Point,
    Comma,
}

/// One numeric cell as read, before the file's locale is known.
pub(super) struct Cell<'a> {
    pub line: u64,
    pub field: &'a str,
    pub text: &'a str,
    /// An integer column (sizes, offsets, disks): any separator in it groups thousands.
    pub integer: bool,
}

fn strip_groups(s: &str) -> String {
    s.trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\''))
        .collect()
}

/// What one cell says about the decimal separator; `Err(())` when it could be either.
fn evidence(c: &Cell<'_>) -> std::result::Result<Option<Dec>, ()> {
    let s = strip_groups(c.text);
    let (commas, points) = (s.matches(',').count(), s.matches('.').count());
    let after = |sep: char| s.rsplit(sep).next().map_or(0, |t| t.len());
    Ok(match (commas, points) {
        (0, 0) => None,
        (_, 0) if commas > 1 || c.integer => Some(Dec::Point),
        (0, _) if points > 1 || c.integer => Some(Dec::Comma),
        (1, 0) if after(',') != 3 => Some(Dec::Comma),
        (0, 1) if after('.') != 3 => Some(Dec::Point),
        (_, 0) | (0, _) => return Err(()),
        _ => {
            if s.rfind(',') > s.rfind('.') {
                Some(Dec::Comma)
            } else {
                Some(Dec::Point)
            }
        }
    })
}

/// The file's decimal separator from all its numeric cells; `semicolon` = the fields are
/// separated by `;` (the list separator of the decimal-comma locales). Evidence both ways, or
/// none and a cell that reads either way, is refused naming the file, line and field.
pub(super) fn decide(path: &Path, cells: &[Cell<'_>], semicolon: bool) -> Result<Dec> {
    let mut seen: [Option<&Cell<'_>>; 2] = [None, None];
    let mut unsure: Option<&Cell<'_>> = None;
    for c in cells {
        match evidence(c) {
            Ok(Some(d)) => {
                let i = (d == Dec::Comma) as usize;
                seen[i].get_or_insert(c);
            }
            Ok(None) => {}
            Err(()) => {
                unsure.get_or_insert(c);
            }
        }
    }
    let at = |c: &Cell<'_>| {
        format!(
            "{}:{}, field '{}' ('{}')",
            path.display(),
            c.line,
            c.field,
            c.text
        )
    };
    match seen {
        [Some(p), Some(c)] => Err(ProbeError::BadTrace(format!(
            "{} mixes number formats: {} has a decimal point but {} has a decimal comma; export the table again in one locale",
            path.display(),
            at(p),
            at(c)
        ))),
        [Some(_), None] => Ok(Dec::Point),
        [None, Some(_)] => Ok(Dec::Comma),
        [None, None] => match unsure {
            Some(u) if !semicolon => Err(ProbeError::BadTrace(format!(
                "{}: the number reads as a decimal or as thousands, and no other number of the file says which; export the table again with more than 3 decimals or in the en-US locale",
                at(u)
            ))),
            _ if semicolon => Ok(Dec::Comma),
            _ => Ok(Dec::Point),
        },
    }
}

/// A decimal number in `dec` format scaled by 10^`scale` to an integer (seconds with scale 9:
/// ns), exact; digits past the scale are rounded half up. None if it is no number.
pub(super) fn scaled(text: &str, dec: Dec, scale: u32) -> Option<i128> {
    let s = strip_groups(text);
    let (group, point) = match dec {
        Dec::Point => (',', '.'),
        Dec::Comma => ('.', ','),
    };
    let s: String = s.chars().filter(|&c| c != group).collect();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.as_str()),
    };
    let (int, frac) = s.split_once(point).unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || int.len() > 24
    {
        return None;
    }
    let mut v: i128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let fb = frac.as_bytes();
    for i in 0..scale as usize {
        v = v * 10 + fb.get(i).map_or(0, |b| i128::from(b - b'0'));
    }
    if fb.get(scale as usize).is_some_and(|&b| b >= b'5') {
        v += 1;
    }
    Some(if neg { -v } else { v })
}

/// An offset: `0x…` hexadecimal, else a decimal integer in the file's format.
pub(super) fn offset(text: &str, dec: Dec) -> Option<i128> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16).ok(),
        None => scaled(t, dec, 0),
    }
}

/// The fields of one CSV line split at `sep`, with RFC 4180 quotes removed.
pub(super) fn split_csv(line: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// One request of an export, in ns after the trace's start.
pub(super) struct EtwReq {
    pub line: u64,
    pub issue_ns: i64,
    pub complete_ns: i64,
    pub disk: String,
    pub offset: i128,
    pub bytes: i128,
    /// None = a flush.
    pub op: Option<Op>,
    pub op_text: String,
}

/// Put the requests in issue order (file order among equals) and into the trace: data
/// requests through the common checks, flushes apart. Times stay as the export gives them
/// (after the trace's start), not moved to the first request.
pub(super) fn finish(tr: &mut Trace, st: &mut State, mut v: Vec<EtwReq>) {
    v.sort_by_key(|r| (r.issue_ns, r.line));
    st.origin_int = Some(0);
    st.origin = Some(0.0);
    st.unit_ns = 1.0;
    for r in v {
        let Some(op) = r.op else {
            // Not simulated: counted with the other records that are no data request, as a
            // capture's `F` rows are when it is read back.
            tr.other_lines += 1;
            let dev = tr.dev_index(&r.disk);
            tr.flushes.push(Flush {
                t_ns: r.issue_ns,
                complete_ns: r.complete_ns,
                dev,
                op_text: r.op_text,
            });
            continue;
        };
        st.push(
            tr,
            Rec {
                line: r.line,
                t: r.issue_ns as f64,
                t_int: Some(i128::from(r.issue_ns)),
                dev: &r.disk,
                offset: r.offset,
                bytes: r.bytes,
                op,
                op_text: &r.op_text,
                complete_ns: Some(r.complete_ns - r.issue_ns),
            },
        );
    }
}

/// `p50 p90 p99 max` of latencies in ns, as ms text.
pub(super) fn percentiles(mut ns: Vec<i64>) -> String {
    if ns.is_empty() {
        return "none".into();
    }
    ns.sort_unstable();
    let at = |q: f64| ns[((q * ns.len() as f64).ceil() as usize).clamp(1, ns.len()) - 1];
    let ms = |v: i64| format!("{:.3}", v as f64 / 1e6);
    format!(
        "{} requests, p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
        ns.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0))
    )
}

/// Which Windows export a text is, from its first lines (None: none of them).
pub(super) fn sniff(text: &str) -> Option<Kind> {
    for line in text.lines().take(200) {
        let l = line.trim().trim_start_matches('\u{feff}');
        if l.starts_with("EVENT ") && l.contains(": ") {
            return Some(Kind::Traceevent);
        }
        if l == "BeginHeader" || l.starts_with("DiskRead,") || l.starts_with("DiskWrite,") {
            return Some(Kind::Xperf);
        }
        let lower = l.to_lowercase();
        if lower.starts_with("event name") && lower.contains("clock-time") {
            return Some(Kind::Tracerpt);
        }
        if lower.contains("io type") && (lower.contains("size (b)") || lower.contains("time (")) {
            return Some(Kind::Wpa);
        }
    }
    None
}
