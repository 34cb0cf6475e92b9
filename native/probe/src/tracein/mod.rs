//! Block traces written by other tools, read into requests (`cacheproof-probe import-trace`,
//! `simulate TRACE --kind`). Formats, time units and sector sizes: docs/simulate.md.
//!
//! A record that cannot be used (wrong column count, a number that does not parse, a negative
//! or zero length, an unknown opcode, a time before the previous record's, a request past the
//! device's end) is skipped and counted by reason, with its line and column kept for the report:
//! never dropped in silence.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::capture::{BlockRow, Capture};
use crate::error::{ProbeError, Result};
use crate::sim::{Op, Req};
use crate::sysfs::DeviceInfo;

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
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Msr,
        Kind::Blkparse,
        Kind::Cloudphysics,
        Kind::Disksim,
        Kind::Msn,
        Kind::OracleGeneral,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Msr => "msr",
            Kind::Blkparse => "blkparse",
            Kind::Cloudphysics => "cloudphysics",
            Kind::Disksim => "disksim",
            Kind::Msn => "msn",
            Kind::OracleGeneral => "oracle-general",
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
    fn push(&mut self, tr: &mut Trace, r: Rec<'_>) {
        if r.bytes < 0 {
            tr.skip(
                r.line,
                "size",
                format!("negative length {}", r.bytes),
                "negative length",
            );
            return;
        }
        if r.bytes == 0 {
            tr.skip(r.line, "size", "zero length".into(), "zero length");
            return;
        }
        if r.offset < 0 {
            tr.skip(
                r.line,
                "offset",
                format!("negative offset {}", r.offset),
                "negative offset",
            );
            return;
        }
        if let Some(dev) = self.opts.device_bytes {
            if r.offset + r.bytes > i128::from(dev) {
                tr.skip(
                    r.line,
                    "offset",
                    format!(
                        "request [{}, {}) ends past the device's {} bytes",
                        r.offset,
                        r.offset + r.bytes,
                        dev
                    ),
                    "past the device's end",
                );
                return;
            }
        }
        if r.offset + r.bytes > i128::from(u64::MAX >> 1) {
            tr.skip(
                r.line,
                "offset",
                "offset too large".into(),
                "offset too large",
            );
            return;
        }
        if !r.t.is_finite() {
            tr.skip(r.line, "time", "time is not a number".into(), "bad number");
            return;
        }
        let t_ns = match r.t_int {
            Some(ti) => {
                let o = *self.origin_int.get_or_insert(ti);
                self.origin.get_or_insert(o as f64);
                ((ti - o) as f64 * self.unit_ns).round() as i64
            }
            None => {
                let origin = *self.origin.get_or_insert(r.t);
                ((r.t - origin) * self.unit_ns).round() as i64
            }
        };
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
                Kind::OracleGeneral => {}
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

fn msr_line(tr: &mut Trace, st: &mut State, n: u64, text: &str) {
    let c: Vec<&str> = text.split(',').collect();
    if n == 1
        && c.first()
            .is_some_and(|x| x.trim().eq_ignore_ascii_case("Timestamp"))
    {
        return;
    }
    tr.records += 1;
    if !columns(
        tr,
        n,
        c.len(),
        7,
        "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
    ) {
        return;
    }
    let Ok(t) = num::<u64>(tr, n, "Timestamp", c[0]) else {
        return;
    };
    let Ok(disk) = num::<i64>(tr, n, "DiskNumber", c[2]) else {
        return;
    };
    let op = match c[3].trim().to_ascii_lowercase().as_str() {
        "read" => Op::Read,
        "write" => Op::Write,
        other => {
            tr.skip(
                n,
                "Type",
                format!("unknown type '{other}' (Read or Write)"),
                "unknown opcode",
            );
            return;
        }
    };
    let Ok(off) = num::<i128>(tr, n, "Offset", c[4]) else {
        return;
    };
    let Ok(size) = num::<i128>(tr, n, "Size", c[5]) else {
        return;
    };
    let Ok(resp) = num::<i64>(tr, n, "ResponseTime", c[6]) else {
        return;
    };
    let dev = format!("{}_{}", c[1].trim(), disk);
    st.push(
        tr,
        Rec {
            line: n,
            t: t as f64,
            t_int: Some(i128::from(t)),
            dev: &dev,
            offset: off,
            bytes: size,
            op,
            op_text: c[3].trim(),
            complete_ns: Some(resp.saturating_mul(100)),
        },
    );
}

fn cloudphysics_line(tr: &mut Trace, st: &mut State, n: u64, text: &str) {
    let c: Vec<&str> = text.split(',').collect();
    if n == 1 && c.first().is_some_and(|x| x.trim() == "version") {
        return;
    }
    tr.records += 1;
    if !columns(tr, n, c.len(), 5, "version,time,op,size,lbn") {
        return;
    }
    let Ok(t) = num::<u64>(tr, n, "time", c[1]) else {
        return;
    };
    let code = match u8::from_str_radix(c[2].trim(), 16) {
        Ok(x) => x,
        Err(_) => {
            tr.skip(
                n,
                "op",
                format!("'{}' is not a hexadecimal SCSI opcode", c[2].trim()),
                "unknown opcode",
            );
            return;
        }
    };
    let op = match code {
        0x08 | 0x28 | 0xa8 | 0x88 => Op::Read,
        0x0a | 0x2a | 0xaa | 0x8a => Op::Write,
        _ => {
            tr.skip(
                n,
                "op",
                format!("SCSI opcode {code:#04x} is neither a READ nor a WRITE (6/10/12/16)"),
                "unknown opcode",
            );
            return;
        }
    };
    let Ok(size) = num::<i128>(tr, n, "size", c[3]) else {
        return;
    };
    let Ok(lbn) = num::<i128>(tr, n, "lbn", c[4]) else {
        return;
    };
    st.push(
        tr,
        Rec {
            line: n,
            t: t as f64,
            t_int: Some(i128::from(t)),
            dev: "vscsi",
            offset: lbn * 512,
            bytes: size,
            op,
            op_text: c[2].trim(),
            complete_ns: None,
        },
    );
}

fn disksim_line(tr: &mut Trace, st: &mut State, n: u64, text: &str, kind: Kind) {
    let c: Vec<&str> = text.split_whitespace().collect();
    tr.records += 1;
    if !columns(
        tr,
        n,
        c.len(),
        5,
        if kind == Kind::Msn {
            "time devno lba sectors type"
        } else {
            "arrival devno blkno size flags"
        },
    ) {
        return;
    }
    let tcol = if kind == Kind::Msn { "time" } else { "arrival" };
    let Ok(t) = num::<f64>(tr, n, tcol, c[0]) else {
        return;
    };
    let Ok(dev) = num::<u32>(tr, n, "devno", c[1]) else {
        return;
    };
    let Ok(blk) = num::<i128>(tr, n, if kind == Kind::Msn { "lba" } else { "blkno" }, c[2]) else {
        return;
    };
    let Ok(size) = num::<i128>(
        tr,
        n,
        if kind == Kind::Msn { "sectors" } else { "size" },
        c[3],
    ) else {
        return;
    };
    let op = if kind == Kind::Msn {
        match c[4] {
            "1" => Op::Read,
            "0" => Op::Write,
            other => {
                tr.skip(
                    n,
                    "type",
                    format!("type '{other}' is neither 1 (read) nor 0 (write)"),
                    "unknown opcode",
                );
                return;
            }
        }
    } else {
        let Ok(flags) = num::<u32>(tr, n, "flags", c[4]) else {
            return;
        };
        if flags & 1 == 1 {
            Op::Read
        } else {
            Op::Write
        }
    };
    let dev = format!("dev{dev}");
    st.push(
        tr,
        Rec {
            line: n,
            t,
            t_int: None,
            dev: &dev,
            offset: blk * 512,
            bytes: size * 512,
            op,
            op_text: c[4],
            complete_ns: None,
        },
    );
}

/// blkparse's default output: `maj,min cpu seq seconds pid action rwbs sector + sectors [proc]`.
/// `D` (issued to the driver) makes a request; a `C` (completed) of the same device, sector and
/// size gives its completion. Other actions are counted as other lines; so are the summary lines
/// blkparse prints at the end.
#[derive(Default)]
struct Blk {
    pending: BTreeMap<(u32, u64, u64), Vec<usize>>,
    in_summary: bool,
}

impl Blk {
    fn line(&mut self, tr: &mut Trace, st: &mut State, n: u64, text: &str) {
        let c: Vec<&str> = text.split_whitespace().collect();
        if self.in_summary
            || c.first()
                .is_some_and(|x| x.starts_with("CPU") || x.starts_with("Total"))
        {
            self.in_summary = true;
            tr.other_lines += 1;
            return;
        }
        let is_event = c.len() >= 7 && c[0].contains(',') && c[3].contains('.');
        if !is_event {
            tr.records += 1;
            tr.skip(
                n,
                "line",
                "not a blkparse event line (maj,min cpu seq time pid action rwbs ...)".into(),
                "not an event line",
            );
            return;
        }
        let action = c[5];
        if action != "D" && action != "C" {
            tr.other_lines += 1;
            return;
        }
        tr.records += 1;
        let rwbs = c[6];
        let op = if rwbs.contains('D') {
            Op::Discard
        } else if rwbs.contains('R') {
            Op::Read
        } else if rwbs.contains('W') {
            Op::Write
        } else {
            // A flush without data (FN, N): no blocks to cache.
            tr.other_lines += 1;
            tr.records -= 1;
            return;
        };
        if c.len() < 10 || c[8] != "+" {
            tr.skip(
                n,
                "sector",
                format!("{action} event without 'sector + sectors'"),
                "wrong column count",
            );
            return;
        }
        let Ok(t) = num::<f64>(tr, n, "time", c[3]) else {
            return;
        };
        let Ok(sector) = num::<i128>(tr, n, "sector", c[7]) else {
            return;
        };
        let Ok(sectors) = num::<i128>(tr, n, "sectors", c[9]) else {
            return;
        };
        let dev = c[0].to_string();
        if action == "C" {
            let origin = st.origin.unwrap_or(t);
            let t_ns = ((t - origin) * 1e9).round() as i64;
            let di = tr.dev_index(&dev);
            let key = (di, sector.max(0) as u64, sectors.max(0) as u64);
            if let Some(q) = self.pending.get_mut(&key) {
                if !q.is_empty() && st.opts.detail {
                    let i = q.remove(0);
                    tr.complete_ns[i] = Some(t_ns.max(tr.reqs[i].t_ns));
                }
            }
            return;
        }
        let before = tr.reqs.len();
        st.push(
            tr,
            Rec {
                line: n,
                t,
                t_int: None,
                dev: &dev,
                offset: sector * 512,
                bytes: sectors * 512,
                op,
                op_text: rwbs,
                complete_ns: None,
            },
        );
        if tr.reqs.len() > before {
            let r = tr.reqs[before];
            self.pending
                .entry((r.dev, r.offset / 512, r.bytes / 512))
                .or_default()
                .push(before);
        }
    }
    fn finish(&mut self, _tr: &mut Trace) {}
}

fn read_oracle(mut f: std::fs::File, tr: &mut Trace, opts: ReadOptions, path: &Path) -> Result<()> {
    let mut st = State {
        last_t_ns: None,
        origin: None,
        origin_int: None,
        unit_ns: 1e9,
        opts,
    };
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| ProbeError::io(format!("reading {}", path.display()), e))?;
    if buf.len() % 24 != 0 {
        tr.skip(
            (buf.len() / 24 + 1) as u64,
            "record",
            format!(
                "the file ends with {} bytes, not a whole 24-byte record",
                buf.len() % 24
            ),
            "truncated record",
        );
    }
    tr.reqs.reserve(buf.len() / 24);
    for (i, r) in buf.chunks_exact(24).enumerate() {
        tr.records += 1;
        let le4 = |a: &[u8]| u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
        let t = le4(&r[0..4]);
        let mut id = [0u8; 8];
        id.copy_from_slice(&r[4..12]);
        let id = u64::from_le_bytes(id);
        let size = le4(&r[12..16]);
        st.push(
            tr,
            Rec {
                line: i as u64 + 1,
                t: f64::from(t),
                t_int: Some(i128::from(t)),
                dev: "obj",
                offset: i128::from(id) * i128::from(size),
                bytes: i128::from(size),
                op: Op::Read,
                op_text: "R",
                complete_ns: None,
            },
        );
    }
    Ok(())
}

/// Summary of an import.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    pub kind: String,
    pub file: String,
    pub out: String,
    pub records: u64,
    pub imported: u64,
    pub skipped: u64,
    pub skipped_by_reason: BTreeMap<String, u64>,
    pub skipped_examples: Vec<BadRecord>,
    pub devices: Vec<String>,
}

fn sha256_hex(path: &Path) -> Option<String> {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&out.stdout);
    s.split_whitespace().next().map(str::to_string)
}

/// `import-trace`: read `file` as `kind` and write a new v2 capture at `out` (devices,
/// block_requests, meta `source` = `import-trace:<kind>`).
pub fn import(file: &Path, kind: Kind, out: &Path, opts: ReadOptions) -> Result<ImportSummary> {
    let opts = ReadOptions {
        detail: true,
        ..opts
    };
    let tr = read(file, kind, opts)?;
    let mut cap = Capture::create(out)?;
    let now = crate::clock::utc_ms();
    let origin = tr.origin_utc_ms;
    let mut ids = Vec::new();
    for (i, name) in tr.devices.iter().enumerate() {
        let d = DeviceInfo {
            name: name.clone(),
            major: 0,
            minor: i as u32,
            size_bytes: opts.device_bytes.map(|b| b as i64),
            logical_block_size: Some(512),
            role: "other".into(),
            ..Default::default()
        };
        ids.push(cap.upsert_device(&d, origin.unwrap_or(0))?);
    }
    for (k, v) in [
        ("probe_version", env!("CARGO_PKG_VERSION").to_string()),
        ("created_utc_ms", now.to_string()),
        ("source", format!("import-trace:{}", kind.name())),
        ("import_file", file.display().to_string()),
        ("trace", "block".to_string()),
        (
            "trace_time_origin",
            if origin.is_some() {
                "utc".to_string()
            } else {
                "trace-start".to_string()
            },
        ),
        ("import_records", tr.records.to_string()),
        ("import_skipped", tr.bad().to_string()),
    ] {
        cap.set_meta(k, &v)?;
    }
    if let Some(h) = sha256_hex(file) {
        cap.set_meta("import_sha256", &h)?;
    }
    if tr.bad() > 0 {
        cap.set_meta(
            "import_skipped_examples",
            &serde_json::to_string(&tr.bad_examples).unwrap_or_default(),
        )?;
    }
    let mut rows = Vec::with_capacity(50_000);
    for (i, r) in tr.reqs.iter().enumerate() {
        rows.push(BlockRow {
            device_id: ids[r.dev as usize],
            issue_ns: r.t_ns,
            complete_ns: tr.complete_ns[i],
            utc_ms: origin.unwrap_or(0) + r.t_ns / 1_000_000,
            sector: (r.offset / 512) as i64,
            bytes: r.bytes as i64,
            op: match r.op {
                Op::Read => 'R',
                Op::Write => 'W',
                Op::Discard => 'D',
            },
            rwbs: tr.op_text[i].clone(),
            error: None,
        });
        if rows.len() == 50_000 {
            cap.write_requests(&rows, &[], &[], &[])?;
            rows.clear();
        }
    }
    cap.write_requests(&rows, &[], &[], &[])?;
    Ok(ImportSummary {
        kind: kind.name().into(),
        file: file.display().to_string(),
        out: out.display().to_string(),
        records: tr.records,
        imported: tr.reqs.len() as u64,
        skipped: tr.bad(),
        skipped_by_reason: tr.bad_by_reason.clone(),
        skipped_examples: tr.bad_examples.clone(),
        devices: tr.devices.clone(),
    })
}

/// Requests of a capture's `block_requests` (all devices, in issue order). Flushes and other
/// requests without data are counted in `other_lines`; requests past a device's recorded size
/// are skipped and counted.
pub fn load_capture(path: &Path) -> Result<Trace> {
    let cap = Capture::open(path, false)?;
    let conn = cap.conn();
    let has: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='block_requests'",
        [],
        |r| r.get(0),
    )?;
    let mut tr = Trace::default();
    if has == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record with 'record --trace' or import a trace with 'import-trace'",
            path.display()
        )));
    }
    let mut sizes: Vec<(i64, String, Option<i64>)> = Vec::new();
    {
        let mut q = conn.prepare("SELECT id,name,size_bytes FROM devices ORDER BY id")?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        for r in rows {
            sizes.push(r?);
        }
    }
    let sampling = crate::trace::sampling::StoredSampling::read(&cap)?;
    if sampling.rate < 1.0 {
        tr.sample_rate = Some(sampling.rate);
    }
    let mut q = conn.prepare(
        "SELECT rowid,device_id,issue_ns,sector,bytes,op,rwbs FROM block_requests ORDER BY issue_ns, rowid",
    )?;
    let mut rows = q.query([])?;
    let mut origin: Option<i64> = None;
    while let Some(r) = rows.next()? {
        let rowid: i64 = r.get(0)?;
        let dev_id: i64 = r.get(1)?;
        let issue: i64 = r.get(2)?;
        let sector: i64 = r.get(3)?;
        let bytes: i64 = r.get(4)?;
        let op: String = r.get(5)?;
        let rwbs: String = r.get(6)?;
        tr.records += 1;
        let line = rowid as u64;
        if !sampling.keeps(dev_id, sector) {
            tr.above_final_rate += 1;
            continue;
        }
        let op = match op.as_str() {
            "R" => Op::Read,
            "W" => Op::Write,
            "D" => Op::Discard,
            _ => {
                tr.other_lines += 1;
                continue;
            }
        };
        if bytes <= 0 || sector < 0 {
            if bytes == 0 {
                tr.other_lines += 1;
            } else {
                tr.skip(
                    line,
                    if sector < 0 { "sector" } else { "bytes" },
                    format!("block_requests row {rowid}: sector {sector}, bytes {bytes}"),
                    "negative length",
                );
            }
            continue;
        }
        let Some((_, name, size)) = sizes.iter().find(|d| d.0 == dev_id) else {
            tr.skip(
                line,
                "device_id",
                format!("block_requests row {rowid}: device {dev_id} is not in devices"),
                "unknown device",
            );
            continue;
        };
        if let Some(sz) = size {
            if sector.saturating_mul(512).saturating_add(bytes) > *sz {
                tr.skip(
                    line,
                    "sector",
                    format!(
                        "block_requests row {rowid}: [{}, {}) ends past {name}'s {sz} bytes",
                        sector * 512,
                        sector * 512 + bytes
                    ),
                    "past the device's end",
                );
                continue;
            }
        }
        let o = *origin.get_or_insert(issue);
        let dev = tr.dev_index(name);
        tr.reqs.push(Req {
            t_ns: issue - o,
            dev,
            offset: sector as u64 * 512,
            bytes: bytes as u64,
            op,
        });
        tr.op_text.push(rwbs);
        tr.complete_ns.push(None);
    }
    if tr.reqs.is_empty() {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block request with data to simulate ({} rows): record with 'record --trace' or import a trace with 'import-trace'",
            path.display(),
            tr.records
        )));
    }
    Ok(tr)
}
