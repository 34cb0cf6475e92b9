//! French, German and Russian PerfMon logs built from an English real file (localized object
//! and counter names from the shipped table, localized zone names, decimal commas, cp1251,
//! cp1252 and UTF-16) import to the same capture figures as the English original.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::import::{decode, perfmon::Names};
use cacheproof_probe::testenv;
use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

fn english(test: &str) -> Option<PathBuf> {
    testenv::realdata(
        test,
        "perfmon_csv/reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv",
    )
}

/// Rewrite one English PDH-CSV text into `lang`: header paths translated through the table,
/// the zone written as `zone` with bias 0, values with a decimal comma.
fn localize(text: &str, names: &Names, lang: &str, zone: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let cells: Vec<&str> = line.trim_matches('"').split("\",\"").collect();
        let mut new = Vec::new();
        for (j, c) in cells.iter().enumerate() {
            if i == 0 && j == 0 {
                new.push(format!("(PDH-CSV 4.0) ({zone})(0)"));
            } else if i == 0 {
                let p = cacheproof_probe::import::perfmon::parse_path(c).unwrap();
                let canon = if p.object.eq_ignore_ascii_case("PhysicalDisk") {
                    "PhysicalDisk"
                } else {
                    "LogicalDisk"
                };
                let obj = names.localize_object(canon, lang).unwrap();
                let counter = names
                    .localize_counter(&p.counter, lang)
                    .unwrap_or_else(|| p.counter.clone()); // a counter the table lacks stays English: listed, not imported
                new.push(format!(
                    "\\\\{}\\{}({})\\{}",
                    p.host,
                    obj,
                    p.instance.unwrap(),
                    counter
                ));
            } else if j == 0 {
                new.push(c.to_string());
            } else {
                new.push(c.replace('.', ","));
            }
        }
        out.push_str(&format!("\"{}\"\r\n", new.join("\",\"")));
    }
    out
}

type Row = (String, i64, i64, f64, String, Vec<Option<i64>>);

fn intervals(p: &Path) -> Vec<Row> {
    let c = Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut st = c
        .prepare(
            "SELECT d.name,start_utc_ms,end_utc_ms,interval_ms,status,reads,writes,read_bytes,write_bytes,
               read_time_ms,write_time_ms,busy_ms,weighted_ms,in_flight
             FROM intervals i JOIN devices d ON d.id=i.device_id ORDER BY d.name, start_utc_ms",
        )
        .unwrap();
    let rows = st
        .query_map([], |r| {
            let mut v = Vec::new();
            for k in 5..14 {
                v.push(r.get(k)?);
            }
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, v))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

fn import(file: &Path, out: &Path) -> serde_json::Value {
    let o = probe(&[
        "import",
        "perfmon",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        o.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn french_german_russian_logs_import_to_the_english_figures() {
    let Some(en) = english("french_german_russian_logs_import_to_the_english_figures") else {
        return;
    };
    let text = std::fs::read_to_string(&en).unwrap();
    let names = Names::builtin();
    let t = TempDir::new("imp-l10n");
    let base = t.join("en.capture");
    import(&en, &base);
    let want = intervals(&base);
    assert!(want.len() > 200);
    assert!(
        want.iter().any(|r| r.5[1].unwrap_or(0) > 0),
        "the English import has writes"
    );
    let cases = [
        (
            "fr",
            "Temps universel coordonné",
            "cp1252",
            "fr-cp1252.csv",
            false,
        ),
        (
            "de",
            "Koordinierte Weltzeit",
            "utf-16le",
            "de-utf16le.csv",
            true,
        ),
        (
            "ru",
            "Всемирное координированное время",
            "cp1251",
            "ru-cp1251.csv",
            false,
        ),
        (
            "ru",
            "Всемирное координированное время",
            "utf-16be",
            "ru-utf16be.csv",
            false,
        ),
    ];
    for (lang, zone, enc, name, bom) in cases {
        let loc = localize(&text, &names, lang, zone);
        assert!(loc.contains(&names.localize_object("PhysicalDisk", lang).unwrap()));
        assert!(loc.contains(",\"0,"), "{lang}: decimal commas");
        let mut bytes = decode::encode(&loc, enc).unwrap();
        if bom {
            bytes.splice(0..0, [0xFF, 0xFE]);
        }
        let f = t.join(name);
        std::fs::write(&f, &bytes).unwrap();
        let out = t.join(&format!("{name}.capture"));
        let j = import(&f, &out);
        let file = &j["preview"]["files"][0];
        assert_eq!(file["encoding"], enc, "{name}: {file}");
        assert_eq!(
            file["encodingHow"],
            if bom { "bom" } else { "detected" },
            "{name}"
        );
        assert_eq!(file["timeZone"], zone, "{name}");
        assert_eq!(file["utcOffsetMin"], 0, "{name}");
        let got = intervals(&out);
        assert_eq!(got.len(), want.len(), "{name}");
        assert_eq!(got, want, "{name}: the same figures as the English log");
        let c = Connection::open_with_flags(&out, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let enc_db: String = c
            .query_row("SELECT encoding FROM import_files", [], |r| r.get(0))
            .unwrap();
        assert_eq!(enc_db, enc);
    }
}

#[test]
fn a_user_name_file_maps_a_counter_the_table_lacks() {
    let Some(en) = english("a_user_name_file_maps_a_counter_the_table_lacks") else {
        return;
    };
    let text = std::fs::read_to_string(&en).unwrap();
    // "Disk Reads/sec" renamed to a name no table has: listed as unmapped, then mapped by --names
    let renamed = text.replace("\\Disk Reads/sec", "\\Lecturas por segundo (prueba)");
    let t = TempDir::new("imp-names");
    let f = t.join("x.csv");
    std::fs::write(&f, renamed).unwrap();
    let o = probe(&[
        "import",
        "--preview",
        "perfmon",
        f.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success());
    let pv: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        pv["unmapped"]
            .to_string()
            .contains("Lecturas por segundo (prueba)"),
        "{}",
        pv["unmapped"]
    );
    let names = t.join("names.tsv");
    std::fs::write(
        &names,
        "counter\tes\tLecturas por segundo (prueba)\treads_per_s\t1\tDisk Reads/sec\n",
    )
    .unwrap();
    let (a, b) = (t.join("a.capture"), t.join("b.capture"));
    import(&en, &a);
    let o = probe(&[
        "import",
        "perfmon",
        f.to_str().unwrap(),
        "--names",
        names.to_str().unwrap(),
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(intervals(&a), intervals(&b));
    // a malformed name file is named with its line
    std::fs::write(&names, "# comment\ncounter\tes\tX\tnot_a_field\t1\tY\n").unwrap();
    let o = probe(&[
        "import",
        "--preview",
        "perfmon",
        f.to_str().unwrap(),
        "--names",
        names.to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(12), "{e}");
    assert!(
        e.contains("names.tsv, line 2") && e.contains("unknown field 'not_a_field'"),
        "{e}"
    );
}
