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
        self.weights_below(sizes)
            .into_iter()
            .map(|w| {
                if self.total <= 0.0 {
                    0.0
                } else {
                    (w / self.total).clamp(0.0, 1.0)
                }
            })
            .collect()
    }
    /// The weight at distances below each size (an LRU cache of that many blocks' hits).
    pub fn weights_below(&self, sizes: &[u64]) -> Vec<f64> {
        let mut cum = Vec::with_capacity(self.by_distance.len() + 1);
        let mut s = 0.0;
        cum.push(0.0);
        for w in &self.by_distance {
            s += w;
            cum.push(s);
        }
        sizes
            .iter()
            .map(|b| cum[(*b as usize).min(self.by_distance.len())])
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
    /// Each sampled reference's block and scaled distance ([`COLD`]: a first reference), kept
    /// for [`Shards::calibrated_hit_ratios`] when asked ([`Shards::recording`]).
    refs: Option<Vec<(u64, u64)>>,
}

/// The scaled distance recorded for a first reference.
const COLD: u64 = u64::MAX;

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
            refs: None,
        }
    }
    /// The same sampler, keeping every sampled reference (16 bytes each) so that its curve can be
    /// calibrated on the stream's exact totals ([`Shards::calibrated_hit_ratios`]).
    pub fn recording(mut self) -> Shards {
        self.refs = Some(Vec::new());
        self
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
        let d = self.sd.access(key).map(|d| (d as f64 / r).floor() as u64);
        self.hist.add(d, 1.0 / r);
        if let Some(v) = &mut self.refs {
            v.push((key, d.unwrap_or(COLD)));
        }
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

impl Shards {
    /// Block hit ratios at `sizes` by a regression estimator calibrated on two totals of the
    /// whole stream known exactly: the references seen (N, counted here) and the footprint
    /// `footprint` (F, distinct blocks: the cold misses). None when the references were not kept
    /// ([`Shards::recording`]) or the sample cannot carry a regression (fewer than 3 blocks, or
    /// every sampled block referenced equally often): then use [`Shards::finish`]'s curve.
    ///
    /// The sample is the blocks tracked at the end (hash below the final threshold: every one
    /// of their references was sampled, at the distance d/R of the rate R in force then). Over
    /// those k blocks, each block b's references n_b and its misses m_b(C) at a size C (first
    /// reference, or scaled distance ≥ C) are fitted by least squares m_b(C) ≈ β₁·n_b + β₂
    /// (generalized regression estimator, Särndal, Swensson & Wretman, "Model Assisted Survey
    /// Sampling", 1992, § 6.4); the misses are M(C) = β₁·N + β₂·F: the fitted total, the
    /// sample's residuals summing to zero with the intercept. Approximately design-unbiased
    /// (bias O(1/k)); exact when every block is sampled. Worked example (tests): blocks of 3, 3
    /// and 1 references missing 2, 2 and 1 times, N = 9, F = 5: β = (0.5, 0.5), M = 7.
    pub fn calibrated_hit_ratios(&self, footprint: u64, sizes: &[u64]) -> Option<Vec<f64>> {
        let refs = self.refs.as_ref()?;
        let mut n_of: KeyMap<u64> = KeyMap::default();
        for (key, _) in refs.iter().filter(|(k, _)| self.sd.last.contains_key(k)) {
            *n_of.entry(*key).or_insert(0) += 1;
        }
        let k = n_of.len() as f64;
        let sn: f64 = n_of.values().map(|n| *n as f64).sum();
        let snn: f64 = n_of.values().map(|n| (*n as f64).powi(2)).sum();
        let det = snn * k - sn * sn;
        if k < 3.0 || det <= 1e-9 * snn * k {
            return None;
        }
        // hits at each size: references below it (h1), and the same weighted by n_b (hn)
        let (mut h1, mut hn) = (Histogram::default(), Histogram::default());
        for (key, d) in refs {
            if let Some(n) = n_of.get(key) {
                let d = (*d != COLD).then_some(*d);
                h1.add(d, 1.0);
                hn.add(d, *n as f64);
            }
        }
        let (n, f) = (self.references as f64, footprint as f64);
        let hits = h1.weights_below(sizes).into_iter();
        let ratios = hits.zip(hn.weights_below(sizes)).map(|(a, b)| {
            let (sm, smn) = (sn - a, snn - b);
            let b1 = (smn * k - sn * sm) / det;
            let b2 = (snn * sm - sn * smn) / det;
            (1.0 - (b1 * n + b2 * f) / n).clamp(0.0, 1.0)
        });
        Some(ratios.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first three keys a rate of 1/2 samples (salt 0) and the first two it does not.
    fn keys() -> ([u64; 3], [u64; 2]) {
        let (mut s, mut o) = ([0; 3], [0; 2]);
        let (mut i, mut j) = (0, 0);
        for k in 0u64.. {
            if mix(k) % SHARDS_P < SHARDS_P / 2 {
                if i < 3 {
                    s[i] = k;
                    i += 1;
                }
            } else if j < 2 {
                o[j] = k;
                j += 1;
            }
            if i == 3 && j == 2 {
                break;
            }
        }
        (s, o)
    }

    /// The calibrated curve, which these streams must give.
    fn calibrated(s: &Shards, footprint: u64, sizes: &[u64]) -> Vec<f64> {
        let Some(v) = s.calibrated_hit_ratios(footprint, sizes) else {
            panic!("no calibrated curve");
        };
        v
    }

    /// a u a b v b c b a at rate 1/2 (a, b, c sampled): N = 9, F = 5; the sampled stream
    /// a a b b c b a has scaled distances cold, 0, cold, 0, cold, 2 (c between), 4 (b, c).
    fn stream(s: &mut Shards) {
        let ([a, b, c], [u, v]) = keys();
        for k in [a, u, a, b, v, b, c, b, a] {
            s.access(k);
        }
    }

    #[test]
    fn calibrated_regression_matches_the_hand_computed_case() {
        let mut s = Shards::new(Sampling::FixedRate(0.5)).recording();
        stream(&mut s);
        // n = (3, 3, 1): k = 3, Σn = 7, Σn² = 19, det = 19·3 − 7² = 8.
        // C = 1: m = (2, 2, 1), Σm = 5, Σmn = 13: β₁ = (13·3 − 7·5)/8 = 0.5,
        //   β₂ = (19·5 − 7·13)/8 = 0.5, M = 0.5·9 + 0.5·5 = 7: hit 2/9.
        // C = 3: m = (2, 1, 1), Σm = 4, Σmn = 10: β = (0.25, 0.75), M = 6: hit 3/9.
        // C = 5: m = (1, 1, 1): β = (0, 1), M = F = 5: hit 4/9 (every reuse hits: exact).
        let got = calibrated(&s, 5, &[1, 3, 5]);
        for (g, e) in got.iter().zip([2.0 / 9.0, 3.0 / 9.0, 4.0 / 9.0]) {
            assert!((g - e).abs() < 1e-12, "{got:?}");
        }
    }

    #[test]
    fn without_the_references_or_a_fit_it_falls_back_to_the_sampled_weights() {
        // Not recording (a stream whose footprint is not counted): no calibrated curve.
        let mut s = Shards::new(Sampling::FixedRate(0.5));
        stream(&mut s);
        assert_eq!(s.calibrated_hit_ratios(5, &[1, 3, 5]), None);
        // Today's estimator: weight 2 a reference, d0 4, d2 2, d4 2, cold 6 (14); the
        // first-bucket correction 9 − 14 = −5 leaves d0 at −1: hits −1/9 (0), 1/9, 3/9.
        let got = s.finish().hit_ratios(&[1, 3, 5]);
        for (g, e) in got.iter().zip([0.0, 1.0 / 9.0, 3.0 / 9.0]) {
            assert!((g - e).abs() < 1e-12, "{got:?}");
        }
        // Every sampled block referenced once: n_b does not vary, no regression.
        let mut once = Shards::new(Sampling::FixedRate(1.0)).recording();
        (0..10).for_each(|k| once.access(k));
        assert_eq!(once.calibrated_hit_ratios(10, &[1, 4]), None);
    }

    #[test]
    fn every_block_sampled_gives_the_exact_misses() {
        // a b a c b a d a at rate 1: exact LRU distances cold, cold, 1, cold, 2, 2, cold, 1.
        let mut s = Shards::new(Sampling::FixedRate(1.0)).recording();
        for k in [1, 2, 1, 3, 2, 1, 4, 1] {
            s.access(k);
        }
        let got = calibrated(&s, 4, &[1, 2, 3]);
        for (g, e) in got.iter().zip([0.0, 2.0 / 8.0, 4.0 / 8.0]) {
            assert!((g - e).abs() < 1e-12, "{got:?}");
        }
    }
}
