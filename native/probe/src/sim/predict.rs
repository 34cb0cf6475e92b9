//! `cacheproof-probe predict`: what a block cache of a given size would save, from the trace of
//! a capture's baseline (docs/simulate.md § predict). Exact LRU by stack distance over the
//! baseline's front-device requests (the other policies by simulation at the curve's sizes);
//! writes go around the cache (`bypass`). Beside the I/Os saved: the I/O still reaching the
//! backing device and the average response time with a given cache device (tally.rs). The
//! result can be stored in the capture's meta `prediction`, where the app reads it (the app
//! never simulates).

use std::path::Path;

use serde::Serialize;

use super::cachedev::CacheDevice;
use super::cli::curve_sizes;
use super::policy::PolicyKind;
use super::stack::{Histogram, StackDist};
use super::tally::{BackingIos, FrontIos, ResponseTime, Tally};
use super::{block_key, for_blocks, replay_reads, Op, Req};
use crate::capture::Capture;
use crate::error::{ProbeError, Result};

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
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub bytes: u64,
    /// Share of the counted reads that hit (all their blocks cached), 0–1.
    pub read_hit_ratio: f64,
    /// Read hits over all counted reads and writes, in % (writes always reach the backing).
    pub ios_saved_percent: f64,
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
    /// `scaled-simulation` (the others on a sampled trace: a cache of size × R).
    pub method: &'static str,
    pub read_hit_ratio: f64,
    pub ios_saved_percent: f64,
    pub curve: Vec<CurvePoint>,
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
}

fn usage(s: impl Into<String>) -> ProbeError {
    ProbeError::Usage(s.into())
}

/// The hit share targets of the size answer, in %.
pub const TARGETS: [f64; 5] = [50.0, 80.0, 90.0, 95.0, 99.0];

/// Run `predict`.
pub fn run(path: &Path, o: &PredictOptions) -> Result<PredictionJson> {
    if o.block == 0 || !o.block.is_multiple_of(512) {
        return Err(usage(format!(
            "--block {} must be a whole number of 512-byte sectors (e.g. 4KiB)",
            o.block
        )));
    }
    if o.size == 0 {
        return Err(usage(
            "a cache size of 0 bytes holds nothing: give the cache's size, e.g. --size 64MiB",
        ));
    }
    if o.size < o.block {
        return Err(usage(format!(
            "cache size {} bytes is smaller than one {}-byte block",
            o.size, o.block
        )));
    }
    let cap = Capture::open(path, o.store)?;
    let conn = cap.conn();
    let has: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='block_requests'",
        [],
        |r| r.get(0),
    )?;
    if has == 0 {
        return Err(ProbeError::BadTrace(format!(
            "{} has no block requests (a v1 capture): record the baseline with 'record --trace'",
            path.display()
        )));
    }
    // The window: the finished baseline, else the whole trace.
    let baseline: Option<(i64, Option<i64>)> = conn
        .query_row(
            "SELECT start_utc_ms, end_utc_ms FROM phases WHERE name='baseline' ORDER BY start_utc_ms LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .ok();
    let (window, start, end) = match baseline {
        Some((s, Some(e))) => ("baseline", s, e),
        Some((_, None)) => {
            return Err(ProbeError::BadTrace(format!(
                "{}: the baseline has not ended yet: predict once the recorder has passed the baseline (cacheproof-probe status {})",
                path.display(),
                path.display()
            )))
        }
        None => ("all", i64::MIN, i64::MAX),
    };
    let plan_warmup: Option<f64> = conn
        .query_row(
            "SELECT planned_s FROM phases WHERE name='warmup' LIMIT 1",
            [],
            |r| r.get(0),
        )
        .ok()
        .flatten()
        .or_else(|| {
            // before the warm-up has started, the plan says how long it will be
            cap.meta("plan")
                .ok()
                .flatten()
                .and_then(|p| serde_json::from_str::<serde_json::Value>(&p).ok())
                .and_then(|p| p["warmupS"].as_f64())
        });
    // Devices: as asked, else the front devices, else all.
    let mut devs: Vec<(i64, String, Option<i64>, String)> = Vec::new();
    {
        let mut q = conn.prepare("SELECT id, name, size_bytes, role FROM devices ORDER BY id")?;
        let rows = q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        for r in rows {
            devs.push(r?);
        }
    }
    let chosen: Vec<(i64, String, Option<i64>, String)> = match &o.devices {
        Some(names) => {
            let mut v = Vec::new();
            for n in names {
                match devs.iter().find(|d| &d.1 == n) {
                    Some(d) => v.push(d.clone()),
                    None => {
                        return Err(usage(format!(
                            "--devices: {} has no device '{n}' (it has {})",
                            path.display(),
                            devs.iter()
                                .map(|d| d.1.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )))
                    }
                }
            }
            v
        }
        None => {
            let front: Vec<_> = devs.iter().filter(|d| d.3 == "front").cloned().collect();
            if front.is_empty() {
                devs.clone()
            } else {
                front
            }
        }
    };
    let sampling = crate::trace::sampling::StoredSampling::read(&cap)?;
    let rate = sampling.rate;
    // Each traced request stands for 1/R requests of the workload (SHARDS, docs/simulate.md).
    let w = 1.0 / rate;
    let policies: Vec<PolicyKind> = if o.policies.is_empty() {
        vec![PolicyKind::Lru]
    } else {
        o.policies.clone()
    };
    let mut progress = Progress::new(o.progress);
    let ids = chosen
        .iter()
        .map(|d| d.0.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let rows_total: i64 = conn
        .query_row(
            "SELECT coalesce(max(rowid), 0) FROM block_requests",
            [],
            |r| r.get(0),
        )
        .unwrap_or(0);
    let mut q = conn.prepare(&format!(
        "SELECT rowid, device_id, issue_ns, utc_ms, sector, bytes, op, complete_ns FROM block_requests WHERE device_id IN ({ids}) AND utc_ms >= ?1 AND utc_ms < ?2 ORDER BY issue_ns, rowid"
    ))?;
    let mut rows = q.query([start, end])?;
    let mut skipped: std::collections::BTreeMap<String, u64> = Default::default();
    let mut skip = |why: &str| *skipped.entry(why.to_string()).or_default() += 1;
    // The requests in issue order, with each one's wall-clock label and traced latency (ns).
    let mut reqs: Vec<Req> = Vec::new();
    let mut utcs: Vec<i64> = Vec::new();
    let mut lats: Vec<Option<u64>> = Vec::new();
    let mut backwards = 0u64;
    let mut read_rows = 0i64;
    while let Some(r) = rows.next()? {
        read_rows += 1;
        if read_rows % 65_536 == 0 {
            progress.at(
                0.4 * read_rows as f64 / rows_total.max(1) as f64,
                "reading the trace",
            );
        }
        let dev_id: i64 = r.get(1)?;
        let issue: i64 = r.get(2)?;
        let utc: i64 = r.get(3)?;
        let sector: i64 = r.get(4)?;
        let bytes: i64 = r.get(5)?;
        let op: String = r.get(6)?;
        let complete: Option<i64> = r.get(7)?;
        let read = match op.as_str() {
            "R" => true,
            "W" => false,
            "D" | "F" | "N" => continue,
            _ => {
                skip("unknown opcode");
                continue;
            }
        };
        if bytes < 0 || sector < 0 {
            skip("negative length");
            continue;
        }
        if bytes == 0 {
            skip("zero length");
            continue;
        }
        let Some(i) = chosen.iter().position(|d| d.0 == dev_id) else {
            continue;
        };
        if !in_final_sample(&sampling, dev_id, sector) {
            continue;
        }
        if let Some(sz) = chosen[i].2 {
            if sector.saturating_mul(512).saturating_add(bytes) > sz {
                skip("past the device's end");
                continue;
            }
        }
        reqs.push(Req {
            t_ns: issue,
            dev: i as u32,
            offset: sector as u64 * 512,
            bytes: bytes as u64,
            op: if read { Op::Read } else { Op::Write },
        });
        utcs.push(utc);
        lats.push(match complete {
            Some(c) if c >= issue => Some((c - issue) as u64),
            Some(_) => {
                backwards += 1;
                None
            }
            None => None,
        });
    }
    let n_skipped: u64 = skipped.values().sum();
    if reqs.is_empty() {
        return Err(ProbeError::BadTrace(format!(
            "{}: no traced read or write of {} in the {} window{}: record the baseline with 'record --trace' while the workload runs",
            path.display(),
            chosen.iter().map(|d| d.1.as_str()).collect::<Vec<_>>().join(", "),
            window,
            if n_skipped > 0 { format!(" ({n_skipped} requests skipped as bad)") } else { String::new() }
        )));
    }
    let first = utcs[0];
    let last = utcs[utcs.len() - 1];
    let span_s = (if window == "baseline" {
        end - start
    } else {
        last - first
    }) as f64
        / 1000.0;
    let warmup_s = match o.warmup_s {
        Some(w) => {
            if w >= span_s {
                return Err(usage(format!(
                    "--warmup {w} s is not shorter than the {window} window ({span_s:.1} s): nothing would be counted"
                )));
            }
            w
        }
        None => plan_warmup.unwrap_or(0.0).min(span_s / 2.0),
    };
    let count_from =
        (if window == "baseline" { start } else { first }) + (warmup_s * 1000.0).round() as i64;
    let counted = |i: usize| utcs[i] >= count_from;
    let cache_blocks = o.size / o.block;
    // LRU stack distances of the reads (scaled by 1/R when sampled), one pass for every size.
    let mut sd = StackDist::new(reqs.len() * 2);
    let mut hist = Histogram::default();
    let (mut nr, mut nw) = (0u64, 0u64);
    // The reads that hit a cache of `cache_blocks` under the primary policy.
    let mut hits = vec![false; reqs.len()];
    for (i, r) in reqs.iter().enumerate() {
        if i % 65_536 == 0 {
            progress.at(0.4 + 0.2 * i as f64 / reqs.len() as f64, "lru");
        }
        if r.op != Op::Read {
            // bypass: writes go around the cache and do not move its state
            if counted(i) {
                nw += 1;
            }
            continue;
        }
        let mut worst: Option<u64> = Some(0);
        for_blocks(r, o.block, |b, _| {
            let d = sd
                .access(block_key(r.dev, b))
                .map(|d| (d as f64 / rate).floor() as u64);
            worst = match (worst, d) {
                (Some(w), Some(d)) => Some(w.max(d)),
                _ => None,
            };
        });
        hits[i] = worst.is_some_and(|d| d < cache_blocks);
        if counted(i) {
            nr += 1;
            hist.add(worst, 1.0);
        }
    }
    let footprint_blocks = ((sd.footprint() as f64) / rate).round() as u64;
    let mut notes = Vec::new();
    if cache_blocks > footprint_blocks {
        notes.push(format!(
            "the cache of {} bytes is larger than the {} bytes the baseline's reads touched: it holds every block, so it only misses first references; a larger cache gains nothing here",
            o.size,
            footprint_blocks * o.block
        ));
    }
    if nr == 0 {
        notes.push(format!(
            "no read after the {warmup_s:.0} s warm-up: the prediction has nothing to hit"
        ));
    }
    if backwards > 0 {
        notes.push(format!(
            "{backwards} requests complete before their issue (an edited or damaged capture): their latency is left out of the response time"
        ));
    }
    let total = (nr + nw) as f64;
    let saved = |hit_ratio: f64| {
        if total > 0.0 {
            100.0 * hit_ratio * nr as f64 / total
        } else {
            0.0
        }
    };
    let mut sizes = curve_sizes(footprint_blocks.max(1));
    sizes.push(cache_blocks);
    sizes.sort_unstable();
    sizes.dedup();
    let ratios = hist.hit_ratios(&sizes);
    let point = |b: u64, r: f64| CurvePoint {
        bytes: b * o.block,
        read_hit_ratio: r,
        ios_saved_percent: saved(r),
    };
    let lru_curve: Vec<CurvePoint> = sizes
        .iter()
        .zip(&ratios)
        .map(|(b, r)| point(*b, *r))
        .collect();
    let lru_hr = hist.hit_ratio(cache_blocks);
    // The other policies: one replay per size of the curve; on a sampled trace a cache of
    // size × R blocks (the sampled trace is a miniature of the workload: Waldspurger et al.,
    // USENIX ATC 2017).
    let scaled = |b: u64| ((b as f64 * rate).round() as u64).max(1);
    // Every replay (a policy at a size) is independent of the others: they run on the machine's
    // cores, the longest first, each thread taking the next one as it finishes (a day's trace,
    // six policies: about 1.5 minutes on one core).
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
    let results = run_replays(&replays, o.threads, &mut progress, |(k, b)| {
        let mark = mark_primary && k == 0 && b == cache_blocks;
        let mut marks = if mark {
            vec![false; reqs.len()]
        } else {
            Vec::new()
        };
        let mut h = 0u64;
        replay_reads(&reqs, policies[k], scaled(b), o.block, |i, hit| {
            if mark {
                marks[i] = hit;
            }
            if hit && counted(i) {
                h += 1;
            }
        });
        let r = if nr > 0 { h as f64 / nr as f64 } else { 0.0 };
        (r, marks)
    });
    let mut curves = Vec::new();
    let mut next = 0usize;
    for (k, p) in policies.iter().enumerate() {
        if *p == PolicyKind::Lru {
            curves.push(PolicyCurve {
                policy: p.name(),
                method: "exact-stack",
                read_hit_ratio: lru_hr,
                ios_saved_percent: saved(lru_hr),
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
            hits.clone_from(marks);
        }
        curves.push(PolicyCurve {
            policy: p.name(),
            method: if rate < 1.0 {
                "scaled-simulation"
            } else {
                "exact-simulation"
            },
            read_hit_ratio: *hr,
            ios_saved_percent: saved(*hr),
            curve,
        });
    }
    let primary = &curves[0];
    let hr = primary.read_hit_ratio;
    // size answers: the smallest C with cumulative hits ≥ target × total
    let mut size_answers = Vec::new();
    for t in TARGETS {
        let need = t / 100.0 * hist.total;
        let mut cum = 0.0;
        let mut found = None;
        if hist.total > 0.0 {
            for (d, w) in hist.by_distance.iter().enumerate() {
                cum += w;
                if cum + 1e-9 >= need {
                    found = Some((d as u64 + 1) * o.block);
                    break;
                }
            }
        }
        size_answers.push(SizeAnswer {
            read_hit_percent: t,
            bytes: found,
        });
    }
    let size_steps = size_steps(&hist, o.block, &saved);
    // Sampling: the counted reads are a sample of n = nr of about nr/R; binomial interval.
    let unc = if rate < 1.0 && nr > 0 {
        let p = hr;
        196.0 * (p * (1.0 - p) / nr as f64).sqrt() * nr as f64 / total
    } else {
        0.0
    };
    // The backing I/O and the response time of the counted requests under the primary policy.
    let hit_us = o.cache_device.as_ref().map(|c| c.read_latency_us);
    let mut tally = Tally::default();
    for (i, r) in reqs.iter().enumerate() {
        if counted(i) {
            let lat_us = lats[i].map(|ns| ns as f64 / 1000.0);
            tally.add(r.op == Op::Read, hits[i], lat_us, hit_us, w);
        }
    }
    let seconds = (span_s - warmup_s).max(0.0);
    let response_time = tally.response(hit_us, rate);
    if o.cache_device.is_none() {
        notes.push("no cache device given (--cache-device ram|sata-ssd|nvme|LATENCY): the response time is not predicted".into());
    } else if response_time.is_none() {
        notes.push(
            "no counted request has a traced completion: the response time cannot be predicted"
                .into(),
        );
    }
    progress.at(1.0, "done");
    let j = PredictionJson {
        capture: path.display().to_string(),
        window: window.into(),
        window_start_utc_ms: if window == "baseline" { start } else { first },
        window_end_utc_ms: if window == "baseline" { end } else { last },
        warmup_s,
        devices: chosen.iter().map(|d| d.1.clone()).collect(),
        policy: primary.policy,
        method: primary.method,
        writes: "bypass",
        block_bytes: o.block,
        cache_bytes: cache_blocks * o.block,
        footprint_bytes: footprint_blocks * o.block,
        sample_rate: rate,
        reads: nr,
        writes_count: nw,
        read_hit_ratio: hr,
        ios_saved_percent: saved(hr),
        ios_saved_uncertainty_pp: unc,
        curve: primary.curve.clone(),
        size_answers,
        front_ios: tally.front(seconds),
        backing_ios: tally.backing(seconds, rate, unc),
        response_time,
        cache_device: o.cache_device.clone(),
        policies: curves,
        size_steps,
        skipped: n_skipped,
        skipped_reasons: skipped,
        notes,
    };
    if o.store {
        let mut v = serde_json::to_value(&j).unwrap_or_default();
        if let Some(m) = v.as_object_mut() {
            m.remove("capture");
        }
        cap.set_meta("prediction", &v.to_string())?;
    }
    Ok(j)
}

/// Scaling by the sampling rate (trace::sampling, "How readers scale"): a trace whose rate fell
/// under its budget holds rows above the final threshold; only the rows below it form a uniform
/// sample at the final rate, the rate every distance and the footprint are scaled by.
fn in_final_sample(
    sampling: &crate::trace::sampling::StoredSampling,
    dev_id: i64,
    sector: i64,
) -> bool {
    sampling.keeps(dev_id, sector)
}

/// LRU size steps: walking the distance histogram, each time the I/Os saved first reaches the
/// next multiple of 0.1 point, the size (distance + 1 blocks) and its exact figure.
fn size_steps(hist: &Histogram, block: u64, saved: &dyn Fn(f64) -> f64) -> Vec<SizeStep> {
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
        let pct = saved(cum / hist.total);
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

/// Runs `job` on every item on up to `threads` threads (0: one per core), largest items first
/// (by their size, the second field), each thread taking the next item when it finishes one;
/// the results in the items' order. Progress goes from 60 % to 100 % as items finish.
fn run_replays<T: Send>(
    items: &[(usize, u64)],
    threads: usize,
    progress: &mut Progress,
    job: impl Fn((usize, u64)) -> T + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if threads == 0 { cores } else { threads }.clamp(1, items.len().max(1));
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(items[i].1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = order.get(n) else { break };
                    let r = job(items[i]);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    done.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        // until every thread has ended (a panic ends one early; the scope then passes it on)
        while !workers.iter().all(|w| w.is_finished()) {
            let d = done.load(Ordering::Relaxed);
            progress.at(
                0.6 + 0.4 * d as f64 / items.len().max(1) as f64,
                "other policies",
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every replay ran"))
        .collect()
}

/// Progress on stderr, about once a second: `predict: 45 % (lru)`.
struct Progress {
    on: bool,
    last: Option<std::time::Instant>,
}
impl Progress {
    fn new(on: bool) -> Progress {
        Progress { on, last: None }
    }
    fn at(&mut self, share: f64, stage: &str) {
        if !self.on {
            return;
        }
        let due = self.last.is_none_or(|t| t.elapsed().as_secs_f64() >= 1.0);
        if due || share >= 1.0 {
            self.last = Some(std::time::Instant::now());
            eprintln!(
                "predict: {:.0} % ({stage})",
                (share * 100.0).clamp(0.0, 100.0)
            );
        }
    }
}

/// Text rendering.
pub fn render(j: &PredictionJson) -> String {
    let mib = |b: u64| b as f64 / 1048576.0;
    let mut s = format!(
        "{}: a {:.1} MiB {} cache ({}-byte blocks, writes bypass) in front of {} over the {} window ({} reads, {} writes counted after a {:.0} s warm-up) would serve {:.1} % of reads: {:.1} % of I/Os saved\n",
        j.capture,
        mib(j.cache_bytes),
        j.policy.to_uppercase(),
        j.block_bytes,
        j.devices.join(", "),
        j.window,
        j.reads,
        j.writes_count,
        j.warmup_s,
        j.read_hit_ratio * 100.0,
        j.ios_saved_percent
    );
    if let Some(ps) = j.backing_ios.per_second {
        s += &format!(
            "  backing I/O: {:.0} of {:.0} ({:.1}/s ± {:.1}/s over {:.0} s)\n",
            j.backing_ios.total,
            j.front_ios.total,
            ps,
            j.backing_ios.per_second_uncertainty.unwrap_or(0.0),
            j.front_ios.seconds
        );
    }
    if let (Some(r), Some(c)) = (&j.response_time, &j.cache_device) {
        s += &format!(
            "  response time: {:.1} µs ± {:.1} µs (hits at {} µs on {}; {:.1} µs without the cache)\n",
            r.predicted_us,
            r.uncertainty_us,
            r.hit_us,
            c.label.as_deref().unwrap_or("the typed latency"),
            r.baseline_us
        );
    }
    for p in j.policies.iter().skip(1) {
        s += &format!(
            "  {} ({}): {:.1} % of reads, {:.1} % of I/Os saved\n",
            p.policy,
            p.method,
            p.read_hit_ratio * 100.0,
            p.ios_saved_percent
        );
    }
    for a in &j.size_answers {
        s += &match a.bytes {
            Some(b) => format!(
                "  {:.0} % of reads: {:.1} MiB\n",
                a.read_hit_percent,
                mib(b)
            ),
            None => format!(
                "  {:.0} % of reads: no size (too many first references)\n",
                a.read_hit_percent
            ),
        };
    }
    for n in &j.notes {
        s += &format!("note: {n}\n");
    }
    s
}
