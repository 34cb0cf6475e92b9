//! WPA "Disk Usage" tables exported by `wpaexporter` (CSV, columns by name, any locale).

use super::etw::{decide, finish, offset, percentiles, scaled, split_csv, Cell, Dec, EtwReq};
use super::{State, Trace};
use crate::error::{ProbeError, Result};
use crate::request::Op;
use std::path::Path;

struct Cols {
    disk: Option<usize>,
    io_type: usize,
    init: Option<usize>,
    complete: Option<usize>,
    io_time: Option<usize>,
    size: Option<usize>,
    offset: Option<usize>,
}

fn norm(h: &str) -> String {
    h.trim()
        .trim_start_matches('\u{feff}')
        .to_lowercase()
        .replace('\u{3bc}', "\u{b5}")
        .replace("(us)", "(\u{b5}s)")
}

fn cols(head: &[String]) -> Option<Cols> {
    let find = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| head.iter().position(|h| norm(h) == *n))
    };
    Some(Cols {
        disk: find(&["disk"]),
        io_type: find(&["io type"])?,
        init: find(&["init time (s)"]),
        complete: find(&["complete time (s)"]),
        io_time: find(&["io time (\u{b5}s)"]),
        size: find(&["size (b)"]),
        offset: find(&["offset", "min offset"]),
    })
}

/// The table's columns and its `Size (B)` column, or the error that says which columns the
/// export lacks.
fn table_cols(path: &Path, head: &[String]) -> Result<(Cols, usize)> {
    let Some(c) = cols(head) else {
        return Err(ProbeError::BadTrace(format!(
            "{}: line 1 is not the header of a WPA Disk Usage table (no 'IO Type' column): export the Disk Usage graph with wpaexporter (docs/simulate.md)",
            path.display()
        )));
    };
    let (Some(size), true) = (c.size, c.init.is_some() || c.complete.is_some()) else {
        return Err(ProbeError::BadTrace(format!(
            "{}: the WPA table has no 'Size (B)' or no 'Init Time (s)'/'Complete Time (s)' column: add them to the Disk Usage profile and export again",
            path.display()
        )));
    };
    if (c.init.is_none() || c.complete.is_none()) && c.io_time.is_none() {
        return Err(ProbeError::BadTrace(format!(
            "{}: the WPA table has only one of 'Init Time (s)' and 'Complete Time (s)' and no 'IO Time (\u{b5}s)' column: add them to the profile and export again",
            path.display()
        )));
    }
    Ok((c, size))
}

/// The table's header and columns, for reading its rows.
struct Table {
    head: Vec<String>,
    c: Cols,
    size: usize,
}

impl Table {
    /// The name of column `i` as the header spells it.
    fn name(&self, i: usize) -> &str {
        self.head[i].trim().trim_start_matches('\u{feff}')
    }

    /// The numeric cells of every row, for deciding the decimal separator.
    fn cells<'a>(&'a self, rows: &'a [(u64, Vec<String>)]) -> Vec<Cell<'a>> {
        let c = &self.c;
        let mut cells = Vec::new();
        for (n, r) in rows {
            for (i, integer) in [
                (Some(self.size), true),
                (c.disk, true),
                (c.offset, true),
                (c.init, false),
                (c.complete, false),
                (c.io_time, false),
            ] {
                if let Some(t) = i.and_then(|i| r.get(i)) {
                    cells.push(Cell {
                        line: *n,
                        field: self.name(i.unwrap_or(0)),
                        text: t,
                        integer,
                    });
                }
            }
        }
        cells
    }

    /// Row `r` (line `n`) as a request, or `None` when it is skipped (and counted in `tr`).
    fn request(&self, n: u64, r: &[String], dec: Dec, tr: &mut Trace) -> Option<EtwReq> {
        let c = &self.c;
        tr.records += 1;
        if r.len() < self.head.len() {
            tr.skip(
                n,
                "IO Type",
                format!(
                    "{} fields where the header has {}",
                    r.len(),
                    self.head.len()
                ),
                "wrong column count",
            );
            return None;
        }
        let op_text = r[c.io_type].trim();
        let op = match op_text.to_ascii_lowercase().as_str() {
            "read" => Some(Op::Read),
            "write" => Some(Op::Write),
            "flush" => None,
            _ => {
                tr.skip(
                    n,
                    self.name(c.io_type),
                    format!("unknown IO Type '{op_text}' (Read, Write or Flush)"),
                    "unknown opcode",
                );
                return None;
            }
        };
        let (issue, done, bytes) = self.times(n, r, dec, tr)?;
        let off = match c.offset {
            Some(i) => {
                let Some(v) = offset(&r[i], dec) else {
                    tr.skip(
                        n,
                        self.name(i),
                        format!("'{}' is not an offset", r[i].trim()),
                        "bad number",
                    );
                    return None;
                };
                v
            }
            None => 0,
        };
        let disk = c.disk.map_or("0", |i| r[i].trim());
        Some(EtwReq {
            line: n,
            issue_ns: issue as i64,
            complete_ns: done as i64,
            disk: format!("disk{disk}"),
            offset: off,
            bytes,
            op,
            op_text: op_text.to_string(),
        })
    }

    /// Row `r`'s issue and completion times (ns) and size (bytes), or `None` when one is not a
    /// number (the row skipped and counted) or the times are too few.
    fn times(&self, n: u64, r: &[String], dec: Dec, tr: &mut Trace) -> Option<(i128, i128, i128)> {
        let c = &self.c;
        let mut get = |i: Option<usize>, scale: u32| -> std::result::Result<Option<i128>, ()> {
            let Some(i) = i else { return Ok(None) };
            match scaled(&r[i], dec, scale) {
                Some(v) => Ok(Some(v)),
                None => {
                    tr.skip(
                        n,
                        self.name(i),
                        format!("'{}' is not a number", r[i].trim()),
                        "bad number",
                    );
                    Err(())
                }
            }
        };
        let (Ok(init), Ok(complete), Ok(io_time), Ok(Some(bytes))) = (
            get(c.init, 9),
            get(c.complete, 9),
            get(c.io_time, 3),
            get(Some(self.size), 0),
        ) else {
            return None;
        };
        let (issue, done) = match (init, complete, io_time) {
            (Some(i), Some(d), _) => (i, d),
            (Some(i), None, Some(l)) => (i, i + l),
            (None, Some(d), Some(l)) => (d - l, d),
            _ => return None,
        };
        Some((issue, done, bytes))
    }
}

/// Read a WPA Disk Usage CSV; a table without offsets is refused with its counts and
/// latencies and the export to make instead.
pub(super) fn read_wpa(path: &Path, text: &str, tr: &mut Trace, st: &mut State) -> Result<()> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, head)) = lines.next() else {
        return Err(ProbeError::BadTrace(format!("{} is empty", path.display())));
    };
    let sep = [';', '\t', ',']
        .into_iter()
        .max_by_key(|&c| head.matches(c).count())
        .unwrap_or(',');
    let head = split_csv(head, sep);
    let (c, size) = table_cols(path, &head)?;
    let table = Table { head, c, size };
    let rows: Vec<(u64, Vec<String>)> = lines
        .map(|(i, l)| (i as u64 + 1, split_csv(l, sep)))
        .collect();
    let dec = decide(path, &table.cells(&rows), sep == ';')?;
    let reqs: Vec<EtwReq> = rows
        .iter()
        .filter_map(|(n, r)| table.request(*n, r, dec, tr))
        .collect();
    if table.c.offset.is_none() {
        return Err(no_offsets(path, tr, &reqs));
    }
    finish(tr, st, reqs);
    Ok(())
}

fn no_offsets(path: &Path, tr: &Trace, reqs: &[EtwReq]) -> ProbeError {
    let lat = |op: Option<Op>| {
        percentiles(
            reqs.iter()
                .filter(|r| r.op == op)
                .map(|r| r.complete_ns - r.issue_ns)
                .collect(),
        )
    };
    let mut msg = format!(
        "{} is a WPA Disk Usage table without an Offset column (such as the \"Utilization by Disk\" preset): IO Time of reads: {}; of writes: {}; of flushes: {}.",
        path.display(),
        lat(Some(Op::Read)),
        lat(Some(Op::Write)),
        lat(None)
    );
    if let Some(s) = tr.bad_summary(path) {
        msg += &format!(" {s}.");
    }
    msg += " A cache cannot be simulated without each request's offset: export the Disk Usage graph with the Offset column (the profile docs/simulate.md gives: Disk, IO Type, Init Time, Complete Time, Offset, Size) by wpaexporter, or run `xperf -i trace.etl -a dumper > dump.txt` and import-trace xperf dump.txt.";
    ProbeError::BadTrace(msg)
}
