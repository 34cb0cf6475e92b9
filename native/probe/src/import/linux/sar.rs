//! `sar -d [-p] [--pretty]` text output.

use std::collections::BTreeMap;

use super::super::time::{self, Ymd};
use super::super::{bad, lines, num, ParseOpts, Parsed, Rates};
use super::{
    banner, column_field, date_of, rate_lines, rates_from, tz_from, unmapped_cols, DevTable,
};
use crate::error::Result;

/// `sar -d [-p] [--pretty]` text output.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn parse_sar(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let all = lines(text);
    let mut day: Option<Ymd> = None;
    let mut cols: Option<(Vec<String>, usize, usize)> = None; // names, DEV index, first value index
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    let mut cols_union: Vec<String> = Vec::new();
    let mut by_time: Vec<(i64, usize, Vec<Option<Rates>>)> = Vec::new();
    let mut day_add = 0i64;
    let mut last_tod = -1i64;
    // The time and line of the last header: sar prints there the time the next line's
    // interval starts (the sample before it, or the start of the file or of a restart).
    let mut header: Option<(i64, usize)> = None;
    for (i, raw) in all.iter().enumerate() {
        let ln = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((k, h, d)) = banner(t) {
            p.kernel = Some(k);
            if !p.hosts.contains(&h) {
                p.hosts.push(h);
            }
            day = date_of(&d);
            continue;
        }
        if t.starts_with("Average:") || t.starts_with("Summary") || t.contains("LINUX RESTART") {
            if t.contains("LINUX RESTART") {
                p.notes.push(format!(
                    "line {ln}: the system restarted; the interval across it is a gap"
                ));
            }
            continue;
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
                file,
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
                if !cols_union.contains(c) {
                    cols_union.push(c.clone());
                }
            }
            cols = Some((names, dev, first_val));
            header = Some((tod, ln));
            continue;
        }
        let Some((names, dev, fv)) = &cols else {
            return Err(bad(
                file,
                Some(ln),
                Some(1),
                "a data line before any header line with DEV: not sar -d output",
            ));
        };
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
        if tod < last_tod && last_tod - tod > 12 * 3_600_000 {
            day_add += 1; // past midnight
        }
        last_tod = tod;
        let Some(d) = day else {
            return Err(bad(
                file,
                Some(ln),
                None,
                "no 'Linux … (host) DATE' banner before the data: the date is unknown",
            ));
        };
        let utc = time::to_utc_ms(d, tod, p.utc_offset_min.unwrap_or(0)) + day_add * 86_400_000;
        if let Some((h, hln)) = header.take() {
            // Each line is the rate over the interval that ends at its time: the first line
            // after a header starts its interval at the header's time, which becomes a sample
            // of its own (with no rates) when no sample is there yet.
            let len = (tod - h).rem_euclid(86_400_000);
            let start = utc - len;
            if len > 0 && by_time.last().is_none_or(|l| l.0 < start) {
                by_time.push((start, hln, Vec::new()));
            }
        }
        let mut vals = Vec::new();
        for (ci, c) in names.iter().enumerate() {
            if ci == *dev {
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
        let di = devs.get(&mut p, tok[fv + dev]);
        let r = rates_from(&vals, &mut p);
        match by_time.last_mut() {
            Some((u, _, rs)) if *u == utc => {
                if rs.len() <= di {
                    rs.resize(di + 1, None);
                }
                rs[di] = Some(r);
            }
            Some((u, _, _)) if *u > utc => {
                return Err(bad(
                    file,
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
                by_time.push((utc, ln, rs));
            }
        }
    }
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
