//! LRU stack distances (Mattson et al. 1970) with a Fenwick tree over access times, for the
//! exact LRU miss-ratio curve of every cache size in one pass, and SHARDS (Waldspurger et al.,
//! FAST 2015) spatially hashed sampling, fixed rate and fixed size, for an approximate curve in
//! bounded memory.

use super::policy::KeyMap;
pub use crate::shards::{mix, SHARDS_P};
use std::collections::BinaryHeap;

/// Binary indexed tree of counts over positions.
pub(super) struct Fenwick {
    t: Vec<u32>,
}
impl Fenwick {
    pub(super) fn new(n: usize) -> Fenwick {
        Fenwick { t: vec![0; n + 1] }
    }
    #[inline]
    pub(super) fn add(&mut self, i: usize, d: i32) {
        let mut i = i + 1;
        while i < self.t.len() {
            self.t[i] = self.t[i].wrapping_add(d as u32);
            i += i & i.wrapping_neg();
        }
    }
    /// Sum of positions 0..=i.
    #[inline]
    pub(super) fn prefix(&self, i: usize) -> u32 {
        let mut i = i + 1;
        let mut s = 0u32;
        while i > 0 {
            s = s.wrapping_add(self.t[i]);
            i &= i - 1;
        }
        s
    }
}

/// Stack distances of a stream of keys: the number of distinct other keys referenced since the
/// key's previous reference (0 = re-referenced at once), or None for a first reference. An LRU
/// cache of C blocks hits exactly the references whose distance is below C.
pub struct StackDist {
    fen: Fenwick,
    cap: usize,
    last: KeyMap<u32>,
    t: usize,
}

impl StackDist {
    /// `expected` sizes the first tree; it grows (by compaction) when exceeded.
    pub fn new(expected: usize) -> StackDist {
        let cap = expected.max(1024);
        StackDist {
            fen: Fenwick::new(cap),
            cap,
            last: KeyMap::default(),
            t: 0,
        }
    }
    /// Number of distinct keys tracked.
    pub fn footprint(&self) -> usize {
        self.last.len()
    }
    /// Renumber the live markers 0..n in time order, in a tree of twice that room.
    fn compact(&mut self) {
        let mut v: Vec<(u32, u64)> = self.last.iter().map(|(k, p)| (*p, *k)).collect();
        v.sort_unstable();
        self.cap = (2 * v.len()).max(1024).max(self.cap);
        self.fen = Fenwick::new(self.cap);
        for (i, (_, k)) in v.iter().enumerate() {
            self.last.insert(*k, i as u32);
            self.fen.add(i, 1);
        }
        self.t = v.len();
    }
    /// Reference `key`; its stack distance.
    #[inline]
    pub fn access(&mut self, key: u64) -> Option<u64> {
        if self.t >= self.cap {
            self.compact();
        }
        let now = self.t;
        self.t += 1;
        let live = self.last.len() as u32;
        match self.last.insert(key, now as u32) {
            Some(p) => {
                let p = p as usize;
                let d = live - self.fen.prefix(p);
                self.fen.add(p, -1);
                self.fen.add(now, 1);
                Some(u64::from(d))
            }
            None => {
                self.fen.add(now, 1);
                None
            }
        }
    }
    /// Forget `key` (SHARDS fixed-size eviction).
    pub fn remove(&mut self, key: u64) {
        if let Some(p) = self.last.remove(&key) {
            self.fen.add(p as usize, -1);
        }
    }
}

/// A histogram of distances (in blocks) with weights; `cold` holds first references.
#[derive(Debug, Clone, Default)]
pub struct Histogram {
    pub by_distance: Vec<f64>,
    pub cold: f64,
    pub total: f64,
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, d: Option<u64>, w: f64) {
        self.total += w;
        match d {
            None => self.cold += w,
            Some(d) => {
                let d = d as usize;
                if d >= self.by_distance.len() {
                    self.by_distance
                        .resize((d + 1).max(self.by_distance.len() * 2), 0.0);
                }
                self.by_distance[d] += w;
            }
        }
    }
    /// Hit ratio of an LRU cache of `blocks` blocks: weight below that distance over the total.
    pub fn hit_ratio(&self, blocks: u64) -> f64 {
        if self.total <= 0.0 {
            return 0.0;
        }
        let n = (blocks as usize).min(self.by_distance.len());
        let hits: f64 = self.by_distance[..n].iter().sum();
        (hits / self.total).clamp(0.0, 1.0)
    }
    /// Hit ratios at many sizes (sorted or not) with one prefix-sum pass.
    pub fn hit_ratios(&self, sizes: &[u64]) -> Vec<f64> {
        let mut cum = Vec::with_capacity(self.by_distance.len() + 1);
        let mut s = 0.0;
        cum.push(0.0);
        for w in &self.by_distance {
            s += w;
            cum.push(s);
        }
        sizes
            .iter()
            .map(|b| {
                if self.total <= 0.0 {
                    0.0
                } else {
                    let n = (*b as usize).min(self.by_distance.len());
                    (cum[n] / self.total).clamp(0.0, 1.0)
                }
            })
            .collect()
    }
}

/// SHARDS sampling mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sampling {
    /// Sample keys with rate R (0 < R ≤ 1).
    FixedRate(f64),
    /// Track at most N distinct keys, lowering the threshold when more appear (SHARDS_fixed-size).
    FixedSize(usize),
}

/// SHARDS over a stream of block keys. Each sampled reference adds weight 1/R (R the rate in
/// force when it was seen) at distance d/R. At the end, the first bucket gets the difference
/// between the references seen and the weight sampled: for a fixed rate that is (E[Ns] − Ns)/R,
/// the correction of Waldspurger et al. (2017, "SHARDS_adj"); for a fixed size the same sum
/// over the periods of each rate.
pub struct Shards {
    mode: Sampling,
    t: u64,
    sd: StackDist,
    heap: BinaryHeap<(u64, u64)>,
    pub hist: Histogram,
    /// References seen (sampled or not).
    pub references: u64,
    /// References sampled.
    pub sampled: u64,
    corrected: bool,
    /// XORed into each key before hashing: another salt samples another set of blocks.
    salt: u64,
}

impl Shards {
    pub fn new(mode: Sampling) -> Shards {
        Shards::salted(mode, 0)
    }
    /// A sampler whose hash is salted: the same estimator over another random set of blocks
    /// (repeating a curve with several salts shows the sampling error's spread).
    pub fn salted(mode: Sampling, salt: u64) -> Shards {
        let t = match mode {
            Sampling::FixedRate(r) => ((r * SHARDS_P as f64).round() as u64).clamp(1, SHARDS_P),
            Sampling::FixedSize(_) => SHARDS_P,
        };
        Shards {
            mode,
            t,
            sd: StackDist::new(1 << 16),
            heap: BinaryHeap::new(),
            hist: Histogram::default(),
            references: 0,
            sampled: 0,
            corrected: false,
            // mixed, so that nearby salts sample unrelated blocks (a small salt XORed as it is
            // would pair each block with a neighbour, which a workload touches alike)
            salt: if salt == 0 { 0 } else { mix(salt) },
        }
    }
    /// The sampling rate in force now.
    pub fn rate(&self) -> f64 {
        self.t as f64 / SHARDS_P as f64
    }
    #[inline]
    pub fn access(&mut self, key: u64) {
        self.references += 1;
        let h = mix(key ^ self.salt) % SHARDS_P;
        if h >= self.t {
            return;
        }
        let r = self.rate();
        self.sampled += 1;
        let fresh = !self.sd.last.contains_key(&key);
        let d = self.sd.access(key);
        self.hist
            .add(d.map(|d| (d as f64 / r).floor() as u64), 1.0 / r);
        if let Sampling::FixedSize(n) = self.mode {
            if fresh {
                self.heap.push((h, key));
                while self.sd.footprint() > n {
                    // Lower the threshold to the largest tracked hash, dropping every key at it.
                    let Some((top, _)) = self.heap.peek().copied() else {
                        break;
                    };
                    self.t = top;
                    while let Some((hh, kk)) = self.heap.peek().copied() {
                        if hh < top {
                            break;
                        }
                        self.heap.pop();
                        self.sd.remove(kk);
                    }
                }
            }
        }
    }
    /// Apply the first-bucket correction (once) and return the histogram.
    pub fn finish(&mut self) -> &Histogram {
        if !self.corrected {
            self.corrected = true;
            let missing = self.references as f64 - self.hist.total;
            if self.hist.by_distance.is_empty() {
                self.hist.by_distance.push(0.0);
            }
            self.hist.by_distance[0] += missing;
            self.hist.total += missing;
        }
        &self.hist
    }
}
