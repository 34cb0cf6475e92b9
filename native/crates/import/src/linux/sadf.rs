//! `sadf -d` output (sar -d as CSV).

use std::collections::BTreeMap;

use super::super::time::{self, DateOrder};
use super::super::{bad, lines, num, ParseOpts, Parsed, Rates};
use super::{column_field, rate_lines, rates_from, tz_from, unmapped_cols, DevTable};
use crate::error::Result;

/// `sadf -d` output: `# hostname;interval;timestamp;DEV;tps;…` then one line per device.
pub fn parse_sadf(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let mut r = Sadf {
        file,
        p,
        cols: None,
        devs: DevTable {
            idx: BTreeMap::new(),
        },
        by_time: Vec::new(),
        utc_stamps: false,
    };
    for (i, raw) in lines(text).iter().enumerate() {
        r.line(i + 1, raw.trim())?;
    }
    r.finish(opts)
}

/// The field named `n` of a line's fields `f` under the header `c`, trimmed.
fn field<'t>(c: &[String], f: &[&'t str], n: &str) -> Option<&'t str> {
    c.iter().position(|x| x == n).map(|i| f[i].trim())
}

/// A sadf -d text as its lines are read.
struct Sadf<'a> {
    file: &'a str,
    p: Parsed,
    /// The header's column names.
    cols: Option<Vec<String>>,
    devs: DevTable,
    /// (UTC ms, line, rates per device) of each time.
    by_time: Vec<(i64, usize, Vec<Option<Rates>>)>,
    /// Whether a timestamp ends in UTC.
    utc_stamps: bool,
}

impl Sadf<'_> {
    /// Line `ln`, trimmed: the header or a device's rates.
    fn line(&mut self, ln: usize, t: &str) -> Result<()> {
        if t.is_empty() {
            return Ok(());
        }
        if let Some(h) = t.strip_prefix('#') {
            let c: Vec<String> = h.trim().split(';').map(|s| s.trim().to_string()).collect();
            if !c.iter().any(|x| x == "DEV") || !c.iter().any(|x| x == "timestamp") {
                return Err(bad(
                    self.file,
                    Some(ln),
                    Some(1),
                    "the header has no DEV or timestamp column: not sadf -d output of sar -d",
                ));
            }
            self.cols = Some(c);
            return Ok(());
        }
        let Some(c) = self.cols.take() else {
            return Err(bad(
                self.file,
                Some(ln),
                Some(1),
                "data before the '# hostname;interval;timestamp;DEV;…' header: not sadf -d output",
            ));
        };
        let r = self.data_line(ln, t, &c);
        self.cols = Some(c);
        r
    }

    /// A device's rates over the interval ending at the line's timestamp, under the header `c`.
    fn data_line(&mut self, ln: usize, t: &str, c: &[String]) -> Result<()> {
        let file = self.file;
        let f: Vec<&str> = t.split(';').collect();
        if f.len() != c.len() {
            return Err(bad(
                file,
                Some(ln),
                Some(f.len().min(c.len()) + 1),
                format!("{} fields where the header has {}", f.len(), c.len()),
            ));
        }
        if let Some(h) = field(c, &f, "hostname") {
            if !self.p.hosts.iter().any(|x| x == h) {
                self.p.hosts.push(h.to_string());
            }
        }
        let ts = field(c, &f, "timestamp").unwrap_or("");
        let utc = self.time_of(ln, c, ts)?;
        let mut vals = Vec::new();
        for (ci, name) in c.iter().enumerate() {
            if let Some((fl, k)) = column_field(name) {
                let x = num(f[ci]).map_err(|_| {
                    bad(
                        file,
                        Some(ln),
                        Some(ci + 1),
                        format!("'{}' in column {name} is not a number", f[ci]),
                    )
                })?;
                if let Some(x) = x {
                    vals.push((fl, x * k));
                }
            }
        }
        let di = self
            .devs
            .get(&mut self.p, field(c, &f, "DEV").unwrap_or(""));
        let r = rates_from(&vals, &mut self.p);
        // Each line is the rate over the `interval` seconds ending at its timestamp: where that
        // interval starts after the sample before (the first line, or after a gap), its start
        // becomes a sample of its own (with no rates), so that no line is left out.
        let len = field(c, &f, "interval")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| *v > 0.0)
            .map(|v| (v * 1000.0).round() as i64);
        if let (Some(len), true) = (len, self.by_time.last().is_none_or(|l| l.0 < utc)) {
            if self
                .by_time
                .last()
                .is_none_or(|l| l.0 + len / 2 < utc - len)
            {
                self.by_time.push((utc - len, ln, Vec::new()));
            }
        }
        self.put(ln, utc, di, r, ts)
    }

    /// The UTC time of timestamp `ts` (local unless it ends in UTC, or seconds since 1970).
    fn time_of(&mut self, ln: usize, c: &[String], ts: &str) -> Result<i64> {
        let (body, is_utc) = match ts.strip_suffix(" UTC") {
            Some(b) => (b, true),
            None => (ts, false),
        };
        self.utc_stamps |= is_utc;
        let off = if is_utc {
            0
        } else {
            self.p.utc_offset_min.unwrap_or(0)
        };
        let utc = body
            .split_once(' ')
            .and_then(|(d, tm)| {
                Some((
                    time::parse_date(d, DateOrder::MonthFirst)?,
                    time::parse_time(tm)?,
                ))
            })
            .map(|(d, tm)| time::to_utc_ms(d, tm, off))
            .or_else(|| body.parse::<i64>().ok().map(|s| s * 1000));
        let Some(utc) = utc else {
            let col = c.iter().position(|x| x == "timestamp").unwrap_or(0) + 1;
            return Err(bad(
                self.file,
                Some(ln),
                Some(col),
                format!("'{ts}' is not a time (expected YYYY-MM-DD HH:MM:SS [UTC])"),
            ));
        };
        Ok(utc)
    }

    /// Device `di`'s rates `r` at `utc` (line `ln`, timestamp `ts`): times must increase.
    fn put(&mut self, ln: usize, utc: i64, di: usize, r: Rates, ts: &str) -> Result<()> {
        match self.by_time.last_mut() {
            Some((u, _, rs)) if *u == utc => {
                if rs.len() <= di {
                    rs.resize(di + 1, None);
                }
                rs[di] = Some(r);
            }
            Some((u, _, _)) if *u > utc => {
                return Err(bad(
                    self.file,
                    Some(ln),
                    None,
                    format!("the time {ts} is before the line above: times must increase"),
                ));
            }
            _ => {
                let mut rs = vec![None; di + 1];
                rs[di] = Some(r);
                self.by_time.push((utc, ln, rs));
            }
        }
        Ok(())
    }

    /// The zone, the unmapped columns, the format and the first line's start.
    fn finish(self, opts: &ParseOpts) -> Result<Parsed> {
        let Sadf {
            file,
            mut p,
            cols,
            mut by_time,
            utc_stamps,
            ..
        } = self;
        let Some(c) = cols else {
            return Err(bad(
                file,
                None,
                None,
                "no '# hostname;interval;timestamp;DEV;…' header: not sadf -d output",
            ));
        };
        if utc_stamps {
            p.tz_source = "timestamps (UTC)".into();
            p.utc_offset_min = opts.utc_offset_min.or(Some(0));
        }
        let cu: Vec<String> = c
            .into_iter()
            .filter(|x| !matches!(x.as_str(), "hostname" | "interval" | "timestamp" | "DEV"))
            .collect();
        unmapped_cols(&mut p, &cu);
        p.format = "sysstat sadf -d (sar -d as CSV)".into();
        if by_time
            .first()
            .is_some_and(|f| f.2.iter().any(Option::is_some))
        {
            // no interval column: the first line's interval is the usual spacing of the samples
            let mut steps: Vec<i64> = by_time.windows(2).map(|w| w[1].0 - w[0].0).collect();
            steps.sort_unstable();
            if let Some(&step) = steps.get(steps.len() / 2) {
                let (first, ln) = (by_time[0].0, by_time[0].1);
                by_time.insert(0, (first - step, ln, Vec::new()));
            }
        }
        p.notes.push("each line is the rate over its interval, ending at its timestamp (the interval column gives the length): the first line's interval starts before it, so no line is left out".into());
        rate_lines(&mut p, by_time);
        Ok(p)
    }
}
