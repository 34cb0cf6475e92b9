//! The scheduled switch: with an adapter (`record --switch ADAPTER[:CONFIG]`), the recorder
//! switches the engine itself when the baseline ends, records what it did, samples the
//! engine's own counters beside the disk counters, and can restore the engine's original mode
//! when the plan is done. A switch is attempted at most once per capture: the recorder notes
//! `engine_switch = pending` before it acts, so a resumed recorder never switches again.

use serde::{Deserialize, Serialize};

use crate::adapters::{self, Adapter, EngineConfig, Env};
use crate::capture::Capture;
use crate::clock;
use crate::error::{ProbeError, Result};

/// `meta.engine`: the adapter of a scheduled switch (docs/capture-schema.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineMeta {
    pub adapter: String,
    /// The engine's device as the adapter names it.
    pub device: String,
    /// Its kernel block device (in /proc/diskstats).
    pub kernel_device: String,
    /// The config file's content (a resumed recorder does not need the file).
    pub config: EngineConfig,
    pub config_path: Option<String>,
    pub sysfs_root: String,
    /// Restore the original mode when the plan is done (`--restore`).
    pub restore: bool,
    /// The engine's mode when the recording was created.
    pub original_mode: String,
}

impl EngineMeta {
    fn parts(&self) -> Result<(Box<dyn Adapter>, Env)> {
        let a = adapters::by_name(&self.adapter)?;
        let env = Env::new(Some(&self.sysfs_root), self.config.clone());
        Ok((a, env))
    }

    /// The engine of `record --switch ADAPTER[:CONFIG]` for the recorded `devices` (`None`:
    /// every device): the adapter, its device (`--engine-device`, the config's, or the only
    /// one of the analysis) and its mode now. Refuses a device that is not part of the
    /// analysis. `Ok(None)` for `manual`.
    pub fn prepare(
        name: &str,
        config_path: Option<&str>,
        engine_device: Option<&str>,
        devices: Option<&[String]>,
        restore: bool,
    ) -> Result<Option<EngineMeta>> {
        let a = adapters::by_name(name)?;
        if name == "manual" {
            if restore {
                return Err(ProbeError::Usage(
                    "--restore needs an adapter that switches the engine (--switch manual switches nothing)".into(),
                ));
            }
            return Ok(None);
        }
        let config_abs = config_path.map(|c| std::path::absolute(c).unwrap_or_else(|_| c.into()));
        let config =
            match &config_abs {
                Some(p) => EngineConfig::load(p)?,
                None if name == "command" => return Err(ProbeError::Usage(
                    "--switch command needs its config: --switch command:FILE (docs/adapters.md)"
                        .into(),
                )),
                None => EngineConfig::default(),
            };
        let env = Env::new(None, config.clone());
        let in_analysis = |k: &str| devices.is_none_or(|d| d.iter().any(|x| x == k));
        let device = match engine_device.or(config.device.as_deref()) {
            Some(d) => {
                a.check_device(&env, d)?;
                d.to_string()
            }
            None => {
                let found: Vec<String> = a
                    .detect(&env)
                    .into_iter()
                    .map(|d| d.device)
                    .filter(|d| in_analysis(&a.kernel_name(&env, d)))
                    .collect();
                match found.as_slice() {
                    [one] => one.clone(),
                    [] => return Err(ProbeError::Usage(format!(
                        "no {name} device among the recorded devices; record the engine's device or give --engine-device DEV"
                    ))),
                    many => return Err(ProbeError::Usage(format!(
                        "{} {name} devices among the recorded devices ({}); choose one with --engine-device DEV",
                        many.len(),
                        many.join(", ")
                    ))),
                }
            }
        };
        let kernel_device = a.kernel_name(&env, &device);
        if !in_analysis(&kernel_device) {
            return Err(ProbeError::Usage(format!(
                "the {name} device {device} ({kernel_device}) is not part of this analysis: add it to --devices, or choose the engine of a recorded device"
            )));
        }
        let original_mode = a.mode(&env, &device)?;
        // The plan must be possible before anything is recorded.
        a.steps(&env, &device, &original_mode, &a.enabled_mode(&env))?;
        Ok(Some(EngineMeta {
            adapter: name.to_string(),
            device,
            kernel_device,
            config,
            config_path: config_abs.map(|p| p.display().to_string()),
            sysfs_root: env.sysfs.display().to_string(),
            restore,
            original_mode,
        }))
    }

    /// Read `meta.engine` of a capture.
    pub fn read(cap: &Capture) -> Result<Option<EngineMeta>> {
        Ok(cap
            .meta("engine")?
            .and_then(|s| serde_json::from_str(&s).ok()))
    }
}

fn record_outcome(cap: &Capture, e: &EngineMeta, o: &adapters::Outcome) -> Result<()> {
    cap.write_engine_action(
        &e.adapter,
        &e.device,
        &o.action,
        &o.steps,
        o.mode_before.as_deref(),
        o.mode_after.as_deref(),
    )?;
    if o.steps.is_empty() {
        // Nothing to run (already in the mode): still one row, so the capture shows the action.
        let now = clock::utc_ms();
        let note = adapters::StepRecord {
            start_utc_ms: now,
            end_utc_ms: now,
            step: match &o.error {
                Some(_) => "nothing run".into(),
                None => format!("nothing to do: already in mode {}", o.target),
            },
            output: o.error.clone().unwrap_or_default(),
            exit_status: None,
            ok: o.error.is_none(),
        };
        cap.write_engine_action(
            &e.adapter,
            &e.device,
            &o.action,
            &[note],
            o.mode_before.as_deref(),
            o.mode_after.as_deref(),
        )?;
    }
    if let Some(m) = &o.mode_after {
        cap.set_recorder("engine_mode", m)?;
    }
    Ok(())
}

/// In phase `switch` with an adapter: switch the engine (once per capture) and return the
/// switch mark (id, utc_ms) that ends the phase. A failed switch is recorded (warning
/// `switch-failed`, `engine_switch = failed`) and the plan goes on with the engine in the mode
/// it is really in. After a resume that finds the switch already attempted, nothing is
/// switched again: the mode is read back and a mark is made (warning `switch-interrupted`).
pub fn switch(cap: &Capture, e: &EngineMeta) -> Result<(i64, i64)> {
    let (a, env) = e.parts()?;
    let state = cap.recorder("engine_switch")?.unwrap_or_default();
    if state.is_empty() {
        cap.set_recorder("engine_switch", "pending")?;
        let to = a.enabled_mode(&env);
        let o = adapters::apply(a.as_ref(), &env, &e.device, "enable", &to);
        record_outcome(cap, e, &o)?;
        let now = clock::utc_ms();
        let (result, note) = match &o.error {
            None => (
                "done",
                format!("{} switched {} to {to}", e.adapter, e.device),
            ),
            Some(err) => {
                cap.set_recorder("engine_error", err)?;
                cap.warn(
                    now,
                    "switch-failed",
                    Some(&e.kernel_device),
                    &format!(
                        "{err}; the plan goes on with the engine as it is (mode {})",
                        o.mode_after.as_deref().unwrap_or("unknown")
                    ),
                )?;
                (
                    "failed",
                    format!("{} switch of {} failed", e.adapter, e.device),
                )
            }
        };
        let id = cap.add_mark(now, clock::mono_ns(), "switch", Some(&note))?;
        cap.set_recorder("engine_switch", result)?;
        return Ok((id, now));
    }
    // The switch was attempted by an earlier run of this capture and its mark not used: the
    // recorder stopped inside it. Never switch twice: read the mode and go on.
    let now = clock::utc_ms();
    let mode = a.mode(&env, &e.device).unwrap_or_else(|_| "unknown".into());
    let reached = mode == a.enabled_mode(&env);
    cap.set_recorder("engine_mode", &mode)?;
    if state == "pending" {
        cap.set_recorder("engine_switch", if reached { "done" } else { "failed" })?;
    }
    cap.warn(
        now,
        "switch-interrupted",
        Some(&e.kernel_device),
        &format!(
            "the switch was already attempted before this resume ({state}); it is not attempted again: {} is in mode {mode}",
            e.device
        ),
    )?;
    let id = cap.add_mark(
        now,
        clock::mono_ns(),
        "switch",
        Some("switch already attempted"),
    )?;
    Ok((id, now))
}

/// At the end of the plan, with `--restore`: bring the engine back to its original mode.
/// A failure is recorded (warning `restore-failed`, `engine_restore = failed`).
pub fn restore(cap: &Capture, e: &EngineMeta) -> Result<()> {
    if !e.restore
        || cap
            .recorder("engine_switch")?
            .unwrap_or_default()
            .is_empty()
        || cap.recorder("engine_restore")?.as_deref() == Some("done")
    {
        return Ok(());
    }
    let (a, env) = e.parts()?;
    cap.set_recorder("engine_restore", "pending")?;
    let o = adapters::apply(a.as_ref(), &env, &e.device, "restore", &e.original_mode);
    record_outcome(cap, e, &o)?;
    match &o.error {
        None => cap.set_recorder("engine_restore", "done"),
        Some(err) => {
            cap.set_recorder("engine_error", err)?;
            cap.warn(
                clock::utc_ms(),
                "restore-failed",
                Some(&e.kernel_device),
                err,
            )?;
            cap.set_recorder("engine_restore", "failed")
        }
    }
}

/// Read and store the engine's counters. A failure is a warning (`engine-stats`), once per
/// distinct message; the recording goes on.
pub fn sample_stats(cap: &Capture, e: &EngineMeta, utc: i64) -> Result<()> {
    let (a, env) = e.parts()?;
    let env = Env {
        timeout: env.timeout.min(std::time::Duration::from_secs(5)),
        ..env
    };
    match a.stats(&env, &e.device) {
        Ok(s) => cap.write_engine_stats(utc, &e.adapter, &e.device, &s),
        Err(err) => {
            let msg = format!("reading the engine's counters failed: {err}");
            if cap.recorder("engine_stats_error")?.as_deref() != Some(msg.as_str()) {
                cap.warn(utc, "engine-stats", Some(&e.kernel_device), &msg)?;
                cap.set_recorder("engine_stats_error", &msg)?;
            }
            Ok(())
        }
    }
}
