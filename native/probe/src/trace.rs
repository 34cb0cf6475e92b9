//! Block tracing (`record --trace`): the kernel's `block:block_rq_issue` and
//! `block:block_rq_complete` events, read from a private tracefs instance on a thread of their
//! own and paired into one record per request (offset, size, operation, issue and completion
//! times) for the `block_requests` table.
//!
//! Kernel facts used:
//! - tracefs lives at `/sys/kernel/tracing` (Documentation/trace/ftrace.rst, "The File System";
//!   not mounted by itself on every system: `mount -t tracefs nodev /sys/kernel/tracing`).
//!   `mkdir instances/NAME` creates a private trace buffer with its own events, filters, clock and
//!   buffer size; `rmdir` removes it, and fails with EBUSY while its `trace_pipe` is open
//!   (ftrace.rst, "Instances").
//! - `trace_clock` `mono` is `ktime_get_mono_fast_ns()`: CLOCK_MONOTONIC, the clock of the
//!   samples' `mono_ns` (ftrace.rst, "trace_clock"). Timestamps print as seconds with 6 decimals.
//! - `buffer_size_kb` is the ring buffer of each CPU (ftrace.rst, "buffer_size_kb").
//! - `trace_pipe` is a consuming reader; events overwritten before they were read show up as a
//!   line `CPU:N [LOST M EVENTS]` (kernel/trace/trace.c, `print_trace_line`).
//! - The events' text (include/trace/events/block.h, `block_rq_issue` through the `block_rq`
//!   class, `block_rq_complete`): `MAJ,MIN RWBS BYTES (CMD) SECTOR + NR_SECTOR [IOPRIO] [COMM]`
//!   and `MAJ,MIN RWBS (CMD) SECTOR + NR_SECTOR [IOPRIO] [ERROR]`; the ioprio part
//!   (`none,0,0`) arrived in 6.10, older kernels print without it. `dev` in a filter is the
//!   kernel's dev_t, `major << 20 | minor` (include/linux/kdev_t.h, MINORBITS = 20).
//! - `rwbs` (kernel/trace/blktrace.c, `blk_fill_rwbs`): `F` first for a pre-flush, then the
//!   operation (`W` write, `D` discard, `DE` secure erase, `F` flush, `R` read, `Z?` zone
//!   commands, `N` other), then `F` FUA, `A` read-ahead, `S` sync, `M` metadata, `U` atomic.
//! - The events are emitted for request-based (blk-mq) devices: a request on a partition is
//!   traced on its whole disk, and bio-based devices (device-mapper, md, zram, bcache's front)
//!   issue no requests at all.
//! - A flush request (`FF`) is issued at sector 0 and completes at sector 2^64−1 on 6.18 (seen
//!   here), and requests the flush machinery ends without issuing them complete without an
//!   issue; pairing therefore keys requests of 0 sectors by device and operation only.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::clock;
use crate::error::{ProbeError, Result};

/// Where tracefs is mounted (`CACHEPROOF_TRACEFS` overrides it, for tests).
pub const DEFAULT_TRACEFS: &str = "/sys/kernel/tracing";
/// Name prefix of the probe's tracefs instances: `cacheproof-<pid>`.
pub const INSTANCE_PREFIX: &str = "cacheproof-";
/// Ring buffer per CPU, KiB.
pub const BUFFER_SIZE_KB: u32 = 8192;
/// `meta.trace` of a capture recorded with `--trace`.
pub const META_BLOCK: &str = "block";
/// A request issued this long ago without a completion is written with `complete_ns` NULL.
pub const UNPAIRED_TIMEOUT_NS: u64 = 60_000_000_000;
/// At the end, how long the tracer waits for the completion of requests still in flight.
pub const FINISH_GRACE_NS: u64 = 2_000_000_000;
/// The two events, under `events/block/`.
pub const EVENTS: [&str; 2] = ["block_rq_issue", "block_rq_complete"];

/// Requests the tracer keeps while the writer is busy; beyond that it stops reading, the
/// kernel's buffer fills and the overflow is counted as lost events.
const MAX_LOCAL: usize = 65_536;
/// Batches are handed to the writer at most this often.
const SEND_EVERY_NS: u64 = 200_000_000;
/// Bytes read from `trace_pipe` before the loop does its housekeeping.
const READ_ROUND: usize = 4 << 20;
/// A line longer than this is not a trace line.
const MAX_LINE: usize = 64 * 1024;
/// The comm of a running recorder as /proc shows it (15 characters).
const RECORDER_COMM: &str = "cacheproof-prob";

/// The tracefs mount point.
pub fn tracefs_root() -> PathBuf {
    std::env::var_os("CACHEPROOF_TRACEFS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_TRACEFS))
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// One block event as the kernel printed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// (major, minor).
    pub dev: (u32, u32),
    /// The trace clock (CLOCK_MONOTONIC with `trace_clock` = `mono`), ns.
    pub ts_ns: u64,
    pub rwbs: String,
    /// `block_rq_issue` only: the request's bytes.
    pub bytes: Option<u64>,
    pub sector: u64,
    pub nr_sector: u32,
    /// `block_rq_complete` only.
    pub error: Option<i32>,
}

/// What one line of `trace_pipe` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Issue(Event),
    Complete(Event),
    /// `CPU:N [LOST M EVENTS]`.
    Lost {
        cpu: u32,
        events: u64,
    },
    /// Anything else: counted and reported, never fatal.
    Garbage,
}

/// `12345.678901` (seconds) → ns.
fn parse_ts(s: &str) -> Option<u64> {
    let (secs, frac) = s.split_once('.').unwrap_or((s, ""));
    if secs.is_empty()
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 9
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let mut ns: u64 = 0;
    for i in 0..9 {
        ns = ns * 10 + frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0'));
    }
    secs.checked_mul(1_000_000_000)?.checked_add(ns)
}

fn parse_dev(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once(',')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn parse_lost(s: &str) -> Option<Line> {
    // CPU:1 [LOST 123 EVENTS]
    let rest = s.trim().strip_prefix("CPU:")?;
    let (cpu, rest) = rest.split_once(' ')?;
    let n = rest
        .trim()
        .strip_prefix("[LOST ")?
        .strip_suffix(" EVENTS]")?;
    Some(Line::Lost {
        cpu: cpu.parse().ok()?,
        events: n.trim().parse().ok()?,
    })
}

/// The payload after `block_rq_issue: ` / `block_rq_complete: `.
fn parse_payload(ts_ns: u64, payload: &str, issue: bool) -> Option<Event> {
    let mut t = payload.split_whitespace();
    let dev = parse_dev(t.next()?)?;
    let rwbs = t.next()?;
    if rwbs.is_empty() || rwbs.len() > 16 || !rwbs.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let bytes = if issue {
        Some(t.next()?.parse::<u64>().ok()?)
    } else {
        None
    };
    // (cmd): empty on current kernels; a passthrough command printed in hex on old ones, which
    // may hold spaces.
    let mut tok = t.next()?;
    if !tok.starts_with('(') {
        return None;
    }
    while !tok.ends_with(')') {
        tok = t.next()?;
    }
    let sector: u64 = t.next()?.parse().ok()?;
    if t.next()? != "+" {
        return None;
    }
    let nr_sector: u32 = t.next()?.parse().ok()?;
    // Then the ioprio (6.10+) and the bracketed comm (issue) or error (complete).
    let rest: Vec<&str> = t.collect();
    let error = if issue {
        if !rest.iter().any(|x| x.starts_with('[')) {
            return None;
        }
        None
    } else {
        let last = rest.last()?;
        let e = last.strip_prefix('[')?.strip_suffix(']')?;
        if rest.len() > 2 {
            return None;
        }
        Some(e.parse::<i32>().ok()?)
    };
    Some(Event {
        dev,
        ts_ns,
        rwbs: rwbs.to_string(),
        bytes,
        sector,
        nr_sector,
        error,
    })
}

/// Parse one line of `trace_pipe`: `None` for an empty line, `Line::Garbage` for anything not
/// understood (never a panic).
pub fn parse_line(line: &str) -> Option<Line> {
    let l = line.trim_end();
    if l.trim().is_empty() {
        return None;
    }
    for (marker, issue) in [
        (": block_rq_issue: ", true),
        (": block_rq_complete: ", false),
    ] {
        if let Some(i) = l.find(marker) {
            // The task name before the timestamp may hold spaces: the timestamp is the last
            // word before the event name.
            let ts = l[..i].split_whitespace().last().and_then(parse_ts);
            let ev = ts.and_then(|ts| parse_payload(ts, &l[i + marker.len()..], issue));
            return Some(match ev {
                Some(e) if issue => Line::Issue(e),
                Some(e) => Line::Complete(e),
                None => Line::Garbage,
            });
        }
    }
    if l.trim_start().starts_with("CPU:") {
        return Some(parse_lost(l).unwrap_or(Line::Garbage));
    }
    Some(Line::Garbage)
}

/// The operation of a request from its rwbs: `R` read, `W` write (and zone append, which
/// carries data), `D` discard (and secure erase), `F` flush only (a flush request, or a
/// pre-flush without data), `N` other.
pub fn op_of(rwbs: &str, nr_sector: u32) -> char {
    let b = rwbs.as_bytes();
    let preflush =
        b.len() >= 2 && b[0] == b'F' && matches!(b[1], b'R' | b'W' | b'D' | b'F' | b'N' | b'Z');
    let i = usize::from(preflush);
    match b.get(i) {
        Some(b'R') => 'R',
        Some(b'W') if preflush && nr_sector == 0 => 'F',
        Some(b'W') => 'W',
        Some(b'D') => 'D',
        Some(b'F') => 'F',
        Some(b'Z') if b.get(i + 1) == Some(&b'A') => 'W',
        _ => 'N',
    }
}

// ---------------------------------------------------------------------------------------------
// Pairing

/// One block request: what the `block_requests` table stores (before the device id and the
/// wall-clock label, which the writer adds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub dev: (u32, u32),
    pub issue_ns: u64,
    pub complete_ns: Option<u64>,
    pub sector: u64,
    pub bytes: u64,
    pub op: char,
    pub rwbs: String,
    pub error: Option<i32>,
}

/// (device, operation, sector, sectors); the sector is 0 for requests of 0 sectors, whose
/// issue and completion print different sectors.
type Key = ((u32, u32), char, u64, u32);

fn key(e: &Event) -> Key {
    let op = op_of(&e.rwbs, e.nr_sector);
    let sector = if e.nr_sector == 0 { 0 } else { e.sector };
    (e.dev, op, sector, e.nr_sector)
}

/// Pairs issues with completions by (device, operation, sector, sectors), first in first out.
#[derive(Debug, Default)]
pub struct Pairer {
    pending: HashMap<Key, VecDeque<Request>>,
    len: usize,
    /// Completions without an issue (issued before tracing started, or ended by the kernel
    /// without being issued, as the flush machinery does).
    pub unmatched_completions: u64,
}

impl Pairer {
    /// A request reached the driver.
    pub fn issue(&mut self, e: Event) {
        let k = key(&e);
        let bytes = if e.nr_sector == 0 {
            e.bytes.unwrap_or(0)
        } else {
            u64::from(e.nr_sector) * 512
        };
        self.pending.entry(k).or_default().push_back(Request {
            dev: e.dev,
            issue_ns: e.ts_ns,
            complete_ns: None,
            sector: e.sector,
            bytes,
            op: k.1,
            rwbs: e.rwbs,
            error: None,
        });
        self.len += 1;
    }

    /// A request completed: the oldest pending issue of its key, completed.
    pub fn complete(&mut self, e: &Event) -> Option<Request> {
        let k = key(e);
        let q = self.pending.get_mut(&k);
        let r = q.and_then(|q| q.pop_front());
        if self.pending.get(&k).is_some_and(|q| q.is_empty()) {
            self.pending.remove(&k);
        }
        match r {
            Some(mut r) => {
                self.len -= 1;
                r.complete_ns = Some(e.ts_ns);
                r.error = e.error;
                Some(r)
            }
            None => {
                self.unmatched_completions += 1;
                None
            }
        }
    }

    /// Requests issued before `cutoff_ns` and still not completed, removed (complete NULL).
    pub fn expire(&mut self, cutoff_ns: u64) -> Vec<Request> {
        let mut out = Vec::new();
        self.pending.retain(|_, q| {
            while q.front().is_some_and(|r| r.issue_ns < cutoff_ns) {
                if let Some(r) = q.pop_front() {
                    out.push(r);
                }
            }
            !q.is_empty()
        });
        self.len -= out.len();
        out
    }

    /// Every pending request (complete NULL), oldest first.
    pub fn drain(&mut self) -> Vec<Request> {
        let mut out: Vec<Request> = self.pending.drain().flat_map(|(_, q)| q).collect();
        out.sort_by_key(|r| r.issue_ns);
        self.len = 0;
        out
    }

    /// Whether a request issued at or before `t_ns` still waits for its completion.
    pub fn pending_until(&self, t_ns: u64) -> bool {
        self.pending
            .values()
            .any(|q| q.front().is_some_and(|r| r.issue_ns <= t_ns))
    }

    /// Requests waiting for their completion.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No request waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Splits a byte stream into lines and parses them into a pairer and a batch.
#[derive(Debug, Default)]
pub struct Feeder {
    carry: Vec<u8>,
    pub pairer: Pairer,
}

impl Feeder {
    /// Feed bytes read from `trace_pipe`; finished requests, losses and unparsed lines go into
    /// `batch`.
    pub fn feed(&mut self, bytes: &[u8], batch: &mut TraceBatch) {
        self.carry.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(n) = self.carry[start..].iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.carry[start..start + n]).into_owned();
            start += n + 1;
            self.line(&line, batch);
        }
        self.carry.drain(..start);
        if self.carry.len() > MAX_LINE {
            let line = String::from_utf8_lossy(&self.carry[..80]).into_owned();
            self.carry.clear();
            batch.unparsed(&line);
        }
    }

    fn line(&mut self, line: &str, batch: &mut TraceBatch) {
        match parse_line(line) {
            None => {}
            Some(Line::Issue(e)) => self.pairer.issue(e),
            Some(Line::Complete(e)) => {
                if let Some(r) = self.pairer.complete(&e) {
                    batch.requests.push(r);
                }
            }
            Some(Line::Lost { cpu, events }) => {
                batch.lost += events;
                if !batch.lost_cpus.contains(&cpu) {
                    batch.lost_cpus.push(cpu);
                }
            }
            Some(Line::Garbage) => batch.unparsed(line),
        }
    }
}

/// What the tracer hands to the writer.
#[derive(Debug, Default)]
pub struct TraceBatch {
    /// Finished requests (completed, or given up on: `complete_ns` None).
    pub requests: Vec<Request>,
    /// Events the kernel reported lost.
    pub lost: u64,
    pub lost_cpus: Vec<u32>,
    /// Lines not understood, and the first of them.
    pub unparsed: u64,
    pub unparsed_example: Option<String>,
    /// Set on the tracer's last batch.
    pub last: bool,
    /// Why the tracer stopped early (its last batch).
    pub error: Option<String>,
}

impl TraceBatch {
    fn unparsed(&mut self, line: &str) {
        self.unparsed += 1;
        if self.unparsed_example.is_none() {
            self.unparsed_example = Some(line.chars().take(200).collect());
        }
    }

    fn has_news(&self) -> bool {
        !self.requests.is_empty() || self.lost > 0 || self.unparsed > 0
    }
}

// ---------------------------------------------------------------------------------------------
// tracefs

fn unavailable(msg: String) -> ProbeError {
    ProbeError::TraceUnavailable(msg)
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn events_present(root: &Path) -> bool {
    EVENTS
        .iter()
        .all(|e| root.join("events/block").join(e).join("enable").exists())
        && root.join("instances").is_dir()
}

/// Whether a tracefs is mounted at `root` (/proc/self/mounts).
fn tracefs_mounted(root: &Path) -> bool {
    let Ok(m) = std::fs::read_to_string("/proc/self/mounts") else {
        return false;
    };
    let want = root.to_string_lossy().replace(' ', "\\040");
    m.lines().any(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() >= 3 && f[1] == want && f[2] == "tracefs"
    })
}

fn mount_tracefs(root: &Path) -> std::io::Result<()> {
    let target = std::ffi::CString::new(root.as_os_str().as_encoded_bytes())
        .map_err(|_| std::io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: mount(2) with NUL-terminated strings we own and no data.
    let r = unsafe {
        libc::mount(
            c"nodev".as_ptr(),
            target.as_ptr(),
            c"tracefs".as_ptr(),
            0,
            std::ptr::null(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Check that block tracing can be set up: root, tracefs (mounted here when it is not) and the
/// block events. The error says what is missing and what to do.
pub fn ensure_available(root: &Path) -> Result<()> {
    if !is_root() {
        return Err(ProbeError::NeedsRoot(
            "record --trace (block tracing)".into(),
        ));
    }
    if events_present(root) {
        return Ok(());
    }
    let mounted = tracefs_mounted(root);
    if !mounted {
        if let Err(e) = mount_tracefs(root) {
            return Err(unavailable(format!(
                "block tracing needs tracefs, which is not mounted at {r} and could not be mounted there ({e}): run 'mount -t tracefs nodev {r}' as root and try again, or record without --trace",
                r = root.display()
            )));
        }
        if events_present(root) {
            return Ok(());
        }
    }
    Err(unavailable(format!(
        "block tracing needs the kernel's block trace events, and {}/events/block/block_rq_issue is missing: this kernel was built without event tracing (CONFIG_FTRACE, CONFIG_EVENT_TRACING); record without --trace",
        root.display()
    )))
}

/// The kernel's dev_t of (major, minor): `major << 20 | minor`.
pub fn dev_t(major: u32, minor: u32) -> u64 {
    (u64::from(major) << 20) | u64::from(minor)
}

/// The events' filter for these devices (`dev == N || dev == M`); `0` (nothing) when empty.
pub fn filter_for(devices: &[(u32, u32)]) -> String {
    if devices.is_empty() {
        return "0".into();
    }
    devices
        .iter()
        .map(|&(a, b)| format!("dev == {}", dev_t(a, b)))
        .collect::<Vec<_>>()
        .join(" || ")
}

/// Disable an instance's events and remove it (waiting up to 1 s while a reader lets go).
fn remove_instance(dir: &Path) -> std::io::Result<()> {
    let _ = std::fs::write(dir.join("events/enable"), "0");
    let mut last = None;
    for _ in 0..50 {
        match std::fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                last = Some(e);
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::from_raw_os_error(libc::EBUSY)))
}

/// Whether `pid` is a live (not zombie) process whose name is the recorder's.
fn recorder_alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // pid (comm) S ...
    let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
        return false;
    };
    let comm = &stat[open + 1..close];
    let state = stat[close + 1..].split_whitespace().next().unwrap_or("");
    comm.starts_with(RECORDER_COMM) && !matches!(state, "Z" | "X" | "x")
}

/// Remove every `instances/cacheproof-<pid>` whose recorder is gone (killed with SIGKILL, or a
/// pid now used by another program); other instances are never touched. Returns the names
/// removed. Needs root; without tracefs there is nothing to do.
pub fn remove_stale_instances(root: &Path) -> Vec<String> {
    let own = std::process::id() as i32;
    let Ok(rd) = std::fs::read_dir(root.join("instances")) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(p) = name.strip_prefix(INSTANCE_PREFIX) else {
            continue;
        };
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(pid) = p.parse::<i32>() else { continue };
        // Our own name can only be left by an earlier process with the same pid.
        if pid != own && recorder_alive(pid) {
            continue;
        }
        if remove_instance(&e.path()).is_ok() {
            removed.push(name);
        }
    }
    removed.sort();
    removed
}

/// The probe's private tracefs instance; dropping it disables the events and removes it.
#[derive(Debug)]
pub struct Instance {
    dir: PathBuf,
    removed: bool,
}

impl Instance {
    /// `mkdir instances/cacheproof-<pid>`, then `trace_clock` = mono, `buffer_size_kb`, the
    /// filter (`None`: every device) and the two events enabled.
    pub fn create(root: &Path, devices: Option<&[(u32, u32)]>) -> Result<Instance> {
        let dir = root
            .join("instances")
            .join(format!("{INSTANCE_PREFIX}{}", std::process::id()));
        if dir.exists() {
            let _ = remove_instance(&dir);
        }
        std::fs::create_dir(&dir).map_err(|e| {
            unavailable(format!(
                "cannot create the tracefs instance {}: {e}",
                dir.display()
            ))
        })?;
        let inst = Instance {
            dir,
            removed: false,
        };
        inst.write("trace_clock", "mono")?;
        inst.write("buffer_size_kb", &BUFFER_SIZE_KB.to_string())?;
        if let Some(d) = devices {
            let f = filter_for(d);
            for e in EVENTS {
                inst.write(&format!("events/block/{e}/filter"), &f)?;
            }
        }
        for e in EVENTS {
            inst.write(&format!("events/block/{e}/enable"), "1")?;
        }
        Ok(inst)
    }

    fn write(&self, rel: &str, value: &str) -> Result<()> {
        let p = self.dir.join(rel);
        std::fs::write(&p, value).map_err(|e| {
            unavailable(format!(
                "cannot set up block tracing: writing '{value}' to {}: {e}",
                p.display()
            ))
        })
    }

    /// The instance's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Disable the events and remove the instance (once).
    pub fn remove(&mut self) -> std::io::Result<()> {
        if self.removed {
            return Ok(());
        }
        let r = remove_instance(&self.dir);
        if r.is_ok() {
            self.removed = true;
        }
        r
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.remove();
    }
}

// ---------------------------------------------------------------------------------------------
// The tracer thread

/// What handing a batch to the writer gave.
pub enum Sent {
    Yes,
    /// The writer's queue is full: keep it and try again later.
    Busy(TraceBatch),
    /// The writer is gone.
    Gone,
}

/// How the tracer hands batches over.
pub type Sink = Box<dyn FnMut(TraceBatch) -> Sent + Send>;

/// The reading thread and its instance.
pub struct Tracer {
    end: Arc<AtomicU64>,
    handle: Option<std::thread::JoinHandle<()>>,
    instance: Option<Instance>,
}

impl Tracer {
    /// Start reading the instance's `trace_pipe` on a thread named `tracer`.
    pub fn start(instance: Instance, sink: Sink) -> Result<Tracer> {
        let end = Arc::new(AtomicU64::new(0));
        let pipe = instance.dir().join("trace_pipe");
        let e2 = end.clone();
        let handle = std::thread::Builder::new()
            .name("tracer".into())
            .spawn(move || {
                crate::recorder::block_stop_signals();
                read_loop(&pipe, &e2, sink);
            })
            .map_err(|e| ProbeError::io("starting the tracer thread", e))?;
        Ok(Tracer {
            end,
            handle: Some(handle),
            instance: Some(instance),
        })
    }

    /// Ask the tracer to end: it keeps requests issued up to `end_mono_ns` (waiting up to
    /// FINISH_GRACE_NS for those still in flight), sends its last batch and ends.
    pub fn finish(&self, end_mono_ns: u64) {
        let _ =
            self.end
                .compare_exchange(0, end_mono_ns.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// End the thread (waiting up to 3 s), disable the events and remove the instance. The
    /// error says why the instance could not be removed.
    pub fn close(&mut self) -> std::result::Result<(), String> {
        self.finish(clock::mono_ns());
        if let Some(h) = self.handle.take() {
            let t0 = clock::mono_ns();
            while !h.is_finished() && clock::mono_ns() - t0 < 3_000_000_000 {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
        match self.instance.as_mut() {
            Some(i) => i.remove().map_err(|e| {
                format!(
                    "could not remove the tracefs instance {}: {e}; the next 'record' removes it",
                    i.dir().display()
                )
            }),
            None => Ok(()),
        }
    }
}

impl Drop for Tracer {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

fn poll_in(fd: i32, timeout_ms: i32) {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll on one descriptor we own, with a timeout.
    unsafe { libc::poll(&mut p, 1, timeout_ms) };
}

/// Send `batch`, retrying while the writer's queue is full, for up to 5 s.
fn send_last(sink: &mut Sink, mut batch: TraceBatch) {
    let t0 = clock::mono_ns();
    loop {
        match sink(batch) {
            Sent::Yes | Sent::Gone => return,
            Sent::Busy(b) => batch = b,
        }
        if clock::mono_ns() - t0 > 5_000_000_000 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn read_loop(pipe: &Path, end: &AtomicU64, mut sink: Sink) {
    use std::os::unix::io::AsRawFd;
    let mut file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(pipe)
    {
        Ok(f) => f,
        Err(e) => {
            let b = TraceBatch {
                last: true,
                error: Some(format!("cannot open {}: {e}", pipe.display())),
                ..TraceBatch::default()
            };
            send_last(&mut sink, b);
            return;
        }
    };
    let fd = file.as_raw_fd();
    let mut buf = vec![0u8; 64 * 1024];
    let mut feeder = Feeder::default();
    let mut batch = TraceBatch::default();
    let mut last_send = clock::mono_ns();
    let mut last_expire = last_send;
    let mut finish_since: Option<u64> = None;
    loop {
        let end_ns = end.load(Ordering::SeqCst);
        let now = clock::mono_ns();
        let mut drained = false;
        if batch.requests.len() < MAX_LOCAL {
            // trace_pipe's poll may wait for its buffer_percent: read after the timeout anyway.
            poll_in(fd, if end_ns != 0 { 20 } else { 100 });
            let mut got = 0;
            while got < READ_ROUND {
                match file.read(&mut buf) {
                    Ok(0) => {
                        drained = true;
                        break;
                    }
                    Ok(n) => {
                        got += n;
                        feeder.feed(&buf[..n], &mut batch);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        drained = true;
                        break;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        batch.requests.extend(feeder.pairer.drain());
                        batch.last = true;
                        batch.error = Some(format!("reading {}: {e}", pipe.display()));
                        send_last(&mut sink, batch);
                        return;
                    }
                }
            }
        } else {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        if now - last_expire >= 1_000_000_000 {
            batch.requests.extend(
                feeder
                    .pairer
                    .expire(now.saturating_sub(UNPAIRED_TIMEOUT_NS)),
            );
            last_expire = now;
        }
        if end_ns != 0 {
            let since = *finish_since.get_or_insert(now);
            let settled = drained && now >= end_ns && !feeder.pairer.pending_until(end_ns);
            if settled || now - since >= FINISH_GRACE_NS {
                batch.requests.extend(feeder.pairer.drain());
                batch.requests.retain(|r| r.issue_ns <= end_ns);
                batch.last = true;
                send_last(&mut sink, batch);
                return;
            }
        }
        if batch.has_news() && now - last_send >= SEND_EVERY_NS {
            if end_ns != 0 {
                batch.requests.retain(|r| r.issue_ns <= end_ns);
            }
            match sink(std::mem::take(&mut batch)) {
                Sent::Yes => last_send = now,
                Sent::Busy(b) => batch = b,
                Sent::Gone => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const ISSUE: &str = "             fio-1234    [001] ..... 12345.678901: block_rq_issue: 7,0 R 262144 () 123456 + 512 none,0,0 [fio]";
    const COMPLETE: &str =
        "          <idle>-0       [000] ..s1. 12345.679001: block_rq_complete: 7,0 R () 123456 + 512 none,0,0 [0]";

    fn ev(line: &str) -> Event {
        match parse_line(line) {
            Some(Line::Issue(e)) | Some(Line::Complete(e)) => e,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn issue_line() {
        assert_eq!(
            parse_line(ISSUE),
            Some(Line::Issue(Event {
                dev: (7, 0),
                ts_ns: 12_345_678_901_000,
                rwbs: "R".into(),
                bytes: Some(262_144),
                sector: 123_456,
                nr_sector: 512,
                error: None,
            }))
        );
    }

    #[test]
    fn complete_line() {
        assert_eq!(
            parse_line(COMPLETE),
            Some(Line::Complete(Event {
                dev: (7, 0),
                ts_ns: 12_345_679_001_000,
                rwbs: "R".into(),
                bytes: None,
                sector: 123_456,
                nr_sector: 512,
                error: Some(0),
            }))
        );
    }

    #[test]
    fn without_the_ioprio_part_of_older_kernels() {
        let i = ev("  kworker/u8:2-events-99  [003] d..1.  8.000001: block_rq_issue: 259,1 WS 4096 () 2048 + 8 [kworker/u8:2]");
        assert_eq!(
            (i.dev, i.rwbs.as_str(), i.bytes, i.sector, i.nr_sector),
            ((259, 1), "WS", Some(4096), 2048, 8)
        );
        assert_eq!(i.ts_ns, 8_000_001_000);
        let c = ev("<idle>-0 [000] d.h1. 8.000101: block_rq_complete: 259,1 WS () 2048 + 8 [-5]");
        assert_eq!((c.error, c.sector, c.nr_sector), (Some(-5), 2048, 8));
        // Older still: no flags column, three decimals.
        let c = ev("<idle>-0 [000] 8.123: block_rq_complete: 8,16 D () 0 + 2048 [0]");
        assert_eq!((c.ts_ns, c.rwbs.as_str()), (8_123_000_000, "D"));
    }

    #[test]
    fn task_names_with_spaces_and_hex_commands() {
        let i = ev("   Web Content-4242  [001] ..... 100.000000: block_rq_issue: 8,0 RA 131072 () 10 + 256 be,0,4 [Web Content]");
        assert_eq!((i.rwbs.as_str(), i.nr_sector), ("RA", 256));
        let i = ev("sg_inq-77 [000] ..... 5.5: block_rq_issue: 8,0 N 36 (12 00 00 00 24 00) 0 + 0 none,0,0 [sg_inq]");
        assert_eq!(
            (i.bytes, i.nr_sector, i.ts_ns),
            (Some(36), 0, 5_500_000_000)
        );
    }

    #[test]
    fn lost_line() {
        assert_eq!(
            parse_line("CPU:1 [LOST 123 EVENTS]"),
            Some(Line::Lost {
                cpu: 1,
                events: 123
            })
        );
        assert_eq!(parse_line("CPU:x [LOST 1 EVENTS]"), Some(Line::Garbage));
    }

    #[test]
    fn garbage_is_reported_never_a_panic() {
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   \n"), None);
        for g in [
            "hello",
            "# tracer: nop",
            ": block_rq_issue: ",
            "x 1.0: block_rq_issue: 7,0",
            "x 1.0: block_rq_issue: 7,0 R",
            "x 1.0: block_rq_issue: 7,0 R 4096 () 8 + ",
            "x 1.0: block_rq_issue: 7,0 R 4096 () 8 + 8",
            "x 1.0: block_rq_issue: 7,0 R 4096 (unclosed 8 + 8 [x]",
            "x 1.0: block_rq_issue: 7;0 R 4096 () 8 + 8 [x]",
            "x 1.0: block_rq_issue: 7,0 R -1 () 8 + 8 [x]",
            "x 1.0: block_rq_complete: 7,0 R () 8 + 8 none,0,0 [zero]",
            "x 1.0: block_rq_complete: 7,0 R () 8 - 8 [0]",
            "x 1.0: block_rq_complete: 7,0 R () 99999999999999999999999 + 8 [0]",
            "x abc: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 1.0123456789: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 99999999999999999999.0: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 1.0: block_rq_insert: 7,0 R 4096 () 8 + 8 [x]",
            "\u{0}\u{1}\u{fffd}",
        ] {
            assert_eq!(parse_line(g), Some(Line::Garbage), "{g:?}");
        }
        // Every prefix and a few byte mutations of real lines: never a panic.
        for l in [ISSUE, COMPLETE, "CPU:1 [LOST 123 EVENTS]"] {
            for n in 0..=l.len() {
                if l.is_char_boundary(n) {
                    let _ = parse_line(&l[..n]);
                }
            }
            let b = l.as_bytes();
            for i in 0..b.len() {
                let mut m = b.to_vec();
                m[i] = b'9';
                let _ = parse_line(&String::from_utf8_lossy(&m));
                m[i] = b' ';
                let _ = parse_line(&String::from_utf8_lossy(&m));
            }
        }
    }

    #[test]
    fn operations_from_rwbs() {
        assert_eq!(op_of("R", 8), 'R');
        assert_eq!(op_of("RA", 8), 'R');
        assert_eq!(op_of("RSM", 8), 'R');
        assert_eq!(op_of("W", 8), 'W');
        assert_eq!(op_of("WS", 8), 'W');
        assert_eq!(op_of("WFS", 8), 'W'); // FUA write
        assert_eq!(op_of("FWS", 8), 'W'); // pre-flush + data: the data write
        assert_eq!(op_of("FWS", 0), 'F'); // pre-flush without data
        assert_eq!(op_of("FF", 0), 'F'); // the flush machinery's flush request
        assert_eq!(op_of("F", 0), 'F');
        assert_eq!(op_of("FS", 0), 'F');
        assert_eq!(op_of("D", 2048), 'D');
        assert_eq!(op_of("DE", 2048), 'D');
        assert_eq!(op_of("ZA", 8), 'W');
        assert_eq!(op_of("ZR", 0), 'N');
        assert_eq!(op_of("N", 0), 'N');
        assert_eq!(op_of("", 0), 'N');
    }

    fn feed(f: &mut Feeder, lines: &[&str]) -> TraceBatch {
        let mut b = TraceBatch::default();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // Split mid-line to exercise the carry.
        let (a, c) = text.as_bytes().split_at(text.len() / 2);
        f.feed(a, &mut b);
        f.feed(c, &mut b);
        b
    }

    #[test]
    fn pairs_fifo_flushes_and_losses() {
        let mut f = Feeder::default();
        let b = feed(
            &mut f,
            &[
                "a-1 [0] ..... 1.000000: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [a]",
                "a-1 [0] ..... 1.000010: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [a]",
                "a-1 [0] ..... 1.000020: block_rq_issue: 7,0 R 4096 () 8 + 8 none,0,0 [a]",
                "k-2 [1] ..... 1.000030: block_rq_issue: 7,0 FF 0 () 0 + 0 none,0,0 [k]",
                "i-0 [1] ..s1. 1.000100: block_rq_complete: 7,0 R () 8 + 8 none,0,0 [0]",
                "i-0 [1] ..s1. 1.000200: block_rq_complete: 7,0 W () 8 + 8 none,0,0 [0]",
                "i-0 [1] ..s.. 1.000300: block_rq_complete: 7,0 FF () 18446744073709551615 + 0 none,0,0 [0]",
                // Ended by the flush machinery without an issue: not a request.
                "i-0 [1] d.s1. 1.000310: block_rq_complete: 7,0 WS () 0 + 0 be,0,4 [0]",
                "CPU:0 [LOST 7 EVENTS]",
                "garbage here",
                "i-0 [1] ..s1. 1.000400: block_rq_complete: 7,0 W () 8 + 8 none,0,0 [-5]",
                "a-1 [0] ..... 1.000500: block_rq_issue: 7,0 W 4096 () 64 + 8 none,0,0 [a]",
            ],
        );
        type Row = (char, u64, Option<u64>, u64, Option<i32>);
        let got: Vec<Row> = b
            .requests
            .iter()
            .map(|r| (r.op, r.issue_ns, r.complete_ns, r.bytes, r.error))
            .collect();
        assert_eq!(
            got,
            vec![
                ('R', 1_000_020_000, Some(1_000_100_000), 4096, Some(0)),
                ('W', 1_000_000_000, Some(1_000_200_000), 4096, Some(0)),
                ('F', 1_000_030_000, Some(1_000_300_000), 0, Some(0)),
                ('W', 1_000_010_000, Some(1_000_400_000), 4096, Some(-5)),
            ]
        );
        assert_eq!((b.lost, b.lost_cpus.clone()), (7, vec![0]));
        assert_eq!(
            (b.unparsed, b.unparsed_example.as_deref()),
            (1, Some("garbage here"))
        );
        assert_eq!(f.pairer.unmatched_completions, 1);
        assert_eq!(f.pairer.len(), 1);
        assert!(f.pairer.pending_until(1_000_500_000));
        assert!(!f.pairer.pending_until(1_000_499_999));
        assert!(f.pairer.expire(1_000_500_000).is_empty());
        let left = f.pairer.expire(1_000_500_001);
        assert_eq!(left.len(), 1);
        assert_eq!((left[0].sector, left[0].complete_ns), (64, None));
        assert!(f.pairer.is_empty());
    }

    #[test]
    fn filters_and_dev_t() {
        assert_eq!(dev_t(7, 0), 7 << 20);
        assert_eq!(dev_t(259, 3), (259 << 20) | 3);
        assert_eq!(
            filter_for(&[(7, 0), (8, 16)]),
            format!("dev == {} || dev == {}", 7 << 20, (8 << 20) | 16)
        );
        assert_eq!(filter_for(&[]), "0");
    }

    #[test]
    fn long_lines_without_newline_are_dropped_and_counted() {
        let mut f = Feeder::default();
        let mut b = TraceBatch::default();
        f.feed(&vec![b'x'; MAX_LINE + 10], &mut b);
        assert_eq!(b.unparsed, 1);
        f.feed(format!("{ISSUE}\n{COMPLETE}\n").as_bytes(), &mut b);
        assert_eq!(b.requests.len(), 1);
    }
}
