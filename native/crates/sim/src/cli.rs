//! The `simulate` command: reads a capture or a trace, runs the policies at the sizes asked,
//! and returns the JSON of docs/simulate.md.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use super::cli_replay::Replay;
use super::policy::PolicyKind;
use super::stack::Sampling;
use super::{Counts, Req, WritePolicy};
use crate::error::{ProbeError, Result};
use crate::trace::import::{self as tracein, Kind, ReadOptions, Trace};

pub use super::cli_render::render;

/// What `simulate` was asked.
#[derive(Debug, Clone)]
pub struct SimOptions {
    pub policies: Vec<PolicyKind>,
    pub block: u64,
    /// Sizes in bytes; empty with `curve`.
    pub sizes: Vec<u64>,
    pub curve: bool,
    pub writes: WritePolicy,
    pub sample: Option<Sampling>,
    /// Salt of the sampling hash (0: the default hash); another salt samples other blocks.
    pub sample_salt: u64,
    /// Miniature simulation of every policy on the requests a spatial sample of this rate keeps
    /// (`--miniature R`, mini.rs).
    pub miniature: Option<f64>,
    /// Trace kind when the input is not a capture.
    pub kind: Option<Kind>,
    /// LRU by exact simulation instead of stack distances.
    pub lru_by_simulation: bool,
    pub progress: bool,
    pub device_bytes: Option<u64>,
}

fn usage(s: impl Into<String>) -> ProbeError {
    ProbeError::Usage(s.into())
}

/// One size's figures.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeJson {
    pub bytes: u64,
    pub blocks: u64,
    pub request_hit_ratio: Option<f64>,
    pub byte_hit_ratio: Option<f64>,
    pub block_hit_ratio: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<Counts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<Counts>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyJson {
    pub policy: &'static str,
    /// `exact-stack`, `exact-simulation`, `shards-fixed-rate` or `shards-fixed-size`.
    pub method: &'static str,
    /// SHARDS only: which estimator made the curve from the sample, `calibrated-regression`
    /// (the trace's references and footprint known exactly) or `horvitz-thompson` (not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimator: Option<&'static str>,
    pub elapsed_s: f64,
    /// Block references processed per second of `elapsedS` (all sizes of this policy).
    pub references_per_s: f64,
    pub sizes: Vec<SizeJson>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingJson {
    pub mode: &'static str,
    pub parameter: f64,
    pub final_rate: f64,
    pub references: u64,
    pub sampled: u64,
    /// The sampling hash's salt (`--sample-salt`, 0 by default).
    pub salt: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InputJson {
    pub file: String,
    pub kind: String,
    pub records: u64,
    pub requests: u64,
    pub read_requests: u64,
    pub write_requests: u64,
    pub discard_requests: u64,
    pub not_simulated: u64,
    pub skipped: u64,
    pub skipped_by_reason: std::collections::BTreeMap<String, u64>,
    pub skipped_examples: Vec<tracein::BadRecord>,
    pub devices: Vec<String>,
    pub duration_s: f64,
    pub read_s: f64,
    /// A sampled capture's final rate (1 = every request; trace files are never sampled).
    pub sample_rate: f64,
    /// Rows of a sampled capture above its final threshold, left out.
    pub above_final_rate: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimJson {
    pub input: InputJson,
    pub block_bytes: u64,
    pub writes: &'static str,
    /// Distinct blocks the counted references touch.
    pub footprint_blocks: u64,
    pub footprint_bytes: u64,
    /// Block references the policies see (counted requests split into blocks).
    pub references: u64,
    pub sampling: Option<SamplingJson>,
    pub policies: Vec<PolicyJson>,
    pub notes: Vec<String>,
}

fn is_capture(path: &Path) -> bool {
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && &head == b"SQLite format 3\0"
}

fn counted(r: &Req, w: WritePolicy) -> bool {
    match r.op {
        super::Op::Read => true,
        super::Op::Write => w == WritePolicy::Allocate,
        super::Op::Discard => false,
    }
}

/// Sizes of `--curve`: 40 sizes spaced evenly on a log scale from one block to the footprint.
pub fn curve_sizes(footprint_blocks: u64) -> Vec<u64> {
    let f = footprint_blocks.max(1);
    let mut v: Vec<u64> = (0..40)
        .map(|i| ((f as f64).powf(f64::from(i + 1) / 40.0)).round().max(1.0) as u64)
        .collect();
    v.dedup();
    v
}

/// Run `simulate`.
pub fn run(input: &Path, o: &SimOptions) -> Result<SimJson> {
    check_options(o)?;
    let t0 = Instant::now();
    let (tr, kind) = read_input(input, o)?;
    let read_s = t0.elapsed().as_secs_f64();
    if o.progress {
        if let Some(s) = tr.bad_summary(input) {
            eprintln!("simulate: {s}");
        }
        eprintln!(
            "simulate: read {} requests from {} in {:.1} s",
            tr.reqs.len(),
            input.display(),
            read_s
        );
    }
    let mut notes: Vec<String> = sampled_trace_note(input, o, &tr)?.into_iter().collect();
    let reqs = &tr.reqs;
    let rate = tr.sample_rate.unwrap_or(1.0);
    let ops = OpCounts::of(reqs);
    let counted_reqs: Vec<Req> = reqs
        .iter()
        .filter(|r| counted(r, o.writes))
        .copied()
        .collect();
    let references: u64 = counted_reqs
        .iter()
        .map(|r| (r.offset + r.bytes - 1) / o.block - r.offset / o.block + 1)
        .sum();
    let fp_sampled = super::footprint(&counted_reqs, o.block);
    let fp = (fp_sampled as f64 / rate).round() as u64;
    if fp_sampled == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{}: no request the cache would see with --writes {} ({} reads, {} writes)",
            input.display(),
            o.writes.name(),
            ops.reads,
            ops.writes
        )));
    }
    let blocks = cache_blocks(o, fp, &mut notes)?;
    let mut sampling = None;
    let stream = o
        .miniature
        .map(|r| miniature_stream(reqs, o.block, r, references, &mut notes, &mut sampling));
    let replay = Replay {
        o,
        reqs,
        counted: &counted_reqs,
        blocks: &blocks,
        rate,
        // distinct blocks counted exactly (a hash set of every block above) unless sampled
        footprint: (rate >= 1.0).then_some(fp_sampled),
        stream: stream.as_ref(),
    };
    let policies = o
        .policies
        .iter()
        .map(|p| replay.policy(*p, references, &mut sampling))
        .collect();
    Ok(SimJson {
        input: input_json(input, kind, &tr, ops, read_s),
        block_bytes: o.block,
        writes: o.writes.name(),
        footprint_blocks: fp,
        footprint_bytes: fp * o.block,
        references,
        sampling,
        policies,
        notes,
    })
}

/// The rules between the options that clap cannot check (they depend on the values; that
/// --miniature and --sample exclude each other, and --miniature's range, are clap's).
fn check_options(o: &SimOptions) -> Result<()> {
    if o.block == 0 || !o.block.is_multiple_of(512) {
        return Err(usage(format!(
            "--block {} must be a whole number of 512-byte sectors (e.g. 4KiB)",
            o.block
        )));
    }
    if o.sample.is_some() && o.policies.iter().any(|p| *p != PolicyKind::Lru) {
        return Err(usage(
            "--sample (SHARDS) gives LRU curves only: use it with --policy lru",
        ));
    }
    if o.sample.is_some() && o.writes == WritePolicy::Invalidate {
        return Err(usage(
            "--sample (SHARDS) needs --writes bypass or allocate: invalidation has no LRU stack property",
        ));
    }
    Ok(())
}

/// The requests of a capture, or of a trace file of the kind given, and the input's kind.
fn read_input(input: &Path, o: &SimOptions) -> Result<(Trace, String)> {
    if is_capture(input) {
        return Ok((tracein::load_capture(input)?, "capture".into()));
    }
    let Some(k) = o.kind else {
        if !input.exists() {
            return Err(ProbeError::BadTrace(format!(
                "no capture or trace at {}",
                input.display()
            )));
        }
        return Err(usage(format!(
            "{} is not a capture: give its trace format with --kind ({})",
            input.display(),
            Kind::names()
        )));
    };
    let opts = ReadOptions {
        device_bytes: o.device_bytes,
        detail: false,
        qpc_hz: None,
        start_utc_ms: None,
    };
    Ok((tracein::read(input, k, opts)?, k.name().into()))
}

/// A sampled capture (record --trace-sample / --trace-budget): its rows below the final
/// threshold are a uniform sample at rate R (trace::sampling); figures are scaled to the whole
/// trace, and the note says so. Sampling it again is refused.
fn sampled_trace_note(input: &Path, o: &SimOptions, tr: &Trace) -> Result<Option<String>> {
    let rate = tr.sample_rate.unwrap_or(1.0);
    if rate >= 1.0 {
        return Ok(None);
    }
    if o.miniature.is_some() {
        return Err(usage(format!(
            "{}: its trace is a spatial sample already; simulate it without --miniature",
            input.display()
        )));
    }
    let r = crate::trace::sampling::fmt_rate(rate);
    if o.sample.is_some() {
        return Err(usage(format!(
            "{}: its trace keeps a share {r} of the block addresses already; simulate it without --sample (its LRU distances are scaled by 1/{r})",
            input.display(),
        )));
    }
    Ok(Some(format!(
        "the capture's trace keeps a share {r} of the block addresses (a spatial sample; {} rows stored before the rate last fell are left out): LRU stack distances and the footprint are scaled by 1/R, and other policies are simulated at R × each cache size (miniature simulation, Waldspurger et al., USENIX ATC 2017); the figures are estimates with a sampling error",
        tr.above_final_rate
    )))
}

/// The requests by operation.
#[derive(Debug, Clone, Copy, Default)]
struct OpCounts {
    reads: u64,
    writes: u64,
    discards: u64,
}

impl OpCounts {
    fn of(reqs: &[Req]) -> OpCounts {
        let mut c = OpCounts::default();
        for r in reqs {
            match r.op {
                super::Op::Read => c.reads += 1,
                super::Op::Write => c.writes += 1,
                super::Op::Discard => c.discards += 1,
            }
        }
        c
    }
}

/// The cache sizes in blocks: `--curve`'s, or `--sizes` (each at least one block; a note for a
/// size above the footprint `fp`).
fn cache_blocks(o: &SimOptions, fp: u64, notes: &mut Vec<String>) -> Result<Vec<u64>> {
    if o.curve {
        return Ok(curve_sizes(fp));
    }
    let mut v = Vec::new();
    for s in &o.sizes {
        if *s == 0 {
            return Err(usage("a cache size of 0 bytes holds nothing: give sizes above one block (e.g. --sizes 256MiB,1GiB)"));
        }
        if *s < o.block {
            return Err(usage(format!(
                "cache size {s} bytes is smaller than one {}-byte block",
                o.block
            )));
        }
        let b = s / o.block;
        if b > fp {
            notes.push(format!(
                "the cache of {s} bytes ({b} blocks) is larger than the trace's footprint of {fp} blocks ({} bytes): it holds every block, so it only misses first references; a larger cache gains nothing here",
                fp * o.block
            ));
        }
        v.push(b);
    }
    Ok(v)
}

/// `--miniature R`: the block references a spatial sample at rate R keeps, with its note and
/// its sampling figures.
fn miniature_stream(
    reqs: &[Req],
    block: u64,
    r: f64,
    references: u64,
    notes: &mut Vec<String>,
    sampling: &mut Option<SamplingJson>,
) -> super::mini_stream::Stream {
    let s = super::mini_stream::Stream::build(reqs, block, super::mini::threshold_of(r), |_| true);
    notes.push(format!(
        "miniature simulation: the {} block references whose block hashes below the threshold of rate {} are replayed, of {} (each policy on a cache of R × each size; Waldspurger et al., USENIX ATC 2017); a request counts when its first block is kept and hits when every kept block of it hits; no byte figures",
        s.keys.len(),
        crate::trace::sampling::fmt_rate(s.rate()),
        references
    ));
    *sampling = Some(SamplingJson {
        mode: "miniature",
        parameter: r,
        final_rate: s.rate(),
        references,
        sampled: s.keys.len() as u64,
        salt: 0,
    });
    s
}

/// What the input held.
fn input_json(input: &Path, kind: String, tr: &Trace, ops: OpCounts, read_s: f64) -> InputJson {
    let first = tr.reqs.first().map(|r| r.t_ns).unwrap_or(0);
    let last = tr.reqs.last().map(|r| r.t_ns).unwrap_or(0);
    InputJson {
        file: input.display().to_string(),
        kind,
        records: tr.records,
        requests: tr.reqs.len() as u64,
        read_requests: ops.reads,
        write_requests: ops.writes,
        discard_requests: ops.discards,
        not_simulated: tr.other_lines,
        skipped: tr.bad(),
        skipped_by_reason: tr.bad_by_reason.clone(),
        skipped_examples: tr.bad_examples.clone(),
        devices: tr.devices.clone(),
        duration_s: (last - first) as f64 / 1e9,
        read_s,
        sample_rate: tr.sample_rate.unwrap_or(1.0),
        above_final_rate: tr.above_final_rate,
    }
}
