//! `predict`'s figures: the LRU pass over the counted reads (stack distances, one pass for every
//! size), the other policies' replays, the size answers and the backing I/O tally.

use std::collections::BTreeMap;

use super::super::cli::curve_sizes;
use super::super::mini::{expected_abs_error, std_error_of, CurveError};
use super::super::mini_stream::Stream;
use super::super::policy::PolicyKind;
use super::super::stack::Histogram;
use super::super::stack_dense::DenseStackDist;
use super::super::tally::Tally;
use super::super::{block_key, for_blocks, replay_reads, Op, Req};
use super::replays::{run_replays, Progress};
use super::{CurvePoint, PolicyCurve, SizeAnswer, SizeStep, TARGETS};

/// The requests replayed and the cache they are replayed through.
pub(super) struct Replay<'a> {
    /// The miniature the policies other than LRU replay (mini.rs), when the reads are many.
    pub stream: Option<&'a Stream>,
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
    /// The counted reads' blocks by stack distance (a miniature's request ratios are read
    /// from the two: [`transfer`]).
    pub block_hist: Histogram,
    /// The reads that hit a cache of `cache_blocks` under LRU.
    pub hits: Vec<bool>,
    pub counts: Counts,
    /// Blocks the reads touched (scaled by 1/R).
    pub footprint_blocks: u64,
    /// On a sample (R < 1): each counted read's request and (scaled) distance, for the
    /// sampling error of each size (mini.rs); empty otherwise.
    pub sampled: Vec<(usize, Option<u64>)>,
}

impl Replay<'_> {
    pub fn counted(&self, i: usize) -> bool {
        self.utcs[i] >= self.count_from
    }

    /// LRU stack distances of the reads (scaled by 1/R when sampled), one pass for every size;
    /// progress from 40 to 60 %.
    pub fn lru(&self, progress: &mut Progress) -> LruPass {
        let reqs = self.reqs;
        let mut sd = DenseStackDist::new((reqs.len() * 2).min(1 << 20));
        let mut hist = Histogram::default();
        let mut block_hist = Histogram::default();
        let (mut nr, mut nw) = (0u64, 0u64);
        let mut hits = vec![false; reqs.len()];
        let mut sampled = Vec::new();
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
            let counted = self.counted(i);
            for_blocks(r, self.block, |b, _| {
                let d = sd
                    .access(block_key(r.dev, b))
                    .map(|d| (d as f64 / self.rate).floor() as u64);
                if counted {
                    block_hist.add(d, 1.0);
                }
                worst = match (worst, d) {
                    (Some(w), Some(d)) => Some(w.max(d)),
                    _ => None,
                };
            });
            hits[i] = worst.is_some_and(|d| d < self.cache_blocks);
            if self.counted(i) {
                nr += 1;
                hist.add(worst, 1.0);
                if self.rate < 1.0 {
                    sampled.push((i, worst));
                }
            }
        }
        LruPass {
            hist,
            block_hist,
            hits,
            counts: Counts {
                reads: nr,
                writes: nw,
            },
            footprint_blocks: ((sd.footprint() as f64) / self.rate).round() as u64,
            sampled,
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
        let point = |b: u64, r: f64, se: f64| CurvePoint {
            bytes: b * block,
            read_hit_ratio: r,
            ios_saved_percent: counts.saved(r),
            ios_saved_uncertainty_pp: 1.96 * counts.saved(se),
        };
        let ratios = lru.hist.hit_ratios(&sizes);
        let lru_se = self.lru_errors(lru, &sizes);
        let lru_curve: Vec<CurvePoint> = sizes
            .iter()
            .zip(&ratios)
            .zip(&lru_se)
            .map(|((b, r), se)| point(*b, *r, *se))
            .collect();
        let lru_hr = lru.hist.hit_ratio(cache_blocks);
        let results = self.replay_others(policies, &sizes, lru, threads, progress);
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
                    expected_mean_abs_error: mean_abs_error(&lru_se),
                });
                continue;
            }
            let got = &results[next..next + sizes.len()];
            let curve: Vec<CurvePoint> = sizes
                .iter()
                .zip(got)
                .map(|(b, (r, se, _))| point(*b, *r, *se))
                .collect();
            let ses: Vec<f64> = got.iter().map(|g| g.1).collect();
            // the policy's hits at the asked size give (for the primary policy) the backing I/O and response time
            let (hr, _, marks) = &results[next + sizes.len()];
            next += sizes.len() + 1;
            if k == 0 {
                lru.hits.clone_from(marks);
            }
            curves.push(PolicyCurve {
                policy: p.name(),
                method: if self.stream.is_some() {
                    super::super::mini::METHOD
                } else if rate < 1.0 {
                    "scaled-simulation"
                } else {
                    "exact-simulation"
                },
                read_hit_ratio: *hr,
                ios_saved_percent: counts.saved(*hr),
                curve,
                expected_mean_abs_error: mean_abs_error(&ses),
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
        lru: &LruPass,
        threads: usize,
        progress: &mut Progress,
    ) -> Vec<(f64, f64, Vec<bool>)> {
        let cache_blocks = self.cache_blocks;
        let nr = lru.counts.reads;
        let transfer = Transfer::of(lru);
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
        // On a miniature, sizes whose miniature caches are equal (R × size rounded: every size
        // below 1/R blocks is a one-block miniature) are the same replay: run it once.
        let mut jobs: Vec<(usize, u64)> = Vec::new();
        let mut job_of: Vec<usize> = Vec::with_capacity(replays.len());
        let mut seen: BTreeMap<(usize, u64), usize> = BTreeMap::new();
        for &(k, b) in &replays {
            let mark = mark_primary && k == 0 && b == cache_blocks;
            let key = match self.stream {
                Some(s) if !mark => (k, ((b as f64 * s.rate()).round() as u64).max(1)),
                _ => (k, u64::MAX - jobs.len() as u64),
            };
            let j = *seen.entry(key).or_insert_with(|| {
                jobs.push((k, b));
                jobs.len() - 1
            });
            job_of.push(j);
        }
        let ran = run_replays(&jobs, threads, progress, |(k, b)| {
            let mark = mark_primary && k == 0 && b == cache_blocks;
            // a miniature, but for the primary policy at the asked size (its hits are tallied)
            if let (Some(s), false) = (self.stream, mark) {
                return self.mini_replay(s, policies[k], b, &transfer);
            }
            let mut marks = if mark {
                vec![false; self.reqs.len()]
            } else {
                Vec::new()
            };
            let mut h = 0u64;
            let mut err = CurveError::default();
            let sampled = self.rate < 1.0;
            replay_reads(self.reqs, policies[k], scaled(b), self.block, |i, hit| {
                if mark {
                    marks[i] = hit;
                }
                if self.counted(i) {
                    h += u64::from(hit);
                    if sampled {
                        err.add(&self.reqs[i], hit);
                    }
                }
            });
            let r = if nr > 0 { h as f64 / nr as f64 } else { 0.0 };
            (r, err.std_error(self.rate), marks)
        });
        job_of.iter().map(|j| ran[*j].clone()).collect()
    }

    /// One miniature replay of `policy` at `blocks` (on a cache of R × it): its block hit ratio
    /// and that ratio's standard error (mini.rs), the read hit ratio of the requests read from
    /// the exact LRU curves where LRU hits the same share of blocks, and the error carried over.
    fn mini_replay(
        &self,
        s: &Stream,
        policy: PolicyKind,
        blocks: u64,
        transfer: &Transfer,
    ) -> (f64, f64, Vec<bool>) {
        let mini = ((blocks as f64 * s.rate()).round() as u64).max(1);
        // each sampled block's references and hits (mini.rs, CurveError), by its dense number
        let mut per_block = vec![(0u32, 0u32); s.distinct as usize];
        let (mut refs, mut hits) = (0u64, 0u64);
        let mut cache = policy.build(mini as usize);
        for m in &s.reqs {
            let (a, b) = (m.start as usize, m.end as usize);
            if !self.counted(m.i as usize) {
                // warm-up: the cache fills, nothing is counted
                for k in &s.keys[a..b] {
                    cache.access(*k);
                }
                continue;
            }
            for (k, id) in s.keys[a..b].iter().zip(&s.ids[a..b]) {
                let hit = cache.access(*k);
                refs += 1;
                hits += u64::from(hit);
                let e = &mut per_block[*id as usize];
                e.0 += 1;
                e.1 += u32::from(hit);
            }
        }
        let bh = if refs > 0 {
            hits as f64 / refs as f64
        } else {
            0.0
        };
        let se = std_error_of(per_block.iter().copied(), s.rate());
        let r = transfer.at(bh);
        let r_se = (transfer.at((bh + se).min(1.0)) - transfer.at((bh - se).max(0.0))) / 2.0;
        (r, r_se, Vec::new())
    }

    /// The standard error of LRU's hit ratio at each size from the sample (mini.rs; 0 when
    /// every request was replayed).
    fn lru_errors(&self, lru: &LruPass, sizes: &[u64]) -> Vec<f64> {
        sizes
            .iter()
            .map(|c| {
                let mut err = CurveError::default();
                for (i, d) in &lru.sampled {
                    err.add(&self.reqs[*i], d.is_some_and(|d| d < *c));
                }
                err.std_error(self.rate)
            })
            .collect()
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

/// The exact LRU curves of the counted reads, requests and blocks, by size: a policy that hits
/// a share b of the blocks at some size is taken to hit the requests as LRU does at the size
/// where LRU hits that share of blocks (the request ratio of a miniature, whose requests are
/// only partly sampled, mini_stream.rs).
pub(super) struct Transfer {
    blocks: Vec<f64>,
    requests: Vec<f64>,
}

impl Transfer {
    fn of(lru: &LruPass) -> Transfer {
        let cum = |h: &Histogram| {
            let mut s = 0.0;
            let mut v = vec![0.0];
            for w in &h.by_distance {
                s += w;
                v.push(if h.total > 0.0 { s / h.total } else { 0.0 });
            }
            v
        };
        let mut blocks = cum(&lru.block_hist);
        let mut requests = cum(&lru.hist);
        let n = blocks.len().max(requests.len());
        for v in [&mut blocks, &mut requests] {
            let last = *v.last().unwrap_or(&0.0);
            v.resize(n, last);
        }
        Transfer { blocks, requests }
    }
    /// The LRU request hit ratio at the smallest size whose block hit ratio reaches `b`
    /// (linear between two sizes).
    fn at(&self, b: f64) -> f64 {
        let j = self.blocks.partition_point(|x| *x < b);
        if j == 0 {
            return self.requests[0];
        }
        if j >= self.blocks.len() {
            return *self.requests.last().unwrap_or(&0.0);
        }
        let (b0, b1) = (self.blocks[j - 1], self.blocks[j]);
        let t = if b1 > b0 { (b - b0) / (b1 - b0) } else { 0.0 };
        self.requests[j - 1] + t * (self.requests[j] - self.requests[j - 1])
    }
}

/// The expected mean absolute error over a curve of standard errors `se`.
pub(super) fn mean_abs_error(se: &[f64]) -> f64 {
    if se.is_empty() {
        return 0.0;
    }
    se.iter().map(|s| expected_abs_error(*s)).sum::<f64>() / se.len() as f64
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
