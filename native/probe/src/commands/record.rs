//! `devices`, `record`, `status`, `stop`, `mark` and `index` (docs/probe.md).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{abs, usage, values};
use crate::{capture, plan, recorder, status, sysfs, trace, ProbeError};

#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// The devices as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The new capture file
    #[arg(long, value_name = "CAPTURE", required_unless_present = "resume")]
    pub out: Option<String>,
    /// The devices to record, by name (default: every disk)
    #[arg(long, value_name = "a,b", conflicts_with = "all", value_parser = values::device_list)]
    pub devices: Option<values::DeviceList>,
    /// Every device, partitions and stacked devices included
    #[arg(long)]
    pub all: bool,
    /// A device's role, instead of the guessed one: NAME=ROLE, ROLE one of front, backing, cache, other (repeatable)
    #[arg(long, value_name = "NAME=ROLE", value_parser = role_arg)]
    pub role: Vec<String>,
    /// The sampling interval, 10ms to 1h
    #[arg(long, value_name = "DURATION", default_value = "1s", value_parser = values::interval)]
    pub interval: f64,
    /// The phases, e.g. baseline=24h,warmup=1h,measure=24h
    #[arg(long, value_name = "PHASES", value_parser = values::plan)]
    pub plan: Option<plan::Plan>,
    /// Who switches the cache at the baseline's end: manual, or an adapter (docs/adapters.md)
    #[arg(long, value_name = "manual|ADAPTER[:CONFIG]", value_parser = values::switch())]
    pub switch: Option<values::Switch>,
    /// The device the engine caches (with --switch ADAPTER)
    #[arg(long, value_name = "DEV", requires = "switch")]
    pub engine_device: Option<String>,
    /// Put the engine back in its first mode at the end (with --switch ADAPTER)
    #[arg(long, requires = "switch")]
    pub restore: bool,
    /// Record the block requests too (tracefs; root)
    #[arg(long)]
    pub trace: bool,
    /// The share of block addresses to keep, 0 < R ≤ 1 (with --trace)
    #[arg(long, value_name = "R", requires = "trace", value_parser = values::share)]
    pub trace_sample: Option<f64>,
    /// The trace's size per 24 h of recording, e.g. 300MB (with --trace)
    #[arg(long, value_name = "SIZE", requires = "trace", value_parser = values::trace_budget)]
    pub trace_budget: Option<u64>,
    /// Continue a stopped capture with its own settings
    #[arg(
        long,
        value_name = "CAPTURE",
        conflicts_with_all = ["out", "devices", "role", "interval", "plan", "switch", "restore", "engine_device", "trace"]
    )]
    pub resume: Option<String>,
    /// Record in the background and return once recording
    #[arg(long)]
    pub detach: bool,
}

#[derive(Debug, Args)]
pub struct CaptureArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    /// The state as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StopArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
}

#[derive(Debug, Args)]
pub struct MarkArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    /// The switch, or a note
    #[arg(value_name = "KIND", value_parser = values::mark_kind())]
    pub kind: String,
    /// The mark's text
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub note: Option<String>,
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    /// The blocks written, as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn devices(a: &DevicesArgs) -> anyhow::Result<()> {
    let devs = sysfs::list_devices(Path::new("/sys"));
    if a.json {
        println!("{}", serde_json::to_string_pretty(&devs)?);
        return Ok(());
    }
    println!(
        "{:<14} {:>8} {:>10} {:>4} {:>5}/{:<5} {:<8} {:<10} {:<24} STACK",
        "NAME", "MAJ:MIN", "SIZE", "ROT", "LBS", "PBS", "ROLE", "PARENT", "MODEL"
    );
    for d in &devs {
        let mut stack = Vec::new();
        if !d.slaves.is_empty() {
            stack.push(format!("on {}", d.slaves.join(",")));
        }
        if !d.holders.is_empty() {
            stack.push(format!("under {}", d.holders.join(",")));
        }
        if let Some(f) = &d.backing_file {
            stack.push(format!(
                "file {} on {}",
                f,
                d.backing_file_device.as_deref().unwrap_or("?")
            ));
        }
        let size = d
            .size_bytes
            .map(|s| format!("{:.1}G", s as f64 / 1073741824.0))
            .unwrap_or_else(|| "-".into());
        let opt = |x: Option<i64>| x.map(|x| x.to_string()).unwrap_or_else(|| "-".into());
        println!(
            "{:<14} {:>8} {:>10} {:>4} {:>5}/{:<5} {:<8} {:<10} {:<24} {}",
            d.name,
            format!("{}:{}", d.major, d.minor),
            size,
            d.rotational
                .map(|r| if r { "1" } else { "0" })
                .unwrap_or("-"),
            opt(d.logical_block_size),
            opt(d.physical_block_size),
            d.role,
            d.parent
                .as_deref()
                .unwrap_or(if d.is_partition { "?" } else { "-" }),
            [d.vendor.as_deref(), d.model.as_deref()]
                .iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
            stack.join("; ")
        );
    }
    Ok(())
}

/// `record --resume CAPTURE`: the capture's own settings (clap refuses the others with it).
fn resume(r: &str, detach: bool) -> anyhow::Result<()> {
    let path = abs(r)?;
    // Fail fast (not a capture, damaged, newer schema, locked) before detaching.
    capture::check_intact(&path)?;
    let traced = capture::Capture::open(&path, false)?
        .meta("trace")
        .map_err(|e| capture::with_path(&path, e))?;
    if recorder::RecorderLock::is_held(&path) {
        drop(recorder::RecorderLock::acquire(&path)?);
    }
    if traced.as_deref() == Some(trace::META_BLOCK) {
        match trace::ensure_available(&trace::tracefs_root()) {
            // What is recorded is not lost for want of tracefs: the counters go on, the
            // recorder writes a trace-error warning (docs/probe.md § record --resume).
            Err(ProbeError::TraceUnavailable(why)) => eprintln!(
                "note: {why}; the recording of {} continues without the block trace",
                path.display()
            ),
            r => r?,
        }
    }
    start(&path, true, detach)
}

pub fn record(a: &RecordArgs, raw: &[String]) -> anyhow::Result<()> {
    if let Some(r) = &a.resume {
        return resume(r, a.detach);
    }
    let out = a
        .out
        .as_deref()
        .ok_or_else(|| usage("record needs --out CAPTURE (or --resume CAPTURE)"))?;
    let devices = a.devices.as_ref().map(|d| d.0.clone());
    let roles = recorder::parse_roles(&a.role)?;
    let interval_s = a.interval;
    let pl = a.plan;
    let engine = match &a.switch {
        Some(s) => {
            let e = recorder::engine::EngineMeta::prepare(
                &s.adapter,
                s.config.as_deref(),
                a.engine_device.as_deref(),
                devices.as_deref(),
                a.restore,
            )?;
            if e.is_some() && pl.as_ref().is_none_or(|p| p.warmup_s + p.measure_s <= 0.0) {
                return Err(usage(
                    "--switch with an adapter needs a --plan with a warm-up or measure phase (the switch comes at the baseline's end)",
                ));
            }
            e
        }
        None => None,
    };
    let switch = a.switch.as_ref().map(|s| s.adapter.clone());
    let (trace_sample, trace_budget) = trace_sampling(a);
    let path = abs(out)?;
    let opts = recorder::RecordOptions {
        out: path.clone(),
        devices,
        roles,
        interval_ms: (interval_s * 1000.0).round() as u64,
        plan: pl,
        switch,
        engine,
        command: std::iter::once("cacheproof-probe".to_string())
            .chain(raw.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        trace: a.trace,
        trace_sample,
        trace_budget,
    };
    recorder::prepare(&opts)?;
    start(&path, false, a.detach)
}

/// `--trace-sample R` and `--trace-budget SIZE` (docs/probe.md): the starting rate and the
/// budget per 24 h. `--trace` alone has the default budget from rate 1; `--trace-sample R`
/// alone keeps R (1: every request) with no budget; both start at R under the budget.
/// (That both go with `--trace` is clap's rule.)
fn trace_sampling(a: &RecordArgs) -> (Option<f64>, Option<u64>) {
    let budget = match a.trace_budget {
        None if a.trace && a.trace_sample.is_none() => Some(trace::sampling::DEFAULT_BUDGET_BYTES),
        b => b,
    };
    (a.trace_sample, budget)
}

fn start(path: &Path, resume: bool, detach: bool) -> anyhow::Result<()> {
    if detach {
        let previous = recorder::RecorderLock::holder_pid(path);
        if recorder::detach(path)? {
            // Background process: record, then exit without returning to the caller's flow.
            let code = match recorder::handoff::record(path, resume, true) {
                Ok(()) => 0,
                Err(e) => {
                    // (the sentence of a capture removed on a full disk is already in the log)
                    // (not eprintln!, which panics when the log cannot be written: a full disk)
                    if !matches!(e, ProbeError::NothingRecorded(_)) {
                        use std::io::Write;
                        let _ = writeln!(std::io::stderr(), "cacheproof-probe: {e}");
                    }
                    i32::from(e.exit_code())
                }
            };
            std::process::exit(code);
        }
        let pid = recorder::wait_started(path, 10.0, previous.as_deref())?;
        println!(
            "recording into {} in the background (pid {pid}); see 'cacheproof-probe status {}'",
            path.display(),
            path.display()
        );
        return Ok(());
    }
    // Not eprintln!, which panics when stderr cannot be written (a log on a full disk): the
    // recording matters more than this line.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "recording into {} (Ctrl-C or 'cacheproof-probe stop {}' to end)",
        path.display(),
        path.display()
    );
    recorder::handoff::record(path, resume, false)?;
    Ok(())
}

pub fn status(a: &CaptureArgs) -> anyhow::Result<()> {
    let p = abs(&a.capture)?;
    let s = status::read(&p)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        print!("{}", status::render(&s));
    }
    Ok(())
}

pub fn stop(a: &StopArgs) -> anyhow::Result<()> {
    let p = abs(&a.capture)?;
    recorder::stop(&p)?;
    println!("stopped the recorder of {}", p.display());
    Ok(())
}

pub fn mark(a: &MarkArgs) -> anyhow::Result<()> {
    let p = abs(&a.capture)?;
    let kind = a.kind.as_str();
    let id = recorder::mark(&p, kind, a.note.as_deref())?;
    if !recorder::RecorderLock::is_held(&p) {
        eprintln!(
            "note: no recorder is running for {}; the mark is stored and a resumed recorder will use it",
            p.display()
        );
    }
    println!("marked {kind} (mark {id}) in {}", p.display());
    Ok(())
}

/// `index CAPTURE [--json]`: (re)writes the interval table's columnar blocks of a closed capture
/// (docs/capture-schema.md, `interval_blocks`; a recording and an import write them as they end).
pub fn index(a: &IndexArgs) -> anyhow::Result<()> {
    let p = abs(&a.capture)?;
    // The recorder's lock: no recording can start (or be running) while the blocks are written.
    // Its sidecar file is removed after when this command created it.
    let lock_file = recorder::lock_path(&p);
    let had_lock_file = lock_file.exists();
    let lock = recorder::RecorderLock::acquire(&p)?;
    let written = capture::Capture::open(&p, true).and_then(|mut cap| cap.write_interval_blocks());
    drop(lock);
    if !had_lock_file {
        let _ = std::fs::remove_file(&lock_file);
    }
    let s = written?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        println!(
            "{}: {} interval rows in {} columnar blocks ({:.1} MB)",
            p.display(),
            s.rows,
            s.blocks,
            s.bytes as f64 / 1e6
        );
    }
    Ok(())
}

/// `--role NAME=ROLE` as clap parses it: a name and one of the roles (recorder::create::parse_roles
/// then refuses a device given two roles).
fn role_arg(v: &str) -> Result<String, String> {
    match v.split_once('=') {
        Some((n, r)) if !n.trim().trim_start_matches("/dev/").is_empty() => {
            if crate::recorder::ROLES.contains(&r.trim()) {
                Ok(v.to_string())
            } else {
                Err(format!(
                    "the role must be front, backing, cache or other, not '{}'",
                    r.trim()
                ))
            }
        }
        _ => Err("give NAME=ROLE, e.g. sda=backing".into()),
    }
}
