//! Block-cache simulation of a block trace: what a cache of a given size and policy would have
//! served (`cacheproof-probe simulate`, docs/simulate.md).
//!
//! A request covers every cache block it touches: `[offset, offset + bytes)` split on block
//! boundaries. The blocks of one request are referenced in address order. A request hits when
//! all its blocks hit; its hit bytes are the bytes it reads or writes inside hit blocks.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_capture as capture;
use cacheproof_core::{error, request, shards};
use cacheproof_trace as trace;

pub mod cachedev;
pub mod cli;
mod cli_render;
mod cli_replay;
pub mod mini;
pub mod mini_stream;
pub mod policy;
pub mod predict;
pub mod stack;
pub mod stack_dense;
pub mod tally;

pub use crate::request::{block_key, Op, Req};
use policy::PolicyKind;
use stack::{Histogram, Sampling, Shards, StackDist};

/// What a write does to the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePolicy {
    /// Writes are cache references like reads: a hit refreshes, a miss inserts (write-back or
    /// write-through with allocation). Writes count in the hit ratios.
    Allocate,
    /// Writes go around the cache: cached blocks are updated in place, nothing is inserted and
    /// the policy's state does not move. Writes are not counted in the hit ratios.
    Bypass,
    /// Writes go around the cache and drop the blocks they touch from it. Not counted.
    Invalidate,
}

impl WritePolicy {
    pub fn parse(s: &str) -> Option<WritePolicy> {
        match s {
            "allocate" => Some(WritePolicy::Allocate),
            "bypass" => Some(WritePolicy::Bypass),
            "invalidate" => Some(WritePolicy::Invalidate),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            WritePolicy::Allocate => "allocate",
            WritePolicy::Bypass => "bypass",
            WritePolicy::Invalidate => "invalidate",
        }
    }
}

/// Calls `f(block, bytes of the request inside that block)` for every block a request touches.
#[inline]
pub fn for_blocks(r: &Req, block: u64, mut f: impl FnMut(u64, u64)) {
    let end = r.offset + r.bytes;
    let mut b = r.offset / block;
    let last = (end - 1) / block;
    while b <= last {
        let lo = r.offset.max(b * block);
        let hi = end.min((b + 1) * block);
        f(b, hi - lo);
        b += 1;
    }
}

/// Counts of one kind of reference (reads, or writes, or the counted total).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub requests: u64,
    pub hit_requests: u64,
    pub bytes: u64,
    pub hit_bytes: u64,
    pub blocks: u64,
    pub hit_blocks: u64,
}

impl Counts {
    pub fn request_hit_ratio(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.hit_requests as f64 / self.requests as f64)
    }
    pub fn byte_hit_ratio(&self) -> Option<f64> {
        (self.bytes > 0).then(|| self.hit_bytes as f64 / self.bytes as f64)
    }
    pub fn block_hit_ratio(&self) -> Option<f64> {
        (self.blocks > 0).then(|| self.hit_blocks as f64 / self.blocks as f64)
    }
    fn add(&mut self, o: &Counts) {
        self.requests += o.requests;
        self.hit_requests += o.hit_requests;
        self.bytes += o.bytes;
        self.hit_bytes += o.hit_bytes;
        self.blocks += o.blocks;
        self.hit_blocks += o.hit_blocks;
    }
}

/// The outcome of one cache size.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SizeOutcome {
    pub blocks: u64,
    pub reads: Counts,
    pub writes: Counts,
    /// Reads, plus writes when they allocate: what the hit ratios are over.
    pub counted: Counts,
}

/// Exact simulation of one policy at one size (in blocks).
pub fn simulate(
    reqs: &[Req],
    policy: PolicyKind,
    blocks: u64,
    block: u64,
    writes: WritePolicy,
) -> SizeOutcome {
    simulate_with(reqs, policy, blocks, block, writes, &mut |_| {})
}

/// How often (in requests) the progress callback is called.
pub const PROGRESS_EVERY: usize = 1 << 16;

/// [`simulate`], calling `progress(requests done)` every [`PROGRESS_EVERY`] requests.
pub fn simulate_with(
    reqs: &[Req],
    policy: PolicyKind,
    blocks: u64,
    block: u64,
    writes: WritePolicy,
    progress: &mut dyn FnMut(usize),
) -> SizeOutcome {
    let mut cache = policy.build(blocks as usize);
    let mut out = SizeOutcome {
        blocks,
        ..Default::default()
    };
    for (i, r) in reqs.iter().enumerate() {
        if i % PROGRESS_EVERY == 0 {
            progress(i);
        }
        match (r.op, writes) {
            (Op::Discard, _) | (Op::Write, WritePolicy::Invalidate) => {
                for_blocks(r, block, |b, _| cache.remove(block_key(r.dev, b)));
                if r.op == Op::Write {
                    count_uncached(&mut out.writes, r, block);
                }
            }
            (Op::Write, WritePolicy::Bypass) => count_uncached(&mut out.writes, r, block),
            (op, _) => {
                let c = if op == Op::Read {
                    &mut out.reads
                } else {
                    &mut out.writes
                };
                let mut all = true;
                for_blocks(r, block, |b, n| {
                    c.blocks += 1;
                    if cache.access(block_key(r.dev, b)) {
                        c.hit_blocks += 1;
                        c.hit_bytes += n;
                    } else {
                        all = false;
                    }
                });
                c.requests += 1;
                c.bytes += r.bytes;
                c.hit_requests += u64::from(all);
            }
        }
    }
    out.counted = out.reads;
    if writes == WritePolicy::Allocate {
        out.counted.add(&out.writes);
    }
    out
}

/// Replays `reqs` through `policy` at `blocks` blocks with writes going around the cache
/// (`bypass`: the policy's state does not move) and discards dropping their blocks, calling
/// `on_read(index, hit)` for every read (a hit: all its blocks were cached).
pub fn replay_reads(
    reqs: &[Req],
    policy: PolicyKind,
    blocks: u64,
    block: u64,
    mut on_read: impl FnMut(usize, bool),
) {
    let mut cache = policy.build(blocks as usize);
    for (i, r) in reqs.iter().enumerate() {
        match r.op {
            Op::Discard => for_blocks(r, block, |b, _| cache.remove(block_key(r.dev, b))),
            Op::Write => {}
            Op::Read => {
                let mut all = true;
                for_blocks(r, block, |b, _| all &= cache.access(block_key(r.dev, b)));
                on_read(i, all);
            }
        }
    }
}

fn count_uncached(c: &mut Counts, r: &Req, block: u64) {
    c.requests += 1;
    c.bytes += r.bytes;
    for_blocks(r, block, |_, _| c.blocks += 1);
}

/// Exact LRU for every size at once: histograms of stack distance for requests (the largest
/// distance of their blocks), bytes and blocks, over the counted references.
#[derive(Debug, Clone, Default)]
pub struct LruCurve {
    pub requests: Histogram,
    pub bytes: Histogram,
    pub blocks: Histogram,
    pub footprint_blocks: u64,
}

/// One pass of stack distances (writes `allocate` or `bypass`; `invalidate` has no stack
/// property and is simulated size by size instead).
pub fn lru_curve(
    reqs: &[Req],
    block: u64,
    writes: WritePolicy,
    progress: &mut dyn FnMut(usize),
) -> LruCurve {
    lru_curve_scaled(reqs, block, writes, 1.0, progress)
}

/// [`lru_curve`] of a trace that keeps a share `rate` of the block addresses (a sampled
/// capture): each distance d among the sampled blocks stands for ⌊d / rate⌋ blocks, and the
/// footprint for footprint / rate (SHARDS at a fixed rate, without its first-bucket correction:
/// the references are those of the sample, so the ratios need none).
pub fn lru_curve_scaled(
    reqs: &[Req],
    block: u64,
    writes: WritePolicy,
    rate: f64,
    progress: &mut dyn FnMut(usize),
) -> LruCurve {
    let scale = |d: Option<u64>| d.map(|d| (d as f64 / rate).floor() as u64);
    let mut sd = StackDist::new(reqs.len() * 2);
    let mut c = LruCurve::default();
    for (i, r) in reqs.iter().enumerate() {
        if i % PROGRESS_EVERY == 0 {
            progress(i);
        }
        if r.op == Op::Discard || (r.op == Op::Write && writes != WritePolicy::Allocate) {
            continue;
        }
        let mut worst: Option<u64> = Some(0);
        for_blocks(r, block, |b, n| {
            let d = scale(sd.access(block_key(r.dev, b)));
            c.blocks.add(d, 1.0);
            c.bytes.add(d, n as f64);
            worst = match (worst, d) {
                (Some(w), Some(d)) => Some(w.max(d)),
                _ => None,
            };
        });
        c.requests.add(worst, 1.0);
    }
    c.footprint_blocks = (sd.footprint() as f64 / rate).round() as u64;
    c
}

/// SHARDS block-level LRU curve of the counted references (each sampled reference kept, for
/// [`Shards::calibrated_hit_ratios`]).
pub fn shards_curve(
    reqs: &[Req],
    block: u64,
    writes: WritePolicy,
    mode: Sampling,
    salt: u64,
    progress: &mut dyn FnMut(usize),
) -> Shards {
    let mut s = Shards::salted(mode, salt).recording();
    for (i, r) in reqs.iter().enumerate() {
        if i % PROGRESS_EVERY == 0 {
            progress(i);
        }
        if r.op == Op::Discard || (r.op == Op::Write && writes != WritePolicy::Allocate) {
            continue;
        }
        for_blocks(r, block, |b, _| s.access(block_key(r.dev, b)));
    }
    s.finish();
    s
}

/// Distinct blocks the counted references touch (the footprint), and all blocks touched.
pub fn footprint(reqs: &[Req], block: u64) -> u64 {
    let mut seen: policy::KeyMap<()> = policy::KeyMap::default();
    for r in reqs {
        for_blocks(r, block, |b, _| {
            seen.insert(block_key(r.dev, b), ());
        });
    }
    seen.len() as u64
}
