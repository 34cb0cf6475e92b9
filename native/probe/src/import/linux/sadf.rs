//! `sadf -d` output (sar -d as CSV).

use std::collections::BTreeMap;

use super::super::time::{self, DateOrder};
use super::super::{bad, lines, num, ParseOpts, Parsed, Rates};
use super::{column_field, rate_lines, rates_from, tz_from, unmapped_cols, DevTable};
use crate::error::Result;

/// `sadf -d` output: `# hostname;interval;timestamp;DEV;tps;…` then one line per device.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn parse_sadf(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let all = lines(text);
    let mut cols: Option<Vec<String>> = None;
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    let mut by_time: Vec<(i64, usize, Vec<Option<Rates>>)> = Vec::new();
    let mut utc_stamps = false;
    for (i, raw) in all.iter().enumerate() {
        let ln = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(h) = t.strip_prefix('#') {
            let c: Vec<String> = h.trim().split(';').map(|s| s.trim().to_string()).collect();
            if !c.iter().any(|x| x == "DEV") || !c.iter().any(|x| x == "timestamp") {
                return Err(bad(
                    file,
                    Some(ln),
                    Some(1),
                    "the header has no DEV or timestamp column: not sadf -d output of sar -d",
                ));
            }
            cols = Some(c);
            continue;
        }
        let Some(c) = &cols else {
            return Err(bad(
                file,
                Some(ln),
                Some(1),
                "data before the '# hostname;interval;timestamp;DEV;…' header: not sadf -d output",
            ));
        };
        let f: Vec<&str> = t.split(';').collect();
        if f.len() != c.len() {
            return Err(bad(
                file,
                Some(ln),
                Some(f.len().min(c.len()) + 1),
                format!("{} fields where the header has {}", f.len(), c.len()),
            ));
        }
        let get = |n: &str| c.iter().position(|x| x == n).map(|i| f[i].trim());
        if let Some(h) = get("hostname") {
            if !p.hosts.iter().any(|x| x == h) {
                p.hosts.push(h.to_string());
            }
        }
        let ts = get("timestamp").unwrap_or("");
        let (body, is_utc) = match ts.strip_suffix(" UTC") {
            Some(b) => (b, true),
            None => (ts, false),
        };
        utc_stamps |= is_utc;
        let utc = body
            .split_once(' ')
            .and_then(|(d, tm)| {
                Some((
                    time::parse_date(d, DateOrder::MonthFirst)?,
                    time::parse_time(tm)?,
                ))
            })
            .map(|(d, tm)| {
                time::to_utc_ms(
                    d,
                    tm,
                    if is_utc {
                        0
                    } else {
                        p.utc_offset_min.unwrap_or(0)
                    },
                )
            })
            .or_else(|| body.parse::<i64>().ok().map(|s| s * 1000));
        let Some(utc) = utc else {
            let col = c.iter().position(|x| x == "timestamp").unwrap_or(0) + 1;
            return Err(bad(
                file,
                Some(ln),
                Some(col),
                format!("'{ts}' is not a time (expected YYYY-MM-DD HH:MM:SS [UTC])"),
            ));
        };
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
        let di = devs.get(&mut p, get("DEV").unwrap_or(""));
        let r = rates_from(&vals, &mut p);
        // Each line is the rate over the `interval` seconds ending at its timestamp: where that
        // interval starts after the sample before (the first line, or after a gap), its start
        // becomes a sample of its own (with no rates), so that no line is left out.
        let len = get("interval")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| *v > 0.0)
            .map(|v| (v * 1000.0).round() as i64);
        if let (Some(len), true) = (len, by_time.last().is_none_or(|l| l.0 < utc)) {
            if by_time.last().is_none_or(|l| l.0 + len / 2 < utc - len) {
                by_time.push((utc - len, ln, Vec::new()));
            }
        }
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
                    None,
                    format!("the time {ts} is before the line above: times must increase"),
                ));
            }
            _ => {
                let mut rs = vec![None; di + 1];
                rs[di] = Some(r);
                by_time.push((utc, ln, rs));
            }
        }
    }
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
