//! `iostat -o JSON` output.

use std::collections::BTreeMap;

use super::super::time::{self, Ymd};
use super::super::{bad, ParseOpts, Parsed, Rates, Sample};
use super::{column_field, date_of, rates_from, tz_from, unmapped_cols, untimed, DevTable};
use crate::error::Result;

/// `iostat -o JSON` output.
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
    let mut r = Json {
        file,
        p,
        devs: DevTable {
            idx: BTreeMap::new(),
        },
        cols_union: Vec::new(),
        raw: Vec::new(),
        base_day: None,
        offsets: Vec::new(),
    };
    for h in hosts {
        r.host(h)?;
    }
    r.finish(opts)
}

/// An iostat -o JSON document as its hosts and statistics are read.
struct Json<'a> {
    file: &'a str,
    p: Parsed,
    devs: DevTable,
    /// Every key of every disk entry, in order of first appearance.
    cols_union: Vec<String>,
    /// (UTC ms when timed, rates per device) of each statistics entry.
    raw: Vec<(Option<i64>, Vec<Option<Rates>>)>,
    /// The last host's date (for statistics without times).
    base_day: Option<Ymd>,
    /// The offsets of ISO 8601 timestamps.
    offsets: Vec<i64>,
}

impl Json<'_> {
    /// One entry of `sysstat.hosts`: its name, kernel, date and statistics.
    fn host(&mut self, h: &serde_json::Value) -> Result<()> {
        if let Some(n) = h.get("nodename").and_then(|x| x.as_str()) {
            self.p.hosts.push(n.to_string());
        }
        self.p.kernel = h.get("release").and_then(|x| x.as_str()).map(String::from);
        self.base_day = h.get("date").and_then(|x| x.as_str()).and_then(date_of);
        let stats = h
            .get("statistics")
            .and_then(|x| x.as_array())
            .cloned()
            .unwrap_or_default();
        for (si, s) in stats.iter().enumerate() {
            let ts = self.time_of(si, s)?;
            let rates = self.disk_rates(si, s)?;
            self.raw.push((ts, rates));
        }
        Ok(())
    }

    /// The UTC time of `statistics[si]`, when it has a timestamp.
    fn time_of(&mut self, si: usize, s: &serde_json::Value) -> Result<Option<i64>> {
        let Some(t) = s.get("timestamp").and_then(|x| x.as_str()) else {
            return Ok(None);
        };
        let parsed = time::parse_iso(t).or_else(|| {
            let (d, tm) = t.split_once(' ')?;
            Some((
                time::to_utc_ms(
                    date_of(d)?,
                    time::parse_time(tm)?,
                    self.p.utc_offset_min.unwrap_or(0),
                ),
                None,
            ))
        });
        let Some((utc, off)) = parsed else {
            return Err(bad(
                self.file,
                None,
                None,
                format!("statistics[{si}].timestamp '{t}' is not a time"),
            ));
        };
        if let Some(o) = off {
            self.offsets.push(o);
        }
        Ok(Some(utc))
    }

    /// The rates of each disk of `statistics[si]`, by device index.
    fn disk_rates(&mut self, si: usize, s: &serde_json::Value) -> Result<Vec<Option<Rates>>> {
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
                    self.file,
                    None,
                    None,
                    format!("statistics[{si}]: a disk entry has no disk_device"),
                ));
            };
            let mut vals = Vec::new();
            for (k, x) in obj {
                if !self.cols_union.contains(k) {
                    self.cols_union.push(k.clone());
                }
                if let (Some((f, m)), Some(x)) = (column_field(k), x.as_f64()) {
                    vals.push((f, x * m));
                }
            }
            let di = self.devs.get(&mut self.p, name);
            if rates.len() <= di {
                rates.resize(di + 1, None);
            }
            rates[di] = Some(rates_from(&vals, &mut self.p));
        }
        Ok(rates)
    }

    /// The unmapped keys, the zone, the format, and one sample per statistics entry (at its
    /// time, or at steps from the start given for an untimed document).
    fn finish(self, opts: &ParseOpts) -> Result<Parsed> {
        let Json {
            file,
            mut p,
            mut cols_union,
            raw,
            base_day,
            offsets,
            ..
        } = self;
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
}
