//! `iostat -o JSON` output.

use std::collections::BTreeMap;

use super::super::time;
use super::super::{bad, ParseOpts, Parsed, Rates, Sample};
use super::{column_field, date_of, rates_from, tz_from, unmapped_cols, untimed, DevTable};
use crate::error::Result;

/// `iostat -o JSON` output.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn parse_iostat_json(file: &str, text: &str, opts: &ParseOpts) -> Result<Parsed> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        bad(
            file,
            Some(e.line()),
            Some(e.column()),
            format!("not valid JSON: {e}"),
        )
    })?;
    let hosts = v
        .pointer("/sysstat/hosts")
        .and_then(|h| h.as_array())
        .ok_or_else(|| {
            bad(
                file,
                None,
                None,
                "no sysstat.hosts array: not iostat -o JSON output",
            )
        })?;
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    let mut cols_union: Vec<String> = Vec::new();
    let mut raw: Vec<(Option<i64>, Vec<Option<Rates>>)> = Vec::new();
    let mut base_day = None;
    let mut offsets = Vec::new();
    for h in hosts {
        if let Some(n) = h.get("nodename").and_then(|x| x.as_str()) {
            p.hosts.push(n.to_string());
        }
        p.kernel = h.get("release").and_then(|x| x.as_str()).map(String::from);
        base_day = h.get("date").and_then(|x| x.as_str()).and_then(date_of);
        let stats = h
            .get("statistics")
            .and_then(|x| x.as_array())
            .cloned()
            .unwrap_or_default();
        for (si, s) in stats.iter().enumerate() {
            let ts = match s.get("timestamp").and_then(|x| x.as_str()) {
                Some(t) => {
                    let parsed = time::parse_iso(t).or_else(|| {
                        let (d, tm) = t.split_once(' ')?;
                        Some((
                            time::to_utc_ms(
                                date_of(d)?,
                                time::parse_time(tm)?,
                                p.utc_offset_min.unwrap_or(0),
                            ),
                            None,
                        ))
                    });
                    let Some((utc, off)) = parsed else {
                        return Err(bad(
                            file,
                            None,
                            None,
                            format!("statistics[{si}].timestamp '{t}' is not a time"),
                        ));
                    };
                    if let Some(o) = off {
                        offsets.push(o);
                    }
                    Some(utc)
                }
                None => None,
            };
            let mut rates = Vec::new();
            for d in s
                .get("disk")
                .and_then(|x| x.as_array())
                .cloned()
                .unwrap_or_default()
            {
                let Some(obj) = d.as_object() else { continue };
                let Some(name) = obj.get("disk_device").and_then(|x| x.as_str()) else {
                    return Err(bad(
                        file,
                        None,
                        None,
                        format!("statistics[{si}]: a disk entry has no disk_device"),
                    ));
                };
                let mut vals = Vec::new();
                for (k, x) in obj {
                    if !cols_union.contains(k) {
                        cols_union.push(k.clone());
                    }
                    if let (Some((f, m)), Some(x)) = (column_field(k), x.as_f64()) {
                        vals.push((f, x * m));
                    }
                }
                let di = devs.get(&mut p, name);
                if rates.len() <= di {
                    rates.resize(di + 1, None);
                }
                rates[di] = Some(rates_from(&vals, &mut p));
            }
            raw.push((ts, rates));
        }
    }
    cols_union.retain(|c| c != "disk_device");
    unmapped_cols(&mut p, &cols_union);
    if raw.is_empty() {
        return Err(bad(
            file,
            None,
            None,
            "sysstat.hosts[].statistics is empty: nothing to import",
        ));
    }
    let timed = raw.iter().all(|r| r.0.is_some());
    if let (Some(&o), None) = (offsets.first(), opts.utc_offset_min) {
        p.utc_offset_min = Some(o);
        p.tz_source = "timestamps (ISO 8601 with offset)".into();
    }
    p.format = format!(
        "sysstat iostat -o JSON{}",
        if timed {
            " (with times)"
        } else {
            " (no times)"
        }
    );
    let (start, step) = if timed {
        (0, 0.0)
    } else {
        untimed(&mut p, opts, base_day, "iostat -o JSON")
    };
    let ndev = p.devices.len();
    let mut prev = None;
    for (k, (ts, mut rates)) in raw.into_iter().enumerate() {
        let utc = if timed {
            ts.unwrap_or(0)
        } else {
            start + (k as f64 * step).round() as i64
        };
        if let Some(pv) = prev {
            if utc <= pv {
                return Err(bad(
                    file,
                    None,
                    None,
                    format!(
                        "statistics[{k}] time {} is not after the one before: times must increase",
                        time::iso(utc)
                    ),
                ));
            }
        }
        prev = Some(utc);
        rates.resize(ndev, None);
        p.samples.push(Sample {
            utc_ms: utc,
            line: 0,
            rates,
            snap: None,
        });
    }
    super::first_report(&mut p, opts);
    super::stack::propose(&mut p);
    Ok(p)
}
