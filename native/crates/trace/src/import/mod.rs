//! Block traces written by other tools, read into requests (`cacheproof-probe import-trace`,
//! `simulate TRACE --kind`). Formats, time units and sector sizes: docs/simulate.md.
//!
//! A record that cannot be used (wrong column count, a number that does not parse, a negative
//! or zero length, an unknown opcode, a time before the previous record's, a request past the
//! device's end) is skipped and counted by reason, with its line and column kept for the report:
//! never dropped in silence.
//!
//! Each format is read by its module (`msr`, `blkparse`, `cloudphysics`, `disksim` for DiskSim
//! and MSN, `oracle`; Windows' ETW exports: `wpa`, `xperf`, `traceevent`, `tracerpt`, with `etw` for what
//! they share); `store` writes a trace into a capture and reads one back.

mod blkparse;
mod cloudphysics;
mod disksim;
mod etw;
mod intervals;
mod msr;
mod oracle;
mod store;
mod traceevent;
mod tracerpt;
mod wpa;
mod xperf;

pub use store::{import, load_capture, ImportSummary};

use blkparse::Blk;
use cloudphysics::cloudphysics_line;
use disksim::disksim_line;
use msr::msr_line;
use oracle::read_oracle;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::error::{ProbeError, Result};
use crate::request::{Op, Req};

/// The trace formats understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// MSR Cambridge (SNIA IOTTA): `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`.
    Msr,
    /// `blkparse` default text output (issue `D` and complete `C` events).
    Blkparse,
    /// CloudPhysics vscsi CSV as shipped by libCacheSim: `version,time,op,size,lbn`.
    Cloudphysics,
    /// DiskSim ASCII input: `arrival_ms devno blkno size_blocks flags` (flags bit 0 = read).
    Disksim,
    /// MSN file-server trace as converted for the replayer: `time_ms dev lba sectors 1|0`.
    Msn,
    /// libCacheSim oracleGeneral binary: 24-byte records (u32 time s, u64 id, u32 size, i64 next).
    OracleGeneral,
    /// WPA "Disk Usage" table exported by `wpaexporter` (CSV, any locale).
    Wpa,
    /// `xperf -i trace.etl -a dumper`: `DiskRead`/`DiskWrite`/`DiskFlush` lines.
    Xperf,
    /// PerfView / TraceEvent text dump of `Windows Kernel/DiskIO` events.
    Traceevent,
    /// `tracerpt trace.etl -o out.csv -of CSV`: kernel `DiskIo` events.
    Tracerpt,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::Msr,
        Kind::Blkparse,
        Kind::Cloudphysics,
        Kind::Disksim,
        Kind::Msn,
        Kind::OracleGeneral,
        Kind::Wpa,
        Kind::Xperf,
        Kind::Traceevent,
        Kind::Tracerpt,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Msr => "msr",
            Kind::Blkparse => "blkparse",
            Kind::Cloudphysics => "cloudphysics",
            Kind::Disksim => "disksim",
            Kind::Msn => "msn",
            Kind::OracleGeneral => "oracle-general",
            Kind::Wpa => "wpa",
            Kind::Xperf => "xperf",
            Kind::Traceevent => "traceevent",
            Kind::Tracerpt => "tracerpt",
        }
    }
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
    pub fn names() -> String {
        Kind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One skipped record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BadRecord {
    /// 1-based line (record number for binary formats).
    pub line: u64,
    /// The column's name in the format's documentation.
    pub column: String,
    pub reason: String,
}

/// How many example bad records a report keeps.
pub const BAD_EXAMPLES: usize = 20;

/// A flush of a Windows export: counted and kept in the capture, not simulated.
#[derive(Debug, Clone)]
pub struct Flush {
    pub t_ns: i64,
    pub complete_ns: i64,
    pub dev: u32,
    pub op_text: String,
}

/// A trace read into requests.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub reqs: Vec<Req>,
    /// The original opcode text of each request (for `rwbs`).
    pub op_text: Vec<String>,
    /// Completion time (ns) where the format gives a response time or a completion event.
    pub complete_ns: Vec<Option<i64>>,
    /// Device names, indexed by `Req::dev`.
    pub devices: Vec<String>,
    /// Absolute UTC ms of t_ns = 0, when the format has absolute times (MSR).
    pub origin_utc_ms: Option<i64>,
    /// Records read (bad ones included).
    pub records: u64,
    /// Records skipped, by reason.
    pub bad_by_reason: BTreeMap<String, u64>,
    pub bad_examples: Vec<BadRecord>,
    /// Lines that are no records and no error (blkparse events other than D/C, its summary).
    pub other_lines: u64,
    /// Flushes (Windows exports), in issue order.
    pub flushes: Vec<Flush>,
    /// A capture whose trace keeps a share of the block addresses (`record --trace-sample`,
    /// `--trace-budget`): that share, the final rate (trace::sampling); None = every request.
    pub sample_rate: Option<f64>,
    /// Rows of such a capture above its final threshold: stored before the rate last fell, left
    /// out so that the requests are one uniform sample at the final rate.
    pub above_final_rate: u64,
}

impl Trace {
    pub fn bad(&self) -> u64 {
        self.bad_by_reason.values().sum()
    }
    fn skip(&mut self, line: u64, column: &str, reason: String, key: &str) {
        *self.bad_by_reason.entry(key.to_string()).or_default() += 1;
        if self.bad_examples.len() < BAD_EXAMPLES {
            self.bad_examples.push(BadRecord {
                line,
                column: column.to_string(),
                reason,
            });
        }
    }
    fn dev_index(&mut self, name: &str) -> u32 {
        match self.devices.iter().position(|d| d == name) {
            Some(i) => i as u32,
            None => {
                self.devices.push(name.to_string());
                (self.devices.len() - 1) as u32
            }
        }
    }
    /// A summary sentence of what was skipped, or None.
    pub fn bad_summary(&self, file: &Path) -> Option<String> {
        if self.bad() == 0 {
            return None;
        }
        let mut s = format!(
            "{}: skipped {} of {} records (",
            file.display(),
            self.bad(),
            self.records
        );
        s += &self
            .bad_by_reason
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect::<Vec<_>>()
            .join(", ");
        s += ")";
        for b in self.bad_examples.iter().take(5) {
            s += &format!("\n  line {}, column {}: {}", b.line, b.column, b.reason);
        }
        Some(s)
    }
}

/// Options of a read.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Every device's size in bytes, when known: requests past it are skipped.
    pub device_bytes: Option<u64>,
    /// Keep each request's opcode text and completion time (import); simulation does not.
    pub detail: bool,
    /// QueryPerformanceCounter ticks per second of the traced machine (`tracerpt`'s
    /// `HighResResponseTime`), for requests without their init event.
    pub qpc_hz: Option<u64>,
    /// The trace's start (UTC epoch ms) as the person knows it, for a format whose times count
    /// from the trace's start (import-trace `--start`).
    pub start_utc_ms: Option<i64>,
}

struct Rec<'a> {
    line: u64,
    /// Time in the format's unit; `t_int` instead when the format's times are whole numbers
    /// too large for a double's 53 bits (MSR's FILETIME).
    t: f64,
    t_int: Option<i128>,
    dev: &'a str,
    offset: i128,
    bytes: i128,
    op: Op,
    op_text: &'a str,
    complete_ns: Option<i64>,
}

struct State {
    last_t_ns: Option<i64>,
    origin: Option<f64>,
    origin_int: Option<i128>,
    /// ns per unit of `t`.
    unit_ns: f64,
    opts: ReadOptions,
}

impl State {
    /// What is wrong with a request's extent (column, message, reason), if anything.
    fn bad_extent(&self, r: &Rec<'_>) -> Option<(&'static str, String, &'static str)> {
        if r.bytes < 0 {
            return Some((
                "size",
                format!("negative length {}", r.bytes),
                "negative length",
            ));
        }
        if r.bytes == 0 {
            return Some(("size", "zero length".into(), "zero length"));
        }
        if r.offset < 0 {
            let m = format!("negative offset {}", r.offset);
            return Some(("offset", m, "negative offset"));
        }
        if let Some(dev) = self.opts.device_bytes {
            if r.offset + r.bytes > i128::from(dev) {
                let m = format!(
                    "request [{}, {}) ends past the device's {} bytes",
                    r.offset,
                    r.offset + r.bytes,
                    dev
                );
                return Some(("offset", m, "past the device's end"));
            }
        }
        if r.offset + r.bytes > i128::from(u64::MAX >> 1) {
            return Some(("offset", "offset too large".into(), "offset too large"));
        }
        None
    }

    /// A record's time, ns after the first record's (which sets the origin).
    fn time_ns(&mut self, r: &Rec<'_>) -> i64 {
        match r.t_int {
            Some(ti) => {
                let o = *self.origin_int.get_or_insert(ti);
                self.origin.get_or_insert(o as f64);
                ((ti - o) as f64 * self.unit_ns).round() as i64
            }
            None => {
                let origin = *self.origin.get_or_insert(r.t);
                ((r.t - origin) * self.unit_ns).round() as i64
            }
        }
    }

    fn push(&mut self, tr: &mut Trace, r: Rec<'_>) {
        if let Some((column, message, reason)) = self.bad_extent(&r) {
            tr.skip(r.line, column, message, reason);
            return;
        }
        if !r.t.is_finite() {
            tr.skip(r.line, "time", "time is not a number".into(), "bad number");
            return;
        }
        let t_ns = self.time_ns(&r);
        if let Some(p) = self.last_t_ns {
            if t_ns < p {
                tr.skip(
                    r.line,
                    "time",
                    format!(
                        "time goes backwards ({} ns after the first record, the previous was {} ns)",
                        t_ns, p
                    ),
                    "time going backwards",
                );
                return;
            }
        }
        self.last_t_ns = Some(t_ns);
        let dev = tr.dev_index(r.dev);
        tr.reqs.push(Req {
            t_ns,
            dev,
            offset: r.offset as u64,
            bytes: r.bytes as u64,
            op: r.op,
        });
        if self.opts.detail {
            tr.op_text.push(r.op_text.to_string());
            tr.complete_ns.push(r.complete_ns.map(|c| c + t_ns));
        }
    }
}

fn open(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ProbeError::BadTrace(format!("no trace file at {}", path.display()))
        } else {
            ProbeError::io(format!("opening {}", path.display()), e)
        }
    })
}

/// Read a trace file of `kind`.
pub fn read(path: &Path, kind: Kind, opts: ReadOptions) -> Result<Trace> {
    let f = open(path)?;
    let mut tr = Trace::default();
    if kind == Kind::OracleGeneral {
        read_oracle(f, &mut tr, opts, path)?;
    } else if matches!(
        kind,
        Kind::Wpa | Kind::Xperf | Kind::Traceevent | Kind::Tracerpt
    ) {
        read_windows(f, path, kind, &mut tr, opts)?;
    } else {
        let unit_ns = match kind {
            Kind::Msr => 100.0,
            Kind::Blkparse => 1e9,
            Kind::Cloudphysics => 1e3,
            _ => 1e6,
        };
        let mut st = State {
            last_t_ns: None,
            origin: None,
            origin_int: None,
            unit_ns,
            opts,
        };
        let mut blk = Blk::default();
        let rd = BufReader::with_capacity(1 << 20, f);
        for (i, line) in rd.split(b'\n').enumerate() {
            let line =
                line.map_err(|e| ProbeError::io(format!("reading {}", path.display()), e))?;
            let n = i as u64 + 1;
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches('\r');
            if text.trim().is_empty() {
                continue;
            }
            match kind {
                Kind::Msr => msr_line(&mut tr, &mut st, n, text),
                Kind::Blkparse => blk.line(&mut tr, &mut st, n, text),
                Kind::Cloudphysics => cloudphysics_line(&mut tr, &mut st, n, text),
                Kind::Disksim | Kind::Msn => disksim_line(&mut tr, &mut st, n, text, kind),
                _ => {}
            }
        }
        if kind == Kind::Blkparse {
            blk.finish(&mut tr);
        }
        if kind == Kind::Msr {
            tr.origin_utc_ms = st
                .origin_int
                .map(|o| (o / 10_000) as i64 - 11_644_473_600_000);
        }
    }
    if tr.reqs.is_empty() {
        let mut msg = format!(
            "{} has no usable {} record ({} records read)",
            path.display(),
            kind.name(),
            tr.records
        );
        if let Some(s) = tr.bad_summary(path) {
            msg += &format!("; {s}");
        }
        msg += &format!(
            ". Check the kind ({}) against docs/simulate.md.",
            Kind::names()
        );
        return Err(ProbeError::BadTrace(msg));
    }
    Ok(tr)
}

/// A Windows export, read whole (its requests come grouped or at completion, not in issue
/// order): see `etw`.
fn read_windows(
    mut f: std::fs::File,
    path: &Path,
    kind: Kind,
    tr: &mut Trace,
    opts: ReadOptions,
) -> Result<()> {
    use std::io::Read;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| ProbeError::io(format!("reading {}", path.display()), e))?;
    let text = String::from_utf8_lossy(&buf);
    if let Some(other) = etw::sniff(&text).filter(|k| *k != kind) {
        return Err(ProbeError::BadTrace(format!(
            "{} is a {} export, not {}: run import-trace {} {}",
            path.display(),
            other.name(),
            kind.name(),
            other.name(),
            path.display()
        )));
    }
    let mut st = State {
        last_t_ns: None,
        origin: None,
        origin_int: None,
        unit_ns: 1.0,
        opts,
    };
    let reqs = match kind {
        Kind::Wpa => return wpa::read_wpa(path, &text, tr, &mut st),
        Kind::Xperf => xperf::read_xperf(&text, tr),
        Kind::Tracerpt => tracerpt::read_tracerpt(path, &text, tr, opts.qpc_hz)?,
        _ => traceevent::read_traceevent(path, &text, tr)?,
    };
    etw::finish(tr, &mut st, reqs);
    Ok(())
}

fn num<T: std::str::FromStr>(
    tr: &mut Trace,
    line: u64,
    col: &str,
    s: &str,
) -> std::result::Result<T, ()> {
    s.trim().parse::<T>().map_err(|_| {
        tr.skip(
            line,
            col,
            format!("'{}' is not a number", s.trim()),
            "bad number",
        )
    })
}

fn columns(tr: &mut Trace, line: u64, got: usize, want: usize, names: &str) -> bool {
    if got < want {
        tr.skip(
            line,
            names,
            format!("{got} columns, expected {want} ({names})"),
            "wrong column count",
        );
        return false;
    }
    true
}
