//! Miniature simulation of a whole trace (Waldspurger, Saemundsson, Ahmad, Park, "Cache
//! Modeling and Optimization using Miniature Simulations", USENIX ATC 2017): the block
//! references whose block hashes below a threshold T (rate R = T / 2^24, the SHARDS hash) are
//! replayed through a cache of R × each size (mini_stream.rs). A request-level sample (a
//! request kept by its first block, as `record --trace-sample` keeps them) was tried first and
//! left: its requests keep all their blocks while the cache shrinks by R, so small caches miss
//! far too much (block miss ratio off by 0.10 on average on CloudPhysics at R = 0.04).
//!
//! `predict` replays a miniature for the policies other than LRU when the reads hold more than
//! [`BUDGET_REFERENCES`] block references (`--exact` replays every request); `simulate
//! --miniature R` at a rate given. The error of a miniature curve is estimated from the sample
//! itself ([`CurveError`]).

use serde::Serialize;

use super::mini_stream::Stream;
use super::policy::{KeyMap, PolicyKind};
use super::predict::PolicyCurve;
use super::stack::SHARDS_P;
use super::{block_key, Op, Req, WritePolicy};

/// Block references of reads `predict` replays at most per policy and size before it replays a
/// miniature: the cost of a prediction is one replay per policy and size of the curve (41) over
/// what is replayed. At 200,000 a day's trace of 4.7 million requests (20 million block
/// references) is replayed at R ≈ 0.01 (docs/simulate.md § Benchmark).
pub const BUDGET_REFERENCES: u64 = 200_000;

/// The threshold that keeps about `budget` of `n` references (2^24: all of them when they fit).
pub fn budget_threshold(n: u64, budget: u64) -> u64 {
    if n <= budget {
        return SHARDS_P;
    }
    ((SHARDS_P as f64 * budget as f64 / n as f64).floor() as u64).clamp(1, SHARDS_P)
}

/// The threshold of a rate R (0 < R ≤ 1), out of 2^24.
pub fn threshold_of(rate: f64) -> u64 {
    crate::trace::sampling::threshold_of(rate)
}

/// The miniature of `predict`'s reads when they hold more block references than the budget;
/// None when every request is replayed.
pub fn miniature_of(reqs: &[Req], block: u64) -> Option<Stream> {
    let refs: u64 = reqs
        .iter()
        .filter(|r| r.op == Op::Read)
        .map(|r| (r.offset + r.bytes - 1) / block - r.offset / block + 1)
        .sum();
    let t = budget_threshold(refs, BUDGET_REFERENCES);
    (t < SHARDS_P).then(|| Stream::build(reqs, block, t, |r| r.op == Op::Read))
}

/// The error of a miniature hit ratio from its own sample. The sampling unit is the hashed
/// block: a request's hit or miss is charged to its first 4 KiB block, which the hash keeps
/// with probability R, independently of the other blocks. The hit ratio is a ratio estimator
/// p = Σ h_b / Σ n_b over the sampled blocks b (n_b counted requests, h_b hits); its standard
/// error under Poisson sampling, linearized (Särndal et al., Model Assisted Survey Sampling,
/// § 5.6): √((1 − R) Σ (h_b − p n_b)²) / Σ n_b. It is the error of the sampling (which blocks
/// the hash picked), not of the model (that R × C blocks of the sample behave as C of the
/// whole), which the benchmark measures against exact curves (docs/simulate.md).
#[derive(Default)]
pub struct CurveError {
    per_block: KeyMap<(u32, u32)>,
}

impl CurveError {
    /// A counted request of first block `key` that hit or missed.
    #[inline]
    pub fn add(&mut self, r: &Req, hit: bool) {
        self.add_key(block_key(r.dev, r.offset / 4096), hit);
    }
    /// A reference to the sampled block `key` that hit or missed.
    #[inline]
    pub fn add_key(&mut self, key: u64, hit: bool) {
        let e = self.per_block.entry(key).or_default();
        e.0 += 1;
        e.1 += u32::from(hit);
    }
    /// The standard error of the hit ratio at rate `rate` (0 when every request was replayed or
    /// nothing was counted).
    pub fn std_error(&self, rate: f64) -> f64 {
        std_error_of(self.per_block.values().copied(), rate)
    }
}

/// The standard error of a hit ratio at rate `rate` from each sampled block's counted requests
/// and hits `(n_b, h_b)` ([`CurveError`]; 0 when every request was replayed or nothing was
/// counted).
pub fn std_error_of(per_block: impl Iterator<Item = (u32, u32)> + Clone, rate: f64) -> f64 {
    let (n, h) = per_block.clone().fold((0f64, 0f64), |(n, h), (a, b)| {
        (n + f64::from(a), h + f64::from(b))
    });
    if rate >= 1.0 || n <= 0.0 {
        return 0.0;
    }
    let p = h / n;
    let ss: f64 = per_block
        .map(|(a, b)| (f64::from(b) - p * f64::from(a)).powi(2))
        .sum();
    ((1.0 - rate) * ss).sqrt() / n
}

/// The expected absolute error of an estimate with standard error `se` (a normal error:
/// E|X| = se × √(2/π)).
pub fn expected_abs_error(se: f64) -> f64 {
    se * (2.0 / std::f64::consts::PI).sqrt()
}

/// How `predict` replayed a miniature (null in its JSON when every request was replayed).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MiniatureJson {
    /// The share R of the blocks kept: those whose key hashes below `threshold` of 2^24.
    pub rate: f64,
    pub threshold: u64,
    /// Block references of the window's reads, the ones kept, and the budget.
    pub references: u64,
    pub kept_references: u64,
    pub budget_references: u64,
    /// The policies replayed as a miniature (`method` `miniature-simulation`).
    pub policies: Vec<&'static str>,
    /// The largest, over those policies, of the expected mean absolute error of a curve's
    /// read hit ratio from the sampling (0–1), and of a point's 95 % half-width of I/Os saved
    /// (percentage points).
    pub expected_mean_abs_error: f64,
    pub max_uncertainty_pp: f64,
}

/// The JSON of a miniature, from its stream and the curves it gave.
pub fn json(s: &Stream, reqs: &[Req], block: u64, curves: &[PolicyCurve]) -> MiniatureJson {
    let refs: u64 = reqs
        .iter()
        .filter(|r| r.op == Op::Read)
        .map(|r| (r.offset + r.bytes - 1) / block - r.offset / block + 1)
        .sum();
    let mini: Vec<&PolicyCurve> = curves.iter().filter(|c| c.method == METHOD).collect();
    MiniatureJson {
        rate: s.rate(),
        threshold: s.threshold,
        references: refs,
        kept_references: s.keys.len() as u64,
        budget_references: BUDGET_REFERENCES,
        policies: mini.iter().map(|c| c.policy).collect(),
        expected_mean_abs_error: mini
            .iter()
            .map(|c| c.expected_mean_abs_error)
            .fold(0.0, f64::max),
        max_uncertainty_pp: mini
            .iter()
            .flat_map(|c| c.curve.iter().map(|p| p.ios_saved_uncertainty_pp))
            .fold(0.0, f64::max),
    }
}

/// The `method` of a policy's curve replayed as a miniature.
pub const METHOD: &str = "miniature-simulation";

/// The note of a prediction replayed as a miniature.
pub fn note(m: &MiniatureJson) -> String {
    format!(
        "miniature simulation: the reads hold {} block references, more than the {} replayed at every size, so {} ({}) replay the {} references of the blocks whose hash is below {} of 2^24 (a share {}), each on a cache of that share of each size (Waldspurger et al., USENIX ATC 2017), and a request's hit ratio is read from the exact LRU curves at the size where LRU hits the same share of blocks; LRU and the figures at the asked size are exact (--exact replays every request at every size); expected error of those curves from the sampling: {:.4} of hit ratio on average, at most ± {:.2} points of I/Os saved (95 %)",
        m.references,
        m.budget_references,
        m.policies.join(", "),
        METHOD,
        m.kept_references,
        m.threshold,
        crate::trace::sampling::fmt_rate(m.rate),
        m.expected_mean_abs_error,
        m.max_uncertainty_pp
    )
}

/// A miniature curve of `policy` at `sizes` (blocks of the whole trace): each size replayed on
/// a cache of R × it (at least one block), or LRU by the stream's scaled stack distances. Per
/// size: the request hit ratio of the counted requests and the block hit ratio of the kept
/// blocks, each with its standard error (the request's, by its first block: [`CurveError`]).
pub fn curve(s: &Stream, policy: PolicyKind, sizes: &[u64], writes: WritePolicy) -> Vec<MiniPoint> {
    let rate = s.rate();
    if policy == PolicyKind::Lru {
        let (rq, bl, _) = s.lru_curve(writes);
        let r = rq.hit_ratios(sizes);
        let b = bl.hit_ratios(sizes);
        return (0..sizes.len())
            .map(|k| MiniPoint {
                request_hit_ratio: (rq.total > 0.0).then_some(r[k]),
                block_hit_ratio: (bl.total > 0.0).then_some(b[k]),
            })
            .collect();
    }
    sizes
        .iter()
        .map(|c| {
            let mini = ((*c as f64 * rate).round() as u64).max(1);
            let (mut n, mut h, mut refs, mut bh) = (0u64, 0u64, 0u64, 0u64);
            s.replay(policy, mini, writes, |m, all, hits| {
                refs += u64::from(m.end - m.start);
                bh += u64::from(hits);
                if m.first {
                    n += 1;
                    h += u64::from(all);
                }
            });
            MiniPoint {
                request_hit_ratio: (n > 0).then(|| h as f64 / n as f64),
                block_hit_ratio: (refs > 0).then(|| bh as f64 / refs as f64),
            }
        })
        .collect()
}

/// One size of a miniature curve.
#[derive(Debug, Clone, Copy)]
pub struct MiniPoint {
    pub request_hit_ratio: Option<f64>,
    pub block_hit_ratio: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_keeps_the_share_it_names() {
        assert_eq!(budget_threshold(1000, 2000), SHARDS_P);
        assert_eq!(budget_threshold(4_000_000, 200_000), SHARDS_P / 20);
        assert_eq!(budget_threshold(u64::MAX / 2, 1), 1);
    }

    #[test]
    fn the_error_of_a_sample_is_its_spread_over_blocks() {
        let req = |b: u64| Req {
            t_ns: 0,
            dev: 0,
            offset: b * 4096,
            bytes: 4096,
            op: super::super::Op::Read,
        };
        let mut e = CurveError::default();
        // block 1: 4 hits of 4; block 2: 0 of 4 → p = 0.5, Σ (h − p n)² = 4 + 4
        for _ in 0..4 {
            e.add(&req(1), true);
            e.add(&req(2), false);
        }
        let se = e.std_error(0.5);
        assert!((se - (0.5f64 * 8.0).sqrt() / 8.0).abs() < 1e-12, "{se}");
        assert_eq!(e.std_error(1.0), 0.0);
    }
}
