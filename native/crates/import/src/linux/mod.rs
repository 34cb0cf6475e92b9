//! sysstat's iostat (text and JSON), sar -d and sadf -d, and series of /proc/diskstats snapshots:
//! one module per format; what they share (the column table, the device table, the banner)
//! is here.

mod diskstats;
mod iostat;
mod iostat_json;
mod sadf;
mod sar;
pub mod stack;

pub use diskstats::parse_diskstats;
pub use iostat::parse_iostat;
pub use iostat_json::parse_iostat_json;
pub use sadf::parse_sadf;
pub use sar::parse_sar;

use std::collections::BTreeMap;

use super::time::{self, DateOrder, Ymd};
use super::{linux_role, median_step, Device, ParseOpts, Parsed, Rates, Sample, Unmapped};

/// How one iostat / sar column feeds [`Rates`].
pub(super) fn column_field(col: &str) -> Option<(&'static str, f64)> {
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
pub(super) fn derived(col: &str) -> bool {
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
pub(super) fn rates_from(vals: &[(&'static str, f64)], p: &mut Parsed) -> Rates {
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

pub(super) struct DevTable {
    pub(super) idx: BTreeMap<String, usize>,
}

impl DevTable {
    pub(super) fn get(&mut self, p: &mut Parsed, name: &str) -> usize {
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
pub(super) fn banner(l: &str) -> Option<(String, String, String)> {
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

pub(super) fn date_of(s: &str) -> Option<Ymd> {
    time::parse_date(s, DateOrder::MonthFirst).or_else(|| time::parse_date(s, DateOrder::DayFirst))
}

/// A `-t` timestamp line: `03/15/2016 09:34:00 AM`, `2016-03-15 09:34:00`, `15/03/16 09:34:00`.
pub(super) fn stamp_line(l: &str, order: DateOrder) -> Option<(Ymd, i64)> {
    let l = l.trim();
    let (d, t) = l.split_once(' ')?;
    let date = time::parse_date(d, order)?;
    let t = time::parse_time(t)?;
    Some((date, t))
}

pub(super) fn untimed(
    p: &mut Parsed,
    opts: &ParseOpts,
    base_day: Option<Ymd>,
    what: &str,
) -> (i64, f64) {
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

pub(super) fn tz_from(p: &mut Parsed, opts: &ParseOpts) {
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

pub(super) fn unmapped_cols(p: &mut Parsed, cols: &[String]) {
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

/// iostat's first report covers the time since boot and, like every first sample, gives no
/// interval — unless iostat ran with `-y` ([`ParseOpts::iostat_no_since_boot`]): then it is an
/// interval like the others, ending at its time, and its start (one step before: `--interval`,
/// else the usual spacing of the reports) becomes a sample of its own, so that it is kept.
pub(super) fn first_report(p: &mut Parsed, opts: &ParseOpts) {
    if !opts.iostat_no_since_boot {
        p.notes.push("iostat's first report covers the time since boot: like every first sample, it gives no interval".into());
        return;
    }
    let step = opts
        .interval_s
        .map(|s| s * 1000.0)
        .or_else(|| median_step(&p.samples));
    if let (Some(step), Some(first)) = (step, p.samples.first()) {
        let start = Sample {
            utc_ms: first.utc_ms - step.round() as i64,
            line: first.line,
            rates: vec![None; p.devices.len()],
            snap: None,
        };
        p.samples.insert(0, start);
        p.notes.push("iostat ran with -y: its first report is an interval like the others (ending at its time), not the time since boot, and is kept".into());
    }
}

/// The lines of a rate log (sar, sadf), each `(end UTC ms, line, rates)` in time order, as the
/// import's samples (one rate a device, padded to every device), then the device stack proposed.
fn rate_lines(p: &mut Parsed, by_time: Vec<(i64, usize, Vec<Option<Rates>>)>) {
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
    stack::propose(p);
}
