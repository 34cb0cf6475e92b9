//! Partial logs (docs/import.md, "Partial logs"): a log whose disks have only busy time or only
//! a queue length is imported as it is (the capture's other columns stay NULL, never 0) and the
//! preview names what is missing and how to log it; a log whose disk objects carry no counter
//! the capture has a column for is refused with the counters it has and the ones needed.

use serde::Serialize;

use super::{Kind, Parsed};

/// A partial log in codes (the preview's `partial`, docs/import.md "Preview JSON"): what it has,
/// what is missing, and, in the source's own names and commands, what a profile needs and how to
/// log it. The app says it in the person's language and refuses to analyse it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PartialLog {
    /// `busy-queue`, `busy`, `queue` or `times`.
    pub has: &'static str,
    /// Of `reads`, `writes`, `bytes`, `times`, `busy`, `queue`.
    pub missing: Vec<&'static str>,
    pub needed: &'static str,
    /// The commands that log them (the app wraps them in the person's language).
    pub commands: Vec<&'static str>,
}

/// The commands that log what a profile needs (`how` in words, here as commands).
fn commands(kind: Kind) -> Vec<&'static str> {
    match kind {
        Kind::Esxtop => vec!["esxtop -b -a -d 15 -n COUNT > FILE.csv"],
        Kind::Perfmon => vec![
            "logman create counter \"cacheproof\" -c \"\\PhysicalDisk(*)\\*\" \"\\LogicalDisk(*)\\*\" -si 00:00:15 -f csv -o \"C:\\PerfLogs\\cacheproof.csv\"",
            "logman start cacheproof",
        ],
        _ => vec!["iostat -dxty -o JSON 15 COUNT > FILE.json"],
    }
}

/// What a profile needs, per source, in the source's own names.
fn needed(kind: Kind) -> &'static str {
    match kind {
        Kind::Esxtop => "Reads/sec, Writes/sec, MBytes Read/sec, MBytes Written/sec, Average Guest MilliSec/Read and Average Guest MilliSec/Write of Physical Disk SCSI Device",
        Kind::Perfmon => "Disk Reads/sec, Disk Writes/sec, Disk Read Bytes/sec, Disk Write Bytes/sec, Avg. Disk sec/Read, Avg. Disk sec/Write (and % Idle Time, Avg. Disk Queue Length) of PhysicalDisk",
        _ => "r/s, w/s, rkB/s, wkB/s, r_await and w_await per device",
    }
}

/// How to log them.
fn how(kind: Kind) -> &'static str {
    match kind {
        Kind::Esxtop => "log all counters with esxtop -b -a -d 15 -n COUNT > FILE.csv and import that file",
        Kind::Perfmon => "add them to the Data Collector Set (logman create counter \"cacheproof\" -c \"\\PhysicalDisk(*)\\*\" \"\\LogicalDisk(*)\\*\" -si 00:00:15 -f csv -o \"C:\\PerfLogs\\cacheproof.csv\", then logman start cacheproof; or typeperf \"\\PhysicalDisk(*)\\*\" -si 15 -f CSV -o disks.csv) and import the new log",
        _ => "log them with iostat -dxty -o JSON 15 COUNT > FILE.json (docs/collect.md) and import that file as iostat-json",
    }
}

/// The refusal of a PerfMon or esxtop log whose disk objects have only counters the capture
/// has no column for: the counters it has (at most 8 named), the ones needed, what to do.
pub fn nothing_to_import(disk_counters: &[String], esxtop: bool) -> String {
    let kind = if esxtop { Kind::Esxtop } else { Kind::Perfmon };
    let shown = disk_counters.len().min(8);
    let more = match disk_counters.len() - shown {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        "no disk counter that can be imported: the log's disk counter{} {} {}{more}, {} the capture stores (reads and writes apart, bytes, response times, busy time or queue length); a profile needs {}: {} (counters named in another language: add their names with --names FILE)",
        if disk_counters.len() == 1 { "" } else { "s" },
        if disk_counters.len() == 1 { "is" } else { "are" },
        disk_counters[..shown].join(", "),
        if disk_counters.len() == 1 { "not one" } else { "none of which" },
        needed(kind),
        how(kind),
    )
}

/// The note of a log whose counted devices have no reads and no writes over the whole file (a
/// partial log): what it has, what is missing, what a profile needs and how to log it. `None`
/// when some device has reads or writes (or no device has anything).
pub fn note(p: &Parsed, kind: Kind) -> Option<String> {
    let s = status(p, kind)?;
    let has = match s.has {
        "busy-queue" => "busy time and queue length",
        "busy" => "busy time",
        "queue" => "queue length",
        _ => "response times",
    };
    let words: Vec<&str> = s
        .missing
        .iter()
        .map(|m| match *m {
            "times" => "response times",
            "busy" => "busy time",
            "queue" => "queue length",
            x => x,
        })
        .collect();
    let missing = format!(
        "{} or {}",
        words[..words.len() - 1].join(", "),
        words[words.len() - 1]
    );
    Some(format!(
        "a partial log: it has {has} only, and no {missing}; it is imported as it is (the missing figures stay empty, never 0), but no workload profile or before/after can be computed from it, as analyze says; for those it needs {}: {}",
        s.needed,
        how(kind)
    ))
}

/// [`note`] in codes: `None` when some device has reads or writes (or no device has anything).
pub fn status(p: &Parsed, kind: Kind) -> Option<PartialLog> {
    let (mut io, mut busy, mut queue, mut time) = (false, false, false, false);
    for s in &p.samples {
        for r in s.rates.iter().flatten() {
            io |= r.reads_per_s.is_some()
                || r.writes_per_s.is_some()
                || r.read_bytes_per_s.is_some()
                || r.write_bytes_per_s.is_some();
            busy |= r.busy_frac.is_some();
            queue |= r.queue_avg.is_some() || r.in_flight.is_some();
            time |= r.read_ms_per_io.is_some() || r.write_ms_per_io.is_some();
        }
    }
    if io || p.devices.is_empty() || !(busy || queue || time) {
        return None;
    }
    let has = match (busy, queue) {
        (true, true) => "busy-queue",
        (true, false) => "busy",
        (false, true) => "queue",
        (false, false) => "times",
    };
    let mut missing = vec!["reads", "writes", "bytes"];
    if !time {
        missing.push("times");
    }
    if !busy {
        missing.push("busy");
    }
    if !queue {
        missing.push("queue");
    }
    Some(PartialLog {
        has,
        missing,
        needed: needed(kind),
        commands: commands(kind),
    })
}
