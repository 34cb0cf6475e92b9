//! A new recording's capture: checked devices, meta, host facts, inventory, topology, plan;
//! nothing left behind when that fails.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::capture::Capture;
use crate::clock;
use crate::diskstats;
use crate::error::{ProbeError, Result};
use crate::plan::{Plan, PlanMeta};
use crate::sysfs;
use crate::trace;

use super::lock::{lock_path, RecorderLock};

/// Options of a new recording.
#[derive(Debug, Clone)]
pub struct RecordOptions {
    pub out: PathBuf,
    /// `None` = every device in /proc/diskstats (`--all`).
    pub devices: Option<Vec<String>>,
    /// `--role NAME=ROLE`: the roles the person chose, over the guessed ones (`parse_roles`).
    pub roles: Vec<(String, String)>,
    pub interval_ms: u64,
    pub plan: Option<Plan>,
    /// The switch's adapter name (`manual` by default).
    pub switch: Option<String>,
    /// The adapter of a scheduled switch (`record --switch ADAPTER[:CONFIG]`).
    pub engine: Option<super::engine::EngineMeta>,
    /// The command line, stored in `meta.command`.
    pub command: String,
    /// `--trace`: record every block request of the devices (`meta.trace` = `block`).
    pub trace: bool,
    /// `--trace-sample R`: keep the requests whose 4 KiB block address hashes below R
    /// (`meta.trace_sample_rate`, `trace_sample_threshold`); None = every request.
    pub trace_sample: Option<f64>,
    /// `--trace-budget SIZE` (or the default budget of `--trace` alone): bytes of stored trace
    /// per 24 h; the recorder lowers the rate to fit (`meta.trace_budget_bytes`).
    pub trace_budget: Option<u64>,
}

/// The roles a device may be given with `--role` (the same as `import --role`).
pub const ROLES: [&str; 4] = ["front", "backing", "cache", "other"];

/// Why a device has a role given with `--role` (the same words as `import --role`).
pub const ROLE_GIVEN: &str = "given with --role";

/// `--role NAME=ROLE` values as (kernel name, role); a value that is not NAME=ROLE, a role
/// that is not front, backing, cache or other, or a device named twice is a usage error.
pub fn parse_roles(values: &[String]) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for v in values {
        let Some((n, r)) = v.split_once('=') else {
            return Err(ProbeError::Usage(format!("--role '{v}' must be NAME=ROLE")));
        };
        let name = n.trim().trim_start_matches("/dev/").to_string();
        let role = r.trim().to_string();
        if name.is_empty() {
            return Err(ProbeError::Usage(format!("--role '{v}' must be NAME=ROLE")));
        }
        if !ROLES.contains(&role.as_str()) {
            return Err(ProbeError::Usage(format!(
                "--role {name}={role}: the role must be front, backing, cache or other"
            )));
        }
        if out.iter().any(|(n, _)| *n == name) {
            return Err(ProbeError::Usage(format!(
                "--role {name}: the device is given a role twice"
            )));
        }
        out.push((name, role));
    }
    Ok(out)
}

/// Every device given a role is one the recording records (exit 2 otherwise).
fn check_roles(roles: &[(String, String)], recorded: &[&str]) -> Result<()> {
    for (name, _) in roles {
        if !recorded.contains(&name.as_str()) {
            return Err(ProbeError::Usage(format!(
                "--role {name}=…: {name} is not one of the devices recorded; they are: {}",
                recorded.join(", ")
            )));
        }
    }
    Ok(())
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
        return Err(if crate::capture::is_write_fault(&e) {
            nothing_recorded_io(&opts.out)
        } else {
            e
        });
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

/// A new recording whose disk reported an I/O error (EIO) before a first sample was stored:
/// the capture is removed (exit 4).
pub(super) fn nothing_recorded_io(path: &Path) -> ProbeError {
    ProbeError::DiskIo(format!(
        "the disk holding {} reported an I/O error: nothing was recorded, and the capture was removed; check the disk (dmesg, smartctl -a) or choose another --out",
        path.display()
    ))
}

pub(super) fn nothing_recorded(
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

fn prepare_capture(opts: &RecordOptions) -> Result<()> {
    if let Some(d) = &opts.devices {
        check_devices(d)?;
    }
    let lines = diskstats::read_root(Path::new("/"))?;
    let recorded: Vec<&str> = match &opts.devices {
        Some(d) => d.iter().map(String::as_str).collect(),
        None => lines.iter().map(|l| l.name.as_str()).collect(),
    };
    check_roles(&opts.roles, &recorded)?;
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
    write_meta(&cap, opts, now)?;
    write_devices(&mut cap, opts, &lines, now)?;
    cap.set_recorder("state", "starting")?;
    cap.set_recorder("phase", "baseline")?;
    cap.set_recorder("phase_elapsed_ms", "0")?;
    Ok(())
}

/// The new capture's meta: where and how it is recorded, its trace's settings, its engine
/// and its plan.
fn write_meta(cap: &Capture, opts: &RecordOptions, now: i64) -> Result<()> {
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
        // the tracer counts every request's latency from the start (latency::METHOD_HISTOGRAMS)
        cap.set_meta("latency_histograms", trace::latency::HISTOGRAMS_FROM_START)?;
        let t = trace::sampling::threshold_of(opts.trace_sample.unwrap_or(1.0));
        cap.set_meta("trace_sample_threshold", &t.to_string())?;
        cap.set_meta(
            "trace_sample_rate",
            &trace::sampling::rate_of(t).to_string(),
        )?;
        if let Some(b) = opts.trace_budget {
            cap.set_meta("trace_budget_bytes", &b.to_string())?;
        }
    }
    if let Some(e) = &opts.engine {
        cap.set_meta("engine", &serde_json::to_string(e).unwrap_or_default())?;
        cap.set_recorder("engine_original", &e.original_mode)?;
        cap.set_recorder("engine_mode", &e.original_mode)?;
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
    Ok(())
}

/// The recorded devices as sysfs describes them (with the roles given), and the stacking.
fn write_devices(
    cap: &mut Capture,
    opts: &RecordOptions,
    lines: &[diskstats::DiskLine],
    now: i64,
) -> Result<()> {
    let inv = sysfs::list_devices(Path::new("/sys"));
    for l in lines {
        let keep = match &opts.devices {
            Some(d) => d.contains(&l.name),
            None => true,
        };
        if keep {
            let mut info = inv
                .iter()
                .find(|d| d.name == l.name)
                .cloned()
                .unwrap_or_else(|| sysfs::bare(&l.name, l.major, l.minor));
            if let Some((_, role)) = opts.roles.iter().find(|(n, _)| *n == l.name) {
                info.role = role.clone();
                info.role_reason = Some(ROLE_GIVEN.into());
            }
            cap.upsert_device(&info, now)?;
        }
    }
    cap.set_topology(&sysfs::topology(&inv))
}
