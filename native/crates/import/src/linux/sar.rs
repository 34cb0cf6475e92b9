//! `sar -d [-p] [--pretty]` text output.

use std::collections::BTreeMap;

use super::super::time::{self, Ymd};
use super::super::{bad, lines, num, ParseOpts, Parsed, Rates};
use super::{
    banner, column_field, date_of, rate_lines, rates_from, tz_from, unmapped_cols, DevTable,
};
use crate::error::Result;

/// `sar -d [-p] [--pretty]` text output.
pub fn parse_sar(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let mut r = Sar {
        file,
        p,
        day: None,
        cols: None,
        devs: DevTable {
            idx: BTreeMap::new(),
        },
        cols_union: Vec::new(),
        by_time: Vec::new(),
        day_add: 0,
        last_tod: -1,
        header: None,
    };
    for (i, raw) in lines(text).iter().enumerate() {
        r.line(i + 1, raw.trim())?;
    }
    let Sar {
        mut p,
        cols,
        cols_union,
        by_time,
        ..
    } = r;
    if cols.is_none() {
        return Err(bad(
            file,
            None,
            None,
            "no header line with DEV: not sar -d output",
        ));
    }
    unmapped_cols(&mut p, &cols_union);
    p.format = "sysstat sar -d (text)".into();
    p.notes.push("each line is the rate over the interval ending at its time; the first line after a header starts at the header's time, so no line is left out".into());
    rate_lines(&mut p, by_time);
    Ok(p)
}

/// A header line's column names, the index of DEV among them, and the index of the first value
/// in a line (after the time).
type Cols = (Vec<String>, usize, usize);

/// A sar -d text as its lines are read.
struct Sar<'a> {
    file: &'a str,
    p: Parsed,
    /// The banner's date.
    day: Option<Ymd>,
    cols: Option<Cols>,
    devs: DevTable,
    /// Every column of every header, in order of first appearance.
    cols_union: Vec<String>,
    /// (UTC ms, line, rates per device) of each time.
    by_time: Vec<(i64, usize, Vec<Option<Rates>>)>,
    /// Days past the banner's date (the times passed midnight).
    day_add: i64,
    last_tod: i64,
    /// The time and line of the last header: sar prints there the time the next line's
    /// interval starts (the sample before it, or the start of the file or of a restart).
    header: Option<(i64, usize)>,
}

impl Sar<'_> {
    /// Line `ln`, trimmed: a banner, an average, summary or restart, a header or a device's
    /// rates.
    fn line(&mut self, ln: usize, t: &str) -> Result<()> {
        if t.is_empty() {
            return Ok(());
        }
        if let Some((k, h, d)) = banner(t) {
            self.p.kernel = Some(k);
            if !self.p.hosts.contains(&h) {
                self.p.hosts.push(h);
            }
            self.day = date_of(&d);
            return Ok(());
        }
        if t.starts_with("Average:") || t.starts_with("Summary") || t.contains("LINUX RESTART") {
            if t.contains("LINUX RESTART") {
                self.p.notes.push(format!(
                    "line {ln}: the system restarted; the interval across it is a gap"
                ));
            }
            return Ok(());
        }
        let tok: Vec<&str> = t.split_whitespace().collect();
        let ampm = tok
            .get(1)
            .is_some_and(|x| x.eq_ignore_ascii_case("AM") || x.eq_ignore_ascii_case("PM"));
        let first_val = if ampm { 2 } else { 1 };
        let tod = time::parse_time(&if ampm {
            format!("{} {}", tok[0], tok[1])
        } else {
            tok[0].to_string()
        });
        let Some(tod) = tod else {
            return Err(bad(
                self.file,
                Some(ln),
                Some(1),
                format!(
                    "'{}' is not part of sar -d output (expected a time first)",
                    t.chars().take(40).collect::<String>()
                ),
            ));
        };
        if tok.contains(&"DEV") {
            let names: Vec<String> = tok[first_val..].iter().map(|s| s.to_string()).collect();
            let dev = names.iter().position(|c| c == "DEV").unwrap_or(0);
            for c in &names {
                if !self.cols_union.contains(c) {
                    self.cols_union.push(c.clone());
                }
            }
            self.cols = Some((names, dev, first_val));
            self.header = Some((tod, ln));
            return Ok(());
        }
        self.data_line(ln, &tok, tod)
    }

    /// A device's rates over the interval ending at `tod`, the time of line `ln`.
    fn data_line(&mut self, ln: usize, tok: &[&str], tod: i64) -> Result<()> {
        let Some(cols) = self.cols.take() else {
            return Err(bad(
                self.file,
                Some(ln),
                Some(1),
                "a data line before any header line with DEV: not sar -d output",
            ));
        };
        let r = self.rates_line(ln, tok, tod, &cols);
        self.cols = Some(cols);
        r
    }

    /// [`Sar::data_line`] under the header `(names, dev, fv)`.
    fn rates_line(
        &mut self,
        ln: usize,
        tok: &[&str],
        tod: i64,
        (names, dev, fv): &Cols,
    ) -> Result<()> {
        let (file, dev, fv) = (self.file, *dev, *fv);
        if tok.len() - fv != names.len() {
            return Err(bad(
                file,
                Some(ln),
                Some((tok.len() - fv).min(names.len()) + fv + 1),
                format!(
                    "{} values where the header has {}",
                    tok.len() - fv,
                    names.len()
                ),
            ));
        }
        let utc = self.utc_of(ln, tod)?;
        let vals = values(file, ln, names, dev, fv, tok)?;
        let di = self.devs.get(&mut self.p, tok[fv + dev]);
        let r = rates_from(&vals, &mut self.p);
        self.put(ln, utc, di, r)
    }

    /// The UTC time of line `ln` at time of day `tod` (a day later past midnight); after a
    /// header, the start of the line's interval becomes a sample of its own.
    fn utc_of(&mut self, ln: usize, tod: i64) -> Result<i64> {
        if tod < self.last_tod && self.last_tod - tod > 12 * 3_600_000 {
            self.day_add += 1; // past midnight
        }
        self.last_tod = tod;
        let Some(d) = self.day else {
            return Err(bad(
                self.file,
                Some(ln),
                None,
                "no 'Linux … (host) DATE' banner before the data: the date is unknown",
            ));
        };
        let utc =
            time::to_utc_ms(d, tod, self.p.utc_offset_min.unwrap_or(0)) + self.day_add * 86_400_000;
        if let Some((h, hln)) = self.header.take() {
            // Each line is the rate over the interval that ends at its time: the first line
            // after a header starts its interval at the header's time, which becomes a sample
            // of its own (with no rates) when no sample is there yet.
            let len = (tod - h).rem_euclid(86_400_000);
            let start = utc - len;
            if len > 0 && self.by_time.last().is_none_or(|l| l.0 < start) {
                self.by_time.push((start, hln, Vec::new()));
            }
        }
        Ok(utc)
    }

    /// Device `di`'s rates `r` at `utc` (line `ln`): times must increase.
    fn put(&mut self, ln: usize, utc: i64, di: usize, r: Rates) -> Result<()> {
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
                    Some(1),
                    format!(
                        "the time {} is before the line above: times must increase",
                        time::iso(utc)
                    ),
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
}

/// The mapped values of a data line (`tok`, values from `fv`) under the header `names`.
fn values(
    file: &str,
    ln: usize,
    names: &[String],
    dev: usize,
    fv: usize,
    tok: &[&str],
) -> Result<Vec<(&'static str, f64)>> {
    let mut vals = Vec::new();
    for (ci, c) in names.iter().enumerate() {
        if ci == dev {
            continue;
        }
        if let Some((f, k)) = column_field(c) {
            let v = tok[fv + ci];
            let x = num(v).map_err(|_| {
                bad(
                    file,
                    Some(ln),
                    Some(fv + ci + 1),
                    format!("'{v}' in column {c} is not a number"),
                )
            })?;
            if let Some(x) = x {
                vals.push((f, x * k));
            }
        }
    }
    Ok(vals)
}
