//! The recorder: samples /proc/diskstats on a monotonic schedule into a capture, walks the
//! plan's phases, and can be stopped, resumed, locked and detached.
//!
//! The parts: [`phase`] (the plan's phases, a pure transition function), [`sampler`] (the
//! sampling thread and the stop signals), [`lock`] (sidecar files, the recorder's lock),
//! [`tracesink`] (block requests into the capture), [`control`] (detach, wait, stop, mark).
//! Every SQL statement is in `capture/`.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_adapters as adapters;
use cacheproof_capture as capture;
use cacheproof_core::{clock, delta, diskstats, error, fstypes, plan, signals, sysfs};
use cacheproof_sim as sim;
use cacheproof_trace as trace;

use std::path::Path;

use crate::capture::Capture;
use crate::delta::Snapshot;
use crate::error::{ProbeError, Result};
use crate::plan::PlanMeta;

pub mod control;
mod create;
pub mod engine;
pub mod handoff;
mod intervalhist;
pub mod lock;
pub mod phase;
mod recording;
mod sampler;
mod tracesink;
pub mod volumes;

pub use control::{detach, mark, stop, wait_started};
use create::nothing_recorded;
pub use create::{check_devices, parse_roles, prepare, RecordOptions, ROLES};
pub use lock::{lock_path, sidecar, RecorderLock};
pub use phase::{progress, Phase, PhaseRow, Transition};

use recording::{start_trace, Recording};
use sampler::{Msg, SAMPLE_QUEUE, TRACE_QUEUE};

/// Bytes kept free beside the capture for the last words on a full disk.
const RESERVE_BYTES: usize = 512 * 1024;

/// Run (or resume) the recording of an existing capture until the plan completes or a stop
/// signal arrives. Holds the capture's lock throughout. A new recording that finds the disk
/// full before its first sample is stored removes the capture and its sidecar files (nothing
/// to resume) and says how much space it needs (exit 8); once samples are stored they are
/// kept, and the capture can be resumed.
///
/// `detached` (the background recorder of `record --detach`): that sentence is written to
/// stderr (the capture's log) before the capture is removed, since its caller reads the log as
/// soon as the capture is gone; the error returned is then not to be printed again.
pub fn run(path: &Path, resume: bool, detached: bool) -> Result<()> {
    // What the sentence needs, read as the recording starts (while the file is sound): on a
    // full disk the capture is removed without being opened again.
    let mut unrecorded = Start::Opening;
    let Err(e) = record(path, resume, &mut unrecorded) else {
        return Ok(());
    };
    let e = crate::capture::with_path(path, e);
    if resume || !crate::capture::is_write_fault(&e) {
        return Err(e);
    }
    let e = match unrecorded {
        Start::Stored => return Err(e),
        _ if !crate::capture::is_disk_full(&e) => create::nothing_recorded_io(path),
        Start::Unrecorded((devices, interval_ms, plan)) => {
            let planned_s = plan.map(|p| p.baseline_s + p.warmup_s + p.measure_s);
            nothing_recorded(path, devices, interval_ms, planned_s)
        }
        // full before its settings could be read (opening it for the recording): the sentence
        // without the space it needs
        Start::Opening => ProbeError::NothingRecorded(format!(
            "the file system holding {} is full: nothing was recorded, and the capture was removed; {} is free there: free some space or choose another --out",
            path.display(),
            crate::capture::space::free_text(path)
        )),
    };
    // Its log, and the data nobody will read, go first: that frees the space its last line needs.
    for suffix in ["-wal", "-shm", "-journal", ".reserve"] {
        let _ = std::fs::remove_file(sidecar(path, suffix));
    }
    if detached {
        // Written before the capture goes: once it is gone its caller reads this line. Not
        // eprintln!, which panics when the write fails (a full disk), leaving the capture there.
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "cacheproof-probe: {e}");
    }
    crate::capture::remove_unrecorded(path);
    Err(e)
}

/// A new capture's devices, interval and plan while no sample is stored in it (the sentence of
/// a recording that found the disk full before its first sample).
type Unrecorded = (u64, u64, Option<PlanMeta>);

/// Where a new recording is when it fails: still opening its capture, started with nothing
/// stored (what the full-disk sentence needs), or with a sample stored (the capture stays).
enum Start {
    Opening,
    Unrecorded(Unrecorded),
    Stored,
}

/// A capture's own settings, read when its recording starts or resumes.
struct Settings {
    interval_ms: u64,
    plan: Option<PlanMeta>,
    /// `None`: every device (`--all`).
    selected: Option<Vec<String>>,
    tracing: bool,
    /// The adapter of a scheduled switch (`None`: manual).
    engine: Option<engine::EngineMeta>,
}

impl Settings {
    fn read(cap: &Capture) -> Result<Settings> {
        Ok(Settings {
            interval_ms: cap
                .meta("interval_ms")?
                .and_then(|s| s.parse().ok())
                .unwrap_or(1000)
                .max(10),
            plan: cap
                .meta("plan")?
                .and_then(|s| serde_json::from_str(&s).ok()),
            selected: cap
                .meta("devices")?
                .and_then(|s| serde_json::from_str::<Vec<String>>(&s).ok()),
            tracing: cap.meta("trace")?.as_deref() == Some(trace::META_BLOCK),
            engine: engine::EngineMeta::read(cap)?,
        })
    }
}

/// Where the recording stands: its phase, the time recorded in it, the last switch mark used,
/// the previous sample and the samples written.
struct Position {
    phase: Phase,
    elapsed_ms: f64,
    consumed_mark: i64,
    prev: Option<Snapshot>,
    samples: i64,
    /// When the engine's counters were last read.
    last_stats_utc: i64,
    /// When the volumes' capacity was last read (`volumes`).
    last_capacity_utc: i64,
    /// The recorder keys as the last stored sample wrote them: a key whose value has not
    /// changed since (the phase, the switch mark used) is not written again.
    written: Vec<(&'static str, String)>,
}

impl Position {
    fn read(cap: &Capture) -> Result<Position> {
        Ok(Position {
            // A name this probe does not know ends the recording at its first sample.
            phase: cap
                .recorder("phase")?
                .map_or(Phase::Baseline, |s| Phase::parse(&s).unwrap_or(Phase::Done)),
            elapsed_ms: cap
                .recorder("phase_elapsed_ms")?
                .and_then(|s| s.parse().ok())
                .unwrap_or(0.0),
            consumed_mark: cap
                .recorder("switch_mark_id")?
                .and_then(|s| s.parse().ok())
                .unwrap_or(0),
            prev: cap.last_snapshot()?,
            samples: cap.sample_count()?,
            last_stats_utc: i64::MIN,
            last_capacity_utc: i64::MIN,
            written: Vec::new(),
        })
    }

    /// Write one read of /proc/diskstats: new devices, the sample and its intervals, and the
    /// phase it moves the plan to. Returns that phase (`Done`: the recording ends).
    fn write(
        &mut self,
        cap: &mut Capture,
        set: &Settings,
        lines: Vec<diskstats::DiskLine>,
        mono: u64,
        utc: i64,
        boot: &str,
    ) -> Result<Phase> {
        let keep = |n: &str| match &set.selected {
            Some(s) => s.iter().any(|x| x == n),
            None => true,
        };
        let snap = Snapshot::from_lines(mono, utc, boot, lines, keep);
        add_new_devices(cap, &snap, utc)?;
        let step = match &self.prev {
            Some(p) => delta::step(p, &snap, set.interval_ms as f64),
            None => delta::Step::default(),
        };
        if let Some(p) = &self.prev {
            self.elapsed_ms += phase::counted_ms(
                (p.mono_ns, &p.boot_id),
                (mono, &snap.boot_id),
                set.interval_ms,
            );
        }
        // Phase transitions happen at sample times.
        let mark = match phase::uses_mark(self.phase, set.plan.as_ref()) {
            true => cap.mark_after("switch", self.consumed_mark)?,
            false => None,
        }
        .map(|(id, at, _)| (id, at));
        let mut t = phase::transition(self.phase, self.elapsed_ms, set.plan.as_ref(), mark, utc);
        apply_rows(cap, &t)?;
        if let Some(id) = t.consumed_mark {
            self.consumed_mark = id;
        }
        if t.restart {
            self.elapsed_ms = 0.0;
        }
        // With an adapter the recorder switches the engine itself as the baseline ends (or, after
        // a resume, finds the switch already attempted) and the plan moves on at once.
        if let (Phase::Switch, Some(e)) = (t.phase, &set.engine) {
            let (id, at) = engine::switch(cap, e)?;
            t = phase::transition(Phase::Switch, 0.0, set.plan.as_ref(), Some((id, at)), utc);
            apply_rows(cap, &t)?;
            self.consumed_mark = id;
            self.elapsed_ms = 0.0;
        }
        if let Some(e) = &set.engine {
            if utc.saturating_sub(self.last_stats_utc) >= set.interval_ms.max(1000) as i64 {
                engine::sample_stats(cap, e, utc)?;
                self.last_stats_utc = utc;
            }
        }
        if utc.saturating_sub(self.last_capacity_utc) >= volumes::EVERY_MS {
            volumes::sample(cap, utc)?;
            self.last_capacity_utc = utc;
        }
        // The last sample of a plan still shows its last phase; `done` is written at the end.
        if t.phase != Phase::Done {
            self.phase = t.phase;
        }
        self.samples += 1;
        let kv = self.recorder_kv(utc);
        cap.write_sample(&snap, &step, &self.changed(&kv))?;
        self.written = kv.to_vec();
        self.prev = Some(snap);
        Ok(t.phase)
    }

    /// The recorder keys a sample stores with it.
    fn recorder_kv(&self, utc: i64) -> [(&'static str, String); 5] {
        [
            ("heartbeat_utc_ms", utc.to_string()),
            ("phase", self.phase.as_str().to_string()),
            ("phase_elapsed_ms", format!("{:.3}", self.elapsed_ms)),
            ("switch_mark_id", self.consumed_mark.to_string()),
            ("samples", self.samples.to_string()),
        ]
    }

    /// Those of `kv` whose value differs from what the last stored sample wrote.
    fn changed(&self, kv: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
        kv.iter()
            .filter(|kv| !self.written.contains(kv))
            .cloned()
            .collect()
    }
}

/// Write a transition's changes to the `phases` table (and its `early-switch` warning).
fn apply_rows(cap: &Capture, t: &Transition) -> Result<()> {
    if let Some(at) = t.early_switch_at {
        cap.warn(at, "early-switch", None, "the switch was marked before the baseline's planned end; the baseline ends at the mark")?;
    }
    for row in &t.rows {
        match *row {
            PhaseRow::End(p, at) => cap.phase_end(p.as_str(), at)?,
            PhaseRow::Start(p, at, planned_s) => {
                cap.phase_start(p.as_str(), at, Some(planned_s))?
            }
            PhaseRow::Switch(at) => cap.phase_instant(Phase::Switch.as_str(), at)?,
        }
    }
    Ok(())
}

/// Devices of `--all` that appeared since the last sample join the inventory.
fn add_new_devices(cap: &mut Capture, snap: &Snapshot, utc: i64) -> Result<()> {
    let mut inventory: Option<Vec<sysfs::DeviceInfo>> = None;
    for (name, d) in &snap.devices {
        if cap.device_id(name).is_none() {
            let inv = inventory.get_or_insert_with(|| sysfs::list_devices(Path::new("/sys")));
            let info = inv
                .iter()
                .find(|x| &x.name == name)
                .cloned()
                .unwrap_or_else(|| sysfs::bare(name, d.major, d.minor));
            cap.upsert_device(&info, utc)?;
        }
    }
    Ok(())
}

/// The rows a recording writes as it starts: the first phase, `resumed`, instances of killed
/// recorders removed, its pid.
fn begin(
    cap: &Capture,
    set: &Settings,
    resume: bool,
    phase: Phase,
    state: &str,
    start_utc: i64,
) -> Result<()> {
    // The columnar blocks hold the rows written so far only: a reader must not take them for the
    // whole table while this recording adds rows (they are written again when it ends).
    cap.drop_interval_blocks()?;
    if cap.phase_count()? == 0 {
        let planned = set.plan.as_ref().map(|p| Phase::Baseline.planned_s(p));
        cap.phase_start(Phase::Baseline.as_str(), start_utc, planned)?;
        cap.set_recorder("started_utc_ms", &start_utc.to_string())?;
    }
    if resume {
        cap.warn(
            start_utc,
            "resumed",
            None,
            &format!(
                "recording resumed in phase {} (previous state: {state})",
                phase.as_str()
            ),
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
    // `starting` before the new pid: a caller waiting for this recorder (`wait_started`) must
    // not read the `failed` of the run it resumes as this one's.
    cap.set_recorder("state", "starting")?;
    cap.set_recorder("error", "")?;
    cap.set_recorder("pid", &std::process::id().to_string())?;
    Ok(())
}

/// Best effort (on a full disk these writes may fail too; the file stays consistent):
/// `state = failed`, the error, and its warning.
fn record_failure(cap: &Capture, e: &ProbeError) {
    let _ = cap.set_recorder("state", "failed");
    let _ = cap.set_recorder("error", &e.to_string());
    let code = if crate::capture::is_disk_full(e) {
        "disk-full"
    } else {
        "error"
    };
    let _ = cap.warn(clock::utc_ms(), code, None, &e.to_string());
}

fn record(path: &Path, resume: bool, unrecorded: &mut Start) -> Result<()> {
    let mut lock = RecorderLock::acquire(path)?;
    lock.write_pid();
    let cap = Capture::open(path, true)?;
    cap.set_cache_kib(handoff::RECORDER_CACHE_KIB)?;
    if !resume {
        *unrecorded = match cap.unrecorded_plan()? {
            Some(u) => Start::Unrecorded(u),
            None => Start::Stored,
        };
    }
    let state = cap.recorder("state")?.unwrap_or_default();
    if resume && state == "done" {
        return Err(ProbeError::Usage(format!(
            "the plan of {} is already complete; nothing to resume",
            path.display()
        )));
    }
    let set = Settings::read(&cap)?;
    sampler::install_signal_handlers();
    sampler::reset_stop();
    let pos = Position::read(&cap)?;
    let start_utc = clock::utc_ms();
    begin(&cap, &set, resume, pos.phase, &state, start_utc)?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Msg>(SAMPLE_QUEUE + TRACE_QUEUE);
    let tsink = start_trace(&cap, &set, &tx, start_utc)?;
    cap.set_recorder("state", "running")?;
    cap.set_recorder("error", "")?;

    // A small reserve beside the capture: on a full disk it is deleted so the recorder can
    // still write `state = failed` and the warning.
    let reserve = sidecar(path, ".reserve");
    let _ = std::fs::write(&reserve, vec![0u8; RESERVE_BYTES]);

    let boot = clock::boot_id();
    let spawned = sampler::spawn_sampler(set.interval_ms * 1_000_000, tx);
    let mut rec = Recording {
        cap,
        set,
        pos,
        tsink,
        last_mono: 0,
    };
    let mut result = spawned.and_then(|()| rec.store_samples(&rx, &boot));
    rec.end_trace(&mut result, &rx);
    // The sampler ends at its next tick, when it finds nobody receiving.
    drop(rx);
    sampler::unblock_stop_signals();
    let _ = std::fs::remove_file(&reserve);
    rec.conclude(result, unrecorded)
}

/// Writes the interval table's columnar blocks as a recording ends (docs/capture-schema.md,
/// `interval_blocks`), so that the app opens the finished capture without reading every row.
/// They are an index: when they cannot be written (a full disk), the recording still ends as it
/// would have, with a warning, and readers read the rows.
fn index_intervals(cap: &mut Capture) {
    if let Err(e) = cap.write_interval_blocks() {
        let _ = cap.warn(
            clock::utc_ms(),
            "index-failed",
            None,
            &format!("the columnar blocks of the interval table were not written ({e}); the capture is complete and opens more slowly: run 'cacheproof-probe index CAPTURE' to write them"),
        );
    }
}
