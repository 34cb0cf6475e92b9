//! `import-trace` on the real traces of ../shared/realdata/block_traces (values of a named
//! line, converted as docs/simulate.md says), the formats with no real file here (MSR
//! Cambridge, blkparse) on lines in their documented layout, and bad input: skipped records
//! counted with line, column and reason; files with nothing usable refused with exit 12.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::testenv;
use common::{probe, TempDir};
use rusqlite::Connection;

fn real(test: &str, name: &str) -> Option<PathBuf> {
    testenv::realdata(test, &format!("block_traces/{name}"))
}

#[derive(Debug, PartialEq)]
struct Row {
    issue_ns: i64,
    complete_ns: Option<i64>,
    utc_ms: i64,
    sector: i64,
    bytes: i64,
    op: String,
    rwbs: String,
    device: String,
}

fn rows(cap: &Path) -> Vec<Row> {
    let c = Connection::open(cap).unwrap();
    let mut q = c
        .prepare(
            "SELECT issue_ns,complete_ns,utc_ms,sector,bytes,op,rwbs,d.name FROM block_requests b
             JOIN devices d ON d.id=b.device_id ORDER BY b.rowid",
        )
        .unwrap();
    let v = q
        .query_map([], |r| {
            Ok(Row {
                issue_ns: r.get(0)?,
                complete_ns: r.get(1)?,
                utc_ms: r.get(2)?,
                sector: r.get(3)?,
                bytes: r.get(4)?,
                op: r.get(5)?,
                rwbs: r.get(6)?,
                device: r.get(7)?,
            })
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    v
}

fn meta(cap: &Path, k: &str) -> Option<String> {
    let c = Connection::open(cap).unwrap();
    c.query_row("SELECT value FROM meta WHERE key=?1", [k], |r| r.get(0))
        .ok()
}

fn import(kind: &str, file: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut a = vec![
        "import-trace",
        kind,
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    a.extend_from_slice(extra);
    probe(&a)
}

fn ok(o: &std::process::Output) {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn cloudphysics_real_file() {
    let Some(f) = real("cloudphysics_real_file", "libcachesim_cloudPhysicsIO.csv") else {
        return;
    };
    let d = TempDir::new("ti-cp");
    let out = d.join("cp.capture");
    let o = import("cloudphysics", &f, &out, &[]);
    ok(&o);
    let r = rows(&out);
    assert_eq!(r.len(), 113_872);
    // Line 5: "1,5633898,2a,6656,40409911": WRITE(10), 6656 bytes at 512-byte sector 40409911,
    // time in µs, the same as line 2's (the origin).
    assert_eq!(
        r[3],
        Row {
            issue_ns: 0,
            complete_ns: None,
            utc_ms: 0,
            sector: 40_409_911,
            bytes: 6656,
            op: "W".into(),
            rwbs: "2a".into(),
            device: "vscsi".into()
        }
    );
    // The last line: "1,5641098,2a,512,42936150": 7200 µs after the first.
    let last = r.last().unwrap();
    assert_eq!(
        (last.issue_ns, last.sector, last.bytes),
        (7_200_000, 42_936_150, 512)
    );
    assert_eq!(r.iter().filter(|x| x.op == "R").count(), 46_974);
    assert_eq!(
        meta(&out, "source").as_deref(),
        Some("import-trace:cloudphysics")
    );
    assert_eq!(
        meta(&out, "trace_time_origin").as_deref(),
        Some("trace-start")
    );
    assert_eq!(meta(&out, "import_skipped").as_deref(), Some("0"));
    assert_eq!(
        meta(&out, "import_sha256").as_deref(),
        Some("987ff2213050e47d24e8ba6e010d4b3127e51aafef6a76a8a6d43d13b9156fa1")
    );
    let c = Connection::open(&out).unwrap();
    let v: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        v,
        cacheproof_probe::capture::SCHEMA_VERSION,
        "an ordinary capture of the current schema"
    );
}

#[test]
fn msn_and_disksim_real_file() {
    let Some(f) = real("msn_and_disksim_real_file", "huaicheng_MSN-FS-30s-ms.trace") else {
        return;
    };
    let lines = std::fs::read_to_string(&f).unwrap().lines().count();
    let d = TempDir::new("ti-msn");
    for kind in ["msn", "disksim"] {
        let out = d.join(&format!("{kind}.capture"));
        ok(&import(kind, &f, &out, &[]));
        let r = rows(&out);
        assert_eq!(r.len(), lines, "{kind}");
        // Line 100: "50.402 5 99719504 16 1": ms, device 5, 512-byte sector, 16 sectors, read.
        assert_eq!(
            (
                &r[99].device,
                r[99].issue_ns,
                r[99].sector,
                r[99].bytes,
                r[99].op.as_str()
            ),
            (&"dev5".to_string(), 50_402_000, 99_719_504, 8192, "R"),
            "{kind}"
        );
        // Line 251: "162.145 5 150229712 16 0": the first write.
        assert_eq!(
            (
                r[250].issue_ns,
                r[250].sector,
                r[250].op.as_str(),
                r[250].rwbs.as_str()
            ),
            (162_145_000, 150_229_712, "W", "0"),
            "{kind}"
        );
        assert!(r[..250].iter().all(|x| x.op == "R"));
        assert_eq!(r.last().unwrap().issue_ns, 143_068_077_000);
    }
}

#[test]
fn msr_cambridge_layout() {
    // No MSR file in ../shared; two lines in the SNIA MSR Cambridge layout (FILETIME, 100 ns).
    let d = TempDir::new("ti-msr");
    let f = d.join("usr_0.csv");
    std::fs::write(
        &f,
        "128166372003061629,usr,0,Read,10995532800,16384,1331\n\
         128166372016382155,usr,0,Write,2599219200,4096,3916\n\
         128166372016382156,usr,1,Flush,0,0,10\n",
    )
    .unwrap();
    let out = d.join("msr.capture");
    let o = import("msr", &f, &out, &[]);
    ok(&o);
    let r = rows(&out);
    assert_eq!(r.len(), 2);
    assert_eq!(
        r[0],
        Row {
            issue_ns: 0,
            complete_ns: Some(133_100),
            utc_ms: 1_172_163_600_306,
            sector: 10_995_532_800 / 512,
            bytes: 16384,
            op: "R".into(),
            rwbs: "Read".into(),
            device: "usr_0".into()
        }
    );
    assert_eq!(r[1].issue_ns, 1_332_052_600);
    assert_eq!(r[1].complete_ns, Some(1_332_052_600 + 391_600));
    assert_eq!(r[1].utc_ms, 1_172_163_600_306 + 1_332);
    assert_eq!(meta(&out, "trace_time_origin").as_deref(), Some("utc"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 3, column Type: unknown type 'flush'"),
        "{err}"
    );
}

#[test]
fn blkparse_default_output() {
    let d = TempDir::new("ti-blk");
    let f = d.join("sda.txt");
    std::fs::write(
        &f,
        "  8,0    1        1     0.000000000  1234  Q   R 2048 + 8 [dd]\n\
         \x20 8,0    1        2     0.000002000  1234  G   R 2048 + 8 [dd]\n\
         \x20 8,0    1        3     0.000010000  1234  D   R 2048 + 8 [dd]\n\
         \x20 8,0    1        4     0.000500000     0  C   R 2048 + 8 [0]\n\
         \x20 8,0    1        5     0.001000000  1234  D  WS 4096 + 16 [dd]\n\
         \x20 8,0    1        6     0.001000500  1234  D  FN [kworker]\n\
         \x20 8,0    1        7     0.002000000     0  C  WS 4096 + 16 [0]\n\
         CPU1 (8,0):\n\
         \x20Reads Queued:           1,        4KiB\t Writes Queued:           1,        8KiB\n",
    )
    .unwrap();
    let out = d.join("blk.capture");
    ok(&import("blkparse", &f, &out, &[]));
    let r = rows(&out);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(
        (
            r[0].issue_ns,
            r[0].complete_ns,
            r[0].sector,
            r[0].bytes,
            r[0].op.as_str()
        ),
        (0, Some(490_000), 2048, 4096, "R")
    );
    assert_eq!(
        (
            r[1].issue_ns,
            r[1].complete_ns,
            r[1].sector,
            r[1].bytes,
            r[1].rwbs.as_str()
        ),
        (990_000, Some(1_990_000), 4096, 8192, "WS")
    );
    assert_eq!(r[0].device, "8,0");
}

const BAD: &str = "version,time,op,size,lbn\n\
1,100,28,4096,10\n\
1,101,2a,-512,20\n\
1,102,35,512,30\n\
1,90,28,512,40\n\
1,103,28,abc,50\n\
1,104,28\n\
1,105,28,4096,60\n\
1,106,28,4096,1000\n";

#[test]
fn bad_records_are_counted_and_reported() {
    let d = TempDir::new("ti-bad");
    let f = d.join("bad.csv");
    std::fs::write(&f, BAD).unwrap();
    let out = d.join("bad.capture");
    let o = import("cloudphysics", &f, &out, &["--device-bytes", "100KiB"]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "skipped 6 of 8 records",
        "line 3, column size: negative length -512",
        "line 4, column op: SCSI opcode 0x35 is neither a READ nor a WRITE",
        "line 5, column time: time goes backwards",
        "line 6, column size: 'abc' is not a number",
        "line 7, column version,time,op,size,lbn: 3 columns, expected 5",
        "line 9, column offset: request [512000, 516096) ends past the device's 102400 bytes",
    ] {
        assert!(err.contains(want), "missing '{want}' in: {err}");
    }
    let r = rows(&out);
    assert_eq!(r.iter().map(|x| x.sector).collect::<Vec<_>>(), vec![10, 60]);
    assert_eq!(meta(&out, "import_records").as_deref(), Some("8"));
    assert_eq!(meta(&out, "import_skipped").as_deref(), Some("6"));
    let ex = meta(&out, "import_skipped_examples").unwrap();
    assert!(ex.contains("\"line\":3"), "{ex}");
    let c = Connection::open(&out).unwrap();
    let size: Option<i64> = c
        .query_row("SELECT size_bytes FROM devices", [], |r| r.get(0))
        .unwrap();
    assert_eq!(size, Some(102_400));
}

#[test]
fn unusable_input_is_refused_with_a_sentence() {
    let d = TempDir::new("ti-refuse");
    let f = d.join("allbad.csv");
    std::fs::write(&f, "version,time,op,size,lbn\n1,1,35,512,1\n1,2,28,-1,2\n").unwrap();
    let o = import("cloudphysics", &f, &d.join("x.capture"), &[]);
    assert_eq!(o.status.code(), Some(12));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("allbad.csv has no usable cloudphysics record (2 records read)"),
        "{err}"
    );
    assert!(err.contains("line 2, column op"), "{err}");
    assert!(!d.join("x.capture").exists(), "no capture is left behind");

    let o = import(
        "cloudphysics",
        &d.join("missing.csv"),
        &d.join("y.capture"),
        &[],
    );
    assert_eq!(o.status.code(), Some(12));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no trace file at"));

    let o = import("tracefoo", &f, &d.join("z.capture"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown trace kind 'tracefoo'"));
    let o = import(
        "cloudphysics",
        &f,
        &d.join("z.capture"),
        &[f.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    // a second file is refused, naming it (one capture per trace file)
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!(
        "unexpected argument '{}' found",
        f.to_str().unwrap()
    )));
}

fn sim(args: &[&str]) -> (Option<i32>, String, String) {
    let mut a = vec!["simulate"];
    a.extend_from_slice(args);
    let o = probe(&a);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// SHARDS' curve names its estimator: calibrated on the trace's exact references and footprint
/// when a regression fits the sample, the sampled weights alone when none can (every block
/// referenced once: the references do not vary).
#[test]
fn simulate_sample_names_its_estimator() {
    let d = TempDir::new("ti-est");
    let f = d.join("t.csv");
    // blocks 0 1 0 2 1 0: distances cold, cold, 1, cold, 2, 2; every block sampled (rate 1), the
    // calibrated curve is the exact one: 1 hit of 6 at 2 blocks, 3 at 3 blocks
    let rows = [0, 8, 0, 16, 8, 0].map(|lbn| format!("1,1,28,4096,{lbn}\n"));
    std::fs::write(&f, format!("version,time,op,size,lbn\n{}", rows.concat())).unwrap();
    let fs = f.to_str().unwrap();
    let args = [fs, "--kind", "cloudphysics", "--sizes", "8KiB,12KiB"];
    let args = [&args[..], &["--sample", "fixed-rate=1"]].concat();
    let (code, out, err) = sim(&[&args[..], &["--json", "--quiet"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["policies"][0]["estimator"], "calibrated-regression");
    let hits: Vec<f64> = j["policies"][0]["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|z| z["blockHitRatio"].as_f64().unwrap())
        .collect();
    assert!(
        (hits[0] - 1.0 / 6.0).abs() < 1e-12 && (hits[1] - 0.5).abs() < 1e-12,
        "{hits:?}"
    );
    let (_, text, _) = sim(&[&args[..], &["--quiet"]].concat());
    assert!(
        text.contains("lru (shards-fixed-rate, calibrated-regression estimator, "),
        "{text}"
    );
    // blocks 0 1 2 once each: no regression, the sampled weights alone, named so
    std::fs::write(
        &f,
        "version,time,op,size,lbn\n1,1,28,4096,0\n1,2,28,4096,8\n1,3,28,4096,16\n",
    )
    .unwrap();
    let (code, out, err) = sim(&[&args[..], &["--json", "--quiet"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["policies"][0]["estimator"], "horvitz-thompson");
    assert_eq!(j["policies"][0]["sizes"][1]["blockHitRatio"], 0.0);
}

#[test]
fn simulate_bad_input_and_capture_equals_trace() {
    let d = TempDir::new("ti-sim");
    let f = d.join("t.csv");
    std::fs::write(&f, BAD).unwrap();
    let fs = f.to_str().unwrap();
    let (code, _, err) = sim(&[fs, "--kind", "cloudphysics", "--sizes", "0"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("a cache size of 0 bytes holds nothing"),
        "{err}"
    );
    let (code, _, err) = sim(&[fs, "--sizes", "1GiB"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("is not a capture: give its trace format with --kind"),
        "{err}"
    );
    let (code, _, err) = sim(&[
        fs,
        "--kind",
        "cloudphysics",
        "--sizes",
        "4KiB",
        "--policy",
        "fifo",
        "--sample",
        "fixed-rate=0.1",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("LRU curves only"), "{err}");
    let (code, _, err) = sim(&[fs, "--kind", "cloudphysics", "--sizes", "12 parsecs"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("'12 parsecs' is not a size"), "{err}");
    let (code, _, err) = sim(&[
        fs,
        "--kind",
        "cloudphysics",
        "--sizes",
        "4KiB",
        "--writes",
        "sometimes",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("invalid value 'sometimes' for '--writes <MODE>'"),
        "{err}"
    );
    // a second trace (or a value for a flag that takes none) is refused, not ignored
    let (code, _, err) = sim(&[fs, fs, "--kind", "cloudphysics", "--sizes", "4KiB"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!("unexpected argument '{fs}' found")),
        "{err}"
    );

    // Larger than the footprint: figures given, with a note.
    let (code, out, err) = sim(&[
        fs,
        "--kind",
        "cloudphysics",
        "--sizes",
        "4KiB,1GiB",
        "--json",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(j["notes"][0]
        .as_str()
        .unwrap()
        .contains("larger than the trace's footprint of 5 blocks"));
    assert!(err.contains("larger than the trace's footprint"));
    assert_eq!(j["input"]["skipped"], 5);
    assert_eq!(j["input"]["skippedByReason"]["unknown opcode"], 1);

    // Simulating the imported capture gives the figures of the trace itself.
    let cap = d.join("t.capture");
    ok(&import("cloudphysics", &f, &cap, &[]));
    let args = [
        "--sizes",
        "4KiB,8KiB",
        "--policy",
        "lru,arc",
        "--json",
        "--quiet",
        "--writes",
        "allocate",
    ];
    let (_, a, _) = sim(&[&[fs, "--kind", "cloudphysics"][..], &args[..]].concat());
    let (code, b, err) = sim(&[&[cap.to_str().unwrap()][..], &args[..]].concat());
    assert_eq!(code, Some(0), "{err}");
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&a).unwrap(),
        serde_json::from_str(&b).unwrap(),
    );
    for i in 0..2 {
        assert_eq!(a["policies"][i]["sizes"], b["policies"][i]["sizes"]);
    }
    assert_eq!(b["input"]["kind"], "capture");
    assert_eq!(b["input"]["requests"], 3);

    // A capture without block requests.
    let (code, _, err) = sim(&[d.join("none.capture").to_str().unwrap(), "--sizes", "1GiB"]);
    assert_eq!(code, Some(12));
    assert!(err.contains("no capture or trace at"), "{err}");
}

#[test]
fn oracle_general_binary_and_a_capture_request_past_its_device() {
    let d = TempDir::new("ti-og");
    let f = d.join("t.oracleGeneral");
    let mut b = Vec::new();
    for (t, id, size) in [(0u32, 7u64, 4096u32), (1, 9, 4096), (3, 7, 4096)] {
        b.extend_from_slice(&t.to_le_bytes());
        b.extend_from_slice(&id.to_le_bytes());
        b.extend_from_slice(&size.to_le_bytes());
        b.extend_from_slice(&(-1i64).to_le_bytes());
    }
    b.extend_from_slice(&[1, 2, 3]);
    std::fs::write(&f, &b).unwrap();
    let out = d.join("og.capture");
    let o = import("oracle-general", &f, &out, &[]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("line 4, column record: the file ends with 3 bytes, not a whole 24-byte record"));
    let r = rows(&out);
    assert_eq!(
        r.iter()
            .map(|x| (x.issue_ns, x.sector, x.bytes))
            .collect::<Vec<_>>(),
        vec![
            (0, 7 * 8, 4096),
            (1_000_000_000, 9 * 8, 4096),
            (3_000_000_000, 7 * 8, 4096)
        ]
    );

    // A capture whose device is smaller than a request: that request is skipped and counted.
    let c = Connection::open(&out).unwrap();
    c.execute("UPDATE devices SET size_bytes = 36864", [])
        .unwrap();
    drop(c);
    let (code, outj, err) = sim(&[
        out.to_str().unwrap(),
        "--sizes",
        "8KiB",
        "--json",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let j: serde_json::Value = serde_json::from_str(&outj).unwrap();
    assert_eq!(j["input"]["requests"], 2);
    assert_eq!(j["input"]["skippedByReason"]["past the device's end"], 1);
    // 7, 7: the second hits.
    assert_eq!(j["policies"][0]["sizes"][0]["requestHitRatio"], 0.5);
}

#[test]
fn curve_of_every_policy_on_the_real_msn_trace() {
    let Some(f) = real(
        "curve_of_every_policy_on_the_real_msn_trace",
        "huaicheng_MSN-FS-30s-ms.trace",
    ) else {
        return;
    };
    let (code, out, err) = sim(&[
        f.to_str().unwrap(),
        "--kind",
        "msn",
        "--policy",
        "lru,fifo,clock,arc,2q,s3fifo",
        "--curve",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("simulate: s3fifo done in"),
        "progress on stderr: {err}"
    );
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fp = j["footprintBlocks"].as_u64().unwrap();
    assert_eq!(j["input"]["readRequests"], 130_483);
    for p in j["policies"].as_array().unwrap() {
        let sizes = p["sizes"].as_array().unwrap();
        assert!(sizes.len() >= 20, "{}", p["policy"]);
        assert_eq!(sizes.last().unwrap()["blocks"].as_u64().unwrap(), fp);
        let m = if p["policy"] == "lru" {
            "exact-stack"
        } else {
            "exact-simulation"
        };
        assert_eq!(p["method"], m);
        // At the footprint every policy misses only first references: the same figure.
        assert_eq!(
            sizes.last().unwrap()["blockHitRatio"],
            j["policies"][0]["sizes"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()["blockHitRatio"]
        );
    }
    // LRU's curve never falls as the cache grows (the stack inclusion property).
    let lru: Vec<f64> = j["policies"][0]["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["requestHitRatio"].as_f64().unwrap())
        .collect();
    assert!(lru.windows(2).all(|w| w[0] <= w[1]), "{lru:?}");
}
