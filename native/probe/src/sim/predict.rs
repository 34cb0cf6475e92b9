//! `cacheproof-probe predict`: what a block cache of a given size would save, from the trace of
//! a capture's baseline (docs/simulate.md § predict). Exact LRU by stack distance over the
//! baseline's front-device requests; writes go around the cache (`bypass`). The result can be
//! stored in the capture's meta `prediction`, where the app reads it (the app never simulates).

use std::path::Path;

use serde::Serialize;

use super::cli::curve_sizes;
use super::stack::{Histogram, StackDist};
use super::{block_key, for_blocks};
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
    let ids = chosen
        .iter()
        .map(|d| d.0.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let mut q = conn.prepare(&format!(
        "SELECT rowid, device_id, issue_ns, utc_ms, sector, bytes, op FROM block_requests WHERE device_id IN ({ids}) AND utc_ms >= ?1 AND utc_ms < ?2 ORDER BY issue_ns, rowid"
    ))?;
    let mut rows = q.query([start, end])?;
    let mut skipped: std::collections::BTreeMap<String, u64> = Default::default();
    let mut skip = |why: &str| *skipped.entry(why.to_string()).or_default() += 1;
    // (utc_ms, device, offset, bytes, read?)
    let mut reqs: Vec<(i64, u32, u64, u64, bool)> = Vec::new();
    while let Some(r) = rows.next()? {
        let dev_id: i64 = r.get(1)?;
        let utc: i64 = r.get(3)?;
        let sector: i64 = r.get(4)?;
        let bytes: i64 = r.get(5)?;
        let op: String = r.get(6)?;
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
        reqs.push((utc, i as u32, sector as u64 * 512, bytes as u64, read));
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
    let first = reqs[0].0;
    let last = reqs[reqs.len() - 1].0;
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
    let mut sd = StackDist::new(reqs.len() * 2);
    let mut hist = Histogram::default();
    let (mut nr, mut nw) = (0u64, 0u64);
    for &(utc, dev, offset, bytes, read) in &reqs {
        let counted = utc >= count_from;
        if !read {
            // bypass: writes go around the cache and do not move its state
            if counted {
                nw += 1;
            }
            continue;
        }
        let mut worst: Option<u64> = Some(0);
        let r = super::Req {
            t_ns: 0,
            dev,
            offset,
            bytes,
            op: super::Op::Read,
        };
        for_blocks(&r, o.block, |b, _| {
            let d = sd
                .access(block_key(dev, b))
                .map(|d| (d as f64 / rate).floor() as u64);
            worst = match (worst, d) {
                (Some(w), Some(d)) => Some(w.max(d)),
                _ => None,
            };
        });
        if counted {
            nr += 1;
            hist.add(worst, 1.0);
        }
    }
    let footprint_blocks = ((sd.footprint() as f64) / rate).round() as u64;
    let mut notes = Vec::new();
    let cache_blocks = o.size / o.block;
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
    let curve: Vec<CurvePoint> = sizes
        .iter()
        .zip(&ratios)
        .map(|(b, r)| CurvePoint {
            bytes: b * o.block,
            read_hit_ratio: *r,
            ios_saved_percent: saved(*r),
        })
        .collect();
    let hr = hist.hit_ratio(cache_blocks);
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
    // Sampling: the counted reads are a sample of n = nr of about nr/R; binomial interval.
    let unc = if rate < 1.0 && nr > 0 {
        let p = hr;
        196.0 * (p * (1.0 - p) / nr as f64).sqrt() * nr as f64 / total
    } else {
        0.0
    };
    let j = PredictionJson {
        capture: path.display().to_string(),
        window: window.into(),
        window_start_utc_ms: if window == "baseline" { start } else { first },
        window_end_utc_ms: if window == "baseline" { end } else { last },
        warmup_s,
        devices: chosen.iter().map(|d| d.1.clone()).collect(),
        policy: "lru",
        method: "exact-stack",
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
        curve,
        size_answers,
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

/// Text rendering.
pub fn render(j: &PredictionJson) -> String {
    let mib = |b: u64| b as f64 / 1048576.0;
    let mut s = format!(
        "{}: a {:.1} MiB LRU cache ({}-byte blocks, writes bypass) in front of {} over the {} window ({} reads, {} writes counted after a {:.0} s warm-up) would serve {:.1} % of reads: {:.1} % of I/Os saved\n",
        j.capture,
        mib(j.cache_bytes),
        j.block_bytes,
        j.devices.join(", "),
        j.window,
        j.reads,
        j.writes_count,
        j.warmup_s,
        j.read_hit_ratio * 100.0,
        j.ios_saved_percent
    );
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
