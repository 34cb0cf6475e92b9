//! `simulate`'s replay of one policy at every cache size (sim/cli.rs reads the input and
//! assembles the JSON).

use std::time::Instant;

use super::cli::{PolicyJson, SamplingJson, SimOptions, SizeJson};
use super::cli_render::Progress;
use super::policy::PolicyKind;
use super::stack::Sampling;
use super::{lru_curve_scaled, shards_curve, simulate_with, Req, WritePolicy};

/// One policy's replay at every size: its method is the miniature stream's, SHARDS', LRU's
/// stack distances or a simulation per size.
pub(super) struct Replay<'a> {
    pub o: &'a SimOptions,
    pub reqs: &'a [Req],
    /// The requests the cache sees (reads, and writes with --writes allocate).
    pub counted: &'a [Req],
    pub blocks: &'a [u64],
    /// The capture's sampling rate (1: every request).
    pub rate: f64,
    /// Distinct blocks of the counted requests when known exactly (SHARDS' calibration).
    pub footprint: Option<u64>,
    pub stream: Option<&'a super::mini_stream::Stream>,
}

impl Replay<'_> {
    pub fn policy(
        &self,
        p: PolicyKind,
        references: u64,
        sampling: &mut Option<SamplingJson>,
    ) -> PolicyJson {
        let o = self.o;
        let start = Instant::now();
        let mut tick = Progress::new(o.progress, p.name(), self.reqs.len());
        let stack = p == PolicyKind::Lru && !o.lru_by_simulation;
        let mut estimator = None;
        let (method, sizes) = if let Some(s) = self.stream {
            let pts = super::mini::curve(s, p, self.blocks, o.writes);
            ("miniature", mini_sizes(self.blocks, o.block, &pts))
        } else if let Some(mode) = o.sample {
            let (method, est, sizes) = self.shards(mode, &mut tick, sampling);
            estimator = Some(est);
            (method, sizes)
        } else if stack && o.writes != WritePolicy::Invalidate {
            ("exact-stack", self.stack(&mut tick))
        } else {
            ("exact-simulation", self.simulated(p, &mut tick))
        };
        let elapsed = start.elapsed().as_secs_f64();
        let passes = if method == "exact-simulation" || method == "miniature" {
            self.blocks.len() as f64
        } else {
            1.0
        };
        if o.progress {
            eprintln!("simulate: {} done in {:.2} s ({method})", p.name(), elapsed);
        }
        PolicyJson {
            policy: p.name(),
            method,
            estimator,
            elapsed_s: elapsed,
            references_per_s: references as f64 * passes / elapsed.max(1e-9),
            sizes,
        }
    }

    /// LRU's curve from SHARDS sampling: block hit ratios only, by the regression estimator
    /// calibrated on the references and the footprint when the footprint is known exactly,
    /// else (or when the sample cannot carry it) by the sampled weights alone; the method, the
    /// estimator and the sizes.
    fn shards(
        &self,
        mode: Sampling,
        tick: &mut Progress,
        sampling: &mut Option<SamplingJson>,
    ) -> (&'static str, &'static str, Vec<SizeJson>) {
        let o = self.o;
        let s = shards_curve(
            self.counted,
            o.block,
            o.writes,
            mode,
            o.sample_salt,
            &mut |i| tick.at(i),
        );
        let calibrated = self
            .footprint
            .and_then(|f| s.calibrated_hit_ratios(f, self.blocks));
        let (estimator, ratios) = match calibrated {
            Some(r) => ("calibrated-regression", r),
            None => ("horvitz-thompson", s.hist.hit_ratios(self.blocks)),
        };
        let (method, name, parameter) = match mode {
            Sampling::FixedRate(r) => ("shards-fixed-rate", "fixed-rate", r),
            Sampling::FixedSize(n) => ("shards-fixed-size", "fixed-size", n as f64),
        };
        *sampling = Some(SamplingJson {
            mode: name,
            parameter,
            final_rate: s.rate(),
            references: s.references,
            sampled: s.sampled,
            salt: o.sample_salt,
        });
        let sizes = self
            .blocks
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
            .collect();
        (method, estimator, sizes)
    }

    /// LRU by stack distances: every size from one pass.
    fn stack(&self, tick: &mut Progress) -> Vec<SizeJson> {
        let o = self.o;
        let c = lru_curve_scaled(self.counted, o.block, o.writes, self.rate, &mut |i| {
            tick.at(i)
        });
        let rq = c.requests.hit_ratios(self.blocks);
        let by = c.bytes.hit_ratios(self.blocks);
        let bl = c.blocks.hit_ratios(self.blocks);
        self.blocks
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
            .collect()
    }

    /// A simulation per size (a sampled trace: a cache R times the size, miniature simulation).
    fn simulated(&self, p: PolicyKind, tick: &mut Progress) -> Vec<SizeJson> {
        let o = self.o;
        let mut v = Vec::new();
        for b in self.blocks {
            tick.pass(*b);
            let mini = ((*b as f64 * self.rate).round() as u64).max(1);
            let r = simulate_with(self.reqs, p, mini, o.block, o.writes, &mut |i| tick.at(i));
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
        v
    }
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
