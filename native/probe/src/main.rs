//! `cacheproof-probe`: records Linux disk counters (and, with `--trace`, block requests) into a
//! CacheProof capture.
//!
//! Commands, flags and exit codes are documented in `docs/probe.md`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use cacheproof_probe::{
    adapters, capture, lab, plan, recorder, sim, status, sysfs, trace, tracein, ProbeError,
};

const USAGE: &str = "\
cacheproof-probe — records Linux disk counters into a CacheProof capture

Usage:
  cacheproof-probe devices [--json]
  cacheproof-probe record --out CAPTURE [--devices a,b | --all] [--interval 1s]
                          [--plan baseline=24h,warmup=1h,measure=24h]
                          [--switch manual | --switch ADAPTER[:CONFIG] [--engine-device DEV]
                           [--restore]] [--trace [--trace-sample R] [--trace-budget SIZE]] [--detach]
  cacheproof-probe record --resume CAPTURE [--detach]
  cacheproof-probe status CAPTURE [--json]
  cacheproof-probe stop CAPTURE
  cacheproof-probe mark CAPTURE switch|note [--note TEXT]
  cacheproof-probe engine detect [--json]
  cacheproof-probe engine describe|plan|stats ADAPTER [--device DEV] [--config FILE] [--json]
  cacheproof-probe engine enable|disable ADAPTER [--device DEV] [--config FILE] --yes
                          (ADAPTER: manual, command, loop-dio, bcache, lvmcache, dm-cache,
                          opencas; --sysfs-root DIR reads sysfs there: docs/adapters.md)
  cacheproof-probe lab up [--dir DIR] [--size-mb N]
  cacheproof-probe lab down|status [--dir DIR] [--json]
  cacheproof-probe lab switch on|off [--dir DIR]
  cacheproof-probe lab workload --seconds N [--dir DIR] [--hot-mb N] [--read-iops N]
                                [--write-iops N | --read-only] [--json-out FILE]
  cacheproof-probe import KIND FILE... --out CAPTURE [--switch-at TIME]
                          [--baseline FILE... --measure FILE...] [--encoding E] [--json]
  cacheproof-probe import --preview KIND FILE... [--json]   (KIND and options: docs/import.md)
  cacheproof-probe import-trace KIND FILE --out CAPTURE [--device-bytes N] [--json]
                          (KIND: msr, blkparse, cloudphysics, disksim, msn, oracle-general)
  cacheproof-probe simulate CAPTURE|TRACE [--kind KIND] [--policy lru,fifo,clock,arc,2q,s3fifo]
                          [--block 4KiB] (--sizes 256MiB,1GiB | --curve)
                          [--writes bypass|invalidate|allocate]
                          [--sample fixed-rate=R|fixed-size=N [--sample-salt S]]
                          [--lru-by-simulation]
                          [--quiet] [--json]
  cacheproof-probe latency CAPTURE [--store] [--json]
  cacheproof-probe predict CAPTURE --size SIZE [--block 4KiB] [--devices a,b]
                          [--policy lru,fifo,clock,arc,2q,s3fifo]
                          [--cache-device ram|sata-ssd|nvme|LATENCY]
                          [--warmup DURATION] [--threads N] [--store] [--quiet] [--json]
  cacheproof-probe index CAPTURE [--json]   (columnar blocks of a closed capture)
  cacheproof-probe --version | --help

Exit codes: 0 ok, 1 internal error, 2 usage, 3 unknown device, 4 output not writable,
5 not a capture / newer schema / no capture, 6 capture locked by another recorder,
7 needs root, 8 disk full, 9 external tool failed, 10 no recorder running / lab not up,
11 block tracing unavailable (tracefs or the block events missing), 12 a file given to
import, import-trace or simulate cannot be imported (the message names the file, line and
column) or holds no usable record.
See docs/probe.md, docs/import.md and docs/simulate.md.
";

/// Simple flag reader: positional words and `--flag value` / `--flag` switches.
struct Args {
    pos: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

const VALUE_FLAGS: &[&str] = &[
    "--out",
    "--devices",
    "--interval",
    "--plan",
    "--switch",
    "--resume",
    "--note",
    "--dir",
    "--size-mb",
    "--seconds",
    "--hot-mb",
    "--read-iops",
    "--write-iops",
    "--json-out",
    "--policy",
    "--block",
    "--sizes",
    "--writes",
    "--sample",
    "--sample-salt",
    "--kind",
    "--device-bytes",
    "--device",
    "--config",
    "--sysfs-root",
    "--engine-device",
    "--size",
    "--warmup",
    "--trace-sample",
    "--trace-budget",
    "--cache-device",
    "--threads",
];

fn usage(msg: impl Into<String>) -> anyhow::Error {
    ProbeError::Usage(msg.into()).into()
}

impl Args {
    fn parse(v: &[String]) -> anyhow::Result<Args> {
        let mut pos = Vec::new();
        let mut flags = Vec::new();
        let mut i = 0;
        while i < v.len() {
            let a = &v[i];
            if let Some((k, val)) = a.split_once('=').filter(|_| a.starts_with("--")) {
                flags.push((k.to_string(), Some(val.to_string())));
            } else if VALUE_FLAGS.contains(&a.as_str()) {
                let val = v
                    .get(i + 1)
                    .ok_or_else(|| usage(format!("{a} needs a value")))?;
                flags.push((a.clone(), Some(val.clone())));
                i += 1;
            } else if a.starts_with("--") {
                flags.push((a.clone(), None));
            } else {
                pos.push(a.clone());
            }
            i += 1;
        }
        Ok(Args { pos, flags })
    }
    fn val(&self, k: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(f, _)| f == k)
            .and_then(|(_, v)| v.as_deref())
    }
    fn has(&self, k: &str) -> bool {
        self.flags.iter().any(|(f, _)| f == k)
    }
    fn only(&self, allowed: &[&str]) -> anyhow::Result<()> {
        for (f, _) in &self.flags {
            if !allowed.contains(&f.as_str()) {
                return Err(usage(format!(
                    "unknown flag '{f}' here. Run 'cacheproof-probe --help' for the list."
                )));
            }
        }
        Ok(())
    }
    fn num(&self, k: &str, default: u64) -> anyhow::Result<u64> {
        match self.val(k) {
            None => Ok(default),
            Some(s) => s
                .parse()
                .map_err(|_| usage(format!("{k} needs a whole number, not '{s}'"))),
        }
    }
}

fn lab_dir(a: &Args) -> PathBuf {
    a.val("--dir")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CACHEPROOF_LAB_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(lab::DEFAULT_DIR))
}

fn abs(p: &str) -> anyhow::Result<PathBuf> {
    let p = Path::new(p);
    if p.is_absolute() {
        Ok(p.to_path_buf())
    } else {
        Ok(std::env::current_dir()
            .context("reading the current directory")?
            .join(p))
    }
}

fn cmd_devices(a: &Args) -> anyhow::Result<()> {
    a.only(&["--json"])?;
    let devs = sysfs::list_devices(Path::new("/sys"));
    if a.has("--json") {
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
        println!(
            "{:<14} {:>8} {:>10} {:>4} {:>5}/{:<5} {:<8} {:<10} {:<24} {}",
            d.name,
            format!("{}:{}", d.major, d.minor),
            size,
            d.rotational
                .map(|r| if r { "1" } else { "0" })
                .unwrap_or("-"),
            d.logical_block_size
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into()),
            d.physical_block_size
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into()),
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

fn cmd_record(a: &Args, raw: &[String]) -> anyhow::Result<()> {
    a.only(&[
        "--out",
        "--devices",
        "--all",
        "--interval",
        "--plan",
        "--switch",
        "--detach",
        "--resume",
        "--trace",
        "--trace-sample",
        "--trace-budget",
        "--restore",
        "--engine-device",
    ])?;
    if let Some(r) = a.val("--resume") {
        if a.has("--trace") {
            return Err(usage(
                "--trace cannot be given with --resume: a resumed capture keeps its own tracing setting",
            ));
        }
        if a.has("--out")
            || a.has("--devices")
            || a.has("--plan")
            || a.has("--interval")
            || a.has("--switch")
            || a.has("--restore")
            || a.has("--engine-device")
        {
            return Err(usage(
                "--resume continues a capture with its own settings; give only --resume CAPTURE [--detach]",
            ));
        }
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
        return start(&path, true, a.has("--detach"));
    }
    let out = a
        .val("--out")
        .ok_or_else(|| usage("record needs --out CAPTURE (or --resume CAPTURE)"))?;
    if a.has("--devices") && a.has("--all") {
        return Err(usage("give either --devices a,b or --all, not both"));
    }
    let devices = a.val("--devices").map(|s| {
        s.split(',')
            .map(|x| x.trim().trim_start_matches("/dev/").to_string())
            .filter(|x| !x.is_empty())
            .collect::<Vec<_>>()
    });
    if devices.as_ref().is_some_and(|d| d.is_empty()) {
        return Err(usage("--devices needs at least one name"));
    }
    let interval_s = plan::parse_duration(a.val("--interval").unwrap_or("1s"))?;
    if !(0.01..=3600.0).contains(&interval_s) {
        return Err(usage("--interval must be between 10ms and 1h"));
    }
    let pl = a.val("--plan").map(plan::parse_plan).transpose()?;
    let switch = a.val("--switch").map(String::from);
    if (a.has("--restore") || a.has("--engine-device")) && switch.is_none() {
        return Err(usage(
            "--restore and --engine-device go with --switch ADAPTER[:CONFIG]",
        ));
    }
    let engine = match &switch {
        Some(s) => {
            let e = recorder::engine::EngineMeta::prepare(
                s,
                a.val("--engine-device"),
                devices.as_deref(),
                a.has("--restore"),
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
    let switch = switch.map(|s| s.split(':').next().unwrap_or("manual").to_string());
    let (trace_sample, trace_budget) = trace_sampling(a)?;
    let path = abs(out)?;
    let opts = recorder::RecordOptions {
        out: path.clone(),
        devices,
        interval_ms: (interval_s * 1000.0).round() as u64,
        plan: pl,
        switch,
        engine,
        command: std::iter::once("cacheproof-probe".to_string())
            .chain(raw.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        trace: a.has("--trace"),
        trace_sample,
        trace_budget,
    };
    recorder::prepare(&opts)?;
    start(&path, false, a.has("--detach"))
}

/// `--trace-sample R` and `--trace-budget SIZE` (docs/probe.md): the starting rate and the
/// budget per 24 h. `--trace` alone has the default budget from rate 1; `--trace-sample R`
/// alone keeps R (1: every request) with no budget; both start at R under the budget.
fn trace_sampling(a: &Args) -> anyhow::Result<(Option<f64>, Option<u64>)> {
    for f in ["--trace-sample", "--trace-budget"] {
        if a.has(f) && !a.has("--trace") {
            return Err(usage(format!(
                "{f} samples the block trace: give it with --trace"
            )));
        }
    }
    let sample = match a.val("--trace-sample") {
        None => None,
        Some(r) => match r.parse::<f64>() {
            Ok(v) if v > 0.0 && v <= 1.0 => Some(v),
            _ => {
                return Err(usage(format!(
                    "--trace-sample '{r}': give the share of block addresses to keep, 0 < R ≤ 1 (e.g. 0.1, or 1 for every request)"
                )))
            }
        },
    };
    let budget = match a.val("--trace-budget") {
        None if a.has("--trace") && sample.is_none() => {
            Some(trace::sampling::DEFAULT_BUDGET_BYTES)
        }
        None => None,
        Some(b) => match sim::cli::parse_size(b) {
            Some(v) if v >= trace::sampling::ROW_BYTES => Some(v),
            _ => {
                return Err(usage(format!(
                    "--trace-budget '{b}': give the trace's size per 24 h of recording, e.g. 300MB or 2GiB (at least {} B, one request)",
                    trace::sampling::ROW_BYTES
                )))
            }
        },
    };
    Ok((sample, budget))
}

fn start(path: &Path, resume: bool, detach: bool) -> anyhow::Result<()> {
    if detach {
        let previous = recorder::RecorderLock::holder_pid(path);
        if recorder::detach(path)? {
            // Background process: record, then exit without returning to the caller's flow.
            let code = match recorder::run(path, resume) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("cacheproof-probe: {e}");
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
    eprintln!(
        "recording into {} (Ctrl-C or 'cacheproof-probe stop {}' to end)",
        path.display(),
        path.display()
    );
    recorder::run(path, resume)?;
    Ok(())
}

/// The command's capture, and nothing after it: a word more is refused, never ignored (a value
/// given to a flag that takes none lands there).
fn only_capture(a: &Args, cmd: &str) -> anyhow::Result<PathBuf> {
    if let Some(extra) = a.pos.get(2) {
        return Err(usage(format!(
            "{cmd} takes one capture file; '{extra}' is neither a capture nor an option's value here (cacheproof-probe --help lists the options)"
        )));
    }
    one_capture(a, cmd)
}

fn one_capture(a: &Args, cmd: &str) -> anyhow::Result<PathBuf> {
    match a.pos.get(1) {
        Some(p) => abs(p),
        None => Err(usage(format!(
            "{cmd} needs the capture file: cacheproof-probe {cmd} CAPTURE"
        ))),
    }
}

fn run(raw: &[String]) -> anyhow::Result<()> {
    let a = Args::parse(raw)?;
    let cmd = a.pos.first().map(String::as_str);
    match cmd {
        Some("devices") => cmd_devices(&a),
        Some("record") => cmd_record(&a, raw),
        Some("import") => Ok(cacheproof_probe::import::cli::run(
            &raw[1..],
            raw.join(" "),
        )?),
        Some("status") => {
            a.only(&["--json"])?;
            let p = only_capture(&a, "status")?;
            let s = status::read(&p)?;
            if a.has("--json") {
                println!("{}", serde_json::to_string_pretty(&s)?);
            } else {
                print!("{}", status::render(&s));
            }
            Ok(())
        }
        Some("stop") => {
            a.only(&[])?;
            let p = only_capture(&a, "stop")?;
            recorder::stop(&p)?;
            println!("stopped the recorder of {}", p.display());
            Ok(())
        }
        Some("mark") => {
            a.only(&["--note"])?;
            let p = one_capture(&a, "mark")?;
            let kind = a.pos.get(2).map(String::as_str).unwrap_or("");
            if kind != "switch" && kind != "note" {
                return Err(usage(
                    "mark needs a kind: cacheproof-probe mark CAPTURE switch|note [--note TEXT]",
                ));
            }
            let id = recorder::mark(&p, kind, a.val("--note"))?;
            if !recorder::RecorderLock::is_held(&p) {
                eprintln!("note: no recorder is running for {}; the mark is stored and a resumed recorder will use it", p.display());
            }
            println!("marked {kind} (mark {id}) in {}", p.display());
            Ok(())
        }
        Some("lab") => cmd_lab(&a),
        Some("engine") => cmd_engine(&a),
        Some("import-trace") => cmd_import_trace(&a),
        Some("simulate") => cmd_simulate(&a),
        Some("latency") => cmd_latency(&a),
        Some("predict") => cmd_predict(&a),
        Some("index") => cmd_index(&a),
        Some(other) => Err(usage(format!(
            "unknown command '{other}'. Run 'cacheproof-probe --help' for the list."
        ))),
        None => Err(usage(
            "no command given. Run 'cacheproof-probe --help' for the list.",
        )),
    }
}

/// The adapter, its environment and the device of `engine describe|plan|stats|enable|disable`.
fn engine_target(
    a: &Args,
    verb: &str,
) -> anyhow::Result<(Box<dyn adapters::Adapter>, adapters::Env, String)> {
    let name = a.pos.get(2).ok_or_else(|| {
        usage(format!(
            "engine {verb} needs an adapter: {}",
            adapters::NAMES.join(", ")
        ))
    })?;
    let ad = adapters::by_name(name)?;
    let config = match a.val("--config") {
        Some(f) => adapters::EngineConfig::load(&abs(f)?)?,
        None => adapters::EngineConfig::default(),
    };
    if name == "command" && a.val("--config").is_none() {
        return Err(usage(
            "the command adapter needs --config FILE (its enable, disable and status argument vectors: docs/adapters.md)",
        ));
    }
    let env = adapters::Env::new(a.val("--sysfs-root"), config);
    let dev = if name == "manual" {
        a.val("--device").unwrap_or("-").to_string()
    } else {
        adapters::pick_device(ad.as_ref(), &env, a.val("--device"))?
    };
    Ok((ad, env, dev))
}

fn cmd_engine(a: &Args) -> anyhow::Result<()> {
    let verb = a.pos.get(1).map(String::as_str).unwrap_or("");
    let common = ["--device", "--config", "--sysfs-root", "--json"];
    match verb {
        "detect" => {
            a.only(&["--sysfs-root", "--json"])?;
            let env = adapters::Env::new(a.val("--sysfs-root"), adapters::EngineConfig::default());
            let mut found = Vec::new();
            for n in ["loop-dio", "bcache", "lvmcache", "opencas"] {
                found.extend(adapters::by_name(n)?.detect(&env));
            }
            if a.has("--json") {
                println!("{}", serde_json::to_string_pretty(&found)?);
            } else if found.is_empty() {
                println!("no cache engine found (loop-dio, bcache, lvmcache, opencas); the manual and command adapters need none");
            } else {
                for d in &found {
                    println!(
                        "{:<10} {:<20} {:<14} {}",
                        d.adapter, d.device, d.mode, d.description
                    );
                }
            }
            Ok(())
        }
        "describe" => {
            a.only(&common)?;
            let (ad, env, dev) = engine_target(a, verb)?;
            let mode = ad.mode(&env, &dev)?;
            if a.has("--json") {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "adapter": ad.name(), "device": dev, "mode": mode,
                        "description": ad.explain(&mode),
                        "enableMode": ad.enabled_mode(&env), "disableMode": ad.disabled_mode(&env)
                    }))?
                );
            } else {
                println!("{} {dev}: {mode} — {}", ad.name(), ad.explain(&mode));
            }
            Ok(())
        }
        "plan" => {
            a.only(&common)?;
            let (ad, env, dev) = engine_target(a, verb)?;
            let from = ad.mode(&env, &dev)?;
            let mut out = Vec::new();
            for (action, to) in [
                ("enable", ad.enabled_mode(&env)),
                ("disable", ad.disabled_mode(&env)),
            ] {
                let steps: Vec<String> = ad
                    .steps(&env, &dev, &from, &to)?
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                out.push((action, to, steps));
            }
            if a.has("--json") {
                let v: Vec<_> = out
                    .iter()
                    .map(|(ac, to, st)| serde_json::json!({"action": ac, "to": to, "steps": st}))
                    .collect();
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "adapter": ad.name(), "device": dev, "mode": from, "plans": v
                    }))?
                );
            } else {
                println!(
                    "{} {dev} is in mode {from} (dry run: nothing is changed)",
                    ad.name()
                );
                for (ac, to, st) in &out {
                    if st.is_empty() {
                        println!("{ac} (to {to}): nothing to do, already in that mode");
                    } else {
                        println!("{ac} (to {to}): {}", st.join("; then "));
                    }
                }
            }
            Ok(())
        }
        "stats" => {
            a.only(&common)?;
            let (ad, env, dev) = engine_target(a, verb)?;
            let st = ad.stats(&env, &dev)?;
            if a.has("--json") {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "adapter": ad.name(), "device": dev, "utcMs": cacheproof_probe::clock::utc_ms(), "stats": st
                    }))?
                );
            } else if st.is_empty() {
                println!(
                    "{} {dev}: the engine keeps no counters of its own",
                    ad.name()
                );
            } else {
                for s in &st {
                    println!("{:<32} {:>20} {:<14} {}", s.name, s.value, s.unit, s.window);
                }
            }
            Ok(())
        }
        "enable" | "disable" => {
            let mut allowed = common.to_vec();
            allowed.push("--yes");
            a.only(&allowed)?;
            let (ad, env, dev) = engine_target(a, verb)?;
            if !a.has("--yes") {
                return Err(usage(format!(
                    "engine {verb} changes the engine's mode: add --yes (the dry run is 'cacheproof-probe engine plan {} --device {dev}')",
                    ad.name()
                )));
            }
            let to = if verb == "enable" {
                ad.enabled_mode(&env)
            } else {
                ad.disabled_mode(&env)
            };
            let o = adapters::apply(ad.as_ref(), &env, &dev, verb, &to);
            if a.has("--json") {
                println!("{}", serde_json::to_string_pretty(&o)?);
            } else {
                for s in &o.steps {
                    println!("{} → {}", s.step, if s.ok { "ok" } else { "failed" });
                }
            }
            if let Some(e) = o.error {
                return Err(ProbeError::Tool {
                    tool: ad.name().to_string(),
                    message: e,
                }
                .into());
            }
            if !a.has("--json") {
                println!(
                    "{} {dev}: now {} — {}",
                    ad.name(),
                    o.mode_after.as_deref().unwrap_or("?"),
                    ad.explain(o.mode_after.as_deref().unwrap_or("?"))
                );
            }
            Ok(())
        }
        _ => Err(usage(
            "engine needs detect, describe, plan, stats, enable or disable",
        )),
    }
}

fn cmd_lab(a: &Args) -> anyhow::Result<()> {
    let dir = lab_dir(a);
    match a.pos.get(1).map(String::as_str) {
        Some("up") => {
            a.only(&["--dir", "--size-mb"])?;
            let st = lab::up(&dir, a.num("--size-mb", 256)?)?;
            println!(
                "lab up: front {} (cache off: direct I/O), backing {}, mounted at {}",
                st.front_device.as_deref().unwrap_or("?"),
                st.backing_device.as_deref().unwrap_or("?"),
                st.mount.as_deref().unwrap_or("?")
            );
            Ok(())
        }
        Some("down") => {
            a.only(&["--dir"])?;
            lab::down(&dir)?;
            println!("lab down: {} removed", dir.display());
            Ok(())
        }
        Some("status") => {
            a.only(&["--dir", "--json"])?;
            let s = lab::status(&dir);
            if a.has("--json") {
                println!("{}", serde_json::to_string_pretty(&s)?);
            } else if s.up {
                println!(
                    "lab up: front {} (cache {}), backing {}, mounted at {}",
                    s.front_device.as_deref().unwrap_or("?"),
                    s.cache.as_deref().unwrap_or("?"),
                    s.backing_device.as_deref().unwrap_or("?"),
                    s.mount.as_deref().unwrap_or("?")
                );
            } else {
                println!("lab down ({})", dir.display());
            }
            Ok(())
        }
        Some("switch") => {
            a.only(&["--dir"])?;
            let on = match a.pos.get(2).map(String::as_str) {
                Some("on") => true,
                Some("off") => false,
                _ => return Err(usage("lab switch needs on or off")),
            };
            lab::switch(&dir, on)?;
            println!(
                "lab cache {}",
                if on {
                    "on (page cache, --direct-io=off)"
                } else {
                    "off (direct I/O, --direct-io=on)"
                }
            );
            Ok(())
        }
        Some("workload") => {
            a.only(&[
                "--dir",
                "--seconds",
                "--hot-mb",
                "--read-iops",
                "--write-iops",
                "--read-only",
                "--json-out",
            ])?;
            let seconds = a.num("--seconds", 0)?;
            if seconds == 0 {
                return Err(usage("lab workload needs --seconds N (N > 0)"));
            }
            lab::workload(
                &dir,
                &lab::Workload {
                    seconds,
                    hot_mb: a.num("--hot-mb", 64)?,
                    read_iops: a.num("--read-iops", 800)?,
                    write_iops: a.num("--write-iops", 100)?,
                    read_only: a.has("--read-only"),
                    json_out: a.val("--json-out").map(PathBuf::from),
                },
            )?;
            Ok(())
        }
        _ => Err(usage("lab needs up, down, status, switch or workload")),
    }
}

fn cmd_import_trace(a: &Args) -> anyhow::Result<()> {
    a.only(&["--out", "--device-bytes", "--json"])?;
    let (Some(kind), Some(file)) = (a.pos.get(1), a.pos.get(2)) else {
        return Err(usage(format!(
            "import-trace needs KIND FILE --out CAPTURE (KIND: {})",
            tracein::Kind::names()
        )));
    };
    if let Some(extra) = a.pos.get(3) {
        return Err(usage(format!(
            "import-trace reads one FILE; '{extra}' is neither that nor an option's value here (one capture per trace file: run it once per file)"
        )));
    }
    let kind = tracein::Kind::parse(kind).ok_or_else(|| {
        usage(format!(
            "unknown trace kind '{kind}': one of {}",
            tracein::Kind::names()
        ))
    })?;
    let out = a
        .val("--out")
        .ok_or_else(|| usage("import-trace needs --out CAPTURE"))?;
    let opts = tracein::ReadOptions {
        device_bytes: a.val("--device-bytes").map(sim_size).transpose()?,
        detail: true,
    };
    let file = abs(file)?;
    let s = tracein::import(&file, kind, &abs(out)?, opts)?;
    if s.skipped > 0 {
        let mut m = format!(
            "import-trace: skipped {} of {} records of {}",
            s.skipped,
            s.records,
            file.display()
        );
        for (k, v) in &s.skipped_by_reason {
            m += &format!("; {v} {k}");
        }
        eprintln!("{m}");
        for b in s.skipped_examples.iter().take(10) {
            eprintln!("  line {}, column {}: {}", b.line, b.column, b.reason);
        }
    }
    if a.has("--json") {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        println!(
            "imported {} requests of {} ({} devices) into {}",
            s.imported,
            file.display(),
            s.devices.len(),
            s.out
        );
    }
    Ok(())
}

fn sim_size(s: &str) -> anyhow::Result<u64> {
    sim::cli::parse_size(s).ok_or_else(|| {
        usage(format!(
            "'{s}' is not a size: a whole number with B, KiB, MiB, GiB, TiB, KB, MB, GB or TB"
        ))
    })
}

/// `--policy lru,fifo,…` (default lru), each once, in the order given.
fn policy_list(a: &Args) -> anyhow::Result<Vec<sim::policy::PolicyKind>> {
    let mut policies = Vec::new();
    for p in a.val("--policy").unwrap_or("lru").split(',') {
        let k = sim::policy::PolicyKind::parse(p).ok_or_else(|| {
            usage(format!(
                "unknown policy '{p}': one of lru, fifo, clock, arc, 2q, s3fifo"
            ))
        })?;
        if !policies.contains(&k) {
            policies.push(k);
        }
    }
    Ok(policies)
}

fn cmd_simulate(a: &Args) -> anyhow::Result<()> {
    a.only(&[
        "--kind",
        "--policy",
        "--block",
        "--sizes",
        "--curve",
        "--writes",
        "--sample",
        "--sample-salt",
        "--lru-by-simulation",
        "--device-bytes",
        "--quiet",
        "--json",
    ])?;
    let input = a.pos.get(1).ok_or_else(|| {
        usage("simulate needs a capture or a trace: cacheproof-probe simulate CAPTURE|TRACE --sizes 1GiB")
    })?;
    if let Some(extra) = a.pos.get(2) {
        return Err(usage(format!(
            "simulate takes one capture or trace; '{extra}' is neither that nor an option's value here (cacheproof-probe --help lists the options)"
        )));
    }
    let policies = policy_list(a)?;
    let sizes = match a.val("--sizes") {
        Some(s) => s
            .split(',')
            .map(sim_size)
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    if sizes.is_empty() != a.has("--curve") {
        return Err(usage(
            "simulate needs either --sizes (e.g. --sizes 256MiB,1GiB) or --curve, not both",
        ));
    }
    let writes = a.val("--writes").unwrap_or("bypass");
    let o = sim::cli::SimOptions {
        policies,
        block: sim_size(a.val("--block").unwrap_or("4KiB"))?,
        sizes,
        curve: a.has("--curve"),
        writes: sim::WritePolicy::parse(writes).ok_or_else(|| {
            usage(format!(
                "--writes '{writes}': one of bypass, invalidate, allocate"
            ))
        })?,
        sample: a.val("--sample").map(sim::cli::parse_sample).transpose()?,
        sample_salt: match a.val("--sample-salt") {
            None => 0,
            Some(v) if a.val("--sample").is_none() => {
                return Err(usage(format!(
                    "--sample-salt {v} salts the sampling hash: give it with --sample"
                )))
            }
            Some(v) => v.parse::<u64>().map_err(|_| {
                usage(format!(
                    "--sample-salt '{v}': give a whole number from 0 to 18446744073709551615"
                ))
            })?,
        },
        kind: match a.val("--kind") {
            Some(k) => Some(tracein::Kind::parse(k).ok_or_else(|| {
                usage(format!(
                    "unknown trace kind '{k}': one of {}",
                    tracein::Kind::names()
                ))
            })?),
            None => None,
        },
        lru_by_simulation: a.has("--lru-by-simulation"),
        progress: !a.has("--quiet"),
        device_bytes: a.val("--device-bytes").map(sim_size).transpose()?,
    };
    let j = sim::cli::run(&abs(input)?, &o)?;
    if a.has("--json") {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", sim::cli::render(&j));
    }
    for n in &j.notes {
        eprintln!("simulate: note: {n}");
    }
    Ok(())
}

fn cmd_latency(a: &Args) -> anyhow::Result<()> {
    a.only(&["--store", "--json"])?;
    let p = only_capture(a, "latency")?;
    let j = cacheproof_probe::latency::run(&p, a.has("--store"))?;
    if a.has("--json") {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", cacheproof_probe::latency::render(&j));
    }
    Ok(())
}

/// `index CAPTURE [--json]`: (re)writes the interval table's columnar blocks of a closed capture
/// (docs/capture-schema.md, `interval_blocks`; a recording and an import write them as they end).
fn cmd_index(a: &Args) -> anyhow::Result<()> {
    a.only(&["--json"])?;
    let p = only_capture(a, "index")?;
    // The recorder's lock: no recording can start (or be running) while the blocks are written.
    // Its sidecar file is removed after when this command created it.
    let lock_file = recorder::lock_path(&p);
    let had_lock_file = lock_file.exists();
    let lock = recorder::RecorderLock::acquire(&p)?;
    let written = cacheproof_probe::capture::Capture::open(&p, true)
        .and_then(|mut cap| cap.write_interval_blocks());
    drop(lock);
    if !had_lock_file {
        let _ = std::fs::remove_file(&lock_file);
    }
    let s = written?;
    if a.has("--json") {
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

fn cmd_predict(a: &Args) -> anyhow::Result<()> {
    a.only(&[
        "--size",
        "--block",
        "--devices",
        "--warmup",
        "--store",
        "--policy",
        "--cache-device",
        "--threads",
        "--quiet",
        "--json",
    ])?;
    let p = only_capture(a, "predict")?;
    let threads = match a.val("--threads") {
        None => 0,
        Some(t) => match t.parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(usage(format!(
                "--threads {t}: give a whole number of threads, 1 or more (default: one per core)"
            )))
            }
        },
    };
    let size = a.val("--size").ok_or_else(|| {
        usage("predict needs the cache's size: cacheproof-probe predict CAPTURE --size 64MiB")
    })?;
    let o = sim::predict::PredictOptions {
        size: sim_size(size)?,
        block: sim_size(a.val("--block").unwrap_or("4KiB"))?,
        devices: a
            .val("--devices")
            .map(|d| d.split(',').map(str::to_string).collect()),
        warmup_s: a.val("--warmup").map(plan::parse_duration).transpose()?,
        store: a.has("--store"),
        policies: policy_list(a)?,
        cache_device: a
            .val("--cache-device")
            .map(sim::cachedev::parse)
            .transpose()?,
        progress: !a.has("--quiet"),
        threads,
    };
    let j = sim::predict::run(&p, &o)?;
    if a.has("--json") {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", sim::predict::render(&j));
    }
    for n in &j.notes {
        eprintln!("predict: note: {n}");
    }
    Ok(())
}

fn main() -> ExitCode {
    // A closed stdout or stderr (`cacheproof-probe devices --json | head -1`) ends the process
    // quietly, as for other Unix tools (killed by SIGPIPE: 141 in the shell), instead of
    // Rust's default of ignoring SIGPIPE and panicking on the failed print.
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match raw.first().map(String::as_str) {
        Some("--version") | Some("-V") => {
            println!("cacheproof-probe {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Some("--help") | Some("-h") | Some("help") | None => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    match run(&raw) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = e
                .downcast_ref::<ProbeError>()
                .map(ProbeError::exit_code)
                .unwrap_or(1);
            eprintln!("cacheproof-probe: {e:#}");
            ExitCode::from(code)
        }
    }
}
