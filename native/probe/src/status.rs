//! `status CAPTURE`: what a recording is doing, readable while it records.

use std::path::Path;

use serde::Serialize;

use crate::capture::Capture;
use crate::clock;
use crate::error::Result;
use crate::plan::PlanMeta;
use crate::recorder::{progress, RecorderLock};

/// One warning row.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WarningRow {
    pub utc_ms: i64,
    pub code: String,
    pub device: Option<String>,
    pub message: String,
}

/// Block tracing figures of a capture recorded with `--trace`.
#[derive(Debug, Serialize)]
pub struct TraceStatus {
    /// Rows in `block_requests`.
    pub requests: i64,
    /// Events the kernel reported lost.
    pub lost: i64,
    /// Requests the tracer handed over before `--trace-sample` kept a share of them.
    pub seen: i64,
    /// The share of block addresses kept now: `--trace-sample R`, lowered under a budget
    /// (1 = every request).
    #[serde(rename = "sampleRate")]
    pub sample_rate: f64,
    /// `--trace-budget` (or the default budget) in bytes of stored trace per 24 h; null without.
    #[serde(rename = "budgetBytes")]
    pub budget_bytes: Option<u64>,
    /// The stored trace's size by the probe's model (requests × 64 B).
    #[serde(rename = "storedBytes")]
    pub stored_bytes: u64,
    /// Seconds of tracing so far (every session).
    #[serde(rename = "tracedS")]
    pub traced_s: f64,
    /// Every change of the rate: when, from what to what, and why.
    #[serde(rename = "rateChanges")]
    pub rate_changes: Vec<crate::trace::sampling::RateChange>,
}

/// The engine of a scheduled switch (`record --switch ADAPTER`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineStatus {
    pub adapter: String,
    pub device: String,
    /// Its mode when the recording was created.
    pub original_mode: String,
    /// Its mode as last read back by the recorder.
    pub mode: Option<String>,
    /// `planned` (not yet), `pending` (under way, or interrupted), `done` or `failed`.
    pub switch: String,
    /// `--restore`: `planned`, `pending`, `done` or `failed`; `null` without `--restore`.
    pub restore: Option<String>,
    /// The last failure of a switch or a restore, in one sentence.
    pub error: Option<String>,
}

/// The status report (`status --json` prints it as is).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub capture: String,
    pub schema_version: i64,
    /// `starting`, `running`, `stopped`, `done`, `failed`, or `stale` (state says running but
    /// no recorder holds the lock: it crashed; use `record --resume`).
    pub state: String,
    pub recorder_alive: bool,
    pub pid: Option<String>,
    pub phase: String,
    pub percent: Option<f64>,
    pub eta_s: Option<f64>,
    pub samples: i64,
    pub last_sample_utc_ms: Option<i64>,
    pub interval_ms: Option<i64>,
    pub devices: Vec<String>,
    pub plan: Option<PlanMeta>,
    pub warning_count: i64,
    pub warnings: Vec<WarningRow>,
    pub error: Option<String>,
    pub hint: Option<String>,
    /// `null` unless the capture is recorded with `--trace`.
    pub trace: Option<TraceStatus>,
    /// `null` unless the capture switches its engine with an adapter.
    pub engine: Option<EngineStatus>,
}

/// Read the status of a capture. A damaged file is named in the error (exit 5).
pub fn read(path: &Path) -> Result<Status> {
    read_inner(path).map_err(|e| crate::capture::with_path(path, e))
}

fn read_inner(path: &Path) -> Result<Status> {
    let c = Capture::open(path, false)?;
    let alive = RecorderLock::is_held(path);
    let mut state = c.recorder("state")?.unwrap_or_else(|| "unknown".into());
    if (state == "running" || state == "starting") && !alive {
        state = "stale".into();
    }
    let phase = c.recorder("phase")?.unwrap_or_else(|| "baseline".into());
    let elapsed_s = c
        .recorder("phase_elapsed_ms")?
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1000.0;
    let plan: Option<PlanMeta> = c.meta("plan")?.and_then(|s| serde_json::from_str(&s).ok());
    let (percent, eta_s) = progress(&plan, &phase, elapsed_s, state == "done");
    let samples: i64 = c.sample_count()?;
    let last: Option<i64> = c.last_sample_utc_ms()?;
    let devices = c.device_names()?;
    let warning_count = c.warning_count()?;
    let warnings = c
        .latest_warnings(20)?
        .into_iter()
        .map(|(utc_ms, code, device, message)| WarningRow {
            utc_ms,
            code,
            device,
            message,
        })
        .collect();
    let error = c.recorder("error")?.filter(|e| !e.is_empty());
    let trace = trace_status(&c)?;
    let engine = engine_status(&c)?;
    let hint = hint(path, &state, &phase, plan.is_some(), engine.as_ref());
    Ok(Status {
        capture: path.display().to_string(),
        schema_version: c.user_version()?,
        state,
        recorder_alive: alive,
        pid: c.recorder("pid")?,
        phase,
        percent,
        eta_s,
        samples,
        last_sample_utc_ms: last,
        interval_ms: c.meta("interval_ms")?.and_then(|s| s.parse().ok()),
        devices,
        plan,
        warning_count,
        warnings,
        error,
        hint,
        trace,
        engine,
    })
}

/// The block trace's counts and sampling, when the capture is recorded with `--trace`.
fn trace_status(c: &Capture) -> Result<Option<TraceStatus>> {
    if c.meta("trace")?.as_deref() != Some(crate::trace::META_BLOCK) {
        return Ok(None);
    }
    let count =
        |k: &str| -> Result<i64> { Ok(c.recorder(k)?.and_then(|s| s.parse().ok()).unwrap_or(0)) };
    let sampling = crate::trace::sampling::StoredSampling::read(c)?;
    let requests = count("trace_requests")?;
    Ok(Some(TraceStatus {
        requests,
        lost: count("trace_lost")?,
        seen: count("trace_seen")?,
        sample_rate: sampling.rate,
        budget_bytes: sampling.budget_bytes,
        stored_bytes: requests.max(0) as u64 * crate::trace::sampling::ROW_BYTES,
        traced_s: count("trace_traced_ms")? as f64 / 1000.0,
        rate_changes: sampling.changes,
    }))
}

/// The engine switch's and restore's progress, when the capture switches with an adapter.
fn engine_status(c: &Capture) -> Result<Option<EngineStatus>> {
    let Some(e) = crate::recorder::engine::EngineMeta::read(c)? else {
        return Ok(None);
    };
    let key = |k: &str| -> Result<Option<String>> { Ok(c.recorder(k)?.filter(|v| !v.is_empty())) };
    Ok(Some(EngineStatus {
        switch: key("engine_switch")?.unwrap_or_else(|| "planned".into()),
        restore: if e.restore {
            Some(key("engine_restore")?.unwrap_or_else(|| "planned".into()))
        } else {
            None
        },
        mode: key("engine_mode")?,
        error: key("engine_error")?,
        adapter: e.adapter,
        device: e.device,
        original_mode: e.original_mode,
    }))
}

/// What to do next: a failed adapter first, then resuming or switching the cache by hand.
fn hint(
    path: &Path,
    state: &str,
    phase: &str,
    has_plan: bool,
    engine: Option<&EngineStatus>,
) -> Option<String> {
    let engine_failed = engine.and_then(|e| {
        e.error.as_ref().map(|err| {
            format!(
                "the {} adapter failed ({err}); the recording went on with {} in mode {}: check the engine, and read the capture's figures with that in mind",
                e.adapter,
                e.device,
                e.mode.as_deref().unwrap_or("unknown")
            )
        })
    });
    match state {
        _ if engine_failed.is_some() => engine_failed,
        "stale" | "stopped" | "failed" if has_plan => Some(format!(
            "continue with: cacheproof-probe record --resume {}",
            path.display()
        )),
        "running" if phase == "switch" && engine.is_some() => {
            Some("baseline complete: the adapter is switching the engine".into())
        }
        "running" if phase == "switch" => Some(format!(
            "baseline complete: switch the cache on, then run: cacheproof-probe mark {} switch",
            path.display()
        )),
        _ => None,
    }
}

/// Human-readable form.
pub fn render(s: &Status) -> String {
    let mut o = String::new();
    o.push_str(&format!("capture:      {}\n", s.capture));
    o.push_str(&format!(
        "state:        {}{}\n",
        s.state,
        s.pid
            .as_ref()
            .filter(|_| s.recorder_alive)
            .map(|p| format!(" (pid {p})"))
            .unwrap_or_default()
    ));
    o.push_str(&format!("phase:        {}\n", s.phase));
    if let Some(p) = s.percent {
        o.push_str(&format!("progress:     {p:.1}%"));
        match s.eta_s {
            Some(e) => o.push_str(&format!(", about {} left\n", fmt_secs(e))),
            None => o.push_str(", waiting for the switch\n"),
        }
    }
    o.push_str(&format!("samples:      {}\n", s.samples));
    if let Some(l) = s.last_sample_utc_ms {
        o.push_str(&format!("last sample:  {}\n", clock::iso_utc(l)));
    }
    o.push_str(&format!("devices:      {}\n", s.devices.join(", ")));
    if let Some(t) = &s.trace {
        render_trace(&mut o, t);
    }
    o.push_str(&format!("warnings:     {}\n", s.warning_count));
    for w in s.warnings.iter().take(5) {
        o.push_str(&format!(
            "  {} {}{}: {}\n",
            clock::iso_utc(w.utc_ms),
            w.code,
            w.device
                .as_ref()
                .map(|d| format!(" [{d}]"))
                .unwrap_or_default(),
            w.message
        ));
    }
    if let Some(e) = &s.engine {
        render_engine(&mut o, e);
    }
    if let Some(e) = &s.error {
        o.push_str(&format!("error:        {e}\n"));
    }
    if let Some(h) = &s.hint {
        o.push_str(&format!("next:         {h}\n"));
    }
    o
}

/// The trace's line, and its budget's when it has one.
fn render_trace(o: &mut String, t: &TraceStatus) {
    o.push_str(&format!(
        "trace:        {} block requests, {} events lost{}\n",
        t.requests,
        t.lost,
        if t.sample_rate < 1.0 {
            format!(
                " (sampled at {}: {} requests seen)",
                crate::trace::sampling::fmt_rate(t.sample_rate),
                t.seen
            )
        } else {
            String::new()
        }
    ));
    if let Some(b) = t.budget_bytes {
        o.push_str(&format!(
            "trace budget: {} per 24 h; {} stored after {:.0} s of tracing; the rate changed {} time(s){}\n",
            crate::trace::sampling::mb(b as f64),
            crate::trace::sampling::mb(t.stored_bytes as f64),
            t.traced_s,
            t.rate_changes.len(),
            t.rate_changes
                .last()
                .map(|c| format!(
                    ", last from {} to {}",
                    crate::trace::sampling::fmt_rate(c.rate_before),
                    crate::trace::sampling::fmt_rate(c.rate_after)
                ))
                .unwrap_or_default()
        ));
    }
}

/// The engine adapter's line.
fn render_engine(o: &mut String, e: &EngineStatus) {
    o.push_str(&format!(
        "engine:       {} {} — switch {}, mode {} (was {}){}\n",
        e.adapter,
        e.device,
        e.switch,
        e.mode.as_deref().unwrap_or("unknown"),
        e.original_mode,
        e.restore
            .as_ref()
            .map(|r| format!(", restore {r}"))
            .unwrap_or_default()
    ));
}

fn fmt_secs(s: f64) -> String {
    let s = s.round() as i64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
