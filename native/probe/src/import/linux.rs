//! sysstat's iostat (text and JSON), sar -d and sadf -d, and series of /proc/diskstats snapshots.

use std::collections::BTreeMap;

use super::time::{self, DateOrder, Ymd};
use super::{bad, lines, linux_role, num, Device, ParseOpts, Parsed, Rates, Sample, Unmapped};
use crate::delta::{DevSample, Snapshot};
use crate::error::Result;

/// How one iostat / sar column feeds [`Rates`].
fn column_field(col: &str) -> Option<(&'static str, f64)> {
    Some(match col {
        "r/s" => ("reads_per_s", 1.0),
        "w/s" => ("writes_per_s", 1.0),
        "rkB/s" => ("read_bytes_per_s", 1024.0),
        "wkB/s" => ("write_bytes_per_s", 1024.0),
        "rMB/s" => ("read_bytes_per_s", 1_048_576.0),
        "wMB/s" => ("write_bytes_per_s", 1_048_576.0),
        "rsec/s" | "rd_sec/s" => ("read_bytes_per_s", 512.0),
        "wsec/s" | "wr_sec/s" => ("write_bytes_per_s", 512.0),
        "kB_read/s" => ("read_bytes_per_s", 1024.0),
        "kB_wrtn/s" => ("write_bytes_per_s", 1024.0),
        "MB_read/s" => ("read_bytes_per_s", 1_048_576.0),
        "MB_wrtn/s" => ("write_bytes_per_s", 1_048_576.0),
        "rrqm/s" => ("read_merges_per_s", 1.0),
        "wrqm/s" => ("write_merges_per_s", 1.0),
        "r_await" => ("read_ms_per_io", 1.0),
        "w_await" => ("write_ms_per_io", 1.0),
        "await" => ("await", 1.0),
        "aqu-sz" | "avgqu-sz" => ("queue_avg", 1.0),
        "%util" | "util" => ("busy_pct", 1.0),
        "d/s" => ("discards_per_s", 1.0),
        "dkB/s" => ("discard_bytes_per_s", 1024.0),
        "dMB/s" => ("discard_bytes_per_s", 1_048_576.0),
        "d_await" => ("discard_ms_per_io", 1.0),
        "f/s" => ("flushes_per_s", 1.0),
        "f_await" => ("flush_ms_per_io", 1.0),
        "tps" => ("tps", 1.0),
        _ => return None,
    })
}

/// Columns that are derived from imported ones (listed as such, never silently dropped).
fn derived(col: &str) -> bool {
    matches!(
        col,
        "%rrqm"
            | "%wrqm"
            | "%drqm"
            | "rrqm"
            | "wrqm"
            | "drqm"
            | "drqm/s"
            | "rareq-sz"
            | "wareq-sz"
            | "dareq-sz"
            | "areq-sz"
            | "avgrq-sz"
            | "svctm"
            | "kB_read"
            | "kB_wrtn"
            | "kB_dscd"
            | "kB_dscd/s"
            | "MB_read"
            | "MB_wrtn"
    )
}

/// Fill rates from named values; `tps` and `await` need the others, so they come last.
fn rates_from(vals: &[(&'static str, f64)], p: &mut Parsed) -> Rates {
    let mut r = Rates::default();
    let mut tps = None;
    let mut await_ms = None;
    for &(f, v) in vals {
        match f {
            "reads_per_s" => r.reads_per_s = Some(v),
            "writes_per_s" => r.writes_per_s = Some(v),
            "read_bytes_per_s" => r.read_bytes_per_s = Some(v),
            "write_bytes_per_s" => r.write_bytes_per_s = Some(v),
            "read_merges_per_s" => r.read_merges_per_s = Some(v),
            "write_merges_per_s" => r.write_merges_per_s = Some(v),
            "read_ms_per_io" => r.read_ms_per_io = Some(v),
            "write_ms_per_io" => r.write_ms_per_io = Some(v),
            "await" => await_ms = Some(v),
            "queue_avg" => r.queue_avg = Some(v),
            "busy_pct" => r.busy_frac = Some((v / 100.0).clamp(0.0, 1.0)),
            "discards_per_s" => r.discards_per_s = Some(v),
            "discard_bytes_per_s" => r.discard_bytes_per_s = Some(v),
            "discard_ms_per_io" => r.discard_ms_per_io = Some(v),
            "flushes_per_s" => r.flushes_per_s = Some(v),
            "flush_ms_per_io" => r.flush_ms_per_io = Some(v),
            "tps" => tps = Some(v),
            _ => {}
        }
    }
    if let Some(a) = await_ms {
        if r.read_ms_per_io.is_none() && r.write_ms_per_io.is_none() {
            r.read_ms_per_io = Some(a);
            r.write_ms_per_io = Some(a);
        }
    }
    if let Some(t) = tps {
        if r.reads_per_s.is_none() && r.writes_per_s.is_none() {
            let rb = r.read_bytes_per_s.unwrap_or(0.0);
            let wb = r.write_bytes_per_s.unwrap_or(0.0);
            if t == 0.0 {
                r.reads_per_s = Some(0.0);
                r.writes_per_s = Some(0.0);
            } else if rb + wb > 0.0 {
                r.reads_per_s = Some(t * rb / (rb + wb));
                r.writes_per_s = Some(t * wb / (rb + wb));
            }
            let note = "the source gives tps (transfers/s) without the read/write split: reads and writes are estimated by sharing tps in proportion to the bytes read and written, and both use the one await";
            if !p.notes.iter().any(|n| n == note) {
                p.notes.push(note.into());
            }
        }
    }
    r
}

struct DevTable {
    idx: BTreeMap<String, usize>,
}

impl DevTable {
    fn get(&mut self, p: &mut Parsed, name: &str) -> usize {
        if let Some(&i) = self.idx.get(name) {
            return i;
        }
        let (role, part, parent, reason) = linux_role(name);
        p.devices.push(Device {
            name: name.to_string(),
            source: name.to_string(),
            role: role.into(),
            reason,
            on: None,
            is_partition: part,
            parent,
            host: None,
        });
        self.idx.insert(name.to_string(), p.devices.len() - 1);
        p.devices.len() - 1
    }
}

/// `Linux 5.4.0 (host) \t12/19/2022 \t_x86_64_\t(24 CPU)`: (kernel, host, date text).
fn banner(l: &str) -> Option<(String, String, String)> {
    let rest = l.strip_prefix("Linux ")?;
    let (kernel, rest) = rest.split_once(' ')?;
    let o = rest.find('(')?;
    let c = rest[o..].find(')')? + o;
    let host = rest[o + 1..c].to_string();
    let date = rest[c + 1..]
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    Some((kernel.to_string(), host, date))
}

fn date_of(s: &str) -> Option<Ymd> {
    time::parse_date(s, DateOrder::MonthFirst).or_else(|| time::parse_date(s, DateOrder::DayFirst))
}

/// A `-t` timestamp line: `03/15/2016 09:34:00 AM`, `2016-03-15 09:34:00`, `15/03/16 09:34:00`.
fn stamp_line(l: &str, order: DateOrder) -> Option<(Ymd, i64)> {
    let l = l.trim();
    let (d, t) = l.split_once(' ')?;
    let date = time::parse_date(d, order)?;
    let t = time::parse_time(t)?;
    Some((date, t))
}

fn untimed(p: &mut Parsed, opts: &ParseOpts, base_day: Option<Ymd>, what: &str) -> (i64, f64) {
    let start = opts
        .start_utc_ms
        .or_else(|| base_day.map(|d| time::to_utc_ms(d, 0, p.utc_offset_min.unwrap_or(0))))
        .unwrap_or(0);
    let step = match opts.interval_s {
        Some(s) => s * 1000.0,
        None => {
            p.needs.push(format!(
                "--interval SECONDS: {what} printed no times (run it with -t next time); give the interval it ran with"
            ));
            1000.0
        }
    };
    if opts.start_utc_ms.is_none() {
        p.notes.push(
            "the file has no times: the first report is placed at midnight of the banner's date (give --start TIME for the real start)".into(),
        );
    }
    (start, step)
}

fn tz_from(p: &mut Parsed, opts: &ParseOpts) {
    if let Some(o) = opts.utc_offset_min {
        p.utc_offset_min = Some(o);
        p.tz_source = "--utc-offset".into();
    } else {
        p.utc_offset_min = Some(0);
        p.tz_source =
            "not in the file: times taken as UTC (give --utc-offset MINUTES if they were local)"
                .into();
    }
}

fn unmapped_cols(p: &mut Parsed, cols: &[String]) {
    for c in cols {
        if c == "Device" || c == "Device:" || c == "DEV" {
            continue;
        }
        let why = if column_field(c).is_some() {
            continue;
        } else if derived(c) {
            "derived from the imported columns (a ratio or size per request)"
        } else {
            "not a column this importer knows"
        };
        if !p.unmapped.iter().any(|u| u.what == format!("column '{c}'")) {
            p.unmapped.push(Unmapped {
                what: format!("column '{c}'"),
                why: why.into(),
            });
        }
    }
    for c in cols {
        if let Some((f, k)) = column_field(c) {
            let m = if k == 1.0 {
                f.to_string()
            } else {
                format!("{f} × {k}")
            };
            if !p.mapping.iter().any(|(s, _)| s == c) {
                p.mapping.push((c.clone(), m));
            }
        }
    }
}

/// One iostat report: (line, its -t time, rates per device).
type Report = (usize, Option<(Ymd, i64)>, Vec<Option<Rates>>);

/// `iostat [-x] [-t] [-k|-m]` text output.
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
    p.notes.push("iostat's first report covers the time since boot: like every first sample, it gives no interval".into());
    Ok(p)
}

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
    Ok(p)
}

/// `sar -d [-p] [--pretty]` text output.
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
    let ndev = p.devices.len();
    for (utc, ln, mut rs) in by_time {
        rs.resize(ndev, None);
        p.samples.push(Sample {
            utc_ms: utc,
            line: ln,
            rates: rs,
            snap: None,
        });
    }
    Ok(p)
}

/// `sadf -d` output: `# hostname;interval;timestamp;DEV;tps;…` then one line per device.
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
    let ndev = p.devices.len();
    for (utc, ln, mut rs) in by_time {
        rs.resize(ndev, None);
        p.samples.push(Sample {
            utc_ms: utc,
            line: ln,
            rates: rs,
            snap: None,
        });
    }
    Ok(p)
}

/// One time marker line of a diskstats series: epoch seconds, or ISO 8601, optionally after `#`.
fn marker(l: &str) -> Option<i64> {
    let t = l.trim().trim_start_matches('#').trim();
    let t = t
        .strip_prefix("time:")
        .or_else(|| t.strip_prefix("time="))
        .unwrap_or(t)
        .trim();
    if let Ok(x) = t.parse::<f64>() {
        if x > 1e8 {
            return Some((x * 1000.0).round() as i64);
        }
    }
    time::parse_iso(t).map(|x| x.0)
}

/// A series of /proc/diskstats snapshots. Each snapshot is preceded by a time line (epoch
/// seconds or ISO 8601, `# ` allowed); a file without time lines is one snapshot whose time
/// is the uptime in `uptime_text` (the file `…uptime…` beside it), placed after `--start`.
pub fn parse_diskstats(
    file: &str,
    text: &str,
    uptime_text: Option<&str>,
    opts: &ParseOpts,
) -> Result<Parsed> {
    let mut p = Parsed::default();
    tz_from(&mut p, opts);
    p.tz_source = "times are UTC (epoch or ISO 8601 with offset)".into();
    let all = lines(text);
    if let Some(first) = all.iter().find(|l| !l.trim().is_empty()) {
        let t: Vec<&str> = first.split_whitespace().collect();
        if t.len() == 2
            && t.iter()
                .all(|x| x.contains('.') && x.parse::<f64>().is_ok())
        {
            return Err(bad(file, Some(1), Some(1), "this is /proc/uptime, not /proc/diskstats: import the diskstats file; the uptime file beside it (same name with 'uptime' for 'diskstats') is read with it"));
        }
    }
    let mut chunks: Vec<(usize, Option<i64>, String)> = Vec::new();
    for (i, l) in all.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        if let Some(t) = marker(l) {
            chunks.push((i + 1, Some(t), String::new()));
            continue;
        }
        if l.trim_start().starts_with('#') {
            continue;
        }
        if chunks.is_empty() {
            chunks.push((i + 1, None, String::new()));
        }
        if let Some(c) = chunks.last_mut() {
            // keep line numbers: pad with empty lines up to this one
            let have = c.2.matches('\n').count();
            let want = i + 1 - c.0;
            for _ in have..want.saturating_sub(1) {
                c.2.push('\n');
            }
            c.2.push_str(l);
            c.2.push('\n');
        }
    }
    if chunks.is_empty() {
        return Err(bad(file, None, None, "the file is empty"));
    }
    let mut devs = DevTable {
        idx: BTreeMap::new(),
    };
    let mut prev = None;
    for (first_line, t, body) in chunks {
        let parsed = crate::diskstats::parse(&body).map_err(|e| match e {
            crate::error::ProbeError::Parse { line, message } => {
                bad(file, Some(first_line + line - 1), None, message)
            }
            other => other,
        })?;
        if parsed.is_empty() {
            return Err(bad(
                file,
                Some(first_line),
                None,
                "a time line with no diskstats lines after it",
            ));
        }
        let (utc, mono) = match t {
            Some(t) => (t, None),
            None => {
                let Some(u) =
                    uptime_text.and_then(|u| u.split_whitespace().next()?.parse::<f64>().ok())
                else {
                    return Err(bad(file, Some(first_line), None, "no time for this snapshot: put a time line (epoch seconds or ISO 8601) before it, or keep the /proc/uptime read with it beside the file as …uptime…"));
                };
                p.tz_source =
                    "uptime only: the absolute time is --start (or the epoch) + uptime".into();
                (
                    opts.start_utc_ms.unwrap_or(0) + (u * 1000.0).round() as i64,
                    Some((u * 1e9) as u64),
                )
            }
        };
        if let Some(pv) = prev {
            if utc <= pv {
                return Err(bad(
                    file,
                    Some(first_line),
                    None,
                    format!(
                        "the snapshot time {} is not after the one before: times must increase",
                        time::iso(utc)
                    ),
                ));
            }
        }
        prev = Some(utc);
        for l in &parsed {
            devs.get(&mut p, &l.name);
        }
        let mut devices = BTreeMap::new();
        for l in parsed {
            devices.insert(
                l.name,
                DevSample {
                    major: l.major,
                    minor: l.minor,
                    fields: l.fields,
                },
            );
        }
        p.samples.push(Sample {
            utc_ms: utc,
            line: first_line,
            rates: Vec::new(),
            snap: Some(Snapshot {
                mono_ns: mono.unwrap_or(0),
                utc_ms: utc,
                boot_id: "import".into(),
                devices,
            }),
        });
    }
    p.format = "/proc/diskstats snapshots".into();
    p.mapping = vec![(
        "fields 1-17".into(),
        "intervals, as the recorder computes them (delta of successive snapshots)".into(),
    )];
    Ok(p)
}
