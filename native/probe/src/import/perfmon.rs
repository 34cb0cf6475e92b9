//! Windows Performance Monitor logs in PDH-CSV / PDH-TSV 4.0 (typeperf, relog, logman,
//! Export-Counter) and esxtop batch-mode CSV, which uses the same layout.

use std::collections::HashMap;

use super::time::{self, DateOrder};
use super::{bad, lines, num, Device, ParseOpts, Parsed, Rates, Sample, Unmapped};
use crate::error::Result;

/// The shipped name table.
pub const BUILTIN_NAMES: &str = include_str!("perfmon-names.tsv");

/// A counter's meaning: capture field, factor into that field's unit, English name.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterName {
    pub field: String,
    pub factor: f64,
    pub english: String,
    pub lang: String,
}

/// Object and counter names in every language of the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Names {
    pub objects: HashMap<String, String>,
    pub counters: HashMap<String, CounterName>,
    /// (lang, localized object, canonical) in table order (for building localized files).
    pub object_rows: Vec<(String, String, String)>,
    /// (lang, localized counter) in table order.
    pub counter_rows: Vec<(String, String)>,
}

const FIELDS: &[&str] = &[
    "reads_per_s",
    "writes_per_s",
    "read_bytes_per_s",
    "write_bytes_per_s",
    "read_s_per_io",
    "write_s_per_io",
    "idle_pct",
    "queue_avg",
    "read_queue_avg",
    "write_queue_avg",
    "queue_current",
    "ignore",
];

fn key(s: &str) -> String {
    s.trim().to_lowercase().replace('\u{2019}', "'")
}

impl Names {
    /// The shipped table.
    pub fn builtin() -> Names {
        let mut n = Names::default();
        // The shipped table is checked by a unit test; a bad line there is a build defect.
        let _ = n.add("perfmon-names.tsv", BUILTIN_NAMES);
        n
    }

    /// Add the lines of a table (`file` names it in errors).
    pub fn add(&mut self, file: &str, text: &str) -> Result<()> {
        for (i, line) in lines(text).into_iter().enumerate() {
            let l = line.trim_end();
            if l.trim().is_empty() || l.trim_start().starts_with('#') {
                continue;
            }
            let p: Vec<&str> = l.split('\t').collect();
            let err = |m: &str| bad(file, Some(i + 1), None, m);
            match p.first().copied() {
                Some("object") if p.len() == 4 => {
                    if !["PhysicalDisk", "LogicalDisk", "EsxDisk"].contains(&p[3]) {
                        return Err(err("an object line's 4th column must be PhysicalDisk, LogicalDisk or EsxDisk"));
                    }
                    self.objects.insert(key(p[2]), p[3].to_string());
                    self.object_rows
                        .push((p[1].to_string(), p[2].to_string(), p[3].to_string()));
                }
                Some("counter") if p.len() == 6 => {
                    if !FIELDS.contains(&p[3]) {
                        return Err(err(&format!(
                            "unknown field '{}': use one of {}",
                            p[3],
                            FIELDS.join(", ")
                        )));
                    }
                    let factor: f64 = p[4]
                        .parse()
                        .map_err(|_| err(&format!("factor '{}' is not a number", p[4])))?;
                    self.counters.insert(
                        key(p[2]),
                        CounterName {
                            field: p[3].to_string(),
                            factor,
                            english: p[5].to_string(),
                            lang: p[1].to_string(),
                        },
                    );
                    self.counter_rows.push((p[1].to_string(), p[2].to_string()));
                }
                _ => {
                    return Err(err(
                        "expected 'object<TAB>LANG<TAB>NAME<TAB>CANONICAL' or 'counter<TAB>LANG<TAB>NAME<TAB>FIELD<TAB>FACTOR<TAB>ENGLISH'",
                    ))
                }
            }
        }
        Ok(())
    }

    /// The localized name of an English counter in `lang`, if the table has it.
    pub fn localize_counter(&self, english: &str, lang: &str) -> Option<String> {
        self.counter_rows
            .iter()
            .filter(|(l, _)| l == lang)
            .find(|(_, n)| {
                self.counters
                    .get(&key(n))
                    .is_some_and(|c| c.english.eq_ignore_ascii_case(english))
            })
            .map(|(_, n)| n.clone())
    }

    /// The localized name of a canonical object in `lang`.
    pub fn localize_object(&self, canonical: &str, lang: &str) -> Option<String> {
        self.object_rows
            .iter()
            .find(|(l, _, c)| l == lang && c == canonical)
            .map(|(_, n, _)| n.clone())
    }
}

/// Split one delimited line with PDH quoting ("" is a quote inside a quoted field).
/// Err((column, message)) for an unterminated quote.
pub fn split_fields(
    line: &str,
    delim: char,
) -> std::result::Result<Vec<String>, (usize, &'static str)> {
    let mut out = Vec::new();
    let n = split_fields_into(line, delim, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// [`split_fields`] into reused buffers: the fields go to `out[..n]` (each String cleared and
/// refilled, so a log's rows are split without allocating once the buffers have grown), and `n` is
/// returned. A field that starts with a quote (after blanks) is quoted: `""` inside is a quote,
/// and what follows its closing quote up to the delimiter is dropped; any other field is kept as
/// written. `delim` is ASCII (`,`, `;` or a tab).
pub fn split_fields_into(
    line: &str,
    delim: char,
    out: &mut Vec<String>,
) -> std::result::Result<usize, (usize, &'static str)> {
    let d = delim as u8;
    let b = line.as_bytes();
    let len = b.len();
    let mut n = 0usize;
    let mut i = 0usize;
    loop {
        if n == out.len() {
            out.push(String::new());
        }
        let cur = &mut out[n];
        cur.clear();
        let start = i;
        while i < len && b[i] != d && b[i] != b'"' {
            i += 1;
        }
        if i < len && b[i] == b'"' && line[start..i].trim().is_empty() {
            i += 1;
            let mut seg = i;
            loop {
                if i >= len {
                    return Err((n + 1, "a quoted value is not closed (the line is cut off?)"));
                }
                if b[i] == b'"' {
                    cur.push_str(&line[seg..i]);
                    if i + 1 < len && b[i + 1] == b'"' {
                        cur.push('"');
                        i += 2;
                        seg = i;
                        continue;
                    }
                    i += 1;
                    break;
                }
                i += 1;
            }
            while i < len && b[i] != d {
                i += 1;
            }
        } else {
            while i < len && b[i] != d {
                i += 1;
            }
            cur.push_str(&line[start..i]);
        }
        n += 1;
        if i >= len {
            return Ok(n);
        }
        i += 1;
    }
}

/// A parsed counter path `\\HOST\Object(Instance)\Counter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterPath {
    pub host: String,
    pub object: String,
    pub instance: Option<String>,
    pub counter: String,
}

/// Parse a counter path; instances may hold commas, spaces, parentheses and `#n` suffixes.
pub fn parse_path(s: &str) -> Option<CounterPath> {
    let s = s.trim();
    let (host, rest) = if let Some(r) = s.strip_prefix("\\\\") {
        let i = r.find('\\')?;
        (r[..i].to_string(), &r[i + 1..])
    } else {
        (String::new(), s.strip_prefix('\\')?)
    };
    // The counter follows the last backslash outside parentheses.
    let mut depth = 0i32;
    let mut split = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '\\' if depth <= 0 => split = Some(i),
            _ => {}
        }
    }
    let i = split?;
    let (obj, counter) = (&rest[..i], &rest[i + 1..]);
    if counter.is_empty() || obj.is_empty() {
        return None;
    }
    let (object, instance) = match (obj.find('('), obj.ends_with(')')) {
        (Some(p), true) => (
            obj[..p].to_string(),
            Some(obj[p + 1..obj.len() - 1].to_string()),
        ),
        _ => (obj.to_string(), None),
    };
    Some(CounterPath {
        host,
        object,
        instance,
        counter: counter.to_string(),
    })
}

/// The time zone part of the first header cell: `(PDH-CSV 4.0) (Zone name)(bias)` where bias
/// = UTC − local in minutes. Returns (zone name, bias) — either may be missing (typeperf
/// writes no zone; some logs cut the zone name off).
pub fn parse_tz(cell: &str) -> (Option<String>, Option<i64>) {
    let Some(i) = cell.find(')') else {
        return (None, None);
    };
    let rest = cell[i + 1..].trim();
    if rest.is_empty() {
        return (None, None);
    }
    let mut bias = None;
    let mut name_part = rest;
    if rest.ends_with(')') {
        if let Some(j) = rest.rfind('(') {
            if let Ok(b) = rest[j + 1..rest.len() - 1].trim().parse::<i64>() {
                bias = Some(b);
                name_part = &rest[..j];
            }
        }
    }
    let name = name_part.trim();
    let name = name.strip_prefix('(').unwrap_or(name);
    let name = name.strip_suffix(')').unwrap_or(name).trim();
    ((!name.is_empty()).then(|| name.to_string()), bias)
}

#[derive(Debug, Clone)]
struct Col {
    dev: usize,
    field: String,
    factor: f64,
}

fn device_name(canon: &str, instance: &str, host: &str, multi_host: bool) -> String {
    let base = match canon {
        "EsxDisk" => format!("EsxDisk({instance})"),
        c => format!("{c}({instance})"),
    };
    if multi_host {
        format!("{host}\\{base}")
    } else {
        base
    }
}

/// Parse a PerfMon or esxtop CSV/TSV text.
pub fn parse(file: &str, text: &str, opts: &ParseOpts, esxtop: bool) -> Result<Parsed> {
    let mut names = Names::builtin();
    if let Some(user) = &opts.names {
        for (k, v) in &user.objects {
            names.objects.insert(k.clone(), v.clone());
        }
        for (k, v) in &user.counters {
            names.counters.insert(k.clone(), v.clone());
        }
    }
    let all = lines(text);
    let Some((h_idx, header)) = all.iter().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Err(bad(file, None, None, "the file is empty"));
    };
    let h_line = h_idx + 1;
    let ht = header.trim_start_matches('\u{feff}').trim_start();
    if !(ht.starts_with("\"(PDH-CSV") || ht.starts_with("\"(PDH-TSV") || ht.starts_with("(PDH-")) {
        return Err(bad(
            file,
            Some(h_line),
            Some(1),
            format!(
                "not a Performance Monitor {} log: the first line must start with \"(PDH-CSV 4.0)\" (save the log as CSV with relog FILE.blg -f csv -o FILE.csv)",
                if esxtop { "or esxtop batch" } else { "CSV" }
            ),
        ));
    }
    // The delimiter is the first character after the first cell.
    let after = ht
        .strip_prefix('"')
        .and_then(|r| r.find('"').map(|i| &r[i + 1..]))
        .unwrap_or("");
    let delim = match after.chars().next() {
        Some(c @ (',' | ';' | '\t')) => c,
        _ if ht.contains("PDH-TSV") => '\t',
        _ => ',',
    };
    let head = split_fields(ht, delim).map_err(|(c, m)| bad(file, Some(h_line), Some(c), m))?;
    let ncols = head.len();
    let (tz_name, bias) = parse_tz(&head[0]);
    let mut p = Parsed {
        format: format!(
            "{} {} ({})",
            if esxtop { "esxtop batch" } else { "PerfMon" },
            head[0]
                .split(')')
                .next()
                .unwrap_or("")
                .trim_start_matches('('),
            match delim {
                ',' => "comma-separated",
                ';' => "semicolon-separated",
                _ => "tab-separated",
            }
        ),
        tz_name: tz_name.clone(),
        ..Default::default()
    };
    match (bias, opts.utc_offset_min) {
        (_, Some(o)) => {
            p.utc_offset_min = Some(o);
            p.tz_source = "--utc-offset".into();
        }
        (Some(b), None) => {
            p.utc_offset_min = Some(-b);
            p.tz_source = "header (bias = UTC − local)".into();
        }
        (None, None) => {
            p.utc_offset_min = Some(0);
            p.tz_source = format!(
                "not in the file{}: times taken as UTC (give --utc-offset MINUTES if they were local)",
                if tz_name.is_some() { " (zone name without bias)" } else { "" }
            );
        }
    }
    // Columns.
    let paths: Vec<Option<CounterPath>> = head.iter().skip(1).map(|h| parse_path(h)).collect();
    let mut hosts: Vec<String> = Vec::new();
    for cp in paths.iter().flatten() {
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(&cp.host)) {
            hosts.push(cp.host.clone());
        }
    }
    let multi = hosts.len() > 1;
    // Instances per (host, canonical object) to decide about _Total.
    let mut instances: HashMap<(String, String), Vec<String>> = HashMap::new();
    for cp in paths.iter().flatten() {
        if let Some(canon) = names.objects.get(&key(&cp.object)) {
            if let Some(inst) = &cp.instance {
                let e = instances
                    .entry((cp.host.to_lowercase(), canon.clone()))
                    .or_default();
                if !e.iter().any(|x| x.eq_ignore_ascii_case(inst)) {
                    e.push(inst.clone());
                }
            }
        }
    }
    let mut cols: Vec<Option<Col>> = vec![None; ncols];
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut other_objects: Vec<(String, usize)> = Vec::new();
    let mut unknown_counters: Vec<(String, String)> = Vec::new();
    let mut ignored: Vec<String> = Vec::new();
    let mut dups = 0usize;
    for (ci, cp) in paths.iter().enumerate() {
        let col = ci + 2; // 1-based, after the time column
        let Some(cp) = cp else {
            p.unmapped.push(Unmapped {
                what: format!("column {col} '{}'", head[ci + 1]),
                why: "not a counter path (\\\\HOST\\Object(Instance)\\Counter)".into(),
            });
            continue;
        };
        let Some(canon) = names.objects.get(&key(&cp.object)).cloned() else {
            match other_objects.iter_mut().find(|(o, _)| o == &cp.object) {
                Some(e) => e.1 += 1,
                None => other_objects.push((cp.object.clone(), 1)),
            }
            continue;
        };
        if esxtop != (canon == "EsxDisk") {
            match other_objects.iter_mut().find(|(o, _)| o == &cp.object) {
                Some(e) => e.1 += 1,
                None => other_objects.push((cp.object.clone(), 1)),
            }
            continue;
        }
        let Some(inst) = cp.instance.clone() else {
            continue;
        };
        let k = key(&head[ci + 1]);
        if let Some(first) = seen.get(&k) {
            let _ = first;
            dups += 1;
            continue;
        }
        seen.insert(k, col);
        let insts = instances
            .get(&(cp.host.to_lowercase(), canon.clone()))
            .cloned()
            .unwrap_or_default();
        if inst.eq_ignore_ascii_case("_Total") && insts.len() > 1 {
            let what = format!("{}(_Total)", cp.object);
            if !p.unmapped.iter().any(|u| u.what == what) {
                p.unmapped.push(Unmapped {
                    what,
                    why: "the sum of the other instances, which are imported one by one".into(),
                });
            }
            continue;
        }
        let Some(cn) = names.counters.get(&key(&cp.counter)).cloned() else {
            if !unknown_counters
                .iter()
                .any(|(c, _)| c.eq_ignore_ascii_case(&cp.counter))
            {
                unknown_counters.push((cp.counter.clone(), cp.object.clone()));
            }
            continue;
        };
        if cn.field == "ignore" {
            if !ignored.iter().any(|c| c.eq_ignore_ascii_case(&cp.counter)) {
                ignored.push(cp.counter.clone());
            }
            continue;
        }
        let name = device_name(&canon, &inst, &cp.host, multi);
        let dev = match p
            .devices
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(&name))
        {
            Some(i) => i,
            None => {
                let (role, reason) = match canon.as_str() {
                    "LogicalDisk" => (
                        "front",
                        "a Windows volume (LogicalDisk): what the applications use",
                    ),
                    "PhysicalDisk" => (
                        "backing",
                        "a Windows disk (PhysicalDisk): the storage beneath the volumes",
                    ),
                    _ => (
                        "backing",
                        "an ESXi SCSI device: the storage the datastores sit on",
                    ),
                };
                p.devices.push(Device {
                    name: name.clone(),
                    source: format!("\\\\{}\\{}({})", cp.host, cp.object, inst),
                    role: role.into(),
                    reason: reason.into(),
                    on: None,
                    is_partition: false,
                    parent: None,
                    host: Some(cp.host.clone()),
                });
                p.devices.len() - 1
            }
        };
        if !p
            .mapping
            .iter()
            .any(|(s, _)| s.eq_ignore_ascii_case(&cp.counter))
        {
            p.mapping.push((
                cp.counter.clone(),
                if cn.factor == 1.0 {
                    cn.field.clone()
                } else {
                    format!("{} × {}", cn.field, cn.factor)
                },
            ));
        }
        cols[ci + 1] = Some(Col {
            dev,
            field: cn.field,
            factor: cn.factor,
        });
    }
    for (o, n) in &other_objects {
        p.unmapped.push(Unmapped {
            what: format!("object '{o}' ({n} column{})", if *n == 1 { "" } else { "s" }),
            why: if esxtop {
                "not an esxtop disk object (Physical Disk SCSI Device)".into()
            } else {
                "not a disk object (PhysicalDisk or LogicalDisk), or a name missing from the table (add it with --names FILE)".into()
            },
        });
    }
    for (c, o) in &unknown_counters {
        p.unmapped.push(Unmapped {
            what: format!("counter '{o}\\{c}'"),
            why: "not in the name table: add it with --names FILE".into(),
        });
    }
    for c in &ignored {
        p.unmapped.push(Unmapped {
            what: format!("counter '{c}'"),
            why: "known, but the capture has no column for it (derived from the imported ones)"
                .into(),
        });
    }
    if dups > 0 {
        p.notes.push(format!(
            "{dups} column{} repeat an earlier column's path: the first of each is used",
            if dups == 1 { "" } else { "s" }
        ));
    }
    if p.devices.is_empty() {
        let found: Vec<String> = other_objects.iter().map(|(o, _)| o.clone()).collect();
        return Err(bad(
            file,
            Some(h_line),
            None,
            format!(
                "no {} counters to import (objects in the file: {}); if they are disk objects in another language, add their names with --names FILE",
                if esxtop { "esxtop disk (Physical Disk SCSI Device)" } else { "PhysicalDisk or LogicalDisk" },
                if found.is_empty() { "none".into() } else { found.join(", ") }
            ),
        ));
    }
    // Pair volumes with the disks beneath (PhysicalDisk "0 C: D:" holds C: and D:), per host.
    super::prometheus::pair_volumes(&mut p.devices);
    p.hosts = hosts;
    // Rows.
    let data: Vec<(usize, &str)> = all
        .iter()
        .enumerate()
        .skip(h_idx + 1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, *l))
        .collect();
    if data.is_empty() {
        return Err(bad(
            file,
            Some(h_line),
            None,
            "the header has no data rows below it: nothing to import",
        ));
    }
    // Day-first dates: a first number above 12 anywhere in the time column (read alone first).
    let day_first = data.iter().any(|(_, l)| {
        let first = l.split(delim).next().unwrap_or("");
        let d = first
            .trim()
            .trim_matches('"')
            .trim()
            .split(' ')
            .next()
            .unwrap_or("");
        d.contains('/')
            && d.split('/')
                .next()
                .and_then(|x| x.parse::<u32>().ok())
                .unwrap_or(0)
                > 12
    });
    let order = if day_first {
        DateOrder::DayFirst
    } else {
        DateOrder::MonthFirst
    };
    let off = p.utc_offset_min.unwrap_or(0);
    let mut prev: Option<i64> = None;
    // One row at a time, split into buffers reused for every row: a log of any length is read
    // with the memory of its samples, not of its text split into strings.
    let mut f: Vec<String> = Vec::with_capacity(ncols);
    p.samples.reserve(data.len());
    for (ln, l) in &data {
        let ln = *ln;
        let nf = split_fields_into(l, delim, &mut f)
            .map_err(|(c, m)| bad(file, Some(ln), Some(c), m))?;
        if nf != ncols {
            return Err(bad(
                file,
                Some(ln),
                Some(nf.min(ncols) + usize::from(nf < ncols)),
                format!(
                    "{nf} columns where the header has {ncols} (the line is cut off, or the file was edited)"
                ),
            ));
        }
        let cell = f[0].trim();
        let (d, t) = cell.split_once(' ').unwrap_or((cell, ""));
        let utc = match (time::parse_date(d, order), time::parse_time(t)) {
            (Some(d), Some(t)) => time::to_utc_ms(d, t, off),
            _ => {
                return Err(bad(
                    file,
                    Some(ln),
                    Some(1),
                    format!("'{cell}' is not a time (expected MM/DD/YYYY HH:MM:SS.mmm)"),
                ))
            }
        };
        if let Some(pv) = prev {
            if utc <= pv {
                return Err(bad(
                    file,
                    Some(ln),
                    Some(1),
                    format!(
                        "the time {cell} is not after the row above ({}): times must increase",
                        time::iso(pv)
                    ),
                ));
            }
        }
        prev = Some(utc);
        let mut rates = vec![Rates::default(); p.devices.len()];
        let mut rq = vec![(None, None); p.devices.len()];
        for (ci, c) in cols.iter().enumerate() {
            let Some(c) = c else { continue };
            let v = num(&f[ci]).map_err(|_| {
                bad(
                    file,
                    Some(ln),
                    Some(ci + 1),
                    format!("'{}' is not a number", f[ci].trim()),
                )
            })?;
            let Some(v) = v.map(|v| v * c.factor) else {
                continue;
            };
            if v < 0.0 {
                continue; // PDH writes -1 for a counter it could not read
            }
            let r = &mut rates[c.dev];
            match c.field.as_str() {
                "reads_per_s" => r.reads_per_s = Some(v),
                "writes_per_s" => r.writes_per_s = Some(v),
                "read_bytes_per_s" => r.read_bytes_per_s = Some(v),
                "write_bytes_per_s" => r.write_bytes_per_s = Some(v),
                "read_s_per_io" => r.read_ms_per_io = Some(v * 1000.0),
                "write_s_per_io" => r.write_ms_per_io = Some(v * 1000.0),
                "idle_pct" => r.busy_frac = Some((1.0 - v / 100.0).clamp(0.0, 1.0)),
                "queue_avg" => r.queue_avg = Some(v),
                "read_queue_avg" => rq[c.dev].0 = Some(v),
                "write_queue_avg" => rq[c.dev].1 = Some(v),
                "queue_current" => r.in_flight = Some(v),
                _ => {}
            }
        }
        for (r, q) in rates.iter_mut().zip(rq) {
            if r.queue_avg.is_none() {
                if let (Some(a), Some(b)) = q {
                    r.queue_avg = Some(a + b);
                }
            }
        }
        p.samples.push(Sample {
            utc_ms: utc,
            line: ln,
            rates: rates
                .into_iter()
                .map(|r| (!r.is_empty()).then_some(r))
                .collect(),
            snap: None,
        });
    }
    if day_first {
        p.notes
            .push("dates are day-first (DD/MM/YYYY): a first number above 12 was found".into());
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    /// The splitter as first written, one char at a time (the reference the byte splitter keeps).
    fn reference(
        line: &str,
        delim: char,
    ) -> std::result::Result<Vec<String>, (usize, &'static str)> {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut chars = line.chars().peekable();
        let (mut quoted, mut in_q) = (false, false);
        loop {
            let Some(c) = chars.next() else {
                if in_q {
                    return Err((
                        out.len() + 1,
                        "a quoted value is not closed (the line is cut off?)",
                    ));
                }
                out.push(std::mem::take(&mut cur));
                return Ok(out);
            };
            if in_q {
                if c == '"' {
                    if chars.peek() == Some(&'"') {
                        cur.push('"');
                        chars.next();
                    } else {
                        in_q = false;
                    }
                } else {
                    cur.push(c);
                }
            } else if c == '"' && !quoted && cur.trim().is_empty() {
                cur.clear();
                in_q = true;
                quoted = true;
            } else if c == delim {
                out.push(std::mem::take(&mut cur));
                quoted = false;
            } else if !quoted {
                cur.push(c);
            }
        }
    }

    #[test]
    fn worked_examples() {
        let s = |l: &str| split_fields(l, ',').unwrap();
        assert_eq!(s(r#""a","b""c",d"#), vec!["a", "b\"c", "d"]);
        assert_eq!(s(r#"  "x" tail,y,"#), vec!["x", "y", ""]);
        assert_eq!(
            s(r#"a"b,"Processor(2,10)""#),
            vec!["a\"b", "Processor(2,10)"]
        );
        assert_eq!(s(""), vec![""]);
        assert_eq!(
            split_fields(r#""a","b"#, ','),
            Err((2, "a quoted value is not closed (the line is cut off?)"))
        );
        // the buffers are reused: fewer fields than last time leave the rest untouched but not counted
        let mut buf = Vec::new();
        assert_eq!(split_fields_into("1,2,3", ',', &mut buf), Ok(3));
        assert_eq!(split_fields_into("\"é\"\t4", '\t', &mut buf), Ok(2));
        assert_eq!(&buf[..2], &["é".to_string(), "4".to_string()]);
    }

    proptest! {
        #[test]
        fn the_byte_splitter_gives_what_the_char_splitter_gave(line in "[a-c é\",;\t]{0,40}", d in prop::sample::select(vec![',', ';', '\t'])) {
            let mut buf = vec![String::from("stale")];
            let got = split_fields_into(&line, d, &mut buf).map(|n| buf[..n].to_vec());
            prop_assert_eq!(got, reference(&line, d));
        }
    }
}
