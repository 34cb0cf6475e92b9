//! `predict` against figures worked out by hand (docs/simulate.md § predict): stack distances of
//! a six-read trace, the size answers, the warm-up, the baseline window and the front devices;
//! bad input (a size of 0, larger than the footprint, rows with a negative length, an unknown
//! opcode, past the device's end) counted or refused with one sentence; `--store` writes
//! `meta.prediction`; `latency` refuses a completion before its issue. No root needed.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use common::*;

/// An MSN-layout trace (`time_ms devno lba sectors type`, type 1 read, 0 write) imported into a
/// capture. Blocks of 4 KiB = 8 sectors: A = lba 0, B = lba 8, C = lba 16.
fn capture(d: &TempDir) -> PathBuf {
    let t = d.join("t.msn");
    // reads A B A C A B, one write of A, at 0..7 ms
    std::fs::write(
        &t,
        "0 0 0 8 1\n1 0 8 8 1\n2 0 0 8 1\n3 0 16 8 1\n4 0 0 8 1\n5 0 8 8 1\n6 0 0 8 0\n",
    )
    .unwrap();
    let cap = d.join("t.capture");
    let o = probe(&[
        "import-trace",
        "msn",
        t.to_str().unwrap(),
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    cap
}

fn predict(cap: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let mut a = vec!["predict", cap.to_str().unwrap()];
    a.extend_from_slice(extra);
    a.push("--json");
    let o = probe(&a);
    let j = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (
        o.status.code(),
        j,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn predicted_figures_match_the_hand_worked_stack_distances() {
    let d = TempDir::new("predict");
    let cap = capture(&d);
    // Distances: A cold, B cold, A 1 (B since), C cold, A 1 (C since), B 2 (A, C since).
    // A cache of 2 blocks hits the two reads at distance 1: 2 of 6 reads; with the write, 2 of
    // the 7 I/Os never reach the backing device.
    let (code, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "0s"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(j["window"], "all");
    assert_eq!(j["reads"], 6);
    assert_eq!(j["writesCount"], 1);
    assert_eq!(j["cacheBytes"], 8192);
    assert_eq!(j["footprintBytes"], 3 * 4096);
    assert!((j["readHitRatio"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    assert!((j["iosSavedPercent"].as_f64().unwrap() - 200.0 / 7.0).abs() < 1e-9);
    assert_eq!(j["iosSavedUncertaintyPp"], 0.0);
    // 50 % of reads = 3 hits: the B at distance 2 needs 3 blocks; 80 % is beyond the 3 cold misses.
    let ans = |p: f64| {
        j["sizeAnswers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["readHitPercent"].as_f64() == Some(p))
            .unwrap()["bytes"]
            .clone()
    };
    assert_eq!(ans(50.0), 3 * 4096);
    assert_eq!(ans(80.0), serde_json::Value::Null);
    // the curve holds the asked size, with the same figure
    let at = j["curve"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["bytes"] == 8192)
        .unwrap()
        .clone();
    assert_eq!(at["readHitRatio"], j["readHitRatio"]);

    // A warm-up of 3 ms: the first three reads (A B A at 0, 1, 2 ms) fill the cache uncounted;
    // counted: C cold, A 1, B 2 and the write. 8 KiB hits A only: 1 of 4 I/Os.
    let (code, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "3ms"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        (j["reads"].as_u64(), j["writesCount"].as_u64()),
        (Some(3), Some(1))
    );
    assert!((j["iosSavedPercent"].as_f64().unwrap() - 25.0).abs() < 1e-9);

    // --store: the same JSON without the path in meta.prediction
    let (code, j, _) = predict(&cap, &["--size", "8KiB", "--warmup", "0s", "--store"]);
    assert_eq!(code, Some(0));
    let stored: String = rusqlite::Connection::open(&cap)
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key='prediction'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let stored: serde_json::Value = serde_json::from_str(&stored).unwrap();
    let mut printed = j.clone();
    printed.as_object_mut().unwrap().remove("capture");
    assert_eq!(stored, printed);
}

#[test]
fn a_sampled_trace_scales_distances_and_footprint_by_one_over_r() {
    let d = TempDir::new("predict-sampled");
    let cap = capture(&d);
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "INSERT INTO meta(key, value) VALUES('trace_sample_rate', '0.5')",
            [],
        )
        .unwrap();
    // At R = 0.5 each traced block stands for two: distances 1, 1, 2 become 2, 2, 4 and the
    // footprint 3 blocks becomes 6. 8 KiB (2 blocks) hits nothing; 12 KiB (3 blocks) the two As.
    let (code, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "0s"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(j["sampleRate"], 0.5);
    assert_eq!(j["readHitRatio"], 0.0);
    assert_eq!(j["footprintBytes"], 6 * 4096);
    let (_, j, _) = predict(&cap, &["--size", "12KiB", "--warmup", "0s"]);
    assert!((j["readHitRatio"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    // 95 % interval of the hit share over the 6 sampled reads, in points of I/Os saved (6 of 7)
    let want = 196.0 * ((1.0 / 3.0) * (2.0 / 3.0) / 6.0f64).sqrt() * 6.0 / 7.0;
    assert!((j["iosSavedUncertaintyPp"].as_f64().unwrap() - want).abs() < 1e-9);
}

#[test]
fn the_baseline_window_and_the_front_devices_are_what_is_replayed() {
    let d = TempDir::new("predict-window");
    let cap = capture(&d);
    let c = rusqlite::Connection::open(&cap).unwrap();
    // A second device (role backing) whose requests must not count, and a baseline phase that
    // ends before the last two requests (utc_ms 0..4 are the labels of the 0..4 ms records).
    c.execute_batch(
        "UPDATE devices SET role='front';
         INSERT INTO devices(name, is_partition, role) VALUES('back', 0, 'backing');
         INSERT INTO block_requests(device_id, issue_ns, utc_ms, sector, bytes, op, rwbs)
           SELECT (SELECT id FROM devices WHERE name='back'), issue_ns, utc_ms, sector, bytes, op, rwbs FROM block_requests;
         INSERT INTO phases(name, start_utc_ms, end_utc_ms, planned_s) VALUES('baseline', 0, 5, 0.005);",
    )
    .unwrap();
    drop(c);
    let (code, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "0s"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(j["window"], "baseline");
    assert_eq!(j["devices"], serde_json::json!(["dev0"]));
    // reads A B A C A in the baseline; hits: the two As at distance 1
    assert_eq!(j["reads"], 5);
    assert_eq!(j["writesCount"], 0);
    assert!((j["iosSavedPercent"].as_f64().unwrap() - 40.0).abs() < 1e-9);
    // a baseline that has not ended
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute("UPDATE phases SET end_utc_ms = NULL", [])
        .unwrap();
    let (code, _, err) = predict(&cap, &["--size", "8KiB"]);
    assert_eq!(code, Some(12));
    assert!(err.contains("the baseline has not ended yet"), "{err}");
}

#[test]
fn bad_input_is_refused_or_counted() {
    let d = TempDir::new("predict-bad");
    let cap = capture(&d);
    let capp = cap.to_str().unwrap();
    // cache size 0, below one block, not a size, missing
    for (args, want) in [
        (vec!["--size", "0"], "a cache size of 0 bytes holds nothing"),
        (vec!["--size", "1KiB"], "smaller than one 4096-byte block"),
        (vec!["--size", "lots"], "'lots' is not a size"),
        (
            vec![],
            "the following required arguments were not provided: --size <SIZE>",
        ),
    ] {
        let mut a = vec!["predict", capp];
        a.extend(args);
        let o = probe(&a);
        assert_eq!(o.status.code(), Some(2));
        assert!(one_sentence(&o).contains(want), "{want}");
    }
    // larger than the footprint: the prediction, with a note on stderr and in the JSON
    let (code, j, err) = predict(&cap, &["--size", "1GiB", "--warmup", "0s"]);
    assert_eq!(code, Some(0));
    assert!(
        err.contains("larger than the 12288 bytes the baseline's reads touched"),
        "{err}"
    );
    assert!(j["notes"][0]
        .as_str()
        .unwrap()
        .contains("only misses first references"));
    assert!((j["readHitRatio"].as_f64().unwrap() - 0.5).abs() < 1e-12);

    // rows with a negative length, an unknown opcode and past the device's end are skipped and
    // counted; the good rows give the same figures
    let c = rusqlite::Connection::open(&cap).unwrap();
    c.execute_batch(
        "UPDATE devices SET size_bytes = 1048576;
         INSERT INTO block_requests(device_id, issue_ns, utc_ms, sector, bytes, op, rwbs) VALUES
           (1, 500, 0, 0, -4096, 'R', 'R'),
           (1, 600, 0, 0, 4096, 'Q', 'Q'),
           (1, 700, 0, 4096, 4096, 'R', 'R');",
    )
    .unwrap();
    drop(c);
    let (code, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "0s"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(j["skipped"], 3);
    assert_eq!(j["skippedReasons"]["negative length"], 1);
    assert_eq!(j["skippedReasons"]["unknown opcode"], 1);
    assert_eq!(j["skippedReasons"]["past the device's end"], 1);
    assert_eq!(j["reads"], 6);

    // a capture with no request in the window
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute_batch(
            "INSERT INTO phases(name, start_utc_ms, end_utc_ms) VALUES('baseline', 100000, 200000);",
        )
        .unwrap();
    let (code, _, err) = predict(&cap, &["--size", "8KiB"]);
    assert_eq!(code, Some(12));
    assert!(
        err.contains("no traced read or write of dev0 in the baseline window"),
        "{err}"
    );

    // latency: a completion before its issue (times going backwards) is refused, naming the row
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "UPDATE block_requests SET complete_ns = issue_ns - 10 WHERE rowid = 2",
            [],
        )
        .unwrap();
    let o = probe(&["latency", capp]);
    assert_eq!(o.status.code(), Some(12));
    assert!(one_sentence(&o).contains("block_requests row 2 completes 10 ns before its issue"));
}

/// The test capture with completion times: request k (rowid 1..7) completes k × 100 µs after its
/// issue, so A=100, B=200, A=300, C=400, A=500, B=600 µs and the write 700 µs.
fn timed_capture(d: &TempDir) -> PathBuf {
    let cap = capture(d);
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "UPDATE block_requests SET complete_ns = issue_ns + rowid * 100000",
            [],
        )
        .unwrap();
    cap
}

fn close(a: &serde_json::Value, b: f64) -> bool {
    a.as_f64().is_some_and(|x| (x - b).abs() < 1e-9)
}

#[test]
fn backing_io_and_response_time_match_the_hand_worked_replay() {
    let d = TempDir::new("predict-backing");
    let cap = timed_capture(&d);
    // 8 KiB LRU: the reads at 3 and 5 (the As at distance 1) hit; reads 1, 2, 4, 6 miss and the
    // write (7) goes around the cache. Window: 0..6 ms (the whole trace, no warm-up).
    let (code, j, err) = predict(
        &cap,
        &["--size", "8KiB", "--warmup", "0s", "--cache-device", "10us"],
    );
    assert_eq!(code, Some(0), "{err}");
    let f = &j["frontIos"];
    assert_eq!(
        (
            f["reads"].as_f64(),
            f["writes"].as_f64(),
            f["total"].as_f64()
        ),
        (Some(6.0), Some(1.0), Some(7.0))
    );
    assert!(close(&f["seconds"], 0.006));
    assert!(close(&f["perSecond"], 7.0 / 0.006));
    let b = &j["backingIos"];
    assert_eq!(
        (
            b["readMisses"].as_f64(),
            b["writes"].as_f64(),
            b["total"].as_f64()
        ),
        (Some(4.0), Some(1.0), Some(5.0))
    );
    assert!(close(&b["perSecond"], 5.0 / 0.006));
    assert_eq!(
        (
            b["uncertainty"].as_f64(),
            b["perSecondUncertainty"].as_f64()
        ),
        (Some(0.0), Some(0.0))
    );
    // hits at 10 µs, the others at their own latency: (100 + 200 + 10 + 400 + 10 + 600 + 700) / 7
    let r = &j["responseTime"];
    assert!(close(&r["predictedUs"], 2020.0 / 7.0));
    assert!(close(&r["baselineUs"], 400.0));
    assert!(close(&r["missUs"], 400.0)); // (100 + 200 + 400 + 600 + 700) / 5
    assert!(close(&r["hitShare"], 2.0 / 7.0));
    assert_eq!(
        (r["requests"].as_u64(), r["withoutCompletion"].as_u64()),
        (Some(7), Some(0))
    );
    assert_eq!(r["uncertaintyUs"], 0.0);
    assert_eq!(j["cacheDevice"]["preset"], "typed");
    assert_eq!(j["cacheDevice"]["readLatencyUs"], 10.0);
    // the typed size answer's steps: 2 blocks save 2 of 7 I/Os, 3 blocks 3 of 7
    assert_eq!(j["sizeSteps"].as_array().unwrap().len(), 2);
    assert_eq!(j["sizeSteps"][0]["bytes"], 8192);
    assert!(close(&j["sizeSteps"][0]["iosSavedPercent"], 200.0 / 7.0));
    assert_eq!(j["sizeSteps"][1]["bytes"], 12288);
    assert!(close(&j["sizeSteps"][1]["iosSavedPercent"], 300.0 / 7.0));

    // a preset: its figure and its source
    let (_, j, _) = predict(
        &cap,
        &["--size", "8KiB", "--warmup", "0s", "--cache-device", "nvme"],
    );
    assert_eq!(j["cacheDevice"]["preset"], "nvme");
    assert_eq!(j["cacheDevice"]["readLatencyUs"], 85.0);
    assert!(j["cacheDevice"]["source"]
        .as_str()
        .unwrap()
        .contains("P4500"));
    assert!(close(
        &j["responseTime"]["predictedUs"],
        (2800.0 - 300.0 - 500.0 + 170.0) / 7.0
    ));

    // without a cache device: no response time, and a note saying what to give
    let (_, j, err) = predict(&cap, &["--size", "8KiB", "--warmup", "0s"]);
    assert_eq!(j["responseTime"], serde_json::Value::Null);
    assert!(err.contains("no cache device given"), "{err}");

    // a request without its completion is left out of the average (counted), not of the backing I/O
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "UPDATE block_requests SET complete_ns = NULL WHERE rowid = 6",
            [],
        )
        .unwrap();
    let (_, j, _) = predict(
        &cap,
        &["--size", "8KiB", "--warmup", "0s", "--cache-device", "10us"],
    );
    assert_eq!(j["backingIos"]["total"], 5.0);
    assert_eq!(j["responseTime"]["withoutCompletion"], 1);
    assert!(close(&j["responseTime"]["predictedUs"], 1420.0 / 6.0));

    // bad device and policy are usage errors naming what to give
    for (args, want) in [
        (
            vec!["--cache-device", "fast"],
            "give a preset (ram, sata-ssd, nvme)",
        ),
        (vec!["--cache-device", "0us"], "must be above 0"),
        (vec!["--policy", "lru,mru"], "unknown policy 'mru'"),
    ] {
        let mut a = vec!["predict", cap.to_str().unwrap(), "--size", "8KiB"];
        a.extend(args);
        let o = probe(&a);
        assert_eq!(o.status.code(), Some(2));
        assert!(one_sentence(&o).contains(want), "{want}");
    }
}

#[test]
fn every_policy_is_simulated_at_the_curve_sizes_and_the_first_gives_the_figures() {
    let d = TempDir::new("predict-policies");
    let cap = timed_capture(&d);
    // FIFO of 2 blocks over A B A C A B: A, B miss; A hits; C evicts A; A evicts B; B evicts C:
    // one hit of 6 reads.
    let (code, j, err) = predict(
        &cap,
        &[
            "--size",
            "8KiB",
            "--warmup",
            "0s",
            "--policy",
            "lru,fifo,arc",
            "--cache-device",
            "10us",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let p = j["policies"].as_array().unwrap();
    assert_eq!(
        p.iter()
            .map(|x| x["policy"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["lru", "fifo", "arc"]
    );
    assert_eq!(p[0]["method"], "exact-stack");
    assert_eq!(p[1]["method"], "exact-simulation");
    assert!(close(&p[1]["readHitRatio"], 1.0 / 6.0));
    assert!(close(&p[1]["iosSavedPercent"], 100.0 / 7.0));
    // every policy's curve has the same sizes as the LRU curve (one block to the footprint, and 8 KiB)
    let sizes = |c: &serde_json::Value| {
        c["curve"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["bytes"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes(&p[1]), sizes(&p[0]));
    assert_eq!(sizes(&p[2]), sizes(&p[0]));
    // at the footprint (3 blocks) every policy only misses the three first references
    for x in p {
        let last = x["curve"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["bytes"], 12288);
        assert!(close(&last["readHitRatio"], 0.5), "{}", x["policy"]);
    }
    // the headline is LRU's
    assert_eq!(j["policy"], "lru");
    assert!(close(&j["readHitRatio"], 2.0 / 6.0));
    // FIFO first: its figures become the headline, backing I/O and response time
    let (_, j, _) = predict(
        &cap,
        &[
            "--size",
            "8KiB",
            "--warmup",
            "0s",
            "--policy",
            "fifo,lru",
            "--cache-device",
            "10us",
        ],
    );
    assert_eq!(
        (j["policy"].as_str(), j["method"].as_str()),
        (Some("fifo"), Some("exact-simulation"))
    );
    assert!(close(&j["iosSavedPercent"], 100.0 / 7.0));
    assert_eq!(j["backingIos"]["total"], 6.0);
    assert!(close(
        &j["responseTime"]["predictedUs"],
        (2800.0 - 300.0 + 10.0) / 7.0
    ));
    assert!(close(
        &j["curve"][0]["readHitRatio"],
        j["policies"][0]["curve"][0]["readHitRatio"]
            .as_f64()
            .unwrap()
    ));

    // The replays run on threads: any number gives the same report, figure for figure (the
    // primary policy FIFO marks its hits from its own replay, whichever thread ran it)
    let args = |t: &'static str| {
        vec![
            "--size",
            "8KiB",
            "--warmup",
            "0s",
            "--policy",
            "fifo,arc,2q,s3fifo,clock,lru",
            "--cache-device",
            "10us",
            "--threads",
            t,
        ]
    };
    let (c1, one, e1) = predict(&cap, &args("1"));
    let (c3, three, e3) = predict(&cap, &args("3"));
    assert_eq!((c1, c3), (Some(0), Some(0)), "{e1}{e3}");
    assert_eq!(one, three);
    assert_eq!(one["backingIos"]["total"], 6.0);
    for bad in ["0", "two"] {
        let o = probe(&[
            "predict",
            cap.to_str().unwrap(),
            "--size",
            "8KiB",
            "--threads",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(one_sentence(&o).contains(&format!(
            "invalid value '{bad}' for '--threads <N>': give a whole number of threads"
        )));
    }
    // a word more is refused, not ignored
    let o = probe(&["predict", cap.to_str().unwrap(), "8KiB", "--size", "8KiB"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains(
        "unexpected argument '8KiB' found (cacheproof-probe predict --help lists the options)"
    ));

    // A sampled trace: counts ÷ R, other policies on a cache of size × R, bounds from the sampling.
    rusqlite::Connection::open(&cap)
        .unwrap()
        .execute(
            "INSERT INTO meta(key, value) VALUES('trace_sample_rate', '0.5')",
            [],
        )
        .unwrap();
    let (_, j, _) = predict(
        &cap,
        &[
            "--size",
            "8KiB",
            "--warmup",
            "0s",
            "--policy",
            "lru,fifo",
            "--cache-device",
            "10us",
        ],
    );
    assert_eq!(j["policies"][1]["method"], "scaled-simulation");
    assert_eq!(
        (
            j["frontIos"]["reads"].as_f64(),
            j["frontIos"]["writes"].as_f64()
        ),
        (Some(12.0), Some(2.0))
    );
    // 8 KiB at R = 0.5 hits nothing (distances doubled): backing = every request, 14
    assert_eq!(j["backingIos"]["total"], 14.0);
    // the count's bound: 1.96 × √(7 × 0.5) / 0.5 (the share's is 0: p = 0)
    assert!(close(
        &j["backingIos"]["uncertainty"],
        1.96 * 3.5f64.sqrt() / 0.5
    ));
    assert!(j["responseTime"]["uncertaintyUs"].as_f64().unwrap() > 0.0);
}
