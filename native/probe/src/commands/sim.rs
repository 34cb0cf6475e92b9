//! `simulate`, `latency` and `predict` (docs/simulate.md), and the size and sampling values
//! they read.

use clap::Args;

use super::{abs, only_capture, usage};
use crate::sim::stack::Sampling;
use crate::trace::import as tracein;
use crate::{plan, sim};

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

/// A size in bytes, or the usage error naming the value.
pub(crate) fn sim_size(s: &str) -> anyhow::Result<u64> {
    parse_size(s).ok_or_else(|| {
        usage(format!(
            "'{s}' is not a size: a whole number with B, KiB, MiB, GiB, TiB, KB, MB, GB or TB"
        ))
    })
}

/// The policies of `--policy`, each once, in the order given (the first gives the figures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policies(pub Vec<sim::policy::PolicyKind>);

/// `--policy lru,fifo,…` as clap parses it: each name one of lru, fifo, clock, arc, 2q, s3fifo.
pub fn parse_policies(p: &str) -> Result<Policies, String> {
    let mut policies = Vec::new();
    for p in p.split(',') {
        let k = sim::policy::PolicyKind::parse(p).ok_or_else(|| {
            format!("unknown policy '{p}': one of lru, fifo, clock, arc, 2q, s3fifo")
        })?;
        if !policies.contains(&k) {
            policies.push(k);
        }
    }
    Ok(Policies(policies))
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["sizes", "curve"])))]
pub struct SimulateArgs {
    /// A capture recorded with --trace, or a trace file (with --kind)
    #[arg(value_name = "CAPTURE|TRACE")]
    pub input: String,
    #[arg(hide = true)]
    pub extra: Vec<String>,
    /// The trace file's format: msr, blkparse, cloudphysics, disksim, msn, oracle-general
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// The policies, comma-separated: lru, fifo, clock, arc, 2q, s3fifo
    #[arg(long, value_name = "LIST", default_value = "lru", value_parser = parse_policies)]
    pub policy: Policies,
    /// The cache block's size
    #[arg(long, value_name = "SIZE", default_value = "4KiB")]
    pub block: String,
    /// The cache sizes, e.g. 256MiB,1GiB
    #[arg(long, value_name = "LIST")]
    pub sizes: Option<String>,
    /// 40 sizes from one block to the footprint
    #[arg(long)]
    pub curve: bool,
    /// What a write does: bypass, invalidate or allocate
    #[arg(long, value_name = "MODE", default_value = "bypass")]
    pub writes: String,
    /// SHARDS sampling (LRU only)
    #[arg(long, value_name = "fixed-rate=R|fixed-size=N", value_parser = parse_sample)]
    pub sample: Option<Sampling>,
    /// The sampling hash's salt (another salt samples other blocks)
    #[arg(long, value_name = "S", requires = "sample")]
    pub sample_salt: Option<u64>,
    /// Miniature simulation of every policy on a spatial sample of the requests at rate R
    #[arg(long, value_name = "R")]
    pub miniature: Option<f64>,
    /// LRU by exact simulation instead of stack distances
    #[arg(long)]
    pub lru_by_simulation: bool,
    /// The device size of a trace whose format does not give it
    #[arg(long, value_name = "SIZE")]
    pub device_bytes: Option<String>,
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
    pub capture: String,
    #[arg(hide = true)]
    pub extra: Vec<String>,
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
    pub capture: String,
    #[arg(hide = true)]
    pub extra: Vec<String>,
    /// The cache's size, e.g. 64MiB
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// The cache block's size
    #[arg(long, value_name = "SIZE", default_value = "4KiB")]
    pub block: String,
    /// The devices the cache serves (default: every traced device)
    #[arg(long, value_name = "a,b")]
    pub devices: Option<String>,
    /// The warm-up left out of the figures
    #[arg(long, value_name = "DURATION")]
    pub warmup: Option<String>,
    /// Store the prediction in the capture
    #[arg(long)]
    pub store: bool,
    /// The policies, comma-separated: lru, fifo, clock, arc, 2q, s3fifo (the first gives the figures)
    #[arg(long, value_name = "LIST", default_value = "lru", value_parser = parse_policies)]
    pub policy: Policies,
    /// The cache device: ram, sata-ssd, nvme or a latency
    #[arg(long, value_name = "ram|sata-ssd|nvme|LATENCY")]
    pub cache_device: Option<String>,
    /// Threads (default: one per core)
    #[arg(long, value_name = "N")]
    pub threads: Option<String>,
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

pub fn simulate(a: &SimulateArgs) -> anyhow::Result<()> {
    if let Some(extra) = a.extra.first() {
        return Err(usage(format!(
            "simulate takes one capture or trace; '{extra}' is neither that nor an option's value here (cacheproof-probe simulate --help lists the options)"
        )));
    }
    let sizes = match &a.sizes {
        Some(s) => s
            .split(',')
            .map(sim_size)
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    let writes = &a.writes;
    let o = sim::cli::SimOptions {
        policies: a.policy.0.clone(),
        block: sim_size(&a.block)?,
        sizes,
        curve: a.curve,
        writes: sim::WritePolicy::parse(writes).ok_or_else(|| {
            usage(format!(
                "--writes '{writes}': one of bypass, invalidate, allocate"
            ))
        })?,
        sample: a.sample,
        sample_salt: a.sample_salt.unwrap_or(0),
        miniature: a.miniature,
        kind: match &a.kind {
            Some(k) => Some(tracein::Kind::parse(k).ok_or_else(|| {
                usage(format!(
                    "unknown trace kind '{k}': one of {}",
                    tracein::Kind::names()
                ))
            })?),
            None => None,
        },
        lru_by_simulation: a.lru_by_simulation,
        progress: !a.quiet,
        device_bytes: a.device_bytes.as_deref().map(sim_size).transpose()?,
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
    let p = only_capture(&a.capture, &a.extra, "latency")?;
    let j = crate::trace::latency::run(&p, a.store)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print!("{}", crate::trace::latency::render(&j));
    }
    Ok(())
}

pub fn predict(a: &PredictArgs) -> anyhow::Result<()> {
    let p = only_capture(&a.capture, &a.extra, "predict")?;
    let threads = match &a.threads {
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
    let size = a.size.as_deref().ok_or_else(|| {
        usage("predict needs the cache's size: cacheproof-probe predict CAPTURE --size 64MiB")
    })?;
    let o = sim::predict::PredictOptions {
        size: sim_size(size)?,
        block: sim_size(&a.block)?,
        devices: a
            .devices
            .as_ref()
            .map(|d| d.split(',').map(str::to_string).collect()),
        warmup_s: a.warmup.as_deref().map(plan::parse_duration).transpose()?,
        store: a.store,
        policies: a.policy.0.clone(),
        cache_device: a
            .cache_device
            .as_deref()
            .map(sim::cachedev::parse)
            .transpose()?,
        progress: !a.quiet,
        threads,
        exact: a.exact,
    };
    let j = sim::predict::run(&p, &o)?;
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
