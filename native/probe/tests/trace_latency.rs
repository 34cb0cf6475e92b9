//! Latency from the trace and trace sampling (root, tracefs, fio, losetup, chrt): on a raw loop
//! device (direct I/O, `nomerges=2`: one request per fio I/O), the p50 and p99 of the traced
//! completion latency lie within one histogram bucket (docs/simulate.md § Latency from the
//! trace: 4 buckets per octave) of fio's own `clat_ns` percentiles; a trace sampled at rate R
//! (`record --trace --trace-sample R`) holds exactly fio's reads whose SHARDS hash is below the
//! rate's threshold (worked out from fio's own I/O log), about R × fio's requests.
//! Skips with a message when not root or a tool is missing.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;
use std::time::Duration;

use cacheproof_probe::trace;
use cacheproof_probe::trace::latency::bucket_of_us;
use common::*;

fn skip(test: &str) -> bool {
    if skip_unless_root_with(&["fio", "losetup", "chrt"], test) {
        return true;
    }
    if let Err(e) = trace::ensure_available(&trace::tracefs_root()) {
        return common::skip(test, &e.to_string());
    }
    if !Command::new("chrt")
        .args(["-f", "10", "true"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
    {
        return common::skip(
            test,
            "'chrt -f 10' is refused here (no real-time scheduling for fio)",
        );
    }
    false
}

/// Record `dev` with `--trace` (and the extra flags) while fio runs direct random reads of `bs`
/// at queue depth 1 (psync, SCHED_FIFO) for exactly `ios` I/Os (and the extra fio options);
/// fio's JSON read section.
fn traced_fio(
    d: &TempDir,
    dev: &str,
    tag: &str,
    extra: &[&str],
    bs: &str,
    ios: u32,
    fio_extra: &[String],
) -> (std::path::PathBuf, serde_json::Value) {
    let name = dev.trim_start_matches("/dev/");
    let cap = d.join(&format!("{tag}.capture"));
    let mut args = vec![
        "record",
        "--out",
        cap.to_str().unwrap(),
        "--devices",
        name,
        "--interval",
        "1s",
        "--trace",
    ];
    args.extend_from_slice(extra);
    args.push("--detach");
    let o = probe(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _rg = RecorderGuard(cap.clone());
    wait_for("first sample", Duration::from_secs(10), || {
        samples(&cap) >= 1
    });
    let out = d.join(&format!("{tag}.fio.json"));
    let job = fio_job(
        &["chrt", "-f", "10"],
        &[
            "--name=lat".into(),
            format!("--filename={dev}"),
            format!("--bs={bs}"),
            "--direct=1".into(),
            "--ioengine=psync".into(),
            "--rw=randread".into(),
            "--size=256M".into(),
            format!("--number_ios={ios}"),
            "--randrepeat=0".into(),
        ]
        .into_iter()
        .chain(fio_extra.iter().cloned())
        .collect::<Vec<String>>(),
        &out,
    );
    // stop once a sample follows fio's last request: `stop` writes every request issued before it
    wait_sample_after_now(&cap, Duration::from_secs(20));
    let s = probe(&["stop", cap.to_str().unwrap()]);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    (cap, job["read"].clone())
}

fn fio_pct(read: &serde_json::Value, p: &str) -> f64 {
    read["clat_ns"]["percentile"][p].as_f64().unwrap() / 1000.0
}

#[test]
fn trace_percentiles_agree_with_fio_within_one_bucket() {
    let test = "trace_percentiles_agree_with_fio_within_one_bucket";
    if skip(test) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("tracelat");
    let (dev, _lg) = raw_loop(&d, 256, "/dev/urandom");
    let name = dev.trim_start_matches("/dev/").to_string();
    // 256 KiB reads take a few hundred µs here; fio's clat adds the kernel's path above the
    // driver (tens of µs). Noise (a busy CPU delaying fio's wake-up) only ever adds to fio's
    // figure, so a disturbed attempt is measured again: up to 3, every one printed.
    let mut report = Vec::new();
    let mut ok = false;
    for attempt in 1..=3 {
        let (cap, read) = traced_fio(
            &d,
            &dev,
            &format!("a{attempt}"),
            &["--trace-sample", "1"],
            "256k",
            1000,
            &[],
        );
        // the capture's meta holds what `latency --json` prints (written at the recording's end)
        let meta: String = rusqlite::Connection::open(&cap)
            .unwrap()
            .query_row(
                "SELECT value FROM meta WHERE key='trace_latency'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let stored: serde_json::Value = serde_json::from_str(&meta).unwrap();
        let o = probe(&["latency", cap.to_str().unwrap(), "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(stored["series"], j["series"], "stored = printed");
        assert_eq!(j["method"], "interval-histograms", "{j}");
        // With every request stored, the stored requests (the method of captures without the
        // histograms) give the same figures: take the histograms' marker away and compare.
        let copy = d.join(&format!("a{attempt}-rows.capture"));
        std::fs::copy(&cap, &copy).unwrap();
        rusqlite::Connection::open(&copy)
            .unwrap()
            .execute("DELETE FROM meta WHERE key='latency_histograms'", [])
            .unwrap();
        let o = probe(&["latency", copy.to_str().unwrap(), "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(rows["method"], "stored-requests");
        assert_eq!(rows["series"], j["series"], "histograms = stored requests");
        assert_eq!(rows["hours"], j["hours"], "per hour too");
        let s = j["series"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["device"] == name.as_str() && s["window"] == "all" && s["op"] == "read")
            .unwrap()
            .clone();
        assert_eq!(
            s["completed"].as_u64().unwrap(),
            read["total_ios"].as_u64().unwrap(),
            "every fio read traced with its completion"
        );
        let bucket = |p: f64| -> (u64, f64, f64) {
            let x = s["percentiles"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["p"].as_f64() == Some(p))
                .unwrap();
            (
                x["bucket"].as_u64().unwrap(),
                x["lowUs"].as_f64().unwrap(),
                x["highUs"].as_f64().unwrap(),
            )
        };
        let (t50, l50, h50) = bucket(50.0);
        let (t99, l99, h99) = bucket(99.0);
        let f50 = fio_pct(&read, "50.000000");
        let f99 = fio_pct(&read, "99.000000");
        let (b50, b99) = (u64::from(bucket_of_us(f50)), u64::from(bucket_of_us(f99)));
        let line = format!(
            "attempt {attempt}: p50 trace bucket {t50} [{l50:.0}, {h50:.0}) µs, fio {f50:.0} µs (bucket {b50}); p99 trace bucket {t99} [{l99:.0}, {h99:.0}) µs, fio {f99:.0} µs (bucket {b99})"
        );
        println!("{line}");
        report.push(line);
        if t50.abs_diff(b50) <= 1 && t99.abs_diff(b99) <= 1 {
            ok = true;
            break;
        }
    }
    assert!(
        ok,
        "the trace's p50/p99 are not within one bucket of fio's:\n{}",
        report.join("\n")
    );
}

#[test]
fn sampled_trace_holds_r_times_the_requests() {
    let test = "sampled_trace_holds_r_times_the_requests";
    if skip(test) {
        return;
    }
    let _s = serial();
    let d = TempDir::new("tracesample");
    let (dev, _lg) = raw_loop(&d, 256, "/dev/urandom");
    let r = 0.25;
    // 4 KiB random reads over 65,536 blocks: fio's random map touches each block at most once,
    // so the 6,000 reads are 6,000 distinct addresses, each kept with probability R.
    // fio's own log of every read's offset: the requests the recorder was handed
    let iolog = d.join("s.iolog");
    let (cap, read) = traced_fio(
        &d,
        &dev,
        "s",
        &["--trace-sample", "0.25"],
        "4k",
        6000,
        &[format!("--write_iolog={}", iolog.display())],
    );
    let n = read["total_ios"].as_f64().unwrap();
    assert_eq!(n, 6000.0);
    let c = rusqlite::Connection::open(&cap).unwrap();
    let kept: f64 = c
        .query_row(
            "SELECT count(*) FROM block_requests WHERE op='R'",
            [],
            |x| x.get::<_, i64>(0),
        )
        .unwrap() as f64;
    let seen: i64 = c
        .query_row(
            "SELECT value FROM recorder WHERE key='trace_seen'",
            [],
            |x| x.get::<_, String>(0),
        )
        .unwrap()
        .parse()
        .unwrap();
    let rate: String = c
        .query_row(
            "SELECT value FROM meta WHERE key='trace_sample_rate'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    // The reads the rate keeps, worked out from fio's log (`read OFFSET LENGTH` lines) with the
    // sampling's own hash and threshold: the exact count, whatever offsets fio drew this time.
    let device: i64 = c
        .query_row(
            "SELECT min(device_id) FROM block_requests WHERE op='R' HAVING count(DISTINCT device_id) = 1",
            [],
            |x| x.get(0),
        )
        .unwrap();
    let offsets: Vec<u64> = std::fs::read_to_string(&iolog)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() >= 4 && t[t.len() - 3] == "read").then(|| t[t.len() - 2].parse().unwrap())
        })
        .collect();
    assert_eq!(offsets.len() as f64, n, "fio's log holds every read");
    let threshold = trace::sampling::threshold_of(r);
    let due = offsets
        .iter()
        .filter(|o| trace::sampling::hash_of(device, *o / 512) < threshold)
        .count() as f64;
    let sigma = (n * r * (1.0 - r)).sqrt();
    println!(
        "sampled at {r}: kept {kept} of fio's {n} reads, the hash keeps {due} of fio's offsets (binomial expectation {:.0} ± {:.0} at 99 %), the recorder saw {seen}",
        n * r,
        2.576 * sigma
    );
    assert_eq!(rate, "0.25");
    let st = status_json(&cap);
    assert_eq!(st["trace"]["sampleRate"], 0.25, "{st}");
    assert_eq!(st["trace"]["seen"], seen, "{st}");
    assert_eq!(st["trace"]["requests"].as_f64(), Some(kept), "{st}");
    assert_eq!(
        seen as f64, n,
        "the recorder saw every request before sampling"
    );
    assert_eq!(
        kept, due,
        "the trace keeps exactly the reads whose hash is below the threshold"
    );
    // fio draws new offsets each run, so the count the hash keeps is a binomial draw: it is only
    // held to 6 standard deviations (a wrong rate or a hash that clusters fails; chance does not)
    assert!(
        (due - n * r).abs() <= 6.0 * sigma,
        "the hash keeps {due} of {n} reads at rate {r}, more than 6 σ ({sigma:.1}) from {:.0}",
        n * r
    );
    // The latency keeps every request: the tracer's histograms per interval count all 6,000
    // reads, not the quarter the trace stores; per hour too.
    let meta: String = c
        .query_row(
            "SELECT value FROM meta WHERE key='trace_latency'",
            [],
            |x| x.get(0),
        )
        .unwrap();
    let lat: serde_json::Value = serde_json::from_str(&meta).unwrap();
    assert_eq!(lat["method"], "interval-histograms", "{lat}");
    let all = lat["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["window"] == "all" && s["op"] == "read")
        .unwrap()
        .clone();
    assert_eq!(all["completed"].as_f64(), Some(n), "{all}");
    let hourly: u64 = lat["hours"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["op"] == "read")
        .map(|h| h["completed"].as_u64().unwrap())
        .sum();
    assert_eq!(hourly as f64, n, "the hours hold every read");
    println!(
        "latency from the histograms: {} reads completed (every one), {} stored in the sampled trace",
        all["completed"], kept
    );
    // --trace-sample needs --trace and a rate in (0, 1]
    for bad in [["--trace-sample", "0"], ["--trace-sample", "1.5"]] {
        let o = probe(&[
            "record",
            "--out",
            d.join("bad.capture").to_str().unwrap(),
            "--devices",
            dev.trim_start_matches("/dev/"),
            "--trace",
            bad[0],
            bad[1],
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(one_sentence(&o).contains("0 < R ≤ 1"));
    }
    let o = probe(&[
        "record",
        "--out",
        d.join("bad.capture").to_str().unwrap(),
        "--trace-sample",
        "0.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // clap's rule (--trace-sample requires --trace): the sentence names the missing flag
    let e = one_sentence(&o);
    assert!(e.contains("not provided: --trace"), "{e}");
    assert!(!d.join("bad.capture").exists());
}
