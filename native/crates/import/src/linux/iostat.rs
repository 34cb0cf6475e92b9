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
pub fn parse_iostat(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let all = lines(text);
    let order = stamp_order(&all);
    if let Some(i) = all.iter().position(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.contains(&"KB/t") && t.contains(&"tps") && t.contains(&"MB/s")
    }) {
        return Err(bad(file, Some(i + 1), Some(1), "this is BSD or macOS iostat output (KB/t tps MB/s per disk), not Linux sysstat iostat: it has no per-device reads, writes and times to import"));
    }
    let mut r = Reader {
        file,
        all: &all,
        order,
        p,
        devs: DevTable {
            idx: BTreeMap::new(),
        },
        base_day: None,
        stamp: None,
        stamp_line_no: 0,
        reports: Vec::new(),
        saw_header: false,
        cols_union: Vec::new(),
    };
    r.read()?;
    if !r.saw_header {
        return Err(bad(
            file,
            None,
            None,
            "no 'Device' header: not sysstat iostat output",
        ));
    }
    r.finish(opts)
}

/// Date order of -t stamps: day-first when a first number above 12 appears.
fn stamp_order(all: &[&str]) -> DateOrder {
    if all.iter().any(|l| {
        let t = l.trim();
        t.len() >= 8
            && t.as_bytes().get(2) == Some(&b'/')
            && t[..2].parse::<u32>().unwrap_or(0) > 12
    }) {
        DateOrder::DayFirst
    } else {
        DateOrder::MonthFirst
    }
}

/// The reports of an iostat text as its lines are read.
struct Reader<'a> {
    file: &'a str,
    all: &'a [&'a str],
    order: DateOrder,
    p: Parsed,
    devs: DevTable,
    /// The banner's date (for reports without -t times).
    base_day: Option<Ymd>,
    /// The last -t time and its line.
    stamp: Option<(Ymd, i64)>,
    stamp_line_no: usize,
    reports: Vec<Report>,
    saw_header: bool,
    /// Every column of every Device header, in order of first appearance.
    cols_union: Vec<String>,
}

impl Reader<'_> {
    /// Read every line: banners, CPU sections, -t times and Device sections.
    fn read(&mut self) -> Result<()> {
        let mut i = 0;
        while i < self.all.len() {
            let t = self.all[i].trim_end().trim();
            if let Some((k, h, d)) = banner(t) {
                self.p.kernel = Some(k);
                if !self.p.hosts.contains(&h) {
                    self.p.hosts.push(h);
                }
                self.base_day = date_of(&d);
                i += 1;
                continue;
            }
            if t.starts_with("avg-cpu:") {
                i += 2;
                continue;
            }
            if let Some(s) = stamp_line(t, self.order) {
                self.stamp = Some(s);
                self.stamp_line_no = i + 1;
                i += 1;
                continue;
            }
            if t.starts_with("Device") {
                i = self.device_section(i, t)?;
                continue;
            }
            if !t.is_empty() {
                return Err(bad(
                    self.file,
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
        Ok(())
    }

    /// The Device header at line index `i` (text `t`) and its device rows up to a blank line,
    /// as one report; the index of the line after them.
    fn device_section(&mut self, mut i: usize, t: &str) -> Result<usize> {
        self.saw_header = true;
        let cols: Vec<String> = t
            .split_whitespace()
            .map(|c| c.trim_end_matches(':').to_string())
            .collect();
        let dev_col = cols.iter().position(|c| c == "Device").unwrap_or(0);
        for c in &cols {
            if !self.cols_union.contains(c) {
                self.cols_union.push(c.clone());
            }
        }
        let head_line = i + 1;
        let mut rates: Vec<Option<Rates>> = Vec::new();
        i += 1;
        while i < self.all.len() && !self.all[i].trim().is_empty() {
            let (d, r) = self.device_row(i + 1, self.all[i], &cols, dev_col, head_line)?;
            if rates.len() <= d {
                rates.resize(d + 1, None);
            }
            rates[d] = Some(r);
            i += 1;
        }
        self.reports.push((
            if self.stamp.is_some() {
                self.stamp_line_no
            } else {
                head_line
            },
            self.stamp,
            rates,
        ));
        Ok(i)
    }

    /// One device row (line `ln`) under the header `cols`: the device's index and its rates.
    fn device_row(
        &mut self,
        ln: usize,
        line: &str,
        cols: &[String],
        dev_col: usize,
        head_line: usize,
    ) -> Result<(usize, Rates)> {
        let file = self.file;
        let tok: Vec<&str> = line.split_whitespace().collect();
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
        let d = self.devs.get(&mut self.p, tok[dev_col]);
        Ok((d, rates_from(&vals, &mut self.p)))
    }

    /// The format in words, and one sample per report (at its -t time, or at steps from the
    /// start given for an untimed log).
    fn finish(self, opts: &ParseOpts) -> Result<Parsed> {
        let Reader {
            file,
            mut p,
            base_day,
            reports,
            cols_union,
            ..
        } = self;
        unmapped_cols(&mut p, &cols_union);
        let timed = reports.iter().all(|r| r.1.is_some());
        p.format = format_of(&cols_union, timed);
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
}

/// The format in words: -x or not, column names, unit, times.
fn format_of(cols_union: &[String], timed: bool) -> String {
    let extended = cols_union.iter().any(|c| c.contains("await"));
    let unit = if cols_union.iter().any(|c| c.contains("MB")) {
        "MB"
    } else if cols_union.iter().any(|c| c.contains("sec/s")) {
        "sectors"
    } else {
        "kB"
    };
    let newcols = cols_union.iter().any(|c| c == "aqu-sz");
    format!(
        "sysstat iostat{} ({} column names, {unit}{})",
        if extended { " -x" } else { "" },
        if newcols { "new" } else { "old" },
        if timed { ", -t times" } else { ", no times" }
    )
}
