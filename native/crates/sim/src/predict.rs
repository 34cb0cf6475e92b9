//! `cacheproof-probe predict`: what a block cache of a given size would save, from the trace of
//! a capture's baseline (docs/simulate.md § predict). Exact LRU by stack distance over the
//! baseline's front-device requests (the other policies by simulation at the curve's sizes);
//! writes go around the cache (`bypass`). Beside the I/Os saved: the I/O still reaching the
//! backing device and the average response time with a given cache device (tally.rs). The
//! result can be stored in the capture's meta `prediction`, where the app reads it (the app
//! never simulates).
//!
//! `run` goes in steps: the options and the capture checked, the window and devices chosen,
//! the trace read (input.rs); the LRU pass, the other policies' replays, the size answers and
//! the tally (figures.rs, on the cores by replays.rs); the JSON assembled and stored.

use std::path::Path;

use serde::Serialize;

use super::cachedev::CacheDevice;
use super::mini_stream::Stream;
use super::policy::PolicyKind;
use super::tally::{BackingIos, FrontIos, ResponseTime};
use super::{mini, Req};
use crate::capture::Capture;
use crate::error::{ProbeError, Result};
use crate::trace::sampling::StoredSampling;

mod figures;
mod input;
mod render;
mod replays;

use figures::{Counts, Replay};
use input::{Trace, Window};
use replays::Progress;

pub use render::render;
/// What `predict` was asked.
#[derive(Debug, Clone)]
pub struct PredictOptions {
    /// Cache size in bytes.
    pub size: u64,
    /// Cache block size in bytes.
    pub block: u64,
    /// Devices whose requests the cache sees; None = the `front` devices, else every device.
    pub devices: Option<Vec<String>>,
    /// Seconds at the start of the window that warm the cache without being counted; None =
    /// the plan's warm-up, at most half the window.
    pub warmup_s: Option<f64>,
    pub store: bool,
    /// Policies whose curves are stored, the first giving the figures at `size`; empty = LRU.
    pub policies: Vec<PolicyKind>,
    /// The cache device whose read latency a hit costs; None = no response time predicted.
    pub cache_device: Option<CacheDevice>,
    /// Progress lines on stderr (`predict: 45 % (stage)`, about once a second).
    pub progress: bool,
    /// Threads for the replays of the policies other than LRU (0: one per core).
    pub threads: usize,
    /// Replay every request however large the window (no miniature simulation, mini.rs).
    pub exact: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub bytes: u64,
    /// Share of the counted reads that hit (all their blocks cached), 0–1.
    pub read_hit_ratio: f64,
    /// Read hits over all counted reads and writes, in % (writes always reach the backing).
    pub ios_saved_percent: f64,
    /// Half-width of the 95 % interval of `iosSavedPercent` from the sampling (percentage
    /// points; 0 with every request replayed): 1.96 × the standard error of mini.rs.
    pub ios_saved_uncertainty_pp: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeAnswer {
    /// Share of reads the cache should hold, in %.
    pub read_hit_percent: f64,
    /// Smallest cache (bytes) whose read hit share reaches it; null when no size does (the
    /// rest are first references).
    pub bytes: Option<u64>,
}

/// One policy's figures at the asked size and its miss-ratio curve.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyCurve {
    pub policy: &'static str,
    /// `exact-stack` (LRU), `exact-simulation` (the others, every request traced) or
    /// `scaled-simulation` (the others on a sampled trace: a cache of size × R) or
    /// `miniature-simulation` (the others on a miniature of a large window, mini.rs).
    pub method: &'static str,
    pub read_hit_ratio: f64,
    pub ios_saved_percent: f64,
    pub curve: Vec<CurvePoint>,
    /// Expected mean absolute error of the curve's read hit ratios from the sampling (0–1; 0
    /// with every request replayed).
    pub expected_mean_abs_error: f64,
}

/// A cache of `bytes` (LRU) saves `iosSavedPercent`: the smallest size that first reaches each
/// 0.1-point step of I/Os saved.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeStep {
    pub bytes: u64,
    pub ios_saved_percent: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PredictionJson {
    pub capture: String,
    /// `baseline`, or `all` when the capture has no finished baseline (an imported trace).
    pub window: String,
    pub window_start_utc_ms: i64,
    pub window_end_utc_ms: i64,
    pub warmup_s: f64,
    pub devices: Vec<String>,
    pub policy: &'static str,
    pub method: &'static str,
    pub writes: &'static str,
    pub block_bytes: u64,
    pub cache_bytes: u64,
    pub footprint_bytes: u64,
    /// Share of requests the trace kept (`record --trace-sample`); distances are scaled by 1/R.
    pub sample_rate: f64,
    /// Reads and writes after the warm-up (the counted requests), as traced (not scaled).
    pub reads: u64,
    pub writes_count: u64,
    pub read_hit_ratio: f64,
    /// Predicted I/Os saved at `cacheBytes`: read hits over reads and writes, in %.
    pub ios_saved_percent: f64,
    /// Half-width of the 95 % interval of `iosSavedPercent` from the sampling, in percentage
    /// points (0 with every request traced).
    pub ios_saved_uncertainty_pp: f64,
    pub curve: Vec<CurvePoint>,
    pub size_answers: Vec<SizeAnswer>,
    /// Every policy asked (the first is `policy`, whose figures are the ones above).
    pub policies: Vec<PolicyCurve>,
    /// LRU: the smallest cache reaching each 0.1 point of I/Os saved (the typed size answer).
    pub size_steps: Vec<SizeStep>,
    /// The cache device a hit is served from (null: no response time predicted).
    pub cache_device: Option<CacheDevice>,
    /// The baseline's counted I/Os (reads and writes after the warm-up, ÷ R when sampled).
    pub front_ios: FrontIos,
    /// The predicted I/O still reaching the backing device.
    pub backing_ios: BackingIos,
    /// The predicted average response time (null without a cache device or without traced
    /// completions).
    pub response_time: Option<ResponseTime>,
    /// Requests the replay skipped, with why (counted, never dropped in silence).
    pub skipped: u64,
    pub skipped_reasons: std::collections::BTreeMap<String, u64>,
    pub notes: Vec<String>,
    /// A large window replayed as a miniature (null: every stored request replayed).
    pub miniature: Option<mini::MiniatureJson>,
}

fn usage(s: impl Into<String>) -> ProbeError {
    ProbeError::Usage(s.into())
}

/// The hit share targets of the size answer, in %.
pub const TARGETS: [f64; 5] = [50.0, 80.0, 90.0, 95.0, 99.0];

/// Run `predict`.
pub fn run(path: &Path, o: &PredictOptions) -> Result<PredictionJson> {
    input::check_options(o)?;
    let cap = Capture::open(path, o.store)?;
    input::require_trace(&cap, path)?;
    let window = Window::of(&cap, path)?;
    let plan_warmup = input::plan_warmup(&cap);
    let chosen = input::choose_devices(&cap, path, o.devices.as_deref())?;
    let sampling = StoredSampling::read(&cap)?;
    // Each traced request stands for 1/R requests of the workload (SHARDS, docs/simulate.md).
    let rate = sampling.rate;
    let policies = policies_of(o);
    let mut progress = Progress::new(o.progress);
    let trace = Trace::read(&cap, &chosen, &window, &sampling, &mut progress)?;
    trace.require_requests(path, &chosen, &window)?;
    let (start, end) = window.bounds(trace.utcs[0], trace.utcs[trace.utcs.len() - 1]);
    let span_s = (end - start) as f64 / 1000.0;
    let warmup_s = input::warmup_s(o.warmup_s, plan_warmup, span_s, &window)?;
    let stream = miniature_stream(o, &policies, rate, &trace.reqs);
    let replay = Replay {
        stream: stream.as_ref(),
        reqs: &trace.reqs,
        utcs: &trace.utcs,
        count_from: start + (warmup_s * 1000.0).round() as i64,
        block: o.block,
        rate,
        cache_blocks: o.size / o.block,
    };
    let mut lru = replay.lru(&mut progress);
    let mut notes = trace_notes(o, &replay, lru.footprint_blocks, lru.counts, warmup_s);
    notes.extend(backwards_note(trace.backwards));
    let curves = replay.curves(&policies, &mut lru, o.threads, &mut progress);
    let miniature = stream
        .as_ref()
        .map(|s| mini::json(s, &trace.reqs, o.block, &curves));
    notes.extend(miniature.as_ref().map(mini::note));
    let counts = lru.counts;
    let primary = &curves[0];
    let hr = primary.read_hit_ratio;
    let unc = figures::uncertainty_pp(hr, rate, counts);
    // The backing I/O and the response time of the counted requests under the primary policy.
    let hit_us = o.cache_device.as_ref().map(|c| c.read_latency_us);
    let tally = replay.tally(&trace.lats, &lru.hits, hit_us);
    let seconds = (span_s - warmup_s).max(0.0);
    let response_time = tally.response(hit_us, rate);
    notes.extend(response_note(o, response_time.as_ref()));
    progress.at(1.0, "done");
    let j = PredictionJson {
        capture: path.display().to_string(),
        window: window.name.into(),
        window_start_utc_ms: start,
        window_end_utc_ms: end,
        warmup_s,
        devices: chosen.iter().map(|d| d.1.clone()).collect(),
        policy: primary.policy,
        method: primary.method,
        writes: "bypass",
        block_bytes: o.block,
        cache_bytes: replay.cache_blocks * o.block,
        footprint_bytes: lru.footprint_blocks * o.block,
        sample_rate: rate,
        reads: counts.reads,
        writes_count: counts.writes,
        read_hit_ratio: hr,
        ios_saved_percent: counts.saved(hr),
        ios_saved_uncertainty_pp: unc,
        curve: primary.curve.clone(),
        size_answers: figures::size_answers(&lru.hist, o.block),
        front_ios: tally.front(seconds),
        backing_ios: tally.backing(seconds, rate, unc),
        response_time,
        cache_device: o.cache_device.clone(),
        policies: curves,
        size_steps: figures::size_steps(&lru.hist, o.block, counts),
        skipped: trace.n_skipped(),
        skipped_reasons: trace.skipped,
        notes,
        miniature,
    };
    if o.store {
        store(&cap, &j)?;
    }
    Ok(j)
}

/// The policies asked, the first giving the figures (none asked: LRU).
fn policies_of(o: &PredictOptions) -> Vec<PolicyKind> {
    if o.policies.is_empty() {
        vec![PolicyKind::Lru]
    } else {
        o.policies.clone()
    }
}

/// A window of more block references than the budget: the policies other than LRU replay a
/// miniature of it (mini.rs), LRU and the figures at the asked size stay exact. LRU alone (the
/// command's default) has nothing to replay as a miniature: no miniature then; nor with
/// `--exact`, nor on a sampled trace.
fn miniature_stream(
    o: &PredictOptions,
    policies: &[PolicyKind],
    rate: f64,
    reqs: &[Req],
) -> Option<Stream> {
    let others = policies.iter().any(|p| *p != PolicyKind::Lru);
    (!o.exact && rate >= 1.0 && others)
        .then(|| mini::miniature_of(reqs, o.block))
        .flatten()
}

/// Requests that complete before their issue, left out of the response time.
fn backwards_note(backwards: u64) -> Option<String> {
    (backwards > 0).then(|| format!(
        "{backwards} requests complete before their issue (an edited or damaged capture): their latency is left out of the response time"
    ))
}

/// Why the response time is not predicted, when it is not.
fn response_note(o: &PredictOptions, response_time: Option<&ResponseTime>) -> Option<String> {
    if o.cache_device.is_none() {
        Some("no cache device given (--cache-device ram|sata-ssd|nvme|LATENCY): the response time is not predicted".into())
    } else if response_time.is_none() {
        Some(
            "no counted request has a traced completion: the response time cannot be predicted"
                .into(),
        )
    } else {
        None
    }
}

/// What the counted trace itself says about the prediction: a cache larger than the footprint,
/// no read to hit.
fn trace_notes(
    o: &PredictOptions,
    replay: &Replay,
    footprint_blocks: u64,
    counts: Counts,
    warmup_s: f64,
) -> Vec<String> {
    let mut notes = Vec::new();
    if replay.cache_blocks > footprint_blocks {
        notes.push(format!(
            "the cache of {} bytes is larger than the {} bytes the baseline's reads touched: it holds every block, so it only misses first references; a larger cache gains nothing here",
            o.size,
            footprint_blocks * o.block
        ));
    }
    if counts.reads == 0 {
        notes.push(format!(
            "no read after the {warmup_s:.0} s warm-up: the prediction has nothing to hit"
        ));
    }
    notes
}

/// Stores the prediction in the capture's meta `prediction` (without the capture's path), where
/// the app reads it.
fn store(cap: &Capture, j: &PredictionJson) -> Result<()> {
    let mut v = serde_json::to_value(j).unwrap_or_default();
    if let Some(m) = v.as_object_mut() {
        m.remove("capture");
    }
    cap.set_meta("prediction", &v.to_string())
}
