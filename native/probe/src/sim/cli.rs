//! The `simulate` command: reads a capture or a trace, runs the policies at the sizes asked,
//! and returns the JSON of docs/simulate.md.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use super::policy::PolicyKind;
use super::stack::Sampling;
use super::{lru_curve_scaled, shards_curve, simulate_with, Counts, Req, WritePolicy};
use crate::error::{ProbeError, Result};
use crate::trace::import::{self as tracein, Kind, ReadOptions, Trace};

pub use super::cli_render::render;
use super::cli_render::Progress;

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
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn run(input: &Path, o: &SimOptions) -> Result<SimJson> {
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
    let t0 = Instant::now();
    if o.miniature.is_some() && o.sample.is_some() {
        return Err(usage(
            "--miniature and --sample are two samplings: give one (--miniature samples requests for every policy, --sample blocks for LRU's SHARDS curve)",
        ));
    }
    if let Some(r) = o.miniature.filter(|r| !(*r > 0.0 && *r <= 1.0)) {
        return Err(usage(format!(
            "--miniature {r}: a rate above 0 and at most 1 (e.g. 0.05)"
        )));
    }
    let (tr, kind): (Trace, String) = if is_capture(input) {
        (tracein::load_capture(input)?, "capture".into())
    } else {
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
        (
            tracein::read(
                input,
                k,
                ReadOptions {
                    device_bytes: o.device_bytes,
                    detail: false,
                    qpc_hz: None,
                    start_utc_ms: None,
                },
            )?,
            k.name().into(),
        )
    };
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
    let mut notes = Vec::new();
    if o.miniature.is_some() && tr.sample_rate.is_some_and(|s| s < 1.0) {
        return Err(usage(format!(
            "{}: its trace is a spatial sample already; simulate it without --miniature",
            input.display()
        )));
    }
    let reqs = &tr.reqs;
    // A sampled capture (record --trace-sample / --trace-budget): its rows below the final
    // threshold are a uniform sample at rate R (trace::sampling); figures are scaled to the
    // whole trace.
    let rate = tr.sample_rate.unwrap_or(1.0);
    if rate < 1.0 {
        if o.sample.is_some() {
            return Err(usage(format!(
                "{}: its trace keeps a share {} of the block addresses already; simulate it without --sample (its LRU distances are scaled by 1/{})",
                input.display(),
                crate::trace::sampling::fmt_rate(rate),
                crate::trace::sampling::fmt_rate(rate)
            )));
        }
        notes.push(format!(
            "the capture's trace keeps a share {} of the block addresses (a spatial sample; {} rows stored before the rate last fell are left out): LRU stack distances and the footprint are scaled by 1/R, and other policies are simulated at R × each cache size (miniature simulation, Waldspurger et al., USENIX ATC 2017); the figures are estimates with a sampling error",
            crate::trace::sampling::fmt_rate(rate),
            tr.above_final_rate
        ));
    }
    let (mut nr, mut nw, mut nd) = (0, 0, 0);
    for r in reqs {
        match r.op {
            super::Op::Read => nr += 1,
            super::Op::Write => nw += 1,
            super::Op::Discard => nd += 1,
        }
    }
    let counted_reqs: Vec<Req> = reqs
        .iter()
        .filter(|r| counted(r, o.writes))
        .copied()
        .collect();
    let mut references = 0u64;
    for r in &counted_reqs {
        references += (r.offset + r.bytes - 1) / o.block - r.offset / o.block + 1;
    }
    let fp_sampled = super::footprint(&counted_reqs, o.block);
    let fp = (fp_sampled as f64 / rate).round() as u64;
    if fp_sampled == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{}: no request the cache would see with --writes {} ({} reads, {} writes)",
            input.display(),
            o.writes.name(),
            nr,
            nw
        )));
    }
    let blocks: Vec<u64> = if o.curve {
        curve_sizes(fp)
    } else {
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
        v
    };
    let mut sampling = None;
    let stream = o.miniature.map(|r| {
        let s = super::mini_stream::Stream::build(reqs, o.block, super::mini::threshold_of(r), |_| true);
        notes.push(format!(
            "miniature simulation: the {} block references whose block hashes below the threshold of rate {} are replayed, of {} (each policy on a cache of R × each size; Waldspurger et al., USENIX ATC 2017); a request counts when its first block is kept and hits when every kept block of it hits; no byte figures",
            s.keys.len(),
            crate::trace::sampling::fmt_rate(s.rate()),
            references
        ));
        sampling = Some(SamplingJson {
            mode: "miniature",
            parameter: r,
            final_rate: s.rate(),
            references,
            sampled: s.keys.len() as u64,
            salt: 0,
        });
        s
    });
    let mut policies = Vec::new();
    for p in &o.policies {
        let start = Instant::now();
        let mut tick = Progress::new(o.progress, p.name(), reqs.len());
        let stack = *p == PolicyKind::Lru && !o.lru_by_simulation;
        let (method, sizes): (&'static str, Vec<SizeJson>) = if let Some(s) = &stream {
            let pts = super::mini::curve(s, *p, &blocks, o.writes);
            ("miniature", mini_sizes(&blocks, o.block, &pts))
        } else if let Some(mode) = o.sample {
            let s = shards_curve(
                &counted_reqs,
                o.block,
                o.writes,
                mode,
                o.sample_salt,
                &mut |i| tick.at(i),
            );
            let ratios = s.hist.hit_ratios(&blocks);
            sampling = Some(SamplingJson {
                mode: match mode {
                    Sampling::FixedRate(_) => "fixed-rate",
                    Sampling::FixedSize(_) => "fixed-size",
                },
                parameter: match mode {
                    Sampling::FixedRate(r) => r,
                    Sampling::FixedSize(n) => n as f64,
                },
                final_rate: s.rate(),
                references: s.references,
                sampled: s.sampled,
                salt: o.sample_salt,
            });
            (
                match mode {
                    Sampling::FixedRate(_) => "shards-fixed-rate",
                    Sampling::FixedSize(_) => "shards-fixed-size",
                },
                blocks
                    .iter()
                    .zip(ratios)
                    .map(|(b, r)| SizeJson {
                        bytes: b * o.block,
                        blocks: *b,
                        request_hit_ratio: None,
                        byte_hit_ratio: None,
                        block_hit_ratio: Some(r),
                        reads: None,
                        writes: None,
                    })
                    .collect(),
            )
        } else if stack && o.writes != WritePolicy::Invalidate {
            let c = lru_curve_scaled(&counted_reqs, o.block, o.writes, rate, &mut |i| tick.at(i));
            let rq = c.requests.hit_ratios(&blocks);
            let by = c.bytes.hit_ratios(&blocks);
            let bl = c.blocks.hit_ratios(&blocks);
            (
                "exact-stack",
                blocks
                    .iter()
                    .enumerate()
                    .map(|(i, b)| SizeJson {
                        bytes: b * o.block,
                        blocks: *b,
                        request_hit_ratio: Some(rq[i]),
                        byte_hit_ratio: Some(by[i]),
                        block_hit_ratio: Some(bl[i]),
                        reads: None,
                        writes: None,
                    })
                    .collect(),
            )
        } else {
            let mut v = Vec::new();
            for b in &blocks {
                tick.pass(*b);
                // a sampled trace: a cache R times the size (miniature simulation)
                let mini = ((*b as f64 * rate).round() as u64).max(1);
                let r = simulate_with(reqs, *p, mini, o.block, o.writes, &mut |i| tick.at(i));
                v.push(SizeJson {
                    bytes: b * o.block,
                    blocks: *b,
                    request_hit_ratio: r.counted.request_hit_ratio(),
                    byte_hit_ratio: r.counted.byte_hit_ratio(),
                    block_hit_ratio: r.counted.block_hit_ratio(),
                    reads: Some(r.reads),
                    writes: Some(r.writes),
                });
            }
            ("exact-simulation", v)
        };
        let elapsed = start.elapsed().as_secs_f64();
        let passes = if method == "exact-simulation" || method == "miniature" {
            blocks.len() as f64
        } else {
            1.0
        };
        policies.push(PolicyJson {
            policy: p.name(),
            method,
            elapsed_s: elapsed,
            references_per_s: references as f64 * passes / elapsed.max(1e-9),
            sizes,
        });
        if o.progress {
            eprintln!("simulate: {} done in {:.2} s ({method})", p.name(), elapsed);
        }
    }
    let first = reqs.first().map(|r| r.t_ns).unwrap_or(0);
    let last = reqs.last().map(|r| r.t_ns).unwrap_or(0);
    Ok(SimJson {
        input: InputJson {
            file: input.display().to_string(),
            kind,
            records: tr.records,
            requests: reqs.len() as u64,
            read_requests: nr,
            write_requests: nw,
            discard_requests: nd,
            not_simulated: tr.other_lines,
            skipped: tr.bad(),
            skipped_by_reason: tr.bad_by_reason.clone(),
            skipped_examples: tr.bad_examples.clone(),
            devices: tr.devices.clone(),
            duration_s: (last - first) as f64 / 1e9,
            read_s,
            sample_rate: rate,
            above_final_rate: tr.above_final_rate,
        },
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

/// The sizes of a miniature curve (mini.rs): request and block hit ratios, no bytes.
fn mini_sizes(blocks: &[u64], block: u64, pts: &[super::mini::MiniPoint]) -> Vec<SizeJson> {
    blocks
        .iter()
        .zip(pts)
        .map(|(b, p)| SizeJson {
            bytes: b * block,
            blocks: *b,
            request_hit_ratio: p.request_hit_ratio,
            byte_hit_ratio: None,
            block_hit_ratio: p.block_hit_ratio,
            reads: None,
            writes: None,
        })
        .collect()
}
