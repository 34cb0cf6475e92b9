//! The trace's size budget (root, tracefs, fio, losetup; docs/probe.md § Trace budget): two
//! recorders trace the same raw loop device at once while fio reads it at 1,000 then 3,000 I/Os
//! per second, one keeping every request (`--trace-sample 1`), one under a budget small enough
//! that its rate must fall twice (at the start, and when the load triples). Then:
//! - the rate history: lower at every change, the last one in force (`status --json`
//!   `trace.sampleRate`, `trace.rateChanges`, meta `trace_sample_threshold`);
//! - the stored trace stays within the budget's share of the time traced (requests × 64 B ≤
//!   budget × max(time, 10 min) / 24 h), and the rate in force at the end keeps the trace of the
//!   load so far within the budget per 24 h (the controller over hours of such a load, where the
//!   ten minutes matter no more, is `trace::sampling`'s unit test);
//! - exactly: the budgeted capture holds, in the window both recorded, every request of the full
//!   trace whose hash is below the final threshold and no other such request, and its rows above
//!   that threshold were all issued before the last change (a uniform sample at the final rate);
//! - `predict` and `simulate` on the budgeted capture, scaled by the final rate, agree with the
//!   full trace within the binomial 99 % bound of the sampled blocks;
//! - the latency histograms of both captures count every read fio made.
//!
//! Skips with a message when not root or a tool is missing.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use cacheproof_probe::trace;
use cacheproof_probe::trace::sampling::{hash_of, share_of, DAY_S, ROW_BYTES};
use common::*;

const BUDGET: &str = "3GB";
const BUDGET_BYTES: f64 = 3e9;
/// fio's two phases: I/Os per second and seconds (the second lasts past the decision due at
/// 25.6 s of tracing, decisions coming at 0.2 s × 2^k: trace::sampling).
const PHASES: [(u32, u32); 2] = [(1000, 10), (3000, 18)];

fn q<T: rusqlite::types::FromSql>(cap: &Path, sql: &str) -> T {
    rusqlite::Connection::open(cap)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// (issue_ns, sector, op) of the rows issued in [from, to] whose hash is below `t`.
fn below(cap: &Path, t: u64, from: i64, to: i64) -> BTreeSet<(i64, i64, String)> {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c
        .prepare("SELECT device_id, issue_ns, sector, op FROM block_requests WHERE issue_ns BETWEEN ?1 AND ?2")
        .unwrap();
    st.query_map([from, to], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, String>(3)?,
        ))
    })
    .unwrap()
    .map(|x| x.unwrap())
    .filter(|(d, _, s, _)| hash_of(*d, *s as u64) < t)
    .map(|(_, i, s, o)| (i, s, o))
    .collect()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = probe(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn a_budget_lowers_the_rate_and_every_estimate_scales_by_the_final_one() {
    let test = "a_budget_lowers_the_rate_and_every_estimate_scales_by_the_final_one";
    if skip_unless_root_with(&["fio", "losetup"], test) {
        return;
    }
    if let Err(e) = trace::ensure_available(&trace::tracefs_root()) {
        common::skip(test, &e.to_string());
        return;
    }
    let _s = serial();
    let d = TempDir::new("trace-budget");
    let (dev, _lg) = raw_loop(&d, 128, "/dev/urandom");
    let name = dev.trim_start_matches("/dev/").to_string();

    let full = d.join("full.capture");
    let budgeted = d.join("budget.capture");
    let plan = "baseline=32s,warmup=1s,measure=1s";
    let mut guards = Vec::new();
    for (cap, extra) in [
        (&full, ["--trace-sample", "1"]),
        (&budgeted, ["--trace-budget", BUDGET]),
    ] {
        let o = probe(&[
            "record",
            "--out",
            cap.to_str().unwrap(),
            "--devices",
            &name,
            "--interval",
            "1s",
            "--trace",
            extra[0],
            extra[1],
            "--plan",
            plan,
            "--detach",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        guards.push(RecorderGuard(cap.clone()));
    }
    for cap in [&full, &budgeted] {
        wait_for("the first sample", Duration::from_secs(10), || {
            status_json(cap)["samples"].as_i64().unwrap_or(0) >= 1
        });
    }
    // random 4 KiB reads (with reuse: no random map) over the first 64 MiB (16,384 blocks)
    let mut fio_reads = 0u64;
    for (k, (iops, secs)) in PHASES.iter().enumerate() {
        let out = d.join(&format!("fio{k}.json"));
        let job = fio_job(
            &[],
            &[
                "--name=budget".into(),
                format!("--filename={dev}"),
                "--bs=4k".into(),
                "--direct=1".into(),
                "--ioengine=psync".into(),
                "--rw=randread".into(),
                "--norandommap".into(),
                "--randrepeat=0".into(),
                "--size=64M".into(),
                "--time_based".into(),
                format!("--runtime={secs}"),
                format!("--rate_iops={iops}"),
            ],
            &out,
        );
        fio_reads += job["read"]["total_ios"].as_u64().unwrap();
    }
    for cap in [&full, &budgeted] {
        wait_for("the baseline's end", Duration::from_secs(30), || {
            status_json(cap)["phase"] == "switch"
        });
    }
    drop(guards); // stop both
    for cap in [&full, &budgeted] {
        wait_for("the recorder to stop", Duration::from_secs(20), || {
            status_json(cap)["state"] == "stopped"
        });
    }

    // ---- the rate history ----------------------------------------------------------------
    let st = status_json(&budgeted);
    let t = &st["trace"];
    let changes = t["rateChanges"].as_array().unwrap().clone();
    for c in &changes {
        println!(
            "rate {} → {} after {:.1} s ({} seen, {} stored): {}",
            c["rateBefore"], c["rateAfter"], c["tracedS"], c["seen"], c["stored"], c["reason"]
        );
    }
    assert!(
        changes.len() >= 2,
        "the rate fell at the start and when the load tripled: {changes:?}"
    );
    let mut prev = 1.0;
    for c in &changes {
        assert_eq!(c["rateBefore"].as_f64().unwrap(), prev);
        assert!(c["rateAfter"].as_f64().unwrap() < prev, "{c}");
        prev = c["rateAfter"].as_f64().unwrap();
    }
    let last = changes.last().unwrap();
    assert!(
        last["tracedS"].as_f64().unwrap() > f64::from(PHASES[0].1),
        "a change once the load grew: {last}"
    );
    assert_eq!(t["sampleRate"].as_f64(), Some(prev), "{t}");
    assert_eq!(t["budgetBytes"].as_f64(), Some(BUDGET_BYTES));
    let t_final: u64 = q::<String>(
        &budgeted,
        "SELECT value FROM meta WHERE key='trace_sample_threshold'",
    )
    .parse()
    .unwrap();
    assert_eq!(t_final, last["thresholdAfter"].as_u64().unwrap());
    assert_eq!(status_json(&full)["trace"]["sampleRate"], 1.0);
    assert_eq!(
        status_json(&full)["trace"]["budgetBytes"],
        serde_json::Value::Null
    );

    // ---- within the budget, pro rata --------------------------------------------------------
    let rows: i64 = q(&budgeted, "SELECT count(*) FROM block_requests");
    let traced_s = t["tracedS"].as_f64().unwrap();
    let share = share_of(BUDGET_BYTES as u64, traced_s);
    let stored = rows as f64 * ROW_BYTES as f64;
    let pages = Command::new("sqlite3")
        .arg(&budgeted)
        .arg("SELECT sum(pgsize) FROM dbstat WHERE name IN ('block_requests','block_requests_by_device_time')")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "stored {rows} requests = {stored:.0} B by the model ({pages} B of table and index pages) after {traced_s:.1} s; the budget's share {share:.0} B; the full trace {} requests",
        q::<i64>(&full, "SELECT count(*) FROM block_requests")
    );
    assert_eq!(t["storedBytes"].as_f64(), Some(stored));
    assert!(
        stored <= share,
        "stored {stored:.0} B, more than the budget's share {share:.0} B"
    );
    // at the final rate, the load as the last decision saw it (its average up to then) would store
    // at most the budget per 24 h: what the rule promises. The load after the last decision is the
    // next decision's to answer (the schedule is 2, 4, 8, 16 s, then every minute); how much faster
    // fio runs late in the run depends on the machine, so it is printed, not held to the budget.
    let decided = last["seen"].as_f64().unwrap() / last["tracedS"].as_f64().unwrap();
    let per_day = prev * decided * ROW_BYTES as f64 * DAY_S;
    println!(
        "at the final rate, the load as last decided ({decided:.0} requests/s) stores {:.2} GB per 24 h (budget {:.2} GB); the whole run's average, {:.0} requests/s, {:.2} GB",
        per_day / 1e9,
        BUDGET_BYTES / 1e9,
        t["seen"].as_f64().unwrap() / traced_s,
        prev * t["seen"].as_f64().unwrap() / traced_s * ROW_BYTES as f64 * DAY_S / 1e9
    );
    assert!(
        per_day <= BUDGET_BYTES,
        "{per_day:.0} B per 24 h at the final rate for the load the last decision saw"
    );

    // ---- exactly a uniform sample at the final rate ----------------------------------------
    let from: i64 = q::<i64>(&full, "SELECT min(mono_ns) FROM samples")
        .max(q(&budgeted, "SELECT min(mono_ns) FROM samples"));
    let to: i64 = q::<i64>(&full, "SELECT max(mono_ns) FROM samples")
        .min(q(&budgeted, "SELECT max(mono_ns) FROM samples"));
    let a = below(&full, t_final, from, to);
    let b = below(&budgeted, t_final, from, to);
    println!(
        "below the final threshold in the common window: {} requests in the full trace, {} in the budgeted one",
        a.len(),
        b.len()
    );
    assert!(!a.is_empty());
    // Each tracefs instance stamps an event as it writes it into its own buffer: the two
    // recorders' times of one request differ by microseconds, and by more than a millisecond on
    // a loaded machine (1.5 ms seen in CI). A request is the same when its sector and operation
    // are and its times are within TOL; requests within TOL of the window's edges may be on one
    // side only.
    const TOL: i64 = 10_000_000;
    let unmatched = |x: &BTreeSet<(i64, i64, String)>, y: &BTreeSet<(i64, i64, String)>| {
        let mut by: std::collections::HashMap<(i64, &str), Vec<i64>> = Default::default();
        for (i, s, o) in y {
            by.entry((*s, o.as_str())).or_default().push(*i);
        }
        x.iter()
            .filter(|(i, _, _)| *i > from + TOL && *i < to - TOL)
            .filter(|(i, s, o)| {
                let v = by.entry((*s, o.as_str())).or_default();
                // the nearest in time of the other trace's requests to the same sector and operation
                let nearest = v
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, j)| (*j - i).abs())
                    .filter(|(_, j)| (*j - i).abs() <= TOL)
                    .map(|(k, _)| k);
                match nearest {
                    Some(k) => {
                        v.remove(k);
                        false
                    }
                    None => true,
                }
            })
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
    };
    let (only_full, only_budget) = (unmatched(&a, &b), unmatched(&b, &a));
    assert!(
        only_full.is_empty() && only_budget.is_empty(),
        "the budgeted trace is the full one at the final threshold: only in the full trace {only_full:?}…, only in the budgeted one {only_budget:?}…"
    );
    let last_change_ns: i64 = q(&budgeted, "SELECT max(mono_ns) FROM trace_sample_rates");
    let above = below(&budgeted, u64::MAX, i64::MIN, i64::MAX)
        .len()
        .saturating_sub(below(&budgeted, t_final, i64::MIN, i64::MAX).len());
    let late_above: i64 = {
        let c = rusqlite::Connection::open(&budgeted).unwrap();
        let mut st = c
            .prepare("SELECT device_id, sector FROM block_requests WHERE issue_ns > ?1")
            .unwrap();
        st.query_map([last_change_ns], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })
        .unwrap()
        .map(|x| x.unwrap())
        .filter(|(d, s)| hash_of(*d, *s as u64) >= t_final)
        .count() as i64
    };
    println!("{above} rows above the final threshold, all issued before the last change");
    assert_eq!(late_above, 0);

    // ---- predict and simulate, scaled by the final rate ------------------------------------
    let size = "32MiB";
    let pf = json(&[
        "predict",
        full.to_str().unwrap(),
        "--size",
        size,
        "--warmup",
        "0s",
        "--json",
    ]);
    let pb = json(&[
        "predict",
        budgeted.to_str().unwrap(),
        "--size",
        size,
        "--warmup",
        "0s",
        "--json",
    ]);
    assert_eq!(pf["sampleRate"], 1.0);
    assert_eq!(pb["sampleRate"].as_f64(), Some(prev));
    // the sampled blocks: the sampling unit (every read of a block is kept or dropped together)
    let footprint = pf["footprintBytes"].as_f64().unwrap() / 4096.0;
    let n_blocks = footprint * prev;
    let p = pf["readHitRatio"].as_f64().unwrap();
    let bound = 2.576 * (p * (1.0 - p) / n_blocks).sqrt();
    let diff = (pb["readHitRatio"].as_f64().unwrap() - p).abs();
    println!(
        "predict at {size}: full trace {p:.4} of reads hit ({} reads, footprint {footprint:.0} blocks), budgeted {:.4} ({} sampled reads at rate {prev:.4}, footprint {:.0} blocks); difference {diff:.4}, 99 % bound {bound:.4} over {n_blocks:.0} sampled blocks",
        pf["reads"],
        pb["readHitRatio"],
        pb["reads"],
        pb["footprintBytes"].as_f64().unwrap() / 4096.0
    );
    assert!(diff <= bound, "predict: {diff:.4} beyond {bound:.4}");
    let fb = pb["footprintBytes"].as_f64().unwrap() / 4096.0;
    let fb_bound = 2.576 * (footprint * (1.0 - prev) / prev).sqrt();
    assert!(
        (fb - footprint).abs() <= fb_bound,
        "footprint {fb:.0} vs {footprint:.0} ± {fb_bound:.0}"
    );
    let sim = |cap: &Path| {
        json(&[
            "simulate",
            cap.to_str().unwrap(),
            "--sizes",
            size,
            "--writes",
            "bypass",
            "--json",
            "--quiet",
        ])
    };
    let (sf, sb) = (sim(&full), sim(&budgeted));
    assert_eq!(sb["input"]["sampleRate"].as_f64(), Some(prev));
    assert_eq!(sb["input"]["aboveFinalRate"].as_u64(), Some(above as u64));
    let hf = sf["policies"][0]["sizes"][0]["blockHitRatio"]
        .as_f64()
        .unwrap();
    let hb = sb["policies"][0]["sizes"][0]["blockHitRatio"]
        .as_f64()
        .unwrap();
    println!("simulate at {size}: full {hf:.4}, budgeted {hb:.4}");
    assert!((hf - hb).abs() <= bound, "simulate: {hf:.4} vs {hb:.4}");

    // ---- the latency keeps every request --------------------------------------------------
    for cap in [&full, &budgeted] {
        let lat = json(&["latency", cap.to_str().unwrap(), "--json"]);
        assert_eq!(lat["method"], "interval-histograms");
        let all = lat["series"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["window"] == "all" && s["op"] == "read")
            .unwrap()
            .clone();
        assert_eq!(
            all["completed"].as_u64(),
            Some(fio_reads),
            "{}",
            cap.display()
        );
    }
    println!("fio made {fio_reads} reads; both captures' latency histograms hold every one");
}
