//! `predict`'s figures: the LRU pass over the counted reads (stack distances, one pass for every
//! size), the other policies' replays, the size answers and the backing I/O tally.

use super::super::cli::curve_sizes;
use super::super::policy::PolicyKind;
use super::super::stack::{Histogram, StackDist};
use super::super::tally::Tally;
use super::super::{block_key, for_blocks, replay_reads, Op, Req};
use super::replays::{run_replays, Progress};
use super::{CurvePoint, PolicyCurve, SizeAnswer, SizeStep, TARGETS};

/// The requests replayed and the cache they are replayed through.
pub(super) struct Replay<'a> {
    pub reqs: &'a [Req],
    pub utcs: &'a [i64],
    /// Requests labelled from this time on (ms UTC) are counted; the ones before warm the cache.
    pub count_from: i64,
    pub block: u64,
    /// The sampling rate R (1: every request traced).
    pub rate: f64,
    pub cache_blocks: u64,
}

/// The counted reads and writes.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub reads: u64,
    pub writes: u64,
}

impl Counts {
    /// Requests counted, as a float.
    pub fn total(&self) -> f64 {
        (self.reads + self.writes) as f64
    }
    /// I/Os saved (%) by a read hit ratio: read hits over reads and writes.
    pub fn saved(&self, hit_ratio: f64) -> f64 {
        let total = self.total();
        if total > 0.0 {
            100.0 * hit_ratio * self.reads as f64 / total
        } else {
            0.0
        }
    }
}

/// What the LRU pass found.
pub(super) struct LruPass {
    /// The counted reads by (scaled) stack distance.
    pub hist: Histogram,
    /// The reads that hit a cache of `cache_blocks` under LRU.
    pub hits: Vec<bool>,
    pub counts: Counts,
    /// Blocks the reads touched (scaled by 1/R).
    pub footprint_blocks: u64,
}

impl Replay<'_> {
    pub fn counted(&self, i: usize) -> bool {
        self.utcs[i] >= self.count_from
    }

    /// LRU stack distances of the reads (scaled by 1/R when sampled), one pass for every size;
    /// progress from 40 to 60 %.
    pub fn lru(&self, progress: &mut Progress) -> LruPass {
        let reqs = self.reqs;
        let mut sd = StackDist::new(reqs.len() * 2);
        let mut hist = Histogram::default();
        let (mut nr, mut nw) = (0u64, 0u64);
        let mut hits = vec![false; reqs.len()];
        for (i, r) in reqs.iter().enumerate() {
            if i % 65_536 == 0 {
                progress.at(0.4 + 0.2 * i as f64 / reqs.len() as f64, "lru");
            }
            if r.op != Op::Read {
                // bypass: writes go around the cache and do not move its state
                if self.counted(i) {
                    nw += 1;
                }
                continue;
            }
            let mut worst: Option<u64> = Some(0);
            for_blocks(r, self.block, |b, _| {
                let d = sd
                    .access(block_key(r.dev, b))
                    .map(|d| (d as f64 / self.rate).floor() as u64);
                worst = match (worst, d) {
                    (Some(w), Some(d)) => Some(w.max(d)),
                    _ => None,
                };
            });
            hits[i] = worst.is_some_and(|d| d < self.cache_blocks);
            if self.counted(i) {
                nr += 1;
                hist.add(worst, 1.0);
            }
        }
        LruPass {
            hist,
            hits,
            counts: Counts {
                reads: nr,
                writes: nw,
            },
            footprint_blocks: ((sd.footprint() as f64) / self.rate).round() as u64,
        }
    }

    /// Every policy's figures at the asked size and its curve, LRU's from the pass, the others
    /// by one replay per size (on a sampled trace a cache of size × R blocks: the sampled trace
    /// is a miniature of the workload, Waldspurger et al., USENIX ATC 2017). When the primary
    /// policy is not LRU, `lru.hits` becomes its hits. Progress from 60 to 100 %.
    pub fn curves(
        &self,
        policies: &[PolicyKind],
        lru: &mut LruPass,
        threads: usize,
        progress: &mut Progress,
    ) -> Vec<PolicyCurve> {
        let (block, cache_blocks, rate) = (self.block, self.cache_blocks, self.rate);
        let counts = lru.counts;
        let mut sizes = curve_sizes(lru.footprint_blocks.max(1));
        sizes.push(cache_blocks);
        sizes.sort_unstable();
        sizes.dedup();
        let point = |b: u64, r: f64| CurvePoint {
            bytes: b * block,
            read_hit_ratio: r,
            ios_saved_percent: counts.saved(r),
        };
        let ratios = lru.hist.hit_ratios(&sizes);
        let lru_curve: Vec<CurvePoint> = sizes
            .iter()
            .zip(&ratios)
            .map(|(b, r)| point(*b, *r))
            .collect();
        let lru_hr = lru.hist.hit_ratio(cache_blocks);
        let results = self.replay_others(policies, &sizes, counts.reads, threads, progress);
        let mut curves = Vec::new();
        let mut next = 0usize;
        for (k, p) in policies.iter().enumerate() {
            if *p == PolicyKind::Lru {
                curves.push(PolicyCurve {
                    policy: p.name(),
                    method: "exact-stack",
                    read_hit_ratio: lru_hr,
                    ios_saved_percent: counts.saved(lru_hr),
                    curve: lru_curve.clone(),
                });
                continue;
            }
            let curve: Vec<CurvePoint> = sizes
                .iter()
                .zip(&results[next..next + sizes.len()])
                .map(|(b, (r, _))| point(*b, *r))
                .collect();
            // the policy's hits at the asked size give (for the primary policy) the backing I/O and response time
            let (hr, marks) = &results[next + sizes.len()];
            next += sizes.len() + 1;
            if k == 0 {
                lru.hits.clone_from(marks);
            }
            curves.push(PolicyCurve {
                policy: p.name(),
                method: if rate < 1.0 {
                    "scaled-simulation"
                } else {
                    "exact-simulation"
                },
                read_hit_ratio: *hr,
                ios_saved_percent: counts.saved(*hr),
                curve,
            });
        }
        curves
    }

    /// The replays of the policies other than LRU, each at every size of the curve and then at
    /// the asked size: the read hit ratio of each, and (for the primary policy at the asked
    /// size) which requests hit. Every replay is independent of the others: they run on the
    /// machine's cores, the longest first, each thread taking the next one as it finishes (a
    /// day's trace, six policies: about 1.5 minutes on one core).
    fn replay_others(
        &self,
        policies: &[PolicyKind],
        sizes: &[u64],
        nr: u64,
        threads: usize,
        progress: &mut Progress,
    ) -> Vec<(f64, Vec<bool>)> {
        let cache_blocks = self.cache_blocks;
        let scaled = |b: u64| ((b as f64 * self.rate).round() as u64).max(1);
        let replays: Vec<(usize, u64)> = policies
            .iter()
            .enumerate()
            .filter(|(_, p)| **p != PolicyKind::Lru)
            .flat_map(|(k, _)| {
                sizes
                    .iter()
                    .map(move |b| (k, *b))
                    .chain(std::iter::once((k, cache_blocks)))
            })
            .collect();
        let mark_primary = policies[0] != PolicyKind::Lru;
        run_replays(&replays, threads, progress, |(k, b)| {
            let mark = mark_primary && k == 0 && b == cache_blocks;
            let mut marks = if mark {
                vec![false; self.reqs.len()]
            } else {
                Vec::new()
            };
            let mut h = 0u64;
            replay_reads(self.reqs, policies[k], scaled(b), self.block, |i, hit| {
                if mark {
                    marks[i] = hit;
                }
                if hit && self.counted(i) {
                    h += 1;
                }
            });
            let r = if nr > 0 { h as f64 / nr as f64 } else { 0.0 };
            (r, marks)
        })
    }

    /// The backing I/O and the response time of the counted requests, `hits` being the primary
    /// policy's; each traced request stands for `w` = 1/R requests.
    pub fn tally(&self, lats: &[Option<u64>], hits: &[bool], hit_us: Option<f64>) -> Tally {
        let w = 1.0 / self.rate;
        let mut tally = Tally::default();
        for (i, r) in self.reqs.iter().enumerate() {
            if self.counted(i) {
                let lat_us = lats[i].map(|ns| ns as f64 / 1000.0);
                tally.add(r.op == Op::Read, hits[i], lat_us, hit_us, w);
            }
        }
        tally
    }
}

/// Size answers: for each of [`TARGETS`], the smallest C with cumulative hits ≥ target × total.
pub(super) fn size_answers(hist: &Histogram, block: u64) -> Vec<SizeAnswer> {
    let mut size_answers = Vec::new();
    for t in TARGETS {
        let need = t / 100.0 * hist.total;
        let mut cum = 0.0;
        let mut found = None;
        if hist.total > 0.0 {
            for (d, w) in hist.by_distance.iter().enumerate() {
                cum += w;
                if cum + 1e-9 >= need {
                    found = Some((d as u64 + 1) * block);
                    break;
                }
            }
        }
        size_answers.push(SizeAnswer {
            read_hit_percent: t,
            bytes: found,
        });
    }
    size_answers
}

/// LRU size steps: walking the distance histogram, each time the I/Os saved first reaches the
/// next multiple of 0.1 point, the size (distance + 1 blocks) and its exact figure.
pub(super) fn size_steps(hist: &Histogram, block: u64, counts: Counts) -> Vec<SizeStep> {
    let mut out: Vec<SizeStep> = Vec::new();
    if hist.total <= 0.0 {
        return out;
    }
    let mut cum = 0.0;
    let mut next = 1u32; // tenths of a point
    for (d, w) in hist.by_distance.iter().enumerate() {
        if *w <= 0.0 {
            continue;
        }
        cum += w;
        let pct = counts.saved(cum / hist.total);
        if pct * 10.0 + 1e-9 >= f64::from(next) {
            out.push(SizeStep {
                bytes: (d as u64 + 1) * block,
                ios_saved_percent: pct,
            });
            next = (pct * 10.0 + 1e-9).floor() as u32 + 1;
        }
    }
    out
}

/// Half-width (percentage points) of the 95 % interval of the I/Os saved at hit ratio `hr` from
/// the sampling: the counted reads are a sample of n = nr of about nr/R; binomial interval.
pub(super) fn uncertainty_pp(hr: f64, rate: f64, counts: Counts) -> f64 {
    let nr = counts.reads;
    if rate < 1.0 && nr > 0 {
        let p = hr;
        196.0 * (p * (1.0 - p) / nr as f64).sqrt() * nr as f64 / counts.total()
    } else {
        0.0
    }
}
