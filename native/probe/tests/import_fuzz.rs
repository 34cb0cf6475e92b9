//! Fuzzing the importers: proptest on every parser (no panic on arbitrary input, nor on
//! mutations of valid files), and a replay of the corpus in tests/fixtures/import-corpus/
//! (file names `KIND.ok.…` must parse, `KIND.err.…` must be refused with a sentence).
//! `CACHEPROOF_FUZZ_CASES=100000 cargo test --release --test import_fuzz` runs longer.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use cacheproof_probe::import::{
    counts, decode, linux, perfmon, prometheus, ParseOpts, Parsed, Rates,
};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("CACHEPROOF_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

const KINDS: [&str; 8] = [
    "perfmon",
    "esxtop",
    "iostat",
    "iostat-json",
    "sar",
    "sadf",
    "diskstats",
    "node-exporter",
];

fn parse(kind: &str, text: &str) -> Result<Parsed, cacheproof_probe::ProbeError> {
    let o = ParseOpts {
        interval_s: Some(1.0),
        ..Default::default()
    };
    match kind {
        "perfmon" => perfmon::parse("f", text, &o, false),
        "esxtop" => perfmon::parse("f", text, &o, true),
        "iostat" => linux::parse_iostat("f", text, &o),
        "iostat-json" => linux::parse_iostat_json("f", text, &o),
        "sar" => linux::parse_sar("f", text, &o),
        "sadf" => linux::parse_sadf("f", text, &o),
        "node-exporter" => prometheus::parse_text("f", text, "")
            .map(|sc| prometheus::to_parsed(&sc.series, "text".into())),
        _ => linux::parse_diskstats("f", text, Some("100.5 20.0"), &o),
    }
}

fn corpus() -> Vec<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import-corpus");
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn kind_of(p: &Path) -> (String, bool) {
    let n = p.file_name().unwrap().to_string_lossy().to_string();
    let mut it = n.splitn(3, '.');
    let k = it.next().unwrap().to_string();
    let ok = it.next().unwrap() == "ok";
    (k, ok)
}

/// A parse that succeeded must be self-consistent: one rate slot per device, increasing times.
fn check(p: &Parsed) {
    for s in &p.samples {
        assert!(s.snap.is_some() || s.rates.len() == p.devices.len());
    }
    for w in p.samples.windows(2) {
        assert!(w[1].utc_ms > w[0].utc_ms);
    }
}

#[test]
fn corpus_replay() {
    let files = corpus();
    assert!(files.len() >= 10);
    for f in files {
        let (kind, ok) = kind_of(&f);
        assert!(KINDS.contains(&kind.as_str()), "{}", f.display());
        let bytes = std::fs::read(&f).unwrap();
        let text = decode::decode(&bytes, None).unwrap().text;
        match parse(&kind, &text) {
            Ok(p) => {
                assert!(ok, "{} should be refused", f.display());
                assert!(
                    !p.devices.is_empty()
                        && p.samples.len() >= if kind == "node-exporter" { 1 } else { 2 },
                    "{}",
                    f.display()
                );
                check(&p);
            }
            Err(e) => {
                assert!(!ok, "{}: {e}", f.display());
                let m = e.to_string();
                assert!(m.starts_with("f") && m.lines().count() == 1, "{m}");
            }
        }
    }
}

#[test]
fn corpus_values() {
    // a few corpus files checked on a figure, as docs/import.md converts it
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import-corpus");
    let read = |n: &str| decode::decode(&std::fs::read(dir.join(n)).unwrap(), None).unwrap();
    let d = read("esxtop.ok.batch.csv");
    let p = parse("esxtop", &d.text).unwrap();
    assert_eq!(p.devices[0].name, "EsxDisk(naa.600508b1001c4d)");
    assert_eq!(p.devices[0].role, "backing");
    let r = p.samples[1].rates[0].unwrap();
    let c = counts(&r, 5000.0);
    assert_eq!(c.reads, Some(1000));
    assert_eq!(c.read_bytes, Some(32_768_000)); // 6.25 MB/s × 1048576 × 5 s
    assert_eq!(c.read_time_ms, Some(4000)); // 4 ms × 1000 reads
    assert_eq!(c.in_flight, Some(2));
    assert!(p.unmapped.iter().any(|u| u.what.contains("Memory")));
    let d = read("perfmon.ok.cr-only-semicolon-cp1252.csv");
    assert_eq!(d.encoding, "cp1252");
    let p = parse("perfmon", &d.text).unwrap();
    assert_eq!(p.devices[0].name, "PhysicalDisk(0 C:)");
    assert_eq!(p.utc_offset_min, Some(60));
    assert_eq!(p.samples[0].utc_ms, 1_705_136_400_000); // 13/01/2024 10:00 CET = 09:00Z
    assert_eq!(p.samples[1].rates[0].unwrap().reads_per_s, Some(2.5));
    let p = parse(
        "perfmon",
        &read("perfmon.ok.instance-with-comma-no-final-newline.csv").text,
    )
    .unwrap();
    assert_eq!(p.devices[0].name, "LogicalDisk(D:, data)");
    assert_eq!(p.utc_offset_min, Some(-480));
    let p = parse("sar", &read("sar.ok.old-ampm-across-midnight.txt").text).unwrap();
    assert_eq!(
        p.samples[1].utc_ms - p.samples[0].utc_ms,
        5000,
        "12:00:00 AM is the next day"
    );
    let p = parse(
        "iostat",
        &read("iostat.ok.sysstat9-sectors-await-midnight.txt").text,
    )
    .unwrap();
    let r = p.samples[1].rates[0].unwrap();
    assert_eq!(r.read_bytes_per_s, Some(8.0 * 512.0));
    assert_eq!(
        (r.read_ms_per_io, r.write_ms_per_io),
        (Some(1.0), Some(1.0))
    );
    assert_eq!(p.samples[1].utc_ms - p.samples[0].utc_ms, 10_000);
}

fn seeds() -> Vec<(String, String)> {
    corpus()
        .into_iter()
        .map(|f| {
            let k = kind_of(&f).0;
            (
                k,
                decode::decode(&std::fs::read(&f).unwrap(), None)
                    .unwrap()
                    .text,
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..600), k in 0usize..KINDS.len()) {
        let d = decode::decode(&b, None).unwrap();
        let _ = decode::looks_binary(&b);
        if let Ok(p) = parse(KINDS[k], &d.text) { check(&p); }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,400}", k in 0usize..KINDS.len()) {
        if let Ok(p) = parse(KINDS[k], &s) { check(&p); }
    }

    #[test]
    fn mutated_valid_files_never_panic(
        which in 0usize..64,
        at in 0usize..4096,
        len in 0usize..64,
        insert in "[\"\\\\(),;.\\n\\r\\t 0-9A-Za-z:/+-]{0,24}",
        truncate in any::<bool>(),
    ) {
        let seeds = seeds();
        let (k, t) = &seeds[which % seeds.len()];
        let mut b: Vec<char> = t.chars().collect();
        let at = at % (b.len() + 1);
        let end = (at + len).min(b.len());
        b.splice(at..end, insert.chars());
        if truncate { b.truncate(at); }
        let s: String = b.into_iter().collect();
        if let Ok(p) = parse(k, &s) { check(&p); }
    }

    #[test]
    fn counts_are_whole_and_never_negative(v in proptest::collection::vec(proptest::option::of(-1e12f64..1e12), 16), dt in 0.0f64..1e9) {
        let r = Rates {
            reads_per_s: v[0], writes_per_s: v[1], read_bytes_per_s: v[2], write_bytes_per_s: v[3],
            read_ms_per_io: v[4], write_ms_per_io: v[5], busy_frac: v[6], queue_avg: v[7], in_flight: v[8],
            read_merges_per_s: v[9], write_merges_per_s: v[10], discards_per_s: v[11], discard_bytes_per_s: v[12],
            discard_ms_per_io: v[13], flushes_per_s: v[14], flush_ms_per_io: v[15], reset: false,
        };
        let c = counts(&r, dt);
        for x in [c.reads, c.writes, c.read_bytes, c.write_bytes, c.read_time_ms, c.write_time_ms, c.busy_ms,
                  c.weighted_ms, c.in_flight, c.discards, c.flushes].into_iter().flatten() {
            prop_assert!(x >= 0);
        }
        if let Some(b) = c.busy_ms { prop_assert!(b as f64 <= dt.round() + 1.0); }
    }
}

#[test]
fn encode_decode_round_trip() {
    let s = "\"(PDH-CSV 4.0) (Всемирное время)(0)\",\"\\\\Х\\Физический диск(0 C:)\\% времени бездействия\"";
    for e in ["utf-8", "utf-16le", "utf-16be", "cp1251"] {
        let b = decode::encode(s, e).unwrap();
        let d = decode::decode(&b, None).unwrap();
        assert_eq!(d.encoding, e);
        assert_eq!(d.text, s, "{e}");
    }
    let jp = "\"(PDH-CSV 4.0) (東京 (標準時))(-540)\",\"\\\\H\\物理ディスク(0 C:)\\ディスク読み取り/秒\"";
    let d = decode::decode(&decode::encode(jp, "cp932").unwrap(), None).unwrap();
    assert_eq!((d.encoding, d.text.as_str()), ("cp932", jp));
}
