//! The fuzz suite, for minutes (`npm run fuzz [-- --minutes N]`; not part of `npm test`, whose
//! import_fuzz.rs runs proptest briefly and replays the corpus): every importer parser
//! (PerfMon, esxtop, iostat text and JSON, sar, sadf, diskstats, node_exporter scrapes), the
//! Prometheus host selector, the decoder, the import's stitching and preview (and, for one input
//! in 25, the whole import into a capture), and the block-trace readers of src/trace/import/ (MSR,
//! blkparse, CloudPhysics, DiskSim, MSN, oracleGeneral), run on inputs mutated from seeds (the
//! corpus of tests/fixtures/import-corpus/ and trace-corpus/, the windows_exporter scrape, and
//! ../shared/realdata when present) and on random bytes, until the time is up.
//!
//! Each input runs on a worker thread under a time bound: a panic or an input that takes longer
//! than the bound is a finding, written to `native/target/fuzz-findings/TARGET.{panic|hang}.HASH`
//! (then the run fails, naming the files; a hang ends the run at once). A finding, once fixed,
//! goes into the corpus that `npm test` replays (import_fuzz.rs `corpus_replay`).
//!
//! `CACHEPROOF_FUZZ_MINUTES` (default 3), `CACHEPROOF_FUZZ_INPUT_SECONDS` (the bound, default 10:
//! the machines are shared; an input of at most 64 KiB parses in milliseconds),
//! `CACHEPROOF_FUZZ_SEED` (default: from the clock; printed, so a run can be repeated).
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cacheproof_probe::import::write::{self, Options, Part};
use cacheproof_probe::import::{decode, linux, perfmon, prometheus, promql, Kind, ParseOpts};
use cacheproof_probe::trace::import as tracein;

/// The largest input tried.
const MAX_INPUT: usize = 64 * 1024;

/// What a target does with an input; it must return (an error is fine) and never panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// An import parser on the decoded text.
    Parse(Kind),
    /// `import --preview` (files → stitching, phases, preview) on the input as a file.
    Plan(Kind),
    /// The Prometheus host selector.
    Selector,
    /// A block-trace reader on the input as a file.
    Trace(tracein::Kind),
}

impl Target {
    fn name(self) -> String {
        match self {
            Target::Parse(k) => format!("parse-{}", k.as_str()),
            Target::Plan(k) => format!("plan-{}", k.as_str()),
            Target::Selector => "selector".into(),
            Target::Trace(k) => format!("trace-{}", k.name()),
        }
    }
}

/// Every import kind that reads files (all but `prometheus`, which reads a server).
fn file_kinds() -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|k| *k != Kind::Prometheus)
        .collect()
}

fn targets() -> Vec<Target> {
    let mut v: Vec<Target> = file_kinds().into_iter().map(Target::Parse).collect();
    v.extend(file_kinds().into_iter().map(Target::Plan));
    v.push(Target::Selector);
    v.extend(tracein::Kind::ALL.iter().map(|k| Target::Trace(*k)));
    v
}

fn parse_opts() -> ParseOpts {
    ParseOpts {
        interval_s: Some(1.0),
        start_utc_ms: Some(1_700_000_000_000),
        ..Default::default()
    }
}

/// Run one input through a target (in `dir`, for the targets that read a file). `full`: the
/// whole import into a capture, not only the preview.
fn run(t: Target, input: &[u8], dir: &Path, full: bool) {
    match t {
        Target::Parse(k) => {
            let _ = decode::looks_binary(input);
            let Ok(d) = decode::decode(input, None) else {
                return;
            };
            let o = parse_opts();
            let text = d.text.as_str();
            let _ = match k {
                Kind::Perfmon => perfmon::parse("f", text, &o, false),
                Kind::Esxtop => perfmon::parse("f", text, &o, true),
                Kind::Iostat => linux::parse_iostat("f", text, &o),
                Kind::IostatJson => linux::parse_iostat_json("f", text, &o),
                Kind::Sar => linux::parse_sar("f", text, &o),
                Kind::Sadf => linux::parse_sadf("f", text, &o),
                Kind::Diskstats => linux::parse_diskstats("f", text, Some("100.5 20.0"), &o),
                _ => prometheus::parse_text("f", text, "")
                    .map(|s| prometheus::to_parsed(&s.series, "t".into())),
            };
        }
        Target::Plan(k) => {
            let f = dir.join("input.txt");
            std::fs::write(&f, input).unwrap();
            let out = dir.join("out.capture");
            for x in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{x}", out.display()));
            }
            let mut inputs = vec![(f.clone(), Part::All)];
            if k == Kind::NodeExporter || k == Kind::Diskstats {
                // a rate needs two moments: the same file twice
                inputs.push((f.clone(), Part::All));
            }
            let o = Options {
                kind: k,
                inputs,
                out: Some(out.clone()),
                switch_at: None,
                encoding: None,
                parse: parse_opts(),
                roles: Vec::new(),
                out_dir: None,
                command: "fuzz".into(),
            };
            if full {
                let _ = write::import(&o);
            } else if let Ok(p) = write::plan(&o) {
                let pv = write::preview(k, &p);
                let _ = write::render(&pv);
                let _ = serde_json::to_string(&pv);
            }
        }
        Target::Selector => {
            let s = String::from_utf8_lossy(input);
            if let Ok(m) = promql::parse_selector(&s) {
                // what is rendered parses back to the same matchers
                let again = promql::parse_selector(&format!("{{{}}}", promql::render(&m)));
                assert_eq!(again.as_ref(), Ok(&m), "render then parse of {s:?}");
            }
        }
        Target::Trace(k) => {
            let f = dir.join("trace.bin");
            std::fs::write(&f, input).unwrap();
            for device_bytes in [None, Some(1 << 30)] {
                let _ = tracein::read(
                    &f,
                    k,
                    tracein::ReadOptions {
                        device_bytes,
                        detail: true,
                        qpc_hz: None,
                        start_utc_ms: None,
                    },
                );
            }
        }
    }
}

/// xorshift64*: deterministic from the printed seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Pieces the formats are made of, inserted by the mutator.
const TOKENS: &[&str] = &[
    "\"",
    ",",
    ";",
    "\t",
    "\r\n",
    "\n",
    "\r",
    "\"\"",
    " ",
    "-1",
    "1e309",
    "NaN",
    "inf",
    "-0",
    "99999999999999999999999",
    "0.000000000000000000001",
    "6.25e-005",
    "(",
    ")",
    "\\\\",
    "\\",
    ":",
    "/",
    ".",
    "{",
    "}",
    "=",
    "=~",
    "!~",
    "`",
    "'",
    "#",
    "# TYPE ",
    "device=\"sda\"",
    "volume=\"C:\"",
    "node_disk_reads_completed_total",
    "node_disk_read_time_seconds_total",
    "windows_logical_disk_reads_total",
    "\"(PDH-CSV 4.0) (UTC)(0)\"",
    "\"(PDH-TSV 4.0)\"",
    "\\\\H\\PhysicalDisk(0 C:)\\Disk Reads/sec",
    "\\\\H\\LogicalDisk(C:)\\Avg. Disk sec/Read",
    "12/31/2099 23:59:59.999",
    "02/30/2024 25:61:61.000",
    "01/01/1601 00:00:00.000",
    "2024-03-14T10:00:00Z",
    "2024-03-14 10:00:00 UTC",
    "AM",
    "PM",
    "12:00:00 AM",
    "Device:",
    "Device",
    "r/s",
    "w/s",
    "rkB/s",
    "r_await",
    "%util",
    "avg-cpu:",
    "Linux 5.4.0 (h) 01/01/2024 _x86_64_ (2 CPU)",
    "Average:",
    "LINUX RESTART",
    "DEV",
    "tps",
    "# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;areq-sz;aqu-sz;await;%util",
    "{\"sysstat\":",
    "\"disk\":[",
    "\"statistics\":[",
    "\"timestamp\":",
    "   8       0 sda ",
    " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
    "18446744073709551615",
    "4294967296",
    "2a",
    "28",
    "Read",
    "Write",
    "D",
    "C",
    "Q",
    "WS",
    "+",
    "\u{feff}",
    "é",
    "Физический диск",
    "物理ディスク",
    "\u{0}",
];

fn mutate(r: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
    let mut b = base.to_vec();
    let n = 1 + r.below(8);
    for _ in 0..n {
        let at = r.below(b.len() + 1);
        match r.below(10) {
            0 if !b.is_empty() => {
                let i = r.below(b.len());
                b[i] ^= 1 << r.below(8);
            }
            1 => {
                let k = 1 + r.below(16);
                let bytes: Vec<u8> = (0..k).map(|_| r.next() as u8).collect();
                b.splice(at..at, bytes);
            }
            2 | 3 => {
                let t = TOKENS[r.below(TOKENS.len())].as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            4 => {
                let end = (at + r.below(64)).min(b.len());
                b.drain(at..end);
            }
            5 | 6 => {
                // a line duplicated, or two lines swapped
                let lines: Vec<&[u8]> = b.split(|c| *c == b'\n').collect();
                if lines.len() > 1 {
                    let (i, j) = (r.below(lines.len()), r.below(lines.len()));
                    let mut v: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                    if r.below(2) == 0 {
                        let l = v[i].clone();
                        v.insert(j, l);
                    } else {
                        v.swap(i, j);
                    }
                    b = v.join(&b'\n');
                }
            }
            7 => b.truncate(at),
            8 if !other.is_empty() => {
                // splice another seed's tail
                let from = r.below(other.len());
                b.truncate(at);
                b.extend_from_slice(&other[from..]);
            }
            _ => {
                // a number written otherwise
                let t = format!("{}", (r.next() as i64) >> r.below(60));
                b.splice(at..at, t.bytes());
            }
        }
    }
    b.truncate(MAX_INPUT);
    b
}

fn seeds_of(t: Target, all: &BTreeMap<String, Vec<Vec<u8>>>) -> Vec<Vec<u8>> {
    let key = match t {
        Target::Parse(k) | Target::Plan(k) => k.as_str().to_string(),
        Target::Selector => "selector".into(),
        Target::Trace(k) => k.name().to_string(),
    };
    all.get(&key).cloned().unwrap_or_default()
}

/// Seeds by kind: the corpora, the windows_exporter scrape, and ../shared/realdata's files
/// (their first 64 KiB) when present.
fn load_seeds() -> BTreeMap<String, Vec<Vec<u8>>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut m: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    let mut add = |k: &str, p: &Path| {
        if let Ok(mut b) = std::fs::read(p) {
            b.truncate(MAX_INPUT);
            m.entry(k.to_string()).or_default().push(b);
        }
    };
    for dir in [
        "tests/fixtures/import-corpus",
        "tests/fixtures/trace-corpus",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            if n.ends_with(".md") {
                continue;
            }
            add(n.split('.').next().unwrap(), &p);
        }
    }
    add(
        "node-exporter",
        &root.join("tests/fixtures/windows_exporter/netdata-v0.20.0-logical-disk.prom"),
    );
    let real = root.join("../../../shared/realdata");
    for (dir, kind) in [
        ("perfmon_csv", "perfmon"),
        ("node_exporter", "node-exporter"),
        ("block_traces", ""),
        ("linux_iostat_sar_diskstats", ""),
    ] {
        let Ok(rd) = std::fs::read_dir(real.join(dir)) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            if n.ends_with(".source.txt") {
                continue;
            }
            let k = if !kind.is_empty() {
                kind
            } else if n.contains("MSN") {
                "msn"
            } else if n.contains("cloudPhysics") {
                "cloudphysics"
            } else if n.contains("JSON") || n.ends_with(".json") {
                "iostat-json"
            } else if n.contains("sar") {
                "sar"
            } else if n.contains("diskstats") {
                "diskstats"
            } else {
                "iostat"
            };
            add(k, &p);
        }
    }
    m.entry("selector".into()).or_default().extend(
        [
            r#"{job="node",instance=~"db.*"}"#,
            r#"env!~`pro\d+`, x!="y""#,
            "{}",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec()),
    );
    m
}

fn env_f64(k: &str, d: f64) -> f64 {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

fn hash(b: &[u8]) -> u64 {
    // FNV-1a: a stable name for a finding
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
        (h ^ u64::from(*c)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
#[ignore = "runs for minutes: npm run fuzz [-- --minutes N]"]
fn fuzz_every_parser_for_minutes() {
    let minutes = env_f64("CACHEPROOF_FUZZ_MINUTES", 3.0);
    let bound = Duration::from_secs_f64(env_f64("CACHEPROOF_FUZZ_INPUT_SECONDS", 10.0));
    let seed = std::env::var("CACHEPROOF_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    let findings: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-findings");
    std::fs::create_dir_all(&findings).unwrap();
    let work = std::env::temp_dir().join(format!("cp-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    println!(
        "fuzz: {minutes} minutes, {:.0} s per input at most, CACHEPROOF_FUZZ_SEED={seed}",
        bound.as_secs_f64()
    );
    // panics are findings, reported once each below, not printed by the hook
    std::panic::set_hook(Box::new(|_| {}));
    let seeds = load_seeds();
    let all: Vec<Vec<u8>> = seeds.values().flatten().cloned().collect();
    let ts = targets();
    let (tx, rx) = mpsc::channel::<(Target, Vec<u8>, bool)>();
    let (done_tx, done_rx) = mpsc::channel::<std::result::Result<(), String>>();
    let wdir = work.clone();
    std::thread::spawn(move || {
        for (t, input, full) in rx {
            let r = catch_unwind(AssertUnwindSafe(|| run(t, &input, &wdir, full))).map_err(|e| {
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into())
            });
            if done_tx.send(r).is_err() {
                break;
            }
        }
    });
    let mut rng = Rng(seed);
    let start = Instant::now();
    let until = Duration::from_secs_f64(minutes * 60.0);
    let mut runs: BTreeMap<String, u64> = BTreeMap::new();
    let mut found: Vec<String> = Vec::new();
    let mut slowest = (Duration::ZERO, String::new(), Vec::new());
    while start.elapsed() < until {
        let t = ts[rng.below(ts.len())];
        let own = seeds_of(t, &seeds);
        let input = match rng.below(20) {
            0 => (0..rng.below(2048)).map(|_| rng.next() as u8).collect(),
            1 if !all.is_empty() => {
                let base = all[rng.below(all.len())].clone();
                mutate(&mut rng, &base, &[])
            }
            _ if !own.is_empty() => {
                let base = own[rng.below(own.len())].clone();
                let other = all
                    .get(rng.below(all.len().max(1)))
                    .cloned()
                    .unwrap_or_default();
                mutate(&mut rng, &base, &other)
            }
            _ => (0..rng.below(512)).map(|_| rng.next() as u8).collect(),
        };
        let full = matches!(t, Target::Plan(_)) && rng.below(25) == 0;
        let t0 = Instant::now();
        tx.send((t, input.clone(), full)).unwrap();
        let name = t.name();
        *runs.entry(name.clone()).or_default() += 1;
        match done_rx.recv_timeout(bound) {
            Ok(Ok(())) => {
                let took = t0.elapsed();
                if took > slowest.0 {
                    slowest = (took, name, input);
                }
            }
            Ok(Err(msg)) => {
                let f = findings.join(format!("{name}.panic.{:016x}", hash(&input)));
                std::fs::write(&f, &input).unwrap();
                println!("FINDING: {name} panicked ({msg}) on {}", f.display());
                found.push(f.display().to_string());
                if found.len() >= 20 {
                    break;
                }
            }
            Err(_) => {
                let f = findings.join(format!("{name}.hang.{:016x}", hash(&input)));
                std::fs::write(&f, &input).unwrap();
                let _ = std::fs::remove_dir_all(&work);
                panic!(
                    "FINDING: {name} took more than {:.0} s on {} ({} bytes); the run stops here (CACHEPROOF_FUZZ_SEED={seed})",
                    bound.as_secs_f64(),
                    f.display(),
                    input.len()
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    // the slowest input, kept to look at (not a finding while under the bound)
    let slow = findings.join(format!("slowest.{}", slowest.1));
    let _ = std::fs::write(&slow, &slowest.2);
    let total: u64 = runs.values().sum();
    println!(
        "fuzz: {total} inputs in {:.1} min; slowest {:.3} s ({}, {} bytes: {}); per target: {}",
        start.elapsed().as_secs_f64() / 60.0,
        slowest.0.as_secs_f64(),
        slowest.1,
        slowest.2.len(),
        slow.display(),
        runs.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(
        found.is_empty(),
        "{} finding(s) (CACHEPROOF_FUZZ_SEED={seed}): {}",
        found.len(),
        found.join(", ")
    );
    assert!(
        ts.iter()
            .all(|t| runs.get(&t.name()).is_some_and(|n| *n > 0))
            || minutes < 0.5,
        "every target ran"
    );
}
