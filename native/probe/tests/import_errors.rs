//! Bad input to `import`: one sentence naming the file, line and column, exit code 12 (2 for
//! usage, 4 for an unwritable --out), and nothing left behind (docs/import.md).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::testenv;
use common::{probe, TempDir};

fn real(test: &str, name: &str) -> Option<PathBuf> {
    testenv::realdata(test, name)
}

/// Run an import into `dir/out.capture`; return (exit code, stderr) and check nothing but the
/// inputs is left in `dir`.
fn run(dir: &TempDir, kind: &str, file: &Path) -> (Option<i32>, String) {
    let before: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let out = dir.join("out.capture");
    let o = probe(&[
        "import",
        kind,
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let after: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        before.len(),
        after.len(),
        "a failed import leaves no file: {after:?}"
    );
    assert!(!out.exists());
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(e.trim().lines().count(), 1, "one sentence: {e}");
    (o.status.code(), e)
}

#[test]
fn truncated_header_only_column_counts_times_backwards_and_blg() {
    let Some(src) = real(
        "truncated_header_only_column_counts_times_backwards_and_blg",
        "perfmon_csv/reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&src).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let t = TempDir::new("imp-err");

    // truncated: the file stops in the middle of its last row
    let cut = &text[..text.len() - 40];
    let f = t.join("truncated.csv");
    std::fs::write(&f, cut).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12), "{e}");
    assert!(e.contains("truncated.csv, line 120, column "), "{e}");
    assert!(e.contains("cut off"), "{e}");

    // header only
    let f = t.join("header-only.csv");
    std::fs::write(&f, format!("{}\r\n", lines[0])).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("header-only.csv, line 1") && e.contains("no data rows"),
        "{e}"
    );

    // a row with a column less
    let mut l = lines.clone();
    let short = l[4].rsplit_once(',').unwrap().0.to_string();
    l[4] = &short;
    let f = t.join("columns.csv");
    std::fs::write(&f, l.join("\r\n")).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("columns.csv, line 5, column 31: 30 columns where the header has 31"),
        "{e}"
    );

    // times going backwards
    let mut l = lines.clone();
    l.swap(9, 10);
    let f = t.join("backwards.csv");
    std::fs::write(&f, l.join("\r\n")).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("backwards.csv, line 11, column 1") && e.contains("times must increase"),
        "{e}"
    );

    // a value that is not a number
    let mut cells: Vec<String> = lines[6].split("\",\"").map(String::from).collect();
    cells[1] = "zero".into();
    let bad = cells.join("\",\"");
    let mut l = lines.clone();
    l[6] = &bad;
    let f = t.join("nan.csv");
    std::fs::write(&f, l.join("\r\n")).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("nan.csv, line 7, column ") && e.contains("'zero' is not a number"),
        "{e}"
    );

    // CR-only line ends and no final newline: imports as the CRLF original
    let f = t.join("cr.csv");
    std::fs::write(&f, text.trim_end().replace("\r\n", "\r")).unwrap();
    let out = t.join("cr.capture");
    let o = probe(&[
        "import",
        "perfmon",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn blg_binary_log_names_the_relog_command() {
    let t = TempDir::new("imp-blg");
    let f = t.join("DataCollector01.blg");
    let mut b = b"\x00\x00PLAL\x01\x00".to_vec();
    b.extend((0..4000u32).map(|i| (i * 7 % 251) as u8));
    std::fs::write(&f, &b).unwrap();
    let (code, e) = run(&t, "perfmon", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("relog \"DataCollector01.blg\" -f csv -o \"DataCollector01.csv\""),
        "{e}"
    );
    // the same bytes under a .csv name are refused the same way
    let g = t.join("renamed.csv");
    std::fs::write(&g, &b).unwrap();
    let (code, e) = run(&t, "perfmon", &g);
    assert_eq!(code, Some(12));
    assert!(e.contains("binary Performance Monitor log (BLG)"), "{e}");
}

#[test]
fn linux_text_errors_name_line_and_column() {
    let Some(src) = real(
        "linux_text_errors_name_line_and_column",
        "linux_iostat_sar_diskstats/congxueyang_object2_iostat-xmt_sysstat10.txt",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&src).unwrap();
    let t = TempDir::new("imp-err-lx");
    // cut in the middle of the 8th line (the first device row)
    let upto: usize = text.lines().take(7).map(|l| l.len() + 1).sum::<usize>() + 30;
    let f = t.join("cut.txt");
    std::fs::write(&f, &text[..upto]).unwrap();
    let (code, e) = run(&t, "iostat", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("cut.txt, line 8, column ")
            && e.contains("columns where the Device header on line 7 has 14"),
        "{e}"
    );
    // a -t time that goes back
    let swapped = text.replacen("03/15/2016 09:34:01 AM", "03/15/2016 09:33:01 AM", 1);
    let f = t.join("back.txt");
    std::fs::write(&f, swapped).unwrap();
    let (code, e) = run(&t, "iostat", &f);
    assert_eq!(code, Some(12));
    assert!(
        e.contains("back.txt, line 10, column 1") && e.contains("times must increase"),
        "{e}"
    );
    // not JSON for iostat-json
    let (code, e) = run(&t, "iostat-json", &src);
    assert_eq!(code, Some(12));
    assert!(e.contains("line 1, column 1: not valid JSON"), "{e}");
}

#[test]
fn usage_and_output_errors() {
    let t = TempDir::new("imp-usage");
    let f = t.join("x.csv");
    std::fs::write(&f, "\"(PDH-CSV 4.0)\",\"\\\\H\\PhysicalDisk(0 C:)\\Disk Reads/sec\"\n\"01/01/2024 00:00:00.000\",\"1\"\n\"01/01/2024 00:00:01.000\",\"2\"\n").unwrap();
    let x = f.to_str().unwrap();
    let o = probe(&["import", "nosuchkind", x, "--out", "/tmp/never.capture"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown import kind 'nosuchkind'"));
    let o = probe(&["import", "perfmon", x, "--out", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "--out exists");
    let o = probe(&[
        "import",
        "perfmon",
        x,
        "--switch-at",
        "2030-01-01T00:00:00Z",
        "--out",
        t.join("a.capture").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("outside the data"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = probe(&[
        "import",
        "perfmon",
        x,
        "--encoding",
        "ebcdic",
        "--out",
        t.join("a.capture").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = probe(&[
        "import",
        "perfmon",
        x,
        "--out",
        "/nonexistent-dir/a.capture",
    ]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = probe(&[
        "import",
        "perfmon",
        x,
        "--out",
        t.join("ok.capture").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let left: Vec<_> = std::fs::read_dir(&t.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(left.iter().all(|n| !n.contains(".tmp")), "{left:?}");
}
