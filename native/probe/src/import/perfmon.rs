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
/// refilled, so rows are split without allocating once the buffers have grown), and `n` is
/// returned. Built on [`split_ranges`], with `""` inside a quoted field turned into one quote.
pub fn split_fields_into(
    line: &str,
    delim: char,
    out: &mut Vec<String>,
) -> std::result::Result<usize, (usize, &'static str)> {
    let mut r = Vec::new();
    let n = split_ranges(line, delim, &mut r)?;
    for (k, &(a, b)) in r[..n].iter().enumerate() {
        if k == out.len() {
            out.push(String::new());
        }
        let cur = &mut out[k];
        cur.clear();
        let f = &line[a..b];
        if f.contains("\"\"") && quoted_at(line, a) {
            cur.push_str(&f.replace("\"\"", "\""));
        } else {
            cur.push_str(f);
        }
    }
    Ok(n)
}

/// Whether the field whose text starts at byte `a` was quoted (its opening quote just before).
fn quoted_at(line: &str, a: usize) -> bool {
    a > 0 && line.as_bytes()[a - 1] == b'"'
}

/// Split one delimited line into the byte ranges of its fields, without copying: `out[..n]`
/// (reused), `n` returned. A field that starts with a quote (after blanks) is quoted: its range
/// is what lies between the quotes (`""` inside stays doubled: [`split_fields_into`] undoes it),
/// and what follows its closing quote up to the delimiter is dropped; any other field is kept as
/// written. `delim` is ASCII (`,`, `;` or a tab). Err((column, message)) for an unterminated quote.
pub fn split_ranges(
    line: &str,
    delim: char,
    out: &mut Vec<(usize, usize)>,
) -> std::result::Result<usize, (usize, &'static str)> {
    let d = delim as u8;
    let b = line.as_bytes();
    let len = b.len();
    let mut n = 0usize;
    let mut i = 0usize;
    loop {
        let start = i;
        let to_delim = |i: usize| memchr::memchr(d, &b[i..]).map_or(len, |k| i + k);
        i = memchr::memchr2(d, b'"', &b[i..]).map_or(len, |k| i + k);
        let range;
        if i < len && b[i] == b'"' && line[start..i].trim().is_empty() {
            i += 1;
            let a = i;
            loop {
                match memchr::memchr(b'"', &b[i..]) {
                    None => {
                        return Err((n + 1, "a quoted value is not closed (the line is cut off?)"))
                    }
                    Some(k) => i += k,
                }
                if i + 1 < len && b[i + 1] == b'"' {
                    i += 2;
                    continue;
                }
                break;
            }
            range = (a, i);
            i = to_delim(i + 1);
        } else {
            i = to_delim(i);
            range = (start, i);
        }
        if n == out.len() {
            out.push(range);
        } else {
            out[n] = range;
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

/// The figure a mapped column feeds (the name table's FIELD).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Reads,
    Writes,
    ReadBytes,
    WriteBytes,
    ReadSec,
    WriteSec,
    IdlePct,
    Queue,
    ReadQueue,
    WriteQueue,
    QueueNow,
    Other,
}

impl Field {
    fn of(name: &str) -> Field {
        match name {
            "reads_per_s" => Field::Reads,
            "writes_per_s" => Field::Writes,
            "read_bytes_per_s" => Field::ReadBytes,
            "write_bytes_per_s" => Field::WriteBytes,
            "read_s_per_io" => Field::ReadSec,
            "write_s_per_io" => Field::WriteSec,
            "idle_pct" => Field::IdlePct,
            "queue_avg" => Field::Queue,
            "read_queue_avg" => Field::ReadQueue,
            "write_queue_avg" => Field::WriteQueue,
            "queue_current" => Field::QueueNow,
            _ => Field::Other,
        }
    }
}

#[derive(Debug, Clone)]
struct Col {
    dev: usize,
    field: Field,
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
            field: Field::of(&cn.field),
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
    let mapped: Vec<(usize, Col)> = cols
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.clone().map(|c| (i, c)))
        .collect();
    let ctx = Rows {
        file,
        delim,
        ncols,
        order,
        off: p.utc_offset_min.unwrap_or(0),
        mapped,
        ndev: p.devices.len(),
    };
    p.samples = ctx.parse(&data)?;
    if day_first {
        p.notes
            .push("dates are day-first (DD/MM/YYYY): a first number above 12 was found".into());
    }
    Ok(p)
}

/// What every data row of a log is parsed with.
struct Rows<'a> {
    file: &'a str,
    delim: char,
    ncols: usize,
    order: DateOrder,
    /// The source's local time − UTC, minutes.
    off: i64,
    /// Mapped columns (index, what they feed).
    mapped: Vec<(usize, Col)>,
    ndev: usize,
}

/// Rows from which a log is parsed on two threads (a half each).
const PARALLEL_ROWS: usize = 20_000;

impl Rows<'_> {
    /// The samples of the data rows `(line, text)`, in order: on two threads for a large log, each
    /// half exactly as one pass would read it (the second half starts from the time of the
    /// first half's last row, so that the same row is refused with the same sentence).
    fn parse(&self, data: &[(usize, &str)]) -> Result<Vec<Sample>> {
        if data.len() >= PARALLEL_ROWS {
            let mid = data.len() / 2;
            let (ln, l) = data[mid - 1];
            let mut rg = Vec::new();
            if let Ok(t) = self.time_of(ln, l, &mut rg) {
                let (a, b) = std::thread::scope(|sc| {
                    let second = sc.spawn(|| self.chunk(&data[mid..], Some(t)));
                    let first = self.chunk(&data[..mid], None);
                    (first, second.join())
                });
                let mut a = a?;
                // a panic of the second half is a bug: it propagates as one of this thread would
                a.extend(b.unwrap_or_else(|p| std::panic::resume_unwind(p))?);
                return Ok(a);
            }
        }
        self.chunk(data, None)
    }

    /// Split a row into `rg` and check its column count.
    fn split(&self, ln: usize, l: &str, rg: &mut Vec<(usize, usize)>) -> Result<()> {
        let nf = split_ranges(l, self.delim, rg)
            .map_err(|(c, m)| bad(self.file, Some(ln), Some(c), m))?;
        if nf != self.ncols {
            let ncols = self.ncols;
            return Err(bad(
                self.file,
                Some(ln),
                Some(nf.min(ncols) + usize::from(nf < ncols)),
                format!(
                    "{nf} columns where the header has {ncols} (the line is cut off, or the file was edited)"
                ),
            ));
        }
        Ok(())
    }

    /// A row's time (UTC ms), after [`Rows::split`] into `rg`.
    fn time_at(&self, ln: usize, l: &str, rg: &[(usize, usize)]) -> Result<i64> {
        let cell = l[rg[0].0..rg[0].1].trim();
        let (d, t) = cell.split_once(' ').unwrap_or((cell, ""));
        match (time::parse_date(d, self.order), time::parse_time(t)) {
            (Some(d), Some(t)) => Ok(time::to_utc_ms(d, t, self.off)),
            _ => Err(bad(
                self.file,
                Some(ln),
                Some(1),
                format!("'{cell}' is not a time (expected MM/DD/YYYY HH:MM:SS.mmm)"),
            )),
        }
    }

    fn time_of(&self, ln: usize, l: &str, rg: &mut Vec<(usize, usize)>) -> Result<i64> {
        self.split(ln, l, rg)?;
        self.time_at(ln, l, rg)
    }

    /// One pass over rows; `prev`: the time of the row before the first.
    fn chunk(&self, data: &[(usize, &str)], mut prev: Option<i64>) -> Result<Vec<Sample>> {
        let file = self.file;
        let mut out = Vec::with_capacity(data.len());
        // one row at a time, split into field ranges reused for every row: a log of any length is
        // read with the memory of its samples, not of its text split into strings
        let mut rg: Vec<(usize, usize)> = Vec::with_capacity(self.ncols);
        for &(ln, l) in data {
            self.split(ln, l, &mut rg)?;
            let f = |k: usize| &l[rg[k].0..rg[k].1];
            let utc = self.time_at(ln, l, &rg)?;
            if let Some(pv) = prev {
                if utc <= pv {
                    return Err(bad(
                        file,
                        Some(ln),
                        Some(1),
                        format!(
                            "the time {} is not after the row above ({}): times must increase",
                            f(0).trim(),
                            time::iso(pv)
                        ),
                    ));
                }
            }
            prev = Some(utc);
            let mut rates = vec![Rates::default(); self.ndev];
            let mut rq = vec![(None, None); self.ndev];
            for (ci, c) in &self.mapped {
                let ci = *ci;
                let v = num(f(ci)).map_err(|_| {
                    bad(
                        file,
                        Some(ln),
                        Some(ci + 1),
                        format!("'{}' is not a number", f(ci).trim()),
                    )
                })?;
                let Some(v) = v.map(|v| v * c.factor) else {
                    continue;
                };
                if v < 0.0 {
                    continue; // PDH writes -1 for a counter it could not read
                }
                let r = &mut rates[c.dev];
                match c.field {
                    Field::Reads => r.reads_per_s = Some(v),
                    Field::Writes => r.writes_per_s = Some(v),
                    Field::ReadBytes => r.read_bytes_per_s = Some(v),
                    Field::WriteBytes => r.write_bytes_per_s = Some(v),
                    Field::ReadSec => r.read_ms_per_io = Some(v * 1000.0),
                    Field::WriteSec => r.write_ms_per_io = Some(v * 1000.0),
                    Field::IdlePct => r.busy_frac = Some((1.0 - v / 100.0).clamp(0.0, 1.0)),
                    Field::Queue => r.queue_avg = Some(v),
                    Field::ReadQueue => rq[c.dev].0 = Some(v),
                    Field::WriteQueue => rq[c.dev].1 = Some(v),
                    Field::QueueNow => r.in_flight = Some(v),
                    Field::Other => {}
                }
            }
            out.push(Sample {
                utc_ms: utc,
                line: ln,
                rates: rates
                    .into_iter()
                    .zip(rq)
                    .map(|(mut r, q)| {
                        if r.queue_avg.is_none() {
                            if let (Some(a), Some(b)) = q {
                                r.queue_avg = Some(a + b);
                            }
                        }
                        (!r.is_empty()).then_some(r)
                    })
                    .collect(),
                snap: None,
            });
        }
        Ok(out)
    }
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

    /// A log of `n` rows at 1 s (two counters of one disk), and the rows changed by `edit`.
    fn big_log(n: usize, edit: impl Fn(usize, String) -> String) -> String {
        let mut t = String::from("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\PhysicalDisk(0 C:)\\Disk Reads/sec\",\"\\\\H\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read\"\r\n");
        for i in 0..n {
            let row = format!(
                "\"01/02/2024 {:02}:{:02}:{:02}.000\",\"{}.5\",\"0.00{}\"",
                i / 3600,
                (i / 60) % 60,
                i % 60,
                i % 100,
                1 + i % 9
            );
            t.push_str(&edit(i, row));
            t.push_str("\r\n");
        }
        t
    }

    #[test]
    fn two_threads_read_a_large_log_as_one_pass_does() {
        let n = PARALLEL_ROWS + 1001;
        let mid = n / 2; // the first row of the second half
        type Edit = Box<dyn Fn(usize, String) -> String>;
        let cases: Vec<(&str, Edit)> = vec![
            ("as written", Box::new(|_, r| r)),
            (
                "the first row of the second half goes back",
                Box::new(move |i, r| {
                    if i == mid {
                        r.replacen(
                            &format!("{:02}:{:02}:{:02}", i / 3600, (i / 60) % 60, i % 60),
                            "00:00:00",
                            1,
                        )
                    } else {
                        r
                    }
                }),
            ),
            (
                "a bad number in the second half",
                Box::new(move |i, r| {
                    if i == mid + 50 {
                        r.replace(".5\"", ".5x\"")
                    } else {
                        r
                    }
                }),
            ),
            (
                "bad numbers in both halves: the first wins",
                Box::new(move |i, r| {
                    if i == 10 || i == mid + 5 {
                        r.replace(".5\"", ".5x\"")
                    } else {
                        r
                    }
                }),
            ),
            (
                "a cut line in the second half",
                Box::new(move |i, r| if i == mid + 7 { r[..20].to_string() } else { r }),
            ),
            (
                "the last row of the first half has a bad time",
                Box::new(move |i, r| {
                    if i == mid - 1 {
                        r.replacen("01/02", "13/45", 1)
                    } else {
                        r
                    }
                }),
            ),
        ];
        for (what, edit) in cases {
            let text = big_log(n, edit);
            let o = ParseOpts::default();
            let par = parse("f", &text, &o, false);
            // the same rows read in one pass
            let all = lines(&text);
            let data: Vec<(usize, &str)> = all
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, l)| (i + 1, *l))
                .collect();
            let hp = parse("f", &big_log(3, |_, r| r), &o, false).unwrap();
            assert_eq!(hp.devices.len(), 1);
            let rows = Rows {
                file: "f",
                delim: ',',
                ncols: 3,
                order: DateOrder::MonthFirst,
                off: 0,
                mapped: Vec::new(),
                ndev: 1,
            };
            let seq = rows.chunk(&data, None);
            match (par, seq) {
                (Ok(p), Ok(s)) => {
                    assert_eq!(p.samples.len(), n, "{what}");
                    assert_eq!(
                        p.samples
                            .iter()
                            .map(|x| (x.utc_ms, x.line))
                            .collect::<Vec<_>>(),
                        s.iter().map(|x| (x.utc_ms, x.line)).collect::<Vec<_>>(),
                        "{what}"
                    );
                    assert_eq!(
                        p.samples[mid].rates[0].unwrap().reads_per_s,
                        Some((mid % 100) as f64 + 0.5)
                    );
                }
                (Err(p), Err(s)) => {
                    let (p, s) = (p.to_string(), s.to_string());
                    // the numbers are not read in the one-pass reference (no mapped columns): compare where it stops
                    if what.contains("bad number") {
                        let line = if what.contains("both") { 12 } else { mid + 52 };
                        assert!(
                            p.starts_with(&format!("f, line {line}, column 2: ")),
                            "{what}: {p}"
                        );
                    } else {
                        assert_eq!(p, s, "{what}");
                    }
                }
                (Err(p), Ok(_)) if what.contains("bad number") => {
                    let p = p.to_string();
                    let line = if what.contains("both") { 12 } else { mid + 52 };
                    assert!(
                        p.starts_with(&format!("f, line {line}, column 2: ")),
                        "{what}: {p}"
                    );
                }
                (p, s) => panic!(
                    "{what}: parallel {:?} vs one pass {:?}",
                    p.map(|x| x.samples.len()),
                    s.map(|x| x.len())
                ),
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
