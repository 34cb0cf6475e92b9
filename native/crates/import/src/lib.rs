//! Importers: other tools' disk statistics (Windows Performance Monitor and esxtop CSV,
//! sysstat iostat / sar / sadf, /proc/diskstats snapshots) into ordinary captures, with the
//! provenance of every file (docs/import.md; schema: docs/capture-schema.md, v3).
//!
//! Every parser turns one decoded file into a [`Parsed`]: devices with proposed roles and a
//! series of samples. A sample at time t_i holds the source's rates over (t_{i-1}, t_i] (or,
//! for diskstats, the raw counters at t_i); the first sample of a series gives no interval.
//! [`carry::RateToCount`] is the one conversion of rates into the capture's per-interval counts.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_capture as capture;
use cacheproof_core::{clock, delta, diskstats, error, fstypes, sysfs};

pub mod carry;
pub mod decode;
pub mod fleet;
pub mod linux;
pub mod load;
pub mod partial;
pub mod perfmon;
pub mod preview;
pub mod prometheus;
pub mod promfetch;
pub mod promgrid;
pub mod promhttp;
pub mod promq;
pub mod promql;
pub mod promsum;
pub mod promsums;
pub mod promwin;
pub mod said;
pub mod scrapes;
pub mod stitch;
pub mod time;
pub mod write;

use serde::Serialize;

use crate::delta::Snapshot;
use crate::error::ProbeError;

/// The formats `import KIND` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Perfmon,
    Esxtop,
    Iostat,
    IostatJson,
    Sar,
    Sadf,
    Diskstats,
    NodeExporter,
    Prometheus,
}

impl Kind {
    /// Every kind, as named on the command line.
    pub const ALL: [Kind; 9] = [
        Kind::Perfmon,
        Kind::Esxtop,
        Kind::Iostat,
        Kind::IostatJson,
        Kind::Sar,
        Kind::Sadf,
        Kind::Diskstats,
        Kind::NodeExporter,
        Kind::Prometheus,
    ];

    /// Parse a command-line name.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Perfmon => "perfmon",
            Kind::Esxtop => "esxtop",
            Kind::Iostat => "iostat",
            Kind::IostatJson => "iostat-json",
            Kind::Sar => "sar",
            Kind::Sadf => "sadf",
            Kind::Diskstats => "diskstats",
            Kind::NodeExporter => "node-exporter",
            Kind::Prometheus => "prometheus",
        }
    }
}

/// Rates over one interval as the source states them; `None` when the source has no such
/// figure (or left the cell blank). Units are in the names.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Rates {
    pub reads_per_s: Option<f64>,
    pub writes_per_s: Option<f64>,
    pub read_bytes_per_s: Option<f64>,
    pub write_bytes_per_s: Option<f64>,
    /// Average time of one read, ms (iostat r_await; PerfMon Avg. Disk sec/Read × 1000).
    pub read_ms_per_io: Option<f64>,
    pub write_ms_per_io: Option<f64>,
    /// Share of the interval the device was busy, 0..1 (%util / 100; 1 − % Idle Time / 100).
    pub busy_frac: Option<f64>,
    /// Average number of requests queued or in service (aqu-sz; Avg. Disk Queue Length).
    pub queue_avg: Option<f64>,
    /// Requests in flight at the end of the interval (Current Disk Queue Length).
    pub in_flight: Option<f64>,
    pub read_merges_per_s: Option<f64>,
    pub write_merges_per_s: Option<f64>,
    pub discards_per_s: Option<f64>,
    pub discard_bytes_per_s: Option<f64>,
    pub discard_ms_per_io: Option<f64>,
    pub flushes_per_s: Option<f64>,
    pub flush_ms_per_io: Option<f64>,
    /// The counters the rates come from went down over the interval (a counter reset: the
    /// exporter or the host restarted): the interval is written `reset`, with no numbers.
    pub reset: bool,
}

impl Rates {
    /// Whether no figure is present.
    pub fn is_empty(&self) -> bool {
        *self == Rates::default()
    }
}

/// Counts of one interval, as the capture's `intervals` columns (whole numbers).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub reads: Option<i64>,
    pub writes: Option<i64>,
    pub read_merges: Option<i64>,
    pub write_merges: Option<i64>,
    pub read_bytes: Option<i64>,
    pub write_bytes: Option<i64>,
    pub read_time_ms: Option<i64>,
    pub write_time_ms: Option<i64>,
    pub busy_ms: Option<i64>,
    pub weighted_ms: Option<i64>,
    pub in_flight: Option<i64>,
    pub discards: Option<i64>,
    pub discard_bytes: Option<i64>,
    pub discard_time_ms: Option<i64>,
    pub flushes: Option<i64>,
    pub flush_time_ms: Option<i64>,
}

/// One interval's counts on their own (no carry from intervals before): see
/// [`carry::RateToCount`], which the import uses so that no fraction of an I/O is lost.
pub fn counts(r: &Rates, dt_ms: f64) -> Counts {
    carry::RateToCount::default().next(r, dt_ms)
}

/// A device found in a source, with its proposed role.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    /// Name in the capture.
    pub name: String,
    /// What the source called it (instance path, kernel name).
    pub source: String,
    /// `front`, `backing`, `cache` or `other`.
    pub role: String,
    /// Why that role.
    pub reason: String,
    /// For a front volume: the backing device beneath it (PerfMon `C:` on `0 C:`).
    pub on: Option<String>,
    pub is_partition: bool,
    pub parent: Option<String>,
    /// The host the device belongs to, when the source names hosts (PerfMon `\\HOST\…`,
    /// Prometheus `instance`): a fleet import groups devices by it.
    pub host: Option<String>,
}

/// One sample: rates over the interval that ends here (per device of [`Parsed::devices`]),
/// or a diskstats snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub utc_ms: i64,
    /// 1-based line of the source where the sample starts.
    pub line: usize,
    pub rates: Vec<Option<Rates>>,
    pub snap: Option<Snapshot>,
}

/// Something in a source that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Unmapped {
    pub what: String,
    pub why: String,
}

/// What one parser made of one file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    /// The format recognized, in words (`PerfMon PDH-CSV 4.0 (comma)`, `sysstat iostat -x (new columns, MB)`).
    pub format: String,
    pub hosts: Vec<String>,
    pub kernel: Option<String>,
    /// The source's time zone name, when it states one.
    pub tz_name: Option<String>,
    /// Source local time − UTC, minutes, when known.
    pub utc_offset_min: Option<i64>,
    /// Where the offset came from (`header`, `timestamps`, `--utc-offset`, `not in the file: UTC assumed`).
    pub tz_source: String,
    pub devices: Vec<Device>,
    pub samples: Vec<Sample>,
    pub unmapped: Vec<Unmapped>,
    /// Source column or counter → capture figure (for provenance).
    pub mapping: Vec<(String, String)>,
    /// Facts worth a sentence (estimates, dropped rows, assumptions).
    pub notes: Vec<String>,
    /// What the user must give before the file can be imported (e.g. `--interval`).
    pub needs: Vec<String>,
    /// The device stack the source shows: (holder, slave, kind), as the capture's `topology`.
    pub stack: Vec<(String, String, String)>,
    /// Volume capacity the source states (the capture's `volume_capacity`, schema v7).
    pub capacity: Vec<prometheus::CapRow>,
    /// The work the server did, per interval (the capture's `work_counters`, schema v8).
    pub work: Vec<perfmon::WorkRow>,
}

/// Options every parser may need.
#[derive(Debug, Clone, Default)]
pub struct ParseOpts {
    /// `--utc-offset`: the source's local time − UTC in minutes, when the file does not say.
    pub utc_offset_min: Option<i64>,
    /// `--interval`: seconds between reports of a source that prints no times.
    pub interval_s: Option<f64>,
    /// `--start`: UTC ms of the first report of a source that prints no times (or only uptimes).
    pub start_utc_ms: Option<i64>,
    /// User name table (`--names FILE`) for PerfMon.
    pub names: Option<perfmon::Names>,
    /// `prometheus --url URL --hosts SELECTOR --from T --to T [--step S]`.
    pub prometheus: Option<promfetch::PromOpts>,
    /// iostat was run with `-y` (as the app's collection guide runs it): its first report is
    /// an interval like the others, not the time since boot, and is kept.
    pub iostat_no_since_boot: bool,
}

/// `CACHEPROOF_IMPORT_TIMING=1`: each phase of an import (read, hash, decode, parse, stitch,
/// write, blocks) prints its wall time to stderr, for the benchmark's profile
/// (bench/import/run.mjs --phases; docs/import.md, "Speed").
pub fn phase(what: &str, since: std::time::Instant) {
    if std::env::var_os("CACHEPROOF_IMPORT_TIMING").is_some_and(|v| v == "1") {
        eprintln!(
            "import phase {what}: {:.3} s",
            since.elapsed().as_secs_f64()
        );
    }
}

/// A clear refusal naming the file and, when known, the line and column.
pub fn bad(
    file: &str,
    line: Option<usize>,
    col: Option<usize>,
    msg: impl AsRef<str>,
) -> ProbeError {
    let at = match (line, col) {
        (Some(l), Some(c)) => format!("{file}, line {l}, column {c}: "),
        (Some(l), None) => format!("{file}, line {l}: "),
        _ => format!("{file}: "),
    };
    ProbeError::Import(format!("{at}{}", msg.as_ref()))
}

/// Split text into lines on CRLF, LF or a lone CR; a missing final newline is fine.
pub fn lines(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 64 + 1);
    let mut start = 0;
    let mut skip_lf = usize::MAX;
    for i in memchr::memchr2_iter(b'\n', b'\r', b) {
        if i == skip_lf && b[i] == b'\n' {
            // the LF of a CRLF
            start = i + 1;
            continue;
        }
        out.push(&text[start..i]);
        if b[i] == b'\r' {
            skip_lf = i + 1;
        }
        start = i + 1;
    }
    if start < b.len() {
        out.push(&text[start..]);
    }
    out
}

/// A cell that is neither blank nor a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotANumber;

/// A number as printed by the tools: blank is None; a decimal comma is accepted when there is
/// no point; 3-digit exponents (`6.25e-005`) are fine.
pub fn num(s: &str) -> std::result::Result<Option<f64>, NotANumber> {
    // the common case first: digits and a point, as PerfMon writes them
    if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
        return match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => Err(NotANumber),
        };
    }
    let t = s.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let owned;
    let t = if !t.contains('.') && t.matches(',').count() == 1 {
        owned = t.replace(',', ".");
        owned.as_str()
    } else {
        t
    };
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(NotANumber),
    }
}

/// Role proposed for a Linux kernel device name: (role, is_partition, parent, reason).
pub fn linux_role(name: &str) -> (&'static str, bool, Option<String>, String) {
    let n = name.trim_start_matches("/dev/");
    let digits_tail = n.trim_end_matches(|c: char| c.is_ascii_digit());
    let is_front = n.starts_with("dm-")
        || n.starts_with("md")
        || n.starts_with("bcache")
        || n.starts_with("dev253-")
        || n.starts_with("dev9-")
        || n.starts_with("flashcache");
    if is_front {
        return (
            "front",
            false,
            None,
            "a stacked device (device-mapper, md or bcache): what the applications use".into(),
        );
    }
    if ["loop", "ram", "zram", "sr", "fd", "nbd"]
        .iter()
        .any(|p| n.starts_with(p))
    {
        return (
            "other",
            false,
            None,
            "loop, RAM, optical or network block device: not a disk under a cache".into(),
        );
    }
    // Partitions: sda1, vdb2, xvda1, hda3; nvme0n1p1, mmcblk0p2.
    if let Some(i) = n.rfind('p') {
        let (head, tail) = n.split_at(i);
        if (head.starts_with("nvme") || head.starts_with("mmcblk") || head.starts_with("cciss/"))
            && tail.len() > 1
            && tail[1..].bytes().all(|c| c.is_ascii_digit())
        {
            return (
                "other",
                true,
                Some(head.to_string()),
                "a partition (its disk is counted whole)".into(),
            );
        }
    }
    if ["sd", "vd", "xvd", "hd", "dasd"]
        .iter()
        .any(|p| n.starts_with(p))
        && digits_tail.len() < n.len()
        && !n.starts_with("dev")
    {
        return (
            "other",
            true,
            Some(digits_tail.to_string()),
            "a partition (its disk is counted whole)".into(),
        );
    }
    (
        "backing",
        false,
        None,
        "a whole disk: the slow storage a cache would sit in front of".into(),
    )
}

/// Median of positive steps between successive sample times (ms), or None.
pub fn median_step(samples: &[Sample]) -> Option<f64> {
    let mut d: Vec<f64> = samples
        .windows(2)
        .map(|w| (w[1].utc_ms - w[0].utc_ms) as f64)
        .filter(|x| *x > 0.0)
        .collect();
    if d.is_empty() {
        return None;
    }
    d.sort_by(f64::total_cmp);
    Some(d[d.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The splitter as first written, one byte at a time (the reference `lines` keeps).
    fn reference(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let b = text.as_bytes();
        let (mut start, mut i) = (0, 0);
        while i < b.len() {
            if b[i] == b'\n' || b[i] == b'\r' {
                out.push(&text[start..i]);
                if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            i += 1;
        }
        if start < b.len() {
            out.push(&text[start..]);
        }
        out
    }

    #[test]
    fn line_ends_of_every_kind() {
        assert_eq!(lines("a\r\nb\rc\nd"), ["a", "b", "c", "d"]);
        assert_eq!(lines("a\r\r\nb\n\n"), ["a", "", "b", ""]);
        assert!(lines("").is_empty());
    }

    proptest! {
        #[test]
        fn lines_split_as_the_reference(t in "[ab\r\n]{0,40}") {
            prop_assert_eq!(lines(&t), reference(&t));
        }
    }
}
