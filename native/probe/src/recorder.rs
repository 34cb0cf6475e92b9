//! The recorder: samples /proc/diskstats on a monotonic schedule into a capture, walks the
//! plan's phases, and can be stopped, resumed, locked and detached.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fs::File;
use std::io::Write;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::Arc;

use crate::capture::{BlockRow, Capture};
use crate::clock;
use crate::delta::{self, Snapshot};
use crate::diskstats;
use crate::error::{ProbeError, Result};
use crate::plan::{Plan, PlanMeta};
use crate::sysfs;
use crate::trace::{self, TraceBatch};

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// SIGTERM, SIGINT and SIGHUP ask the recorder to take a last sample and stop.
fn install_signal_handlers() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: the handler only stores into an atomic (async-signal-safe); no SA_RESTART so a
        // sleeping clock_nanosleep returns at once.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_stop_signal as *const () as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// One read of /proc/diskstats with the clocks at that moment; `last` when a stop was asked
/// before it (the recorder writes it, then ends).
struct Sample {
    lines: Result<Vec<diskstats::DiskLine>>,
    mono: u64,
    utc: i64,
    last: bool,
}

/// What the writer (the main thread) receives: samples from the sampler, batches of block
/// requests from the tracer.
enum Msg {
    Sample(Sample),
    Trace(TraceBatch),
}

/// Samples the sampler may take ahead of the writer (an hour at 1 s) before it waits.
const SAMPLE_QUEUE: usize = 3600;
/// Trace batches that may wait for the writer; the queue holds this many more slots than
/// SAMPLE_QUEUE, so trace batches never take a sample's place.
const TRACE_QUEUE: usize = 64;

/// The stop signals, for `pthread_sigmask`.
fn stop_signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise and fill the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// Block the stop signals in the calling thread (threads other than the sampler).
pub(crate) fn block_stop_signals() {
    let set = stop_signal_set();
    // SAFETY: changes this thread's signal mask only.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
}

fn unblock_stop_signals() {
    let set = stop_signal_set();
    // SAFETY: changes this thread's signal mask only.
    unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
}

/// Start the sampling thread: it reads /proc/diskstats on the absolute monotonic schedule
/// t0 + k × interval and hands each read to the writer (this thread) through a queue. Sampling
/// never waits for the capture's disk: a commit or a WAL checkpoint that stalls for seconds on a
/// busy file system delays the writing, not the samples, so it cannot turn into a `gap` (nor
/// stretch the intervals around it). The stop signals are delivered to the sampler only (this
/// thread blocks them), so a signal interrupts its sleep at once.
fn spawn_sampler(nominal_ns: u64, tx: SyncSender<Msg>) -> Result<()> {
    let root = Path::new("/");
    let sampler = move || {
        let t0 = clock::mono_ns();
        let mut k: u64 = 0;
        loop {
            let last = STOP.load(Ordering::SeqCst);
            let lines = diskstats::read_root(root);
            let mono = clock::mono_ns();
            let utc = clock::utc_ms();
            let failed = lines.is_err();
            if tx
                .send(Msg::Sample(Sample {
                    lines,
                    mono,
                    utc,
                    last,
                }))
                .is_err()
                || failed
                || last
            {
                return;
            }
            if STOP.load(Ordering::SeqCst) {
                // A stop arrived during this sample: take one more at once, then end.
                continue;
            }
            // Next tick on the absolute monotonic schedule (no drift); ticks missed (suspend,
            // overload) are skipped, not caught up in a burst.
            k += 1;
            let now = clock::mono_ns();
            if t0 + k * nominal_ns <= now {
                k = (now - t0) / nominal_ns + 1;
            }
            while !STOP.load(Ordering::SeqCst) && clock::mono_ns() < t0 + k * nominal_ns {
                clock::sleep_until_mono(t0 + k * nominal_ns);
            }
        }
    };
    match std::thread::Builder::new()
        .name("sampler".into())
        .spawn(sampler)
    {
        Ok(_) => {
            // The sampler keeps the mask it was created with (the signals unblocked).
            block_stop_signals();
            Ok(())
        }
        // No thread (out of resources).
        Err(_) => Err(sampler_ended()),
    }
}

fn sampler_ended() -> ProbeError {
    ProbeError::io(
        "sampling /proc/diskstats",
        std::io::Error::other("the sampling thread ended"),
    )
}

/// Bytes kept free beside the capture for the last words on a full disk.
const RESERVE_BYTES: usize = 512 * 1024;

/// `<capture><suffix>`.
pub fn sidecar(capture: &Path, suffix: &str) -> PathBuf {
    let mut s = capture.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Options of a new recording.
#[derive(Debug, Clone)]
pub struct RecordOptions {
    pub out: PathBuf,
    /// `None` = every device in /proc/diskstats (`--all`).
    pub devices: Option<Vec<String>>,
    pub interval_ms: u64,
    pub plan: Option<Plan>,
    /// `manual` (until the adapters land).
    pub switch: Option<String>,
    /// The command line, stored in `meta.command`.
    pub command: String,
    /// `--trace`: record every block request of the devices (`meta.trace` = `block`).
    pub trace: bool,
}

/// The sidecar lock file of a capture.
pub fn lock_path(capture: &Path) -> PathBuf {
    sidecar(capture, ".lock")
}

/// An exclusive flock(2) on the capture's sidecar lock file, held while recording. The kernel
/// drops it when the process dies, even by kill -9, so a stale lock never blocks a resume.
pub struct RecorderLock {
    file: File,
}

impl RecorderLock {
    /// Take the lock or say who holds it.
    pub fn acquire(capture: &Path) -> Result<RecorderLock> {
        let lp = lock_path(capture);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lp)
            .map_err(|e| ProbeError::Unwritable {
                path: lp.clone(),
                reason: e.to_string(),
            })?;
        // SAFETY: flock on a descriptor we own.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r != 0 {
            let pid = std::fs::read_to_string(&lp)
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            return Err(ProbeError::Locked {
                path: capture.to_path_buf(),
                pid: if pid.is_empty() {
                    "unknown".into()
                } else {
                    pid
                },
            });
        }
        let mut l = RecorderLock { file };
        l.write_pid();
        Ok(l)
    }

    /// Rewrite the pid (after a fork the holder changes).
    pub fn write_pid(&mut self) {
        use std::os::unix::fs::FileExt;
        // At offset 0: a second call must not leave the first one's length as NULs in front.
        let _ = self.file.set_len(0);
        let _ = self
            .file
            .write_all_at(format!("{}\n", std::process::id()).as_bytes(), 0);
        let _ = self.file.flush();
    }

    /// The pid in the lock file of `capture` (that of the recorder that took the lock last).
    pub fn holder_pid(capture: &Path) -> Option<String> {
        std::fs::read_to_string(lock_path(capture))
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Whether some process holds the lock of `capture` right now.
    pub fn is_held(capture: &Path) -> bool {
        let lp = lock_path(capture);
        let Ok(f) = File::open(&lp) else { return false };
        // SAFETY: flock on a descriptor we own; released when `f` drops.
        let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        r != 0
    }
}

/// Check every named device is in /proc/diskstats.
pub fn check_devices(names: &[String]) -> Result<()> {
    let lines = diskstats::read_root(Path::new("/"))?;
    let known: BTreeSet<&str> = lines.iter().map(|l| l.name.as_str()).collect();
    for n in names {
        if !known.contains(n.as_str()) {
            return Err(ProbeError::UnknownDevice(n.clone()));
        }
    }
    Ok(())
}

/// Create the capture of a new recording: meta, host facts, inventory, topology, plan. When
/// that fails after the file was created, nothing is left behind: a stub holds nothing
/// recorded and cannot be resumed; on a full disk the error says how much space the recording
/// needs and how much is free (exit 8).
pub fn prepare(opts: &RecordOptions) -> Result<()> {
    let existed = opts.out.exists();
    let Err(e) = prepare_capture(opts) else {
        return Ok(());
    };
    if existed || !opts.out.exists() {
        return Err(e);
    }
    let e = crate::capture::with_path(&opts.out, e);
    crate::capture::remove_unrecorded(&opts.out);
    if !crate::capture::is_disk_full(&e) {
        return Err(e);
    }
    let devices = match &opts.devices {
        Some(d) => d.len(),
        None => diskstats::read_root(Path::new("/")).map_or(1, |l| l.len()),
    };
    let planned_s = opts.plan.map(|p| p.baseline_s + p.warmup_s + p.measure_s);
    Err(nothing_recorded(
        &opts.out,
        devices as u64,
        opts.interval_ms,
        planned_s,
    ))
}

fn nothing_recorded(
    path: &Path,
    devices: u64,
    interval_ms: u64,
    planned_s: Option<f64>,
) -> ProbeError {
    ProbeError::NothingRecorded(format!(
        "the file system holding {} is full: nothing was recorded, and the capture was removed; this recording needs {}, and {} is free there: free some space or choose another --out",
        path.display(),
        crate::capture::space::needed_text(devices, interval_ms, planned_s),
        crate::capture::space::free_text(path)
    ))
}

/// The capture of a background recorder vanished: it found the disk full before its first
/// sample and removed it. Its sentence is the last line of `CAPTURE.log` (written as it
/// exits); the log goes too, as nothing was recorded.
fn vanished(capture: &Path) -> ProbeError {
    let log = sidecar(capture, ".log");
    let prefix = "cacheproof-probe: ";
    let t0 = clock::mono_ns();
    let sentence = loop {
        let line = std::fs::read_to_string(&log).ok().and_then(|t| {
            t.lines()
                .rev()
                .find(|l| l.starts_with(prefix) && l.contains("nothing was recorded"))
                .map(|l| l[prefix.len()..].to_string())
        });
        if let Some(l) = line {
            break l;
        }
        if clock::mono_ns() - t0 > 2_000_000_000 {
            break format!(
                "the file system holding {} is full: nothing was recorded, and the capture was removed; {} is free there: free some space or choose another --out",
                capture.display(),
                crate::capture::space::free_text(capture)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = std::fs::remove_file(&log);
    ProbeError::NothingRecorded(sentence)
}

fn prepare_capture(opts: &RecordOptions) -> Result<()> {
    if let Some(d) = &opts.devices {
        check_devices(d)?;
    }
    if opts.trace {
        // Before the capture exists: a capture that cannot be traced is not created.
        trace::ensure_available(&trace::tracefs_root())?;
    }
    if opts.out.exists() {
        // Same sentence as Capture::create, but check the lock first for a clearer message.
        if RecorderLock::is_held(&opts.out) {
            let pid = std::fs::read_to_string(lock_path(&opts.out)).unwrap_or_default();
            return Err(ProbeError::Locked {
                path: opts.out.clone(),
                pid: pid.trim().to_string(),
            });
        }
    }
    let mut cap = Capture::create(&opts.out)?;
    let now = clock::utc_ms();
    let kv = [
        ("probe_version", env!("CARGO_PKG_VERSION").to_string()),
        ("created_utc_ms", now.to_string()),
        ("hostname", clock::hostname()),
        ("kernel", clock::kernel()),
        ("boot_id", clock::boot_id()),
        ("utc_offset_min", clock::utc_offset_min().to_string()),
        ("command", opts.command.clone()),
        ("interval_ms", opts.interval_ms.to_string()),
        ("source", "diskstats".to_string()),
        (
            "devices",
            match &opts.devices {
                Some(d) => serde_json::to_string(d).unwrap_or_default(),
                None => "\"all\"".to_string(),
            },
        ),
    ];
    for (k, v) in kv {
        cap.set_meta(k, &v)?;
    }
    if opts.trace {
        cap.set_meta("trace", trace::META_BLOCK)?;
    }
    if let Some(p) = opts.plan {
        let pm = PlanMeta {
            baseline_s: p.baseline_s,
            warmup_s: p.warmup_s,
            measure_s: p.measure_s,
            switch: opts.switch.clone().unwrap_or_else(|| "manual".into()),
        };
        cap.set_meta("plan", &serde_json::to_string(&pm).unwrap_or_default())?;
    }
    let inv = sysfs::list_devices(Path::new("/sys"));
    let lines = diskstats::read_root(Path::new("/"))?;
    for l in &lines {
        let keep = match &opts.devices {
            Some(d) => d.contains(&l.name),
            None => true,
        };
        if keep {
            let info = inv
                .iter()
                .find(|d| d.name == l.name)
                .cloned()
                .unwrap_or_else(|| sysfs::bare(&l.name, l.major, l.minor));
            cap.upsert_device(&info, now)?;
        }
    }
    cap.set_topology(&sysfs::topology(&inv))?;
    cap.set_recorder("state", "starting")?;
    cap.set_recorder("phase", "baseline")?;
    cap.set_recorder("phase_elapsed_ms", "0")?;
    Ok(())
}

/// Phase order of a plan.
const ORDER: [&str; 4] = ["baseline", "switch", "warmup", "measure"];

fn planned(p: &Option<PlanMeta>, phase: &str) -> Option<f64> {
    let p = p.as_ref()?;
    match phase {
        "baseline" => Some(p.baseline_s),
        "warmup" => Some(p.warmup_s),
        "measure" => Some(p.measure_s),
        _ => Some(0.0),
    }
}

/// Percent done and seconds left of a plan, from the current phase and its elapsed time.
pub fn progress(
    plan: &Option<PlanMeta>,
    phase: &str,
    elapsed_s: f64,
    done: bool,
) -> (Option<f64>, Option<f64>) {
    let Some(p) = plan else { return (None, None) };
    let total = p.baseline_s + p.warmup_s + p.measure_s;
    if done {
        return (Some(100.0), Some(0.0));
    }
    let mut before = 0.0;
    for ph in ORDER {
        if ph == phase {
            break;
        }
        before += planned(plan, ph).unwrap_or(0.0);
    }
    let cur = elapsed_s.min(planned(plan, phase).unwrap_or(0.0));
    let doneness = before + cur;
    let pct = if total > 0.0 {
        doneness / total * 100.0
    } else {
        100.0
    };
    let eta = if phase == "switch" {
        None
    } else {
        Some((total - doneness).max(0.0))
    };
    (Some(pct), eta)
}

/// Warnings about tracing kept per session, at most.
const MAX_UNPARSED_WARNINGS: u32 = 10;
/// Samples kept to label requests with the wall clock.
const LABEL_SAMPLES: usize = 4;

/// The writer's side of block tracing: the tracer thread, and what turns its batches into
/// `block_requests` rows.
struct TraceSink {
    tracer: trace::Tracer,
    /// Trace batches in the queue (the tracer sends no more than TRACE_QUEUE).
    in_flight: Arc<AtomicUsize>,
    /// (major, minor) → devices.id.
    dev_map: HashMap<(u32, u32), i64>,
    dev_count: usize,
    /// This session's latest samples (mono_ns, utc_ms).
    samples: VecDeque<(u64, i64)>,
    /// The session's first sample: requests issued before it are not kept.
    first_mono: Option<u64>,
    /// Batches that arrived before the first sample.
    waiting: Vec<TraceBatch>,
    requests: i64,
    lost: i64,
    unparsed: i64,
    unparsed_warnings: u32,
    max_issue: u64,
    /// `block_requests` rowid before this session.
    start_rowid: i64,
    /// The tracer's last batch arrived.
    done: bool,
}

impl TraceSink {
    /// Set up the instance (filtered to the capture's devices when `filter`) and start the
    /// tracer thread, which sends through `tx`.
    fn start(cap: &Capture, filter: bool, tx: SyncSender<Msg>) -> Result<TraceSink> {
        let root = trace::tracefs_root();
        trace::ensure_available(&root)?;
        let devs = cap.device_numbers();
        let nums: Vec<(u32, u32)> = devs.iter().map(|d| (d.1, d.2)).collect();
        let instance = trace::Instance::create(&root, filter.then_some(nums.as_slice()))?;
        let in_flight = Arc::new(AtomicUsize::new(0));
        let inf = in_flight.clone();
        let sink: trace::Sink = Box::new(move |b| {
            if inf.load(Ordering::SeqCst) >= TRACE_QUEUE {
                return trace::Sent::Busy(b);
            }
            inf.fetch_add(1, Ordering::SeqCst);
            match tx.try_send(Msg::Trace(b)) {
                Ok(()) => trace::Sent::Yes,
                Err(TrySendError::Full(Msg::Trace(b))) => {
                    inf.fetch_sub(1, Ordering::SeqCst);
                    trace::Sent::Busy(b)
                }
                Err(_) => {
                    inf.fetch_sub(1, Ordering::SeqCst);
                    trace::Sent::Gone
                }
            }
        });
        let tracer = trace::Tracer::start(instance, sink)?;
        let num = |k: &str| -> i64 {
            cap.recorder(k)
                .ok()
                .flatten()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0)
        };
        Ok(TraceSink {
            tracer,
            in_flight,
            dev_map: devs.iter().map(|d| ((d.1, d.2), d.3)).collect(),
            dev_count: devs.len(),
            samples: VecDeque::new(),
            first_mono: None,
            waiting: Vec::new(),
            requests: num("trace_requests"),
            lost: num("trace_lost"),
            unparsed: num("trace_unparsed"),
            unparsed_warnings: 0,
            max_issue: 0,
            start_rowid: cap.last_request_rowid()?,
            done: false,
        })
    }

    /// A sample was written.
    fn on_sample(&mut self, cap: &mut Capture, mono: u64, utc: i64) -> Result<()> {
        self.samples.push_back((mono, utc));
        if self.samples.len() > LABEL_SAMPLES {
            self.samples.pop_front();
        }
        if self.first_mono.is_none() {
            self.first_mono = Some(mono);
            for b in std::mem::take(&mut self.waiting) {
                self.write(cap, b)?;
            }
        }
        Ok(())
    }

    /// A batch arrived from the tracer.
    fn on_batch(&mut self, cap: &mut Capture, b: TraceBatch) -> Result<()> {
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        if b.last {
            self.done = true;
        }
        let failed = b.error.is_some();
        if self.first_mono.is_none() {
            self.waiting.push(b);
        } else {
            self.write(cap, b)?;
        }
        if failed {
            // The tracer ended early: remove its instance now, the counters go on.
            if let Err(e) = self.tracer.close() {
                cap.warn(clock::utc_ms(), "trace-cleanup", None, &e)?;
            }
        }
        Ok(())
    }

    /// The capture's id of a device number (devices added with `--all` are looked up again).
    fn device(&mut self, cap: &Capture, dev: (u32, u32)) -> Option<i64> {
        if let Some(&id) = self.dev_map.get(&dev) {
            return Some(id);
        }
        if cap.device_count() != self.dev_count {
            let devs = cap.device_numbers();
            self.dev_count = devs.len();
            self.dev_map = devs.iter().map(|d| ((d.1, d.2), d.3)).collect();
        }
        self.dev_map.get(&dev).copied()
    }

    /// Wall-clock label of a monotonic time: through the nearest of the latest samples.
    fn label(&self, mono: u64) -> i64 {
        let Some(&(m, u)) = self.samples.iter().min_by_key(|(m, _)| m.abs_diff(mono)) else {
            return clock::utc_ms();
        };
        u + ((mono as f64 - m as f64) / 1e6).round() as i64
    }

    fn write(&mut self, cap: &mut Capture, b: TraceBatch) -> Result<()> {
        let first = self.first_mono.unwrap_or(0);
        let mut rows = Vec::with_capacity(b.requests.len());
        for r in b.requests {
            if r.issue_ns < first {
                continue;
            }
            let Some(id) = self.device(cap, r.dev) else {
                continue;
            };
            self.max_issue = self.max_issue.max(r.issue_ns);
            rows.push(BlockRow {
                device_id: id,
                issue_ns: r.issue_ns as i64,
                complete_ns: r.complete_ns.map(|c| c as i64),
                utc_ms: self.label(r.issue_ns),
                sector: r.sector as i64,
                bytes: r.bytes as i64,
                op: r.op,
                rwbs: r.rwbs,
                error: r.error,
            });
        }
        let now = clock::utc_ms();
        let mut warns: Vec<(i64, &str, Option<&str>, String)> = Vec::new();
        if b.lost > 0 {
            let cpus = b
                .lost_cpus
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            warns.push((
                now,
                "trace-lost",
                None,
                format!(
                    "the kernel's trace buffer overflowed (CPU {cpus}): {} block events were lost; a request whose issue was lost is missing, one whose completion was lost has none",
                    b.lost
                ),
            ));
        }
        if b.unparsed > 0 && self.unparsed_warnings < MAX_UNPARSED_WARNINGS {
            self.unparsed_warnings += 1;
            warns.push((
                now,
                "trace-unparsed",
                None,
                format!(
                    "{} trace line(s) not understood and skipped, e.g. '{}'",
                    b.unparsed,
                    b.unparsed_example.as_deref().unwrap_or("")
                ),
            ));
        }
        if let Some(e) = &b.error {
            warns.push((
                now,
                "trace-error",
                None,
                format!("block tracing stopped: {e}; the counters go on"),
            ));
        }
        if rows.is_empty() && warns.is_empty() && b.unparsed == 0 {
            return Ok(());
        }
        self.requests += rows.len() as i64;
        self.lost += b.lost as i64;
        self.unparsed += b.unparsed as i64;
        let kv = [
            ("trace_requests", self.requests.to_string()),
            ("trace_lost", self.lost.to_string()),
            ("trace_unparsed", self.unparsed.to_string()),
        ];
        cap.write_requests(&rows, &warns, &kv)
    }

    /// After the last sample (at `end_mono`): let the tracer finish, write its last batches,
    /// drop requests issued after the last sample, remove the instance.
    fn finish(&mut self, cap: &mut Capture, rx: &Receiver<Msg>, end_mono: u64) -> Result<()> {
        self.tracer.finish(end_mono);
        let t0 = clock::mono_ns();
        let limit = trace::FINISH_GRACE_NS + 8_000_000_000;
        while !self.done {
            let spent = clock::mono_ns() - t0;
            if spent >= limit {
                cap.warn(
                    clock::utc_ms(),
                    "trace-error",
                    None,
                    "the tracer did not hand over its last requests within 10 s; they are missing",
                )?;
                break;
            }
            match rx.recv_timeout(std::time::Duration::from_nanos(limit - spent)) {
                Ok(Msg::Trace(b)) => self.on_batch(cap, b)?,
                // The sampler runs on after a completed plan until it sees nobody receiving.
                Ok(Msg::Sample(_)) => {}
                Err(_) => break,
            }
        }
        if self.max_issue > end_mono {
            // Issued in the moment between the last sample and the tracer hearing of it.
            let n = cap.trim_requests_after(self.start_rowid, end_mono as i64)?;
            if n > 0 {
                self.requests -= n as i64;
                cap.set_recorder("trace_requests", &self.requests.to_string())?;
            }
        }
        if let Err(e) = self.tracer.close() {
            cap.warn(clock::utc_ms(), "trace-cleanup", None, &e)?;
        }
        Ok(())
    }
}

/// Selected devices whose requests the block events cannot show: a partition's requests are
/// traced on its disk, a bio-based device (device-mapper, md, zram, bcache) has none.
fn untraceable(names: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for n in names {
        let sys = n.replace('/', "!");
        let class = Path::new("/sys/class/block").join(&sys);
        if class.join("partition").exists() {
            let disk = std::fs::canonicalize(&class)
                .ok()
                .and_then(|p| {
                    p.parent()
                        .map(|d| d.file_name().map(|f| f.to_string_lossy().replace('!', "/")))
                })
                .flatten()
                .unwrap_or_else(|| "its disk".into());
            out.push((
                n.clone(),
                format!("{n} is a partition: the kernel traces its requests on {disk}; record {disk} with --trace to see them"),
            ));
        } else if class.exists() && !Path::new("/sys/block").join(&sys).join("mq").exists() {
            out.push((
                n.clone(),
                format!("{n} is not request-based (device-mapper, md, zram or bcache): the kernel issues no block requests for it; trace the devices beneath it, if any"),
            ));
        }
    }
    out
}

/// Run (or resume) the recording of an existing capture until the plan completes or a stop
/// signal arrives. Holds the capture's lock throughout. A new recording that finds the disk
/// full before its first sample is stored removes the capture and its sidecar files (nothing
/// to resume) and says how much space it needs (exit 8); once samples are stored they are
/// kept, and the capture can be resumed.
pub fn run(path: &Path, resume: bool) -> Result<()> {
    let Err(e) = record(path, resume) else {
        return Ok(());
    };
    let e = crate::capture::with_path(path, e);
    if resume || !crate::capture::is_disk_full(&e) {
        return Err(e);
    }
    let stored = Capture::open(path, false).and_then(|c| c.unrecorded_plan());
    match stored {
        Ok(Some((devices, interval_ms, plan))) => {
            crate::capture::remove_unrecorded(path);
            let planned_s = plan.map(|p| p.baseline_s + p.warmup_s + p.measure_s);
            Err(nothing_recorded(path, devices, interval_ms, planned_s))
        }
        _ => Err(e),
    }
}

fn record(path: &Path, resume: bool) -> Result<()> {
    let mut lock = RecorderLock::acquire(path)?;
    lock.write_pid();
    let mut cap = Capture::open(path, true)?;
    let state = cap.recorder("state")?.unwrap_or_default();
    if resume && state == "done" {
        return Err(ProbeError::Usage(format!(
            "the plan of {} is already complete; nothing to resume",
            path.display()
        )));
    }
    let interval_ms: u64 = cap
        .meta("interval_ms")?
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
        .max(10);
    let plan: Option<PlanMeta> = cap
        .meta("plan")?
        .and_then(|s| serde_json::from_str(&s).ok());
    let selected: Option<Vec<String>> = cap
        .meta("devices")?
        .and_then(|s| serde_json::from_str::<Vec<String>>(&s).ok());
    let tracing = cap.meta("trace")?.as_deref() == Some(trace::META_BLOCK);
    install_signal_handlers();
    STOP.store(false, Ordering::SeqCst);

    let mut phase = cap.recorder("phase")?.unwrap_or_else(|| "baseline".into());
    let mut elapsed_ms: f64 = cap
        .recorder("phase_elapsed_ms")?
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    let mut consumed_mark: i64 = cap
        .recorder("switch_mark_id")?
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let start_utc = clock::utc_ms();
    let no_phase_yet: i64 = cap
        .conn()
        .query_row("SELECT count(*) FROM phases", [], |r| r.get(0))?;
    if no_phase_yet == 0 {
        cap.phase_start("baseline", start_utc, planned(&plan, "baseline"))?;
        cap.set_recorder("started_utc_ms", &start_utc.to_string())?;
    }
    if resume {
        cap.warn(
            start_utc,
            "resumed",
            None,
            &format!("recording resumed in phase {phase} (previous state: {state})"),
        )?;
    }
    // Instances left by recorders killed while tracing (kill -9 leaves them behind).
    for name in trace::remove_stale_instances(&trace::tracefs_root()) {
        cap.warn(
            start_utc,
            "trace-cleanup",
            None,
            &format!(
                "removed the tracefs instance {name}, left by a recorder that is no longer running"
            ),
        )?;
    }
    cap.set_recorder("pid", &std::process::id().to_string())?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Msg>(SAMPLE_QUEUE + TRACE_QUEUE);
    let mut tsink = if tracing {
        match TraceSink::start(&cap, selected.is_some(), tx.clone()) {
            Ok(t) => Some(t),
            Err(e) => {
                let _ = cap.set_recorder("state", "failed");
                let _ = cap.set_recorder("error", &e.to_string());
                let _ = cap.warn(clock::utc_ms(), "error", None, &e.to_string());
                return Err(e);
            }
        }
    } else {
        None
    };
    if tracing {
        for (dev, msg) in untraceable(selected.as_deref().unwrap_or(&[])) {
            cap.warn(start_utc, "trace-no-requests", Some(&dev), &msg)?;
        }
    }
    cap.set_recorder("state", "running")?;
    cap.set_recorder("error", "")?;

    // A small reserve beside the capture: on a full disk it is deleted so the recorder can
    // still write `state = failed` and the warning.
    let reserve = sidecar(path, ".reserve");
    let _ = std::fs::write(&reserve, vec![0u8; RESERVE_BYTES]);

    let mut prev: Option<Snapshot> = cap.last_snapshot()?;
    let mut samples = cap.sample_count()?;
    let boot = clock::boot_id();
    let mut inventory: Option<Vec<sysfs::DeviceInfo>> = None;
    let spawned = spawn_sampler(interval_ms * 1_000_000, tx);
    let mut last_mono: u64 = 0;

    let mut result: Result<&'static str> = (|| {
        spawned?;
        loop {
            let Sample {
                lines,
                mono,
                utc,
                last: stopping,
            } = match rx.recv() {
                Ok(Msg::Sample(s)) => s,
                Ok(Msg::Trace(b)) => {
                    if let Some(t) = tsink.as_mut() {
                        t.on_batch(&mut cap, b)?;
                    }
                    continue;
                }
                Err(_) => return Err(sampler_ended()),
            };
            let lines = lines?;
            let keep = |n: &str| match &selected {
                Some(s) => s.iter().any(|x| x == n),
                None => true,
            };
            let snap = Snapshot::from_lines(mono, utc, &boot, lines, keep);
            for (name, d) in &snap.devices {
                if cap.device_id(name).is_none() {
                    let inv =
                        inventory.get_or_insert_with(|| sysfs::list_devices(Path::new("/sys")));
                    let info = inv
                        .iter()
                        .find(|x| &x.name == name)
                        .cloned()
                        .unwrap_or_else(|| sysfs::bare(name, d.major, d.minor));
                    cap.upsert_device(&info, utc)?;
                }
            }
            inventory = None;
            let step = match &prev {
                Some(p) => delta::step(p, &snap, interval_ms as f64),
                None => delta::Step::default(),
            };
            if let Some(p) = &prev {
                let dt = (mono.saturating_sub(p.mono_ns)) as f64 / 1e6;
                if p.boot_id == snap.boot_id && dt <= delta::GAP_FACTOR * interval_ms as f64 {
                    elapsed_ms += dt;
                }
            }
            // Phase transitions happen at sample times.
            let mut transitions: Vec<(String, Option<String>, i64)> = Vec::new();
            let mark = cap.mark_after("switch", consumed_mark)?;
            if let Some((id, mutc, _)) = mark {
                // Without a plan a switch mark is only a mark: there is no warm-up to start.
                if plan.is_some() && (phase == "baseline" || phase == "switch") {
                    consumed_mark = id;
                    transitions.push((phase.clone(), Some("warmup".into()), mutc));
                    if phase == "baseline" {
                        cap.warn(mutc, "early-switch", None, "the switch was marked before the baseline's planned end; the baseline ends at the mark")?;
                    }
                }
            }
            if transitions.is_empty() {
                if let Some(pl) = planned(&plan, &phase) {
                    if plan.is_some() && phase != "switch" && elapsed_ms >= pl * 1000.0 {
                        let next = match phase.as_str() {
                            "baseline"
                                if plan
                                    .as_ref()
                                    .is_some_and(|p| p.warmup_s + p.measure_s > 0.0) =>
                            {
                                Some("switch")
                            }
                            "warmup" => Some("measure"),
                            _ => None,
                        };
                        transitions.push((phase.clone(), next.map(String::from), utc));
                    }
                }
            }
            let mut done = false;
            for (from, to, at) in transitions {
                if from != "switch" {
                    cap.phase_end(&from, at)?;
                }
                match to.as_deref() {
                    Some("warmup") => {
                        cap.conn().execute(
                            "INSERT INTO phases(name,start_utc_ms,end_utc_ms,planned_s) VALUES('switch',?1,?1,0)",
                            [at],
                        )?;
                        cap.phase_start("warmup", at, planned(&plan, "warmup"))?;
                        phase = "warmup".into();
                        if plan.as_ref().is_some_and(|p| p.warmup_s <= 0.0) {
                            cap.phase_end("warmup", at)?;
                            cap.phase_start("measure", at, planned(&plan, "measure"))?;
                            phase = "measure".into();
                        }
                    }
                    Some("switch") => phase = "switch".into(),
                    Some("measure") => {
                        cap.phase_start("measure", at, planned(&plan, "measure"))?;
                        phase = "measure".into();
                    }
                    _ => done = true,
                }
                elapsed_ms = 0.0;
            }
            samples += 1;
            let kv = [
                ("heartbeat_utc_ms", utc.to_string()),
                ("phase", phase.clone()),
                ("phase_elapsed_ms", format!("{elapsed_ms:.3}")),
                ("switch_mark_id", consumed_mark.to_string()),
                ("samples", samples.to_string()),
            ];
            cap.write_sample(&snap, &step, &kv)?;
            last_mono = mono;
            if let Some(t) = tsink.as_mut() {
                t.on_sample(&mut cap, mono, utc)?;
            }
            prev = Some(snap);
            if done {
                return Ok("done");
            }
            if stopping {
                return Ok("stopped");
            }
        }
    })();
    // Block tracing ends with the last sample: its last requests are written (or, after an
    // error, given up), the events disabled and the instance removed.
    if let Some(t) = tsink.as_mut() {
        if result.is_ok() {
            if let Err(e) = t.finish(&mut cap, &rx, last_mono) {
                result = Err(e);
            }
        } else {
            let _ = t.tracer.close();
        }
    }
    drop(tsink);
    // The sampler ends at its next tick, when it finds nobody receiving.
    drop(rx);
    unblock_stop_signals();
    let _ = std::fs::remove_file(&reserve);
    match result {
        Ok(end) => {
            let now = clock::utc_ms();
            if end == "done" {
                cap.set_recorder("phase", "done")?;
            }
            cap.set_recorder("state", end)?;
            cap.set_recorder("heartbeat_utc_ms", &now.to_string())?;
            Ok(())
        }
        Err(e) => {
            let e = cap.classify(e);
            let now = clock::utc_ms();
            // Best effort: on a full disk these writes may fail too; the file stays consistent.
            let _ = cap.set_recorder("state", "failed");
            let _ = cap.set_recorder("error", &e.to_string());
            let code = if crate::capture::is_disk_full(&e) {
                "disk-full"
            } else {
                "error"
            };
            let _ = cap.warn(now, code, None, &e.to_string());
            Err(e)
        }
    }
}

/// Detach: double fork and setsid, so the recorder survives the terminal and the app closing.
/// Returns `Ok(true)` in the background process (which must then record), `Ok(false)` in the
/// original process once the recorder has taken the lock (or failed).
pub fn detach(capture: &Path) -> Result<bool> {
    let log = sidecar(capture, ".log");
    // SAFETY: the process is single-threaded here (no SQLite connection open), so fork is safe.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(ProbeError::io("fork", std::io::Error::last_os_error()));
    }
    if pid > 0 {
        let mut status = 0;
        // SAFETY: reap the intermediate child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        return Ok(false);
    }
    // SAFETY: child: new session, second fork so it can never reacquire a terminal.
    unsafe {
        libc::setsid();
        let p2 = libc::fork();
        if p2 != 0 {
            libc::_exit(0);
        }
        libc::umask(0o022);
    }
    let devnull = std::fs::OpenOptions::new().read(true).open("/dev/null");
    let logf = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log);
    // SAFETY: dup2 onto the standard descriptors.
    unsafe {
        if let Ok(n) = &devnull {
            libc::dup2(n.as_raw_fd(), 0);
        }
        if let Ok(l) = &logf {
            libc::dup2(l.as_raw_fd(), 1);
            libc::dup2(l.as_raw_fd(), 2);
        }
    }
    Ok(true)
}

/// After `detach` returned false: wait until the background recorder runs (or failed).
/// `previous` is the lock file's pid before the fork (`RecorderLock::holder_pid`): after a
/// crash the capture still says `running` (or `failed`) with the old pid, so only a state
/// written by a new lock holder counts.
pub fn wait_started(capture: &Path, timeout_s: f64, previous: Option<&str>) -> Result<String> {
    let t0 = clock::mono_ns();
    loop {
        if !capture.exists() {
            return Err(vanished(capture));
        }
        if let Ok(c) = Capture::open(capture, false) {
            let st = c.recorder("state").ok().flatten().unwrap_or_default();
            let pid = c.recorder("pid").ok().flatten().unwrap_or_default();
            let held = RecorderLock::is_held(capture);
            // Read after is_held: once the new recorder holds the lock, the file has its pid.
            let holder = RecorderLock::holder_pid(capture);
            let fresh = match previous {
                None => true,
                Some(p) => holder.as_deref().is_some_and(|h| h != p && h == pid),
            };
            // Running once its first sample is stored: a recorder that finds the disk full
            // before that removes the capture, and that is what the caller must hear.
            let sampled = c
                .recorder("samples")
                .ok()
                .flatten()
                .and_then(|n| n.parse::<i64>().ok())
                .is_some_and(|n| n > 0);
            if st == "running"
                && sampled
                && held
                && fresh
                && holder.as_ref().is_none_or(|h| *h == pid)
            {
                return Ok(pid);
            }
            if st == "failed" && fresh {
                let e = c.recorder("error").ok().flatten().unwrap_or_default();
                return Err(ProbeError::NotRunning(format!(
                    "the background recorder failed: {e}"
                )));
            }
        }
        if (clock::mono_ns() - t0) as f64 / 1e9 > timeout_s {
            return Err(ProbeError::NotRunning(format!(
                "the background recorder did not start within {timeout_s} s; see {}.log",
                capture.display()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// `stop CAPTURE`: SIGTERM the recorder and wait until it has released the lock.
pub fn stop(capture: &Path) -> Result<()> {
    let c = Capture::open(capture, false)?;
    if !RecorderLock::is_held(capture) {
        let st = c.recorder("state")?.unwrap_or_default();
        return Err(ProbeError::NotRunning(format!(
            "no recorder is running for {} (state: {st})",
            capture.display()
        )));
    }
    let pid: i32 = std::fs::read_to_string(lock_path(capture))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .or_else(|| {
            c.recorder("pid")
                .ok()
                .flatten()
                .and_then(|s| s.parse().ok())
        })
        .unwrap_or(0);
    drop(c);
    if pid <= 0 {
        return Err(ProbeError::NotRunning(
            "the recorder's pid is unknown".into(),
        ));
    }
    // SAFETY: signal a pid we read from the lock file held by that recorder.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    for _ in 0..300 {
        if !RecorderLock::is_held(capture) {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Err(ProbeError::NotRunning(format!(
        "the recorder (pid {pid}) did not stop within 15 s"
    )))
}

/// `mark CAPTURE KIND`: record a moment (a `switch` is picked up by the recorder at its next sample).
pub fn mark(capture: &Path, kind: &str, note: Option<&str>) -> Result<i64> {
    let c = Capture::open(capture, true)?;
    c.add_mark(clock::utc_ms(), clock::mono_ns(), kind, note)
}
