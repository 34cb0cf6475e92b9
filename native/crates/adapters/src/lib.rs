//! Cache engine adapters: one interface to find an engine (`detect`), read its mode
//! (`describe`), say what switching it would do (`plan`, the dry run), switch it (`enable`,
//! `disable`, a restore to its original mode) and read its own counters (`stats`).
//!
//! Adapters: `manual` (switches nothing), `command` (argument vectors from a config file),
//! `loop-dio` (the lab's loop device), `bcache` (sysfs), `lvmcache` / `dm-cache` (`lvchange`,
//! `dmsetup status`), `opencas` (`casadm`). Commands run without a shell, with a timeout; sysfs
//! paths are read under a root (`--sysfs-root`, `CACHEPROOF_SYSFS_ROOT`, default `/sys`) so
//! the tests can give a fake tree. docs/adapters.md describes every adapter.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_core::{clock, error};

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::error::{ProbeError, Result};

mod config;
mod engines;
pub mod parse;

pub use config::EngineConfig;
pub use engines::by_name;

/// Adapter names, as given to `engine … ADAPTER` and `record --switch`.
pub const NAMES: &[&str] = &[
    "manual", "command", "loop-dio", "bcache", "lvmcache", "dm-cache", "opencas",
];

/// What an adapter reads and runs against: the sysfs root, the timeout of each command and the
/// adapter's configuration.
#[derive(Debug, Clone)]
pub struct Env {
    pub sysfs: PathBuf,
    pub timeout: Duration,
    pub config: EngineConfig,
}

impl Env {
    /// The sysfs root: `root` if given, else `CACHEPROOF_SYSFS_ROOT`, else `/sys`.
    pub fn new(root: Option<&str>, config: EngineConfig) -> Env {
        let sysfs = root
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("CACHEPROOF_SYSFS_ROOT").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("/sys"));
        let timeout = Duration::from_secs_f64(config.timeout_s.unwrap_or(30.0));
        Env {
            sysfs,
            timeout,
            config,
        }
    }
}

/// One engine device found by `detect`.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Detected {
    pub adapter: String,
    pub device: String,
    pub mode: String,
    pub description: String,
}

/// One step of an action: a command (argument vector, no shell) or a sysfs write.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Run(Vec<String>),
    Write { path: PathBuf, value: String },
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Run(argv) => {
                let q: Vec<String> = argv.iter().map(|a| quote(a)).collect();
                write!(f, "run {}", q.join(" "))
            }
            Step::Write { path, value } => {
                write!(f, "write '{}' to {}", value, path.display())
            }
        }
    }
}

/// An argument as it would be typed (for reading only: nothing is ever run through a shell).
fn quote(a: &str) -> String {
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// What a step did.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub step: String,
    pub output: String,
    /// A command's exit status; `None` for a sysfs write, a timeout or a command not started.
    pub exit_status: Option<i32>,
    pub ok: bool,
}

/// One counter of the engine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Stat {
    pub name: String,
    pub value: f64,
    pub unit: String,
    /// `cumulative` (since the engine started), `current` (a level, like dirty data) or the
    /// engine's own decaying window (`decaying-5min`, `decaying-1h`, `decaying-1d`).
    pub window: String,
}

impl Stat {
    pub fn new(name: &str, value: f64, unit: &str, window: &str) -> Stat {
        Stat {
            name: name.to_string(),
            value,
            unit: unit.to_string(),
            window: window.to_string(),
        }
    }
}

/// The interface every engine implements.
pub trait Adapter {
    /// Its name (`NAMES`).
    fn name(&self) -> &'static str;
    /// Engine devices present on this machine, with their modes.
    fn detect(&self, env: &Env) -> Vec<Detected>;
    /// The engine's current mode on `dev`, as one word of the engine (`writeback`, `pt`, …).
    fn mode(&self, env: &Env, dev: &str) -> Result<String>;
    /// A mode in words.
    fn explain(&self, mode: &str) -> String;
    /// The mode `enable` switches to (the config's `enableMode`, else the adapter's default).
    fn enabled_mode(&self, env: &Env) -> String;
    /// The mode `disable` switches to.
    fn disabled_mode(&self, env: &Env) -> String;
    /// The steps that would bring `dev` from mode `from` to mode `to`.
    fn steps(&self, env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>>;
    /// The engine's counters on `dev` (empty when the engine keeps none).
    fn stats(&self, env: &Env, dev: &str) -> Result<Vec<Stat>>;
    /// The kernel block device name of `dev` (what /proc/diskstats calls it).
    fn kernel_name(&self, _env: &Env, dev: &str) -> String {
        dev.trim_start_matches("/dev/").to_string()
    }
    /// Refuse a device that is not this engine's.
    fn check_device(&self, env: &Env, dev: &str) -> Result<()> {
        let found = self.detect(env);
        if found.iter().any(|d| d.device == dev) {
            return Ok(());
        }
        let names: Vec<&str> = found.iter().map(|d| d.device.as_str()).collect();
        Err(ProbeError::Usage(format!(
            "{dev} is not a {} device here (found: {}); give --device one of those",
            self.name(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )))
    }
}

/// The device to act on: `--device`, the config's `device`, or the only one `detect` finds.
pub fn pick_device(a: &dyn Adapter, env: &Env, given: Option<&str>) -> Result<String> {
    if let Some(d) = given.or(env.config.device.as_deref()) {
        let d = d.to_string();
        a.check_device(env, &d)?;
        return Ok(d);
    }
    let found = a.detect(env);
    match found.as_slice() {
        [one] => Ok(one.device.clone()),
        [] => Err(ProbeError::Usage(format!(
            "no {} device found here; give --device DEV (see 'cacheproof-probe engine detect')",
            a.name()
        ))),
        many => Err(ProbeError::Usage(format!(
            "{} {} devices found ({}); choose one with --device DEV",
            many.len(),
            a.name(),
            many.iter()
                .map(|d| d.device.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// What an action did: its steps, the mode before and after, and the error (the action
/// failed, or the engine did not reach the mode asked for).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub adapter: String,
    pub device: String,
    pub action: String,
    pub target: String,
    pub mode_before: Option<String>,
    pub mode_after: Option<String>,
    pub steps: Vec<StepRecord>,
    pub error: Option<String>,
}

/// Bring `dev` to mode `to` (`action`: enable, disable or restore): the steps run in order and
/// stop at the first failure; the mode is read back afterwards. The error says which step
/// failed and the mode the engine is really in.
pub fn apply(a: &dyn Adapter, env: &Env, dev: &str, action: &str, to: &str) -> Outcome {
    let mut o = Outcome {
        adapter: a.name().to_string(),
        device: dev.to_string(),
        action: action.to_string(),
        target: to.to_string(),
        mode_before: None,
        mode_after: None,
        steps: Vec::new(),
        error: None,
    };
    let before = match a.mode(env, dev) {
        Ok(m) => m,
        Err(e) => {
            o.error = Some(format!(
                "{} {action} of {dev} not attempted: its mode cannot be read ({e})",
                a.name()
            ));
            return o;
        }
    };
    o.mode_before = Some(before.clone());
    let steps = match a.steps(env, dev, &before, to) {
        Ok(s) => s,
        Err(e) => {
            o.mode_after = Some(before);
            o.error = Some(format!("{} {action} of {dev} not attempted: {e}", a.name()));
            return o;
        }
    };
    let mut failed = None;
    for s in &steps {
        let r = run_step(s, env.timeout);
        let ok = r.ok;
        if !ok {
            failed = Some(format!("'{}' failed: {}", r.step, first_line(&r.output)));
        }
        o.steps.push(r);
        if !ok {
            break;
        }
    }
    let after = a.mode(env, dev);
    o.mode_after = after.as_ref().ok().cloned();
    let state = match &after {
        Ok(m) if *m == before => format!("the engine is still in mode {m} (unchanged)"),
        Ok(m) => format!("the engine is now in mode {m} (was {before})"),
        Err(e) => format!("its mode can no longer be read ({e}): check the engine by hand"),
    };
    if let Some(f) = failed {
        o.error = Some(format!("{} {action} of {dev}: {f}; {state}", a.name()));
    } else if let Ok(m) = &after {
        if m != to && m != "unknown" {
            o.error = Some(format!(
                "{} {action} of {dev}: every step succeeded but the engine reports mode {m}, not {to}; {state}",
                a.name()
            ));
        }
    } else {
        o.error = Some(format!("{} {action} of {dev}: {state}", a.name()));
    }
    o
}

fn first_line(s: &str) -> String {
    let l = s
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if l.is_empty() {
        "no output".into()
    } else {
        l.to_string()
    }
}

/// Run one step with `timeout` (commands) and say what happened.
pub fn run_step(s: &Step, timeout: Duration) -> StepRecord {
    let start = clock::utc_ms();
    let (output, exit_status, ok) = match s {
        Step::Run(argv) => {
            let r = run_argv(argv, timeout);
            match r {
                Ok((code, out)) => (out, code, code == Some(0)),
                Err(e) => (e, None, false),
            }
        }
        Step::Write { path, value } => {
            // As `echo VALUE > ATTR` does (O_TRUNC, which sysfs ignores), but no create: a sysfs
            // attribute that is missing is an error, not a new file.
            let r = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)
                .and_then(|mut f| std::io::Write::write_all(&mut f, value.as_bytes()));
            match r {
                Ok(()) => (String::new(), None, true),
                Err(e) => (format!("writing {}: {e}", path.display()), None, false),
            }
        }
    };
    StepRecord {
        start_utc_ms: start,
        end_utc_ms: clock::utc_ms(),
        step: s.to_string(),
        output,
        exit_status,
        ok,
    }
}

/// Run an argument vector (no shell) with a timeout: (exit status, stdout + stderr). `Err`: it
/// could not start, or it was killed at the timeout (the sentence says which).
pub fn run_argv(
    argv: &[String],
    timeout: Duration,
) -> std::result::Result<(Option<i32>, String), String> {
    let Some((prog, args)) = argv.split_first() else {
        return Err("empty argument vector".into());
    };
    // Its own process group, so a timeout kills what it started too (a shell script's
    // children would otherwise keep its output open).
    let mut child = Command::new(prog)
        .args(args)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("LC_ALL", "C")
        .spawn()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!("cannot run '{prog}': it is not installed (not found on PATH)")
            } else {
                format!("cannot run '{prog}': {e}")
            }
        })?;
    let mut readers = Vec::new();
    for pipe in [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    {
        let mut p = pipe;
        readers.push(std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = p.read_to_end(&mut b);
            b
        }));
    }
    let t0 = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if t0.elapsed() >= timeout => {
                // SAFETY: signalling the child's own process group (its pid is the group id).
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for '{prog}': {e}")),
        }
    };
    let mut out = String::new();
    for r in readers {
        out.push_str(&String::from_utf8_lossy(&r.join().unwrap_or_default()));
    }
    match status {
        Some(s) => Ok((s.code(), out)),
        None => Err(format!(
            "'{prog}' did not finish within {:.0} s and was killed (timeout){}",
            timeout.as_secs_f64(),
            if out.trim().is_empty() {
                String::new()
            } else {
                format!("; its output: {}", first_line(&out))
            }
        )),
    }
}

/// Run a read-only command (status, stats): its stdout, or an error naming the tool.
pub fn read_command(argv: &[String], timeout: Duration) -> Result<String> {
    let tool = argv.first().cloned().unwrap_or_default();
    match run_argv(argv, timeout) {
        Ok((Some(0), out)) => Ok(out),
        Ok((code, out)) => Err(ProbeError::Tool {
            tool: tool.clone(),
            message: format!(
                "'{}' exited with {}: {}",
                argv.join(" "),
                code.map_or("a signal".to_string(), |c| c.to_string()),
                first_line(&out)
            ),
        }),
        Err(e) => Err(ProbeError::Tool { tool, message: e }),
    }
}

/// Read a sysfs attribute under the root, trimmed.
pub fn read_attr(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .map_err(|e| ProbeError::io(format!("reading {}", path.display()), e))
}

/// A command's argument vector from words.
pub fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_step_reads_as_typed_without_a_shell() {
        let s = Step::Run(argv(&[
            "lvchange",
            "--cachemode",
            "writethrough",
            "vg/lv one",
        ]));
        assert_eq!(
            s.to_string(),
            "run lvchange --cachemode writethrough 'vg/lv one'"
        );
    }

    #[test]
    fn a_command_that_runs_too_long_is_killed_at_its_timeout() {
        let t0 = Instant::now();
        let e = run_argv(&argv(&["sleep", "5"]), Duration::from_millis(200)).unwrap_err();
        assert!(e.contains("timeout"), "{e}");
        assert!(t0.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn a_missing_command_says_so() {
        let e = run_argv(&argv(&["cacheproof-no-such-tool"]), Duration::from_secs(1)).unwrap_err();
        assert!(e.contains("not installed"), "{e}");
    }
}
