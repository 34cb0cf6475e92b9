//! Windows Performance Monitor logs in PDH-CSV / PDH-TSV 4.0 (typeperf, relog, logman,
//! Export-Counter) and esxtop batch-mode CSV, which uses the same layout. The text is read by
//! `text` (fields, counter paths, the zone), the counters mapped by `names`, the data rows
//! parsed by `rows`.

mod capacity;
mod esx;
mod names;
pub(crate) mod roles;
mod rows;
#[cfg(test)]
mod tests;
mod text;
mod work;

use std::collections::HashMap;

pub use names::{CounterName, Names, BUILTIN_NAMES};
pub use text::{parse_path, parse_tz, split_fields, split_fields_into, split_ranges, CounterPath};
pub use work::WorkRow;

use super::time::DateOrder;
use super::{bad, lines, Device, ParseOpts, Parsed, Unmapped};
use crate::error::Result;
use names::key;
use rows::Rows;

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
    /// `% Disk Time`: the average queue length × 100 (not busy time: `% Idle Time` is).
    DiskTimePct,
    /// `% Free Space` and `Free Megabytes` of a volume: its capacity, not a rate.
    FreePct,
    FreeMb,
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
            "disk_time_pct" => Field::DiskTimePct,
            "free_pct" => Field::FreePct,
            "free_mb" => Field::FreeMb,
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
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
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
    let mut caps = capacity::Cols::default();
    let mut works = work::Cols::default();
    // every counter of a disk object, imported or not (named when nothing can be imported)
    let mut disk_counters: Vec<String> = Vec::new();
    for (ci, cp) in paths.iter().enumerate() {
        let col = ci + 2; // 1-based, after the time column
        let Some(cp) = cp else {
            p.unmapped.push(Unmapped {
                what: format!("column {col} '{}'", head[ci + 1]),
                why: "not a counter path (\\\\HOST\\Object(Instance)\\Counter)".into(),
            });
            continue;
        };
        // the work the server did (work_counters): Process I/O requests, SQL Server batches
        if !esxtop && works.take(&names, ci + 1, cp, &head[ci + 1], multi) {
            continue;
        }
        let Some(canon) = names.objects.get(&key(&cp.object)).cloned() else {
            match other_objects.iter_mut().find(|(o, _)| o == &cp.object) {
                Some(e) => e.1 += 1,
                None => other_objects.push((cp.object.clone(), 1)),
            }
            continue;
        };
        if esxtop != canon.starts_with("Esx") {
            match other_objects.iter_mut().find(|(o, _)| o == &cp.object) {
                Some(e) => e.1 += 1,
                None => other_objects.push((cp.object.clone(), 1)),
            }
            continue;
        }
        if let Some(i) = &cp.instance {
            disk_counters.push(format!("{}({i})\\{}", cp.object, cp.counter));
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
        let canon = esx::canon_of(&canon, &inst);
        let name = device_name(&canon, &inst, &cp.host, multi);
        if let f @ (Field::FreePct | Field::FreeMb) = Field::of(&cn.field) {
            // a volume's capacity (volume_capacity), read apart from the rates below
            caps.add(ci + 1, f == Field::FreePct, &name, &inst, &cp.host, multi);
            continue;
        }
        let dev = match p
            .devices
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(&name))
        {
            Some(i) => i,
            None => {
                let (role, reason) = match canon.as_str() {
                    // PerfMon roles are set once the rows are read (`roles::propose`).
                    "LogicalDisk" => ("other", "a Windows volume (LogicalDisk)"),
                    "PhysicalDisk" => (
                        "backing",
                        "a Windows disk (PhysicalDisk): the storage beneath the volumes",
                    ),
                    c => esx::first_role(c),
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
                if cn.field == "disk_time_pct" {
                    "queue_avg × 0.01 (when the log has no Avg. Disk Queue Length)".into()
                } else if cn.factor == 1.0 {
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
    if p.devices.is_empty() && !disk_counters.is_empty() {
        return Err(bad(
            file,
            Some(h_line),
            None,
            super::partial::nothing_to_import(&disk_counters, esxtop),
        ));
    }
    if p.devices.is_empty() {
        let mut found: Vec<String> = other_objects.iter().map(|(o, _)| o.clone()).collect();
        found.extend(works.objects.iter().cloned());
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
    caps.rows(&ctx, &data, &mut p)?;
    works.rows(&ctx, &data, &mut p)?;
    if esxtop {
        let (edges, notes) = esx::views(&mut p.devices);
        p.stack.extend(edges);
        p.notes.extend(notes);
    } else {
        let complete = roles::completeness(p.devices.len(), &p.samples);
        let notes = roles::propose(&mut p.devices, &complete);
        p.notes.extend(notes);
    }
    if day_first {
        p.notes
            .push("dates are day-first (DD/MM/YYYY): a first number above 12 was found".into());
    }
    Ok(p)
}
