//! `engine detect|describe|plan|stats|enable|disable` (docs/adapters.md).

use clap::{Args, Subcommand};

use super::{abs, usage};
use crate::{adapters, ProbeError};

#[derive(Debug, Args)]
pub struct EngineArgs {
    #[command(subcommand)]
    pub verb: EngineCmd,
}

#[derive(Debug, Subcommand)]
pub enum EngineCmd {
    /// Find the cache engines on this machine (loop-dio, bcache, lvmcache, opencas)
    Detect(DetectArgs),
    /// An engine's device and its mode
    Describe(TargetArgs),
    /// What enable and disable would run (a dry run: nothing is changed)
    Plan(TargetArgs),
    /// The engine's own counters
    Stats(TargetArgs),
    /// Switch the engine's cache on (needs --yes)
    Enable(SwitchArgs),
    /// Switch the engine's cache off (needs --yes)
    Disable(SwitchArgs),
}

#[derive(Debug, Args)]
pub struct DetectArgs {
    /// Read sysfs under DIR instead of /sys
    #[arg(long, value_name = "DIR")]
    pub sysfs_root: Option<String>,
    /// The engines found, as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// The cache engine's adapter (docs/adapters.md)
    #[arg(value_name = "ADAPTER", value_parser = super::values::adapter())]
    pub adapter: String,
    /// The engine's device (default: the only one found)
    #[arg(long, value_name = "DEV")]
    pub device: Option<String>,
    /// The adapter's config file (the command adapter needs one)
    #[arg(long, value_name = "FILE")]
    pub config: Option<String>,
    /// Read sysfs under DIR instead of /sys
    #[arg(long, value_name = "DIR")]
    pub sysfs_root: Option<String>,
    /// The answer as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SwitchArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Change the engine's mode (without it nothing is changed)
    #[arg(long)]
    pub yes: bool,
}

/// The adapter, its environment and the device of `engine describe|plan|stats|enable|disable`.
fn engine_target(
    a: &TargetArgs,
) -> anyhow::Result<(Box<dyn adapters::Adapter>, adapters::Env, String)> {
    let name = a.adapter.as_str();
    let ad = adapters::by_name(name)?;
    let config = match &a.config {
        Some(f) => adapters::EngineConfig::load(&abs(f)?)?,
        None => adapters::EngineConfig::default(),
    };
    if name == "command" && a.config.is_none() {
        return Err(usage(
            "the command adapter needs --config FILE (its enable, disable and status argument vectors: docs/adapters.md)",
        ));
    }
    let env = adapters::Env::new(a.sysfs_root.as_deref(), config);
    let dev = if name == "manual" {
        a.device.as_deref().unwrap_or("-").to_string()
    } else {
        adapters::pick_device(ad.as_ref(), &env, a.device.as_deref())?
    };
    Ok((ad, env, dev))
}

pub fn run(a: &EngineArgs) -> anyhow::Result<()> {
    match &a.verb {
        EngineCmd::Detect(d) => detect(d),
        EngineCmd::Describe(t) => describe(t),
        EngineCmd::Plan(t) => plan(t),
        EngineCmd::Stats(t) => stats(t),
        EngineCmd::Enable(s) => switch(s, "enable"),
        EngineCmd::Disable(s) => switch(s, "disable"),
    }
}

fn detect(a: &DetectArgs) -> anyhow::Result<()> {
    let env = adapters::Env::new(a.sysfs_root.as_deref(), adapters::EngineConfig::default());
    let mut found = Vec::new();
    for n in ["loop-dio", "bcache", "lvmcache", "opencas"] {
        found.extend(adapters::by_name(n)?.detect(&env));
    }
    if a.json {
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

fn describe(a: &TargetArgs) -> anyhow::Result<()> {
    let (ad, env, dev) = engine_target(a)?;
    let mode = ad.mode(&env, &dev)?;
    if a.json {
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

fn plan(a: &TargetArgs) -> anyhow::Result<()> {
    let (ad, env, dev) = engine_target(a)?;
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
    if a.json {
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

fn stats(a: &TargetArgs) -> anyhow::Result<()> {
    let (ad, env, dev) = engine_target(a)?;
    let st = ad.stats(&env, &dev)?;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "adapter": ad.name(), "device": dev, "utcMs": crate::clock::utc_ms(), "stats": st
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

fn switch(s: &SwitchArgs, verb: &str) -> anyhow::Result<()> {
    let a = &s.target;
    let (ad, env, dev) = engine_target(a)?;
    if !s.yes {
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
    if a.json {
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
    if !a.json {
        println!(
            "{} {dev}: now {} — {}",
            ad.name(),
            o.mode_after.as_deref().unwrap_or("?"),
            ad.explain(o.mode_after.as_deref().unwrap_or("?"))
        );
    }
    Ok(())
}
