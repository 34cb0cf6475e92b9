//! The sampled block stream of a miniature simulation (mini.rs): every block reference whose
//! block hashes below the threshold T (`splitmix64(key) mod 2^24 < T`, the SHARDS hash of
//! stack.rs, rate R = T / 2^24), grouped by the request it belongs to. Each block is kept or
//! dropped wherever it is referenced, so a cache of R × C blocks holds the sample of what a
//! cache of C holds (Waldspurger et al., USENIX ATC 2017) — whatever the request sizes: a
//! request keeps about R of its blocks, as the cache keeps R of its room.
//!
//! A request is *counted* in the sample when its first block is kept (probability R, the same
//! for every request: counts scale by 1/R); it hits when every kept block of it hits. Its other
//! blocks are not seen: a request whose first block hits but one of its unkept blocks would miss
//! counts as a hit (measured against exact curves by the benchmark, docs/simulate.md).

use super::policy::{KeyMap, PolicyKind};
use super::stack::{mix, Histogram, StackDist, SHARDS_P};
use super::{block_key, for_blocks, Op, Req, WritePolicy};

/// A request with at least one kept block.
#[derive(Debug, Clone, Copy)]
pub struct MiniReq {
    /// Its index in the trace.
    pub i: u32,
    pub op: Op,
    /// Whether its first block is kept: the request is counted.
    pub first: bool,
    /// Its kept blocks: `keys[start..end]`.
    pub start: u32,
    pub end: u32,
}

/// The kept block references of a trace, request by request.
#[derive(Debug, Default)]
pub struct Stream {
    pub keys: Vec<u64>,
    /// Each kept reference's block numbered densely (0.. `distinct`), parallel to `keys`: a
    /// replay's per-block counts are a vector, not a map.
    pub ids: Vec<u32>,
    pub distinct: u32,
    pub reqs: Vec<MiniReq>,
    pub threshold: u64,
}

impl Stream {
    /// The stream of the requests of `reqs` that `keep` accepts, split into `block`-byte
    /// blocks, keeping the blocks that hash below `t`.
    pub fn build(reqs: &[Req], block: u64, t: u64, keep: impl Fn(&Req) -> bool) -> Stream {
        let mut s = Stream {
            threshold: t,
            ..Default::default()
        };
        let mut ids: KeyMap<u32> = KeyMap::default();
        for (i, r) in reqs.iter().enumerate() {
            if !keep(r) {
                continue;
            }
            let start = s.keys.len() as u32;
            let mut first = None;
            for_blocks(r, block, |b, _| {
                let k = block_key(r.dev, b);
                let kept = mix(k) % SHARDS_P < t;
                first.get_or_insert(kept);
                if kept {
                    s.keys.push(k);
                    let n = ids.len() as u32;
                    s.ids.push(*ids.entry(k).or_insert(n));
                }
            });
            let end = s.keys.len() as u32;
            if end > start {
                s.reqs.push(MiniReq {
                    i: i as u32,
                    op: r.op,
                    first: first == Some(true),
                    start,
                    end,
                });
            }
        }
        s.distinct = ids.len() as u32;
        s
    }

    /// The rate R = T / 2^24.
    pub fn rate(&self) -> f64 {
        self.threshold as f64 / SHARDS_P as f64
    }

    /// Replays the stream through `policy` at `blocks` blocks (the miniature cache: R × the
    /// size), writes as `writes` says and discards dropping their blocks, calling
    /// `on(request, all kept blocks hit, kept blocks that hit)` for every request the cache sees
    /// (reads, and writes that allocate).
    pub fn replay(
        &self,
        policy: PolicyKind,
        blocks: u64,
        writes: WritePolicy,
        mut on: impl FnMut(&MiniReq, bool, u32),
    ) {
        let mut cache = policy.build(blocks as usize);
        for m in &self.reqs {
            let keys = &self.keys[m.start as usize..m.end as usize];
            match (m.op, writes) {
                (Op::Discard, _) | (Op::Write, WritePolicy::Invalidate) => {
                    keys.iter().for_each(|k| cache.remove(*k));
                }
                (Op::Write, WritePolicy::Bypass) => {}
                _ => {
                    let mut hits = 0u32;
                    for k in keys {
                        hits += u32::from(cache.access(*k));
                    }
                    on(m, hits as usize == keys.len(), hits);
                }
            }
        }
    }

    /// LRU stack distances of the kept blocks, scaled by 1/R (SHARDS at a fixed rate), of the
    /// requests the cache sees under `writes`: `on_block(distance)` for each kept block (None:
    /// a first reference), then `on(request, request distance)` (the largest of its blocks');
    /// returns the scaled footprint.
    pub fn lru(
        &self,
        writes: WritePolicy,
        mut on_block: impl FnMut(Option<u64>),
        mut on: impl FnMut(&MiniReq, Option<u64>),
    ) -> u64 {
        let rate = self.rate();
        let mut sd = StackDist::new(self.keys.len() * 2);
        for m in &self.reqs {
            let keys = &self.keys[m.start as usize..m.end as usize];
            match (m.op, writes) {
                (Op::Discard, _) | (Op::Write, WritePolicy::Invalidate) => {
                    keys.iter().for_each(|k| sd.remove(*k));
                }
                (Op::Write, WritePolicy::Bypass) => {}
                _ => {
                    let mut worst = Some(0u64);
                    for k in keys {
                        let d = sd.access(*k).map(|d| (d as f64 / rate).floor() as u64);
                        on_block(d);
                        worst = match (worst, d) {
                            (Some(w), Some(d)) => Some(w.max(d)),
                            _ => None,
                        };
                    }
                    on(m, worst);
                }
            }
        }
        (sd.footprint() as f64 / rate).round() as u64
    }

    /// The LRU curve: histograms of the counted requests' and of the kept blocks' scaled
    /// distances, and the scaled footprint.
    pub fn lru_curve(&self, writes: WritePolicy) -> (Histogram, Histogram, u64) {
        let mut rq = Histogram::default();
        let mut bl = Histogram::default();
        let fp = self.lru(
            writes,
            |d| bl.add(d, 1.0),
            |m, worst| {
                if m.first {
                    rq.add(worst, 1.0);
                }
            },
        );
        (rq, bl, fp)
    }
}
