//! `simulate`, `latency` and `predict` (docs/simulate.md), and the size and sampling values
//! they read.

use std::path::PathBuf;

use clap::Args;

use super::{abs, values};
use crate::sim;
use crate::sim::policy::PolicyKind;
use crate::sim::stack::Sampling;
use crate::trace::import as tracein;

/// Parse a size: a whole number with an optional unit B, KiB, MiB, GiB, TiB (powers of 1024)
/// or KB, MB, GB, TB (powers of 1000).
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let i = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (n, u) = s.split_at(i);
    let n: f64 = n.parse().ok()?;
    let m: u64 = match u.trim() {
        "" | "B" => 1,
        "KiB" | "K" | "k" => 1 << 10,
        "MiB" | "M" => 1 << 20,
        "GiB" | "G" => 1 << 30,
        "TiB" | "T" => 1 << 40,
        "KB" | "kB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        _ => return None,
    };
    let v = n * m as f64;
    (v.is_finite() && (0.0..1.8e19).contains(&v) && v.fract() == 0.0).then_some(v as u64)
}

/// Parse `--sample fixed-rate=R|fixed-size=N` (clap's value parser: clap names the flag).
pub fn parse_sample(s: &str) -> Result<Sampling, String> {
    let bad = || {
        format!(
            "give fixed-rate=R (0 < R ≤ 1, e.g. fixed-rate=0.01) or fixed-size=N (N ≥ 1 blocks, e.g. fixed-size=32768), not '{s}'"
        )
    };
    match s.split_once('=') {
        Some(("fixed-rate", r)) => {
            let r: f64 = r.parse().map_err(|_| bad())?;
            if r > 0.0 && r <= 1.0 {
                Ok(Sampling::FixedRate(r))
            } else {
                Err(bad())
            }
        }
        Some(("fixed-size", n)) => {
            let n: usize = n.parse().map_err(|_| bad())?;
            if n >= 1 {
                Ok(Sampling::FixedSize(n))
            } else {
                Err(bad())
            }
        }
        _ => Err(bad()),
    }
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["sizes", "curve"])))]
pub struct SimulateArgs {
    /// A capture recorded with --trace, or a trace file (with --kind)
    #[arg(value_name = "CAPTURE|TRACE")]
    pub input: PathBuf,
    /// The trace file's format
    #[arg(long, value_name = "KIND", value_parser = values::trace_kind())]
    pub kind: Option<tracein::Kind>,
    /// The policies, comma-separated (the first gives the figures)
    #[arg(long, value_name = "LIST", default_value = "lru", value_delimiter = ',', value_parser = values::policy())]
    pub policy: Vec<PolicyKind>,
    /// The cache block's size
    #[arg(long, value_name = "SIZE", default_value = "4KiB", value_parser = values::size)]
    pub block: u64,
    /// The cache sizes, comma-separated, e.g. 256MiB,1GiB
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = values::size)]
    pub sizes: Vec<u64>,
    /// 40 sizes from one block to the footprint
    #[arg(long)]
    pub curve: bool,
    /// What a write does
    #[arg(long, value_name = "MODE", default_value = "bypass", value_parser = values::writes())]
    pub writes: sim::WritePolicy,
    /// SHARDS sampling (LRU only)
    #[arg(long, value_name = "fixed-rate=R|fixed-size=N", value_parser = parse_sample)]
    pub sample: Option<Sampling>,
    /// The sampling hash's salt (another salt samples other blocks)
    #[arg(long, value_name = "S", requires = "sample")]
    pub sample_salt: Option<u64>,
    /// Miniature simulation of every policy on a spatial sample of the requests at rate R,
    /// 0 < R ≤ 1 (one sampling: not with --sample)
    #[arg(long, value_name = "R", value_parser = values::share, conflicts_with = "sample")]
    pub miniature: Option<f64>,
    /// LRU by exact simulation instead of stack distances
    #[arg(long)]
    pub lru_by_simulation: bool,
    /// The device size of a trace whose format does not give it
    #[arg(long, value_name = "SIZE", value_parser = values::size)]
    pub device_bytes: Option<u64>,
    /// No progress on stderr
    #[arg(long)]
    pub quiet: bool,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct LatencyArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    /// Store the latency histograms in the capture
    #[arg(long)]
    pub store: bool,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PredictArgs {
    #[arg(value_name = "CAPTURE")]
    pub capture: PathBuf,
    /// The cache's size, e.g. 64MiB
    #[arg(long, value_name = "SIZE", required = true, value_parser = values::size)]
    pub size: u64,
    /// The cache block's size
    #[arg(long, value_name = "SIZE", default_value = "4KiB", value_parser = values::size)]
    pub block: u64,
    /// The devices the cache serves, comma-separated (default: every traced device)
    #[arg(long, value_name = "a,b", value_delimiter = ',')]
    pub devices: Option<Vec<String>>,
    /// The warm-up left out of the figures
    #[arg(long, value_name = "DURATION", value_parser = values::duration)]
    pub warmup: Option<f64>,
    /// Store the prediction in the capture
    #[arg(long)]
    pub store: bool,
    /// The policies, comma-separated (the first gives the figures)
    #[arg(long, value_name = "LIST", default_value = "lru", value_delimiter = ',', value_parser = values::policy())]
    pub policy: Vec<PolicyKind>,
    /// The cache device: a preset (ram, sata-ssd, nvme) or a read latency (50us, 1ms)
    #[arg(long, value_name = "PRESET|LATENCY", value_parser = values::cache_device)]
    pub cache_device: Option<sim::cachedev::CacheDevice>,
    /// Threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = values::threads)]
    pub threads: Option<usize>,
    /// Replay every request even when the window is large (no miniature simulation)
    #[arg(long)]
    pub exact: bool,
    /// No progress on stderr
    #[arg(long)]
    pub quiet: bool,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
}

/// The policies of `--policy`, each once, in the order given (the first gives the figures).
fn each_once(policies: &[PolicyKind]) -> Vec<PolicyKind> {
    let mut out = Vec::new();
    for p in policies {
        if !out.contains(p) {
            out.push(*p);
        }
    }
    out
}

pub fn simulate(a: &SimulateArgs) -> anyhow::Result<()> {
    let o = sim::cli::SimOptions {
        policies: each_once(&a.policy),
        block: a.block,
        sizes: a.sizes.clone(),
        curve: a.curve,
        writes: a.writes,
        sample: a.sample,
        sample_salt: a.sample_salt.unwrap_or(0),
        miniature: a.miniature,
        kind: a.kind,
        lru_by_simulation: a.lru_by_simulation,
        progress: !a.quiet,
        device_bytes: a.device_bytes,
    };
    let j = sim::cli::run(&abs(&a.input)?, &o)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", sim::cli::render(&j));
    }
    for n in &j.notes {
        eprintln!("simulate: note: {n}");
    }
    Ok(())
}

pub fn latency(a: &LatencyArgs) -> anyhow::Result<()> {
    let j = crate::trace::latency::run(&abs(&a.capture)?, a.store)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", crate::trace::latency::render(&j));
    }
    Ok(())
}

pub fn predict(a: &PredictArgs) -> anyhow::Result<()> {
    let o = sim::predict::PredictOptions {
        size: a.size,
        block: a.block,
        devices: a.devices.clone(),
        warmup_s: a.warmup,
        store: a.store,
        policies: each_once(&a.policy),
        cache_device: a.cache_device.clone(),
        progress: !a.quiet,
        threads: a.threads.unwrap_or(0),
        exact: a.exact,
    };
    let j = sim::predict::run(&abs(&a.capture)?, &o)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", sim::predict::render(&j));
    }
    for n in &j.notes {
        eprintln!("predict: note: {n}");
    }
    Ok(())
}
