//! `iostat [-x] [-t] [-k|-m]` text output.

use std::collections::BTreeMap;

use super::super::time::{self, DateOrder, Ymd};
use super::super::{bad, lines, num, ParseOpts, Parsed, Rates, Sample};
use super::{
    banner, column_field, date_of, rates_from, stamp_line, tz_from, unmapped_cols, untimed,
    DevTable,
};
use crate::error::Result;

/// One iostat report: (line, its -t time, rates per device).
type Report = (usize, Option<(Ymd, i64)>, Vec<Option<Rates>>);

/// `iostat [-x] [-t] [-k|-m]` text output.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn parse_iostat(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let all = lines(text);
    let mut base_day = None;
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    // Date order of -t stamps: day-first when a first number above 12 appears.
    let order = if all.iter().any(|l| {
        let t = l.trim();
        t.len() >= 8
            && t.as_bytes().get(2) == Some(&b'/')
            && t[..2].parse::<u32>().unwrap_or(0) > 12
    }) {
        DateOrder::DayFirst
    } else {
        DateOrder::MonthFirst
    };
    if let Some(i) = all.iter().position(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.contains(&"KB/t") && t.contains(&"tps") && t.contains(&"MB/s")
    }) {
        return Err(bad(file, Some(i + 1), Some(1), "this is BSD or macOS iostat output (KB/t tps MB/s per disk), not Linux sysstat iostat: it has no per-device reads, writes and times to import"));
    }
    let mut stamp: Option<(Ymd, i64)> = None;
    let mut stamp_line_no = 0usize;
    let mut reports: Vec<Report> = Vec::new();
    let mut i = 0;
    let mut saw_header = false;
    let mut cols_union: Vec<String> = Vec::new();
    while i < all.len() {
        let l = all[i].trim_end();
        let t = l.trim();
        if let Some((k, h, d)) = banner(t) {
            p.kernel = Some(k);
            if !p.hosts.contains(&h) {
                p.hosts.push(h);
            }
            base_day = date_of(&d);
            i += 1;
            continue;
        }
        if t.starts_with("avg-cpu:") {
            i += 2;
            continue;
        }
        if let Some(s) = stamp_line(t, order) {
            stamp = Some(s);
            stamp_line_no = i + 1;
            i += 1;
            continue;
        }
        if t.starts_with("Device") {
            saw_header = true;
            let cols: Vec<String> = t
                .split_whitespace()
                .map(|c| c.trim_end_matches(':').to_string())
                .collect();
            let dev_col = cols.iter().position(|c| c == "Device").unwrap_or(0);
            for c in &cols {
                if !cols_union.contains(c) {
                    cols_union.push(c.clone());
                }
            }
            let head_line = i + 1;
            let mut rates: Vec<Option<Rates>> = Vec::new();
            i += 1;
            while i < all.len() && !all[i].trim().is_empty() {
                let ln = i + 1;
                let tok: Vec<&str> = all[i].split_whitespace().collect();
                if tok.len() != cols.len() {
                    return Err(bad(
                        file,
                        Some(ln),
                        Some(tok.len().min(cols.len()) + 1),
                        format!("{} columns where the Device header on line {head_line} has {} (the line is cut off?)", tok.len(), cols.len()),
                    ));
                }
                let mut vals = Vec::new();
                for (ci, (c, v)) in cols.iter().zip(&tok).enumerate() {
                    if ci == dev_col {
                        continue;
                    }
                    if let Some((f, k)) = column_field(c) {
                        let x = num(v).map_err(|_| {
                            bad(
                                file,
                                Some(ln),
                                Some(ci + 1),
                                format!("'{v}' in column {c} is not a number"),
                            )
                        })?;
                        if let Some(x) = x {
                            vals.push((f, x * k));
                        }
                    }
                }
                let d = devs.get(&mut p, tok[dev_col]);
                if rates.len() <= d {
                    rates.resize(d + 1, None);
                }
                rates[d] = Some(rates_from(&vals, &mut p));
                i += 1;
            }
            reports.push((
                if stamp.is_some() {
                    stamp_line_no
                } else {
                    head_line
                },
                stamp,
                rates,
            ));
            continue;
        }
        if !t.is_empty() {
            return Err(bad(
                file,
                Some(i + 1),
                Some(1),
                format!(
                    "'{}' is not part of sysstat iostat output",
                    t.chars().take(40).collect::<String>()
                ),
            ));
        }
        i += 1;
    }
    if !saw_header {
        return Err(bad(
            file,
            None,
            None,
            "no 'Device' header: not sysstat iostat output",
        ));
    }
    unmapped_cols(&mut p, &cols_union);
    let extended = cols_union.iter().any(|c| c.contains("await"));
    let unit = if cols_union.iter().any(|c| c.contains("MB")) {
        "MB"
    } else if cols_union.iter().any(|c| c.contains("sec/s")) {
        "sectors"
    } else {
        "kB"
    };
    let newcols = cols_union.iter().any(|c| c == "aqu-sz");
    let timed = reports.iter().all(|r| r.1.is_some());
    p.format = format!(
        "sysstat iostat{} ({} column names, {unit}{})",
        if extended { " -x" } else { "" },
        if newcols { "new" } else { "old" },
        if timed { ", -t times" } else { ", no times" }
    );
    let (start, step) = if timed {
        (0, 0.0)
    } else {
        untimed(&mut p, opts, base_day, "iostat")
    };
    let ndev = p.devices.len();
    let mut prev: Option<i64> = None;
    for (k, (ln, st, mut rates)) in reports.into_iter().enumerate() {
        let utc = match st {
            Some((d, t)) if timed => time::to_utc_ms(d, t, p.utc_offset_min.unwrap_or(0)),
            _ => start + (k as f64 * step).round() as i64,
        };
        if let Some(pv) = prev {
            if utc <= pv {
                return Err(bad(file, Some(ln), Some(1), format!("this report's time {} is not after the one before ({}): times must increase", time::iso(utc), time::iso(pv))));
            }
        }
        prev = Some(utc);
        rates.resize(ndev, None);
        p.samples.push(Sample {
            utc_ms: utc,
            line: ln,
            rates,
            snap: None,
        });
    }
    super::first_report(&mut p, opts);
    super::stack::propose(&mut p);
    Ok(p)
}
