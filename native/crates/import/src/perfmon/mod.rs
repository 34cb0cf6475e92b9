//! Windows Performance Monitor logs in PDH-CSV / PDH-TSV 4.0 (typeperf, relog, logman,
//! Export-Counter) and esxtop batch-mode CSV, which uses the same layout. The text is read by
//! `text` (fields, counter paths, the zone), the counters mapped by `names`, the header's
//! columns read by `columns`, the data rows parsed by `rows`.

mod capacity;
mod columns;
mod esx;
mod names;
pub(crate) mod roles;
mod rows;
#[cfg(test)]
mod tests;
mod text;
mod work;

pub use names::{CounterName, Names, BUILTIN_NAMES};
pub use text::{parse_path, parse_tz, split_fields, split_fields_into, split_ranges, CounterPath};
pub use work::WorkRow;

use super::time::DateOrder;
use super::{bad, lines, ParseOpts, Parsed};
use crate::error::Result;
use columns::Columns;
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

/// The name table: the shipped one, with a user's `--names` entries over it.
fn names_of(opts: &ParseOpts) -> Names {
    let mut names = Names::builtin();
    if let Some(user) = &opts.names {
        for (k, v) in &user.objects {
            names.objects.insert(k.clone(), v.clone());
        }
        for (k, v) in &user.counters {
            names.counters.insert(k.clone(), v.clone());
        }
    }
    names
}

/// The header line of a log: where it is, its delimiter and its cells.
struct Header {
    /// 0-based index in the lines.
    idx: usize,
    /// 1-based line number.
    line: usize,
    delim: char,
    head: Vec<String>,
}

impl Header {
    /// The first non-blank line, which must be a PDH header.
    fn read(file: &str, all: &[&str], esxtop: bool) -> Result<Header> {
        let Some((idx, header)) = all.iter().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
            return Err(bad(file, None, None, "the file is empty"));
        };
        let line = idx + 1;
        let ht = header.trim_start_matches('\u{feff}').trim_start();
        if !(ht.starts_with("\"(PDH-CSV")
            || ht.starts_with("\"(PDH-TSV")
            || ht.starts_with("(PDH-"))
        {
            return Err(bad(
                file,
                Some(line),
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
        let head = split_fields(ht, delim).map_err(|(c, m)| bad(file, Some(line), Some(c), m))?;
        Ok(Header {
            idx,
            line,
            delim,
            head,
        })
    }

    /// The parse result the header starts: the format in words and the time zone.
    fn parsed(&self, opts: &ParseOpts, esxtop: bool) -> Parsed {
        let (tz_name, bias) = parse_tz(&self.head[0]);
        let mut p = Parsed {
            format: format!(
                "{} {} ({})",
                if esxtop { "esxtop batch" } else { "PerfMon" },
                self.head[0]
                    .split(')')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('('),
                match self.delim {
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
        p
    }
}

/// Parse a PerfMon or esxtop CSV/TSV text.
pub fn parse(file: &str, text: &str, opts: &ParseOpts, esxtop: bool) -> Result<Parsed> {
    let names = names_of(opts);
    let all = lines(text);
    let header = Header::read(file, &all, esxtop)?;
    let mut p = header.parsed(opts, esxtop);
    let paths: Vec<Option<CounterPath>> =
        header.head.iter().skip(1).map(|h| parse_path(h)).collect();
    let hosts = columns::hosts_of(&paths);
    let mut cols = Columns::new(&names, esxtop, hosts.len() > 1, &paths, header.head.len());
    for (ci, cp) in paths.iter().enumerate() {
        cols.take(ci, cp.as_ref(), &header.head, &mut p);
    }
    cols.finish(&mut p);
    cols.check(file, header.line, &p)?;
    // Pair volumes with the disks beneath (PhysicalDisk "0 C: D:" holds C: and D:), per host.
    super::prometheus::pair_volumes(&mut p.devices);
    p.hosts = hosts;
    read_rows(file, &all, &header, &cols, p, esxtop)
}

/// Day-first dates: a first number above 12 anywhere in the time column (read alone first).
fn is_day_first(data: &[(usize, &str)], delim: char) -> bool {
    data.iter().any(|(_, l)| {
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
    })
}

/// Read the data rows below the header into samples, capacity and work, then set the roles
/// (PerfMon) or the views (esxtop).
fn read_rows(
    file: &str,
    all: &[&str],
    header: &Header,
    cols: &Columns,
    mut p: Parsed,
    esxtop: bool,
) -> Result<Parsed> {
    let data: Vec<(usize, &str)> = all
        .iter()
        .enumerate()
        .skip(header.idx + 1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, *l))
        .collect();
    if data.is_empty() {
        return Err(bad(
            file,
            Some(header.line),
            None,
            "the header has no data rows below it: nothing to import",
        ));
    }
    let day_first = is_day_first(&data, header.delim);
    let order = if day_first {
        DateOrder::DayFirst
    } else {
        DateOrder::MonthFirst
    };
    let mapped: Vec<(usize, Col)> = cols
        .cols
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.clone().map(|c| (i, c)))
        .collect();
    let ctx = Rows {
        file,
        delim: header.delim,
        ncols: header.head.len(),
        order,
        off: p.utc_offset_min.unwrap_or(0),
        mapped,
        ndev: p.devices.len(),
    };
    p.samples = ctx.parse(&data)?;
    cols.caps.rows(&ctx, &data, &mut p)?;
    cols.works.rows(&ctx, &data, &mut p)?;
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
