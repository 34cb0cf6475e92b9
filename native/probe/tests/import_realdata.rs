//! Every real file of ../shared/realdata/perfmon_csv and linux_iostat_sar_diskstats either
//! imports — checked on a named row and counter, read here from the file and converted as
//! docs/import.md says — or is refused with a clear sentence. Without ../shared it skips with a message, and fails in CI (`testenv::realdata`).
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::testenv;
use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

fn realdata(test: &str, sub: &str) -> Option<PathBuf> {
    testenv::realdata(test, sub)
}

fn db(p: &Path) -> Connection {
    Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

/// The sha256 the .source.txt beside a real file records.
fn recorded_sha(f: &Path) -> String {
    let src = std::fs::read_to_string(format!("{}.source.txt", f.display())).unwrap();
    let line = src
        .lines()
        .find(|l| l.starts_with("sha256 (saved file):"))
        .unwrap();
    line.rsplit(' ').next().unwrap().trim().to_string()
}

fn import_ok(kind: &str, files: &[&Path], extra: &[&str], out: &Path) -> serde_json::Value {
    let mut args: Vec<String> = vec!["import".into(), kind.into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["--out".into(), out.display().to_string(), "--json".into()]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = probe(&a);
    assert!(
        o.status.success(),
        "import {kind} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn refused(kind: &str, f: &Path, out: &Path) -> String {
    let o = probe(&[
        "import",
        kind,
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(12),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists(), "a refused import leaves no capture");
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// One interval row: (reads, writes, read_bytes, write_bytes, read_time_ms, write_time_ms, busy_ms, weighted_ms, in_flight).
type Iv = [Option<i64>; 9];

fn interval(c: &Connection, dev: &str, end_utc_ms: i64) -> (Iv, f64, String) {
    c.query_row(
        "SELECT reads,writes,read_bytes,write_bytes,read_time_ms,write_time_ms,busy_ms,weighted_ms,in_flight,interval_ms,status
         FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name=?1 AND i.end_utc_ms=?2",
        rusqlite::params![dev, end_utc_ms],
        |r| {
            let mut a = [None; 9];
            for (i, x) in a.iter_mut().enumerate() {
                *x = r.get(i)?;
            }
            Ok((a, r.get(9)?, r.get(10)?))
        },
    )
    .unwrap_or_else(|e| panic!("no interval of {dev} ending at {end_utc_ms}: {e}"))
}

/// Split a PDH-CSV line (all fields quoted).
fn pdh(line: &str) -> Vec<String> {
    line.trim_end_matches(['\r', '\n'])
        .trim_matches('"')
        .split("\",\"")
        .map(String::from)
        .collect()
}

/// `MM/DD/YYYY HH:MM:SS.mmm` to epoch ms as if UTC (test-side parser, independent of the probe's).
fn pdh_ms(s: &str) -> i64 {
    let (d, t) = s.split_once(' ').unwrap();
    let d: Vec<i64> = d.split('/').map(|x| x.parse().unwrap()).collect();
    let (mo, da, y) = (d[0], d[1], d[2]);
    // days since epoch (Howard Hinnant)
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * ((mo + 9) % 12) + 2) / 5 + da - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    let tp: Vec<&str> = t.split(':').collect();
    let sec: f64 = tp[2].parse().unwrap();
    days * 86_400_000
        + tp[0].parse::<i64>().unwrap() * 3_600_000
        + tp[1].parse::<i64>().unwrap() * 60_000
        + (sec * 1000.0).round() as i64
}

/// The value of the first column whose header ends with `suffix`, at the row whose time is `at`,
/// with the row before it: (value, Δt ms, row time ms).
fn pdh_cell(text: &str, at: &str, suffix: &str) -> (f64, f64, i64) {
    let lines: Vec<&str> = text.lines().collect();
    let head = pdh(lines[0]);
    let col = head
        .iter()
        .position(|h| h.to_lowercase().ends_with(&suffix.to_lowercase()))
        .unwrap_or_else(|| panic!("no column {suffix}"));
    let i = lines
        .iter()
        .position(|l| l.starts_with(&format!("\"{at}\"")))
        .unwrap();
    let row = pdh(lines[i]);
    let prev = pdh(lines[i - 1]);
    let t = pdh_ms(&row[0]);
    (
        row[col].trim().parse().unwrap(),
        (t - pdh_ms(&prev[0])) as f64,
        t,
    )
}

fn r(x: f64) -> Option<i64> {
    Some(x.round() as i64)
}

/// A count of an interval after others is rate × Δt plus what the intervals before it left over
/// (less than half a unit: docs/import.md, "From rates to counts"), rounded: within 1 of rate × Δt.
fn near(got: Option<i64>, x: f64) {
    let g = got.expect("a count") as f64;
    assert!((g - x).abs() < 1.0, "{g} where rate × Δt is {x}");
}

#[test]
fn perfmon_typeperf_physicaldisk() {
    let Some(dir) = realdata("perfmon_typeperf_physicaldisk", "perfmon_csv") else {
        return;
    };
    let f = dir.join("dbxtune_GORANS2_typeperf_physicaldisk_from_java_comment.csv");
    let t = TempDir::new("imp-typeperf");
    let out = t.join("x.capture");
    let j = import_ok("perfmon", &[&f], &[], &out);
    assert_eq!(
        j["preview"]["devices"].as_array().unwrap().len(),
        1,
        "_Total is not imported beside 0 C:"
    );
    assert!(j["preview"]["unmapped"]
        .to_string()
        .contains("PhysicalDisk(_Total)"));
    let text = std::fs::read_to_string(&f).unwrap();
    let at = "12/29/2020 18:34:38.338";
    let (reads_s, dt, end) = pdh_cell(&text, at, "PhysicalDisk(0 C:)\\Disk Reads/sec");
    let (sec_read, _, _) = pdh_cell(&text, at, "PhysicalDisk(0 C:)\\Avg. Disk sec/Read");
    let (wb_s, _, _) = pdh_cell(&text, at, "PhysicalDisk(0 C:)\\Disk Write Bytes/sec");
    let (idle, _, _) = pdh_cell(&text, at, "PhysicalDisk(0 C:)\\% Idle Time");
    let (q, _, _) = pdh_cell(&text, at, "PhysicalDisk(0 C:)\\Avg. Disk Queue Length");
    let c = db(&out);
    let (iv, ms, st) = interval(&c, "PhysicalDisk(0 C:)", end);
    assert_eq!(st, "ok");
    assert_eq!(ms, dt);
    assert_eq!(iv[0], r(reads_s * dt / 1000.0));
    assert_eq!(iv[3], r(wb_s * dt / 1000.0));
    assert_eq!(iv[4], r(sec_read * 1000.0 * reads_s * dt / 1000.0));
    assert_eq!(iv[6], r((1.0 - idle / 100.0) * dt));
    assert_eq!(iv[7], r(q * dt));
    assert_eq!(iv[0], Some(3), "0.299034/s × 10.03 s");
    let (sha, tz, src): (String, Option<String>, String) = c
        .query_row(
            "SELECT sha256, time_zone, time_zone_source FROM import_files",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(sha, recorded_sha(&f));
    assert_eq!(tz, None, "typeperf writes no zone");
    assert!(src.contains("UTC"), "{src}");
}

#[test]
fn perfmon_export_counter_lower_case_utc() {
    let Some(dir) = realdata("perfmon_export_counter_lower_case_utc", "perfmon_csv") else {
        return;
    };
    let f = dir.join("jackxue_jacktestdb_dtu_logicaldisk.csv");
    let t = TempDir::new("imp-jack");
    let out = t.join("x.capture");
    let j = import_ok("perfmon", &[&f], &[], &out);
    let devs = j["preview"]["devices"].as_array().unwrap();
    assert_eq!(devs.len(), 1);
    // a volume with no PhysicalDisk in the log: the volume is counted as the drive
    assert_eq!(devs[0]["role"], "backing");
    let text = std::fs::read_to_string(&f).unwrap();
    let (w, dt, end) = pdh_cell(&text, "03/29/2018 15:06:37.152", "disk writes/sec");
    let c = db(&out);
    let dev: String = c
        .query_row("SELECT name FROM devices", [], |r| r.get(0))
        .unwrap();
    let (iv, _, _) = interval(&c, &dev, end);
    assert_eq!(iv[1], r(w * dt / 1000.0));
    assert_eq!(iv[1], Some(2));
    // the blank first row gives no interval: 10 rows, 9 intervals
    let n: i64 = c
        .query_row("SELECT count(*) FROM intervals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 9);
    let (tz, off): (String, i64) = c
        .query_row(
            "SELECT time_zone, utc_offset_min FROM import_files",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((tz.as_str(), off), ("Coordinated Universal Time", 0));
    assert!(
        j["preview"]["unmapped"].to_string().contains("processor"),
        "other objects are listed"
    );
}

#[test]
fn perfmon_ist_bias_and_queue_lengths() {
    let Some(dir) = realdata("perfmon_ist_bias_and_queue_lengths", "perfmon_csv") else {
        return;
    };
    let f = dir.join("narmadha6790_IMPC3116_logicaldisk_queue.csv");
    let t = TempDir::new("imp-ist");
    let out = t.join("x.capture");
    import_ok("perfmon", &[&f], &[], &out);
    let text = std::fs::read_to_string(&f).unwrap();
    let at = "09/19/2017 09:51:54.050";
    let (rq, dt, local) = pdh_cell(&text, at, "LogicalDisk(C:)\\Avg. Disk Read Queue Length");
    let (wq, _, _) = pdh_cell(&text, at, "LogicalDisk(C:)\\Avg. Disk Write Queue Length");
    let (cur, _, _) = pdh_cell(&text, at, "LogicalDisk(C:)\\Current Disk Queue Length");
    // bias -330: UTC = local + bias
    let end = local - 330 * 60_000;
    let c = db(&out);
    let (iv, _, _) = interval(&c, "LogicalDisk(C:)", end);
    assert_eq!(iv[7], r((rq + wq) * dt));
    assert_eq!(iv[8], r(cur));
    assert_eq!(iv[0], None, "no reads counter in this log: NULL, never 0");
    let off: i64 = c
        .query_row("SELECT utc_offset_min FROM import_files", [], |r| r.get(0))
        .unwrap();
    assert_eq!(off, 330);
    let names: Vec<String> = c
        .prepare("SELECT name FROM devices ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        names,
        [
            "LogicalDisk(HarddiskVolume2)",
            "LogicalDisk(C:)",
            "LogicalDisk(D:)"
        ]
    );
}

#[test]
fn perfmon_two_segments_stitched_with_switch_and_pairing() {
    let Some(dir) = realdata(
        "perfmon_two_segments_stitched_with_switch_and_pairing",
        "perfmon_csv",
    ) else {
        return;
    };
    let a = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv");
    let b = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000395.csv");
    let t = TempDir::new("imp-reecho");
    let out = t.join("x.capture");
    // given in the wrong order: stitched in time order
    let j = import_ok(
        "perfmon",
        &[&b, &a],
        &["--switch-at", "2022-10-09T18:45:30Z"],
        &out,
    );
    assert_eq!(j["preview"]["pairs"][0]["front"], "LogicalDisk(C:)");
    assert_eq!(j["preview"]["pairs"][0]["backing"], "PhysicalDisk(1 C: E:)");
    let ta = std::fs::read_to_string(&a).unwrap();
    let tb = std::fs::read_to_string(&b).unwrap();
    let at = "10/09/2022 18:35:37.760";
    let (w_s, dt, end) = pdh_cell(&ta, at, "PhysicalDisk(1 C: E:)\\Disk Writes/sec");
    let (wb_s, _, _) = pdh_cell(&ta, at, "PhysicalDisk(1 C: E:)\\Disk Write Bytes/sec");
    let (sw, _, _) = pdh_cell(&ta, at, "PhysicalDisk(1 C: E:)\\Avg. Disk sec/Write");
    let c = db(&out);
    let (iv, _, _) = interval(&c, "PhysicalDisk(1 C: E:)", end);
    assert_eq!(iv[1], r(w_s * dt / 1000.0));
    assert_eq!(iv[1], Some(126), "docs/import.md's example");
    assert_eq!(iv[3], r(wb_s * dt / 1000.0));
    assert_eq!(iv[3], Some(1_769_428));
    assert_eq!(iv[5], r(sw * 1000.0 * w_s * dt / 1000.0));
    // the first row of the second file continues the first: an interval across the files
    let first_b = pdh(tb.lines().nth(1).unwrap());
    let last_a = pdh(ta.lines().last().unwrap());
    let (_, ms, st) = interval(&c, "PhysicalDisk(1 C: E:)", pdh_ms(&first_b[0]));
    assert_eq!(st, "ok");
    assert_eq!(ms, (pdh_ms(&first_b[0]) - pdh_ms(&last_a[0])) as f64);
    let phases: Vec<(String, i64, i64)> = c
        .prepare("SELECT name,start_utc_ms,end_utc_ms FROM phases ORDER BY rowid")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let names: Vec<&str> = phases.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names, ["baseline", "switch", "warmup", "measure"]);
    let sw_ms = 1_665_341_130_000; // 2022-10-09T18:45:30Z
    assert_eq!((phases[1].1, phases[1].2), (sw_ms, sw_ms));
    assert_eq!(
        phases[0].2,
        pdh_ms("10/09/2022 18:45:27.748"),
        "baseline ends on the last sample before the switch"
    );
    assert_eq!(phases[3].1, pdh_ms("10/09/2022 18:45:32.762"));
    let marks: i64 = c
        .query_row(
            "SELECT count(*) FROM marks WHERE kind='switch' AND utc_ms=?1",
            [sw_ms],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(marks, 1);
    let files: i64 = c
        .query_row("SELECT count(*) FROM import_files", [], |r| r.get(0))
        .unwrap();
    assert_eq!(files, 2);
    let topo: (String, String, String) = c
        .query_row("SELECT holder,slave,kind FROM topology", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(
        topo,
        (
            "LogicalDisk(C:)".into(),
            "PhysicalDisk(1 C: E:)".into(),
            "perfmon-volume".into()
        )
    );
    // `cacheproof analyze` reads the import unchanged (when the app is built here)
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../app/dist/cli.cjs");
    if cli.exists() && common::has("node") {
        let o = std::process::Command::new("node")
            .arg(&cli)
            .args(["analyze", out.to_str().unwrap(), "--json"])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "analyze: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        // LogicalDisk and PhysicalDisk are one layer on Windows: the disks, backing-only
        assert_eq!(a["mode"], "backing-only");
        assert_eq!(a["windows"]["switchAt"], "2022-10-09T18:45:30.000Z");
        assert!(a["devices"]["front"].as_array().unwrap().is_empty());
        assert_eq!(a["devices"]["backing"][0], "PhysicalDisk(1 C: E:)");
        assert!(a["benefit"]["iosToBacking"]["before"].as_f64().unwrap() > 0.0);
    } else {
        println!(
            "SKIP analyze check: {} not built (node scripts/build.mjs) or no node",
            cli.display()
        );
    }
    let shas: Vec<String> = c
        .prepare("SELECT sha256 FROM import_files ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(shas, [recorded_sha(&b), recorded_sha(&a)]);
}

#[test]
fn perfmon_russian_process_log_is_refused() {
    let Some(dir) = realdata("perfmon_russian_process_log_is_refused", "perfmon_csv") else {
        return;
    };
    let f = dir.join("waflia_russian_cp1251_process_cpu.csv");
    let bytes = std::fs::read(&f).unwrap();
    let d = cacheproof_probe::import::decode::decode(&bytes, None).unwrap();
    assert_eq!(d.encoding, "cp1251");
    assert!(d.text.contains("Процесс("));
    let t = TempDir::new("imp-ru");
    let e = refused("perfmon", &f, &t.join("x.capture"));
    assert!(
        e.contains("waflia_russian_cp1251_process_cpu.csv, line 1"),
        "{e}"
    );
    assert!(e.contains("no PhysicalDisk or LogicalDisk counters"), "{e}");
    assert!(
        e.contains("Процесс"),
        "the object found is named, decoded: {e}"
    );
}

/// Lines of the Device block `n` (0-based) of an iostat text, as (header, device line of `dev`).
fn iostat_block(text: &str, n: usize, dev: &str) -> (Vec<String>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("Device"))
        .map(|(i, _)| i)
        .collect();
    let s = starts[n];
    let head: Vec<String> = lines[s]
        .split_whitespace()
        .map(|x| x.trim_end_matches(':').to_string())
        .collect();
    let row = lines[s + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .find(|l| l.split_whitespace().next() == Some(dev))
        .unwrap();
    (head, row.split_whitespace().map(String::from).collect())
}

fn col(h: &[String], row: &[String], name: &str) -> f64 {
    row[h
        .iter()
        .position(|x| x == name)
        .unwrap_or_else(|| panic!("no column {name}"))]
    .parse()
    .unwrap()
}

#[test]
fn iostat_xm_without_times_needs_interval_then_imports() {
    let Some(dir) = realdata(
        "iostat_xm_without_times_needs_interval_then_imports",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("alifarahani_compute3_iostat-xm.txt");
    let t = TempDir::new("imp-ali");
    let out = t.join("x.capture");
    let o = probe(&[
        "import",
        "iostat",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--interval"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
    import_ok(
        "iostat",
        &[&f],
        &["--interval", "1", "--start", "2022-12-19T10:00:00Z"],
        &out,
    );
    let text = std::fs::read_to_string(&f).unwrap();
    let (h, row) = iostat_block(&text, 1, "sdb");
    let c = db(&out);
    let end = 1_671_444_000_000 + 1000; // second report: start + 1 s
    let (iv, ms, _) = interval(&c, "sdb", end);
    assert_eq!(ms, 1000.0);
    let rs = col(&h, &row, "r/s");
    assert_eq!(iv[0], r(rs));
    assert_eq!(iv[0], Some(371));
    assert_eq!(iv[2], r(col(&h, &row, "rMB/s") * 1_048_576.0));
    assert_eq!(iv[4], r(col(&h, &row, "r_await") * rs));
    assert_eq!(iv[6], r(col(&h, &row, "%util") / 100.0 * 1000.0));
    assert_eq!(iv[7], r(col(&h, &row, "aqu-sz") * 1000.0));
    let n: i64 = c
        .query_row("SELECT count(*) FROM intervals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        n as usize,
        text.lines().filter(|l| l.starts_with("Device")).count() - 1,
        "the since-boot report gives none"
    );
}

#[test]
fn iostat_old_layout_with_12h_times() {
    let Some(dir) = realdata(
        "iostat_old_layout_with_12h_times",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("congxueyang_object2_iostat-xmt_sysstat10.txt");
    let t = TempDir::new("imp-cong");
    let out = t.join("x.capture");
    let j = import_ok("iostat", &[&f], &[], &out);
    assert!(j["preview"]["files"][0]["format"]
        .as_str()
        .unwrap()
        .contains("old column names"));
    let text = std::fs::read_to_string(&f).unwrap();
    // the first report whose sda w/s is at least 100, and its time line
    let lines: Vec<&str> = text.lines().collect();
    let (i, row) = lines
        .iter()
        .enumerate()
        .find(|(_, l)| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.first() == Some(&"sda") && t[4].parse::<f64>().unwrap() >= 100.0
        })
        .unwrap();
    let stamp = lines[..i]
        .iter()
        .rev()
        .find(|l| l.ends_with(" AM") || l.ends_with(" PM"))
        .unwrap();
    let (_, hms) = stamp.split_once(' ').unwrap();
    let (hms, ap) = hms.split_once(' ').unwrap();
    let p: Vec<i64> = hms.split(':').map(|x| x.parse().unwrap()).collect();
    let h = p[0] % 12 + if ap == "PM" { 12 } else { 0 };
    let end = 1_458_000_000_000 + ((h * 60 + p[1]) * 60 + p[2]) * 1000; // 2016-03-15T00:00:00Z
    let tok: Vec<&str> = row.split_whitespace().collect();
    let head: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("Device:"))
        .unwrap()
        .split_whitespace()
        .collect();
    let v = |n: &str| {
        tok[head.iter().position(|x| *x == n).unwrap()]
            .parse::<f64>()
            .unwrap()
    };
    let c = db(&out);
    let (iv, ms, _) = interval(&c, "sda", end);
    assert_eq!(ms, 1000.0);
    near(iv[1], v("w/s"));
    near(iv[3], v("wMB/s") * 1_048_576.0);
    near(iv[5], v("w_await") * v("w/s"));
    near(iv[7], v("avgqu-sz") * 1000.0);
    near(iv[6], v("%util") / 100.0 * 1000.0);
}

#[test]
fn iostat_laptop_flushes_and_roles() {
    let Some(dir) = realdata(
        "iostat_laptop_flushes_and_roles",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("peterducai_fc36-laptop_iostat-xm.txt");
    let t = TempDir::new("imp-fc36");
    let out = t.join("x.capture");
    import_ok(
        "iostat",
        &[&f],
        &["--interval", "1", "--start", "1654041600"],
        &out,
    );
    let text = std::fs::read_to_string(&f).unwrap();
    let (h, row) = iostat_block(&text, 1, "nvme0n1");
    let c = db(&out);
    let q = |sql: &str| -> Vec<(String, Option<i64>)> {
        c.prepare(sql)
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let (iv, _, _) = interval(&c, "nvme0n1", 1_654_041_601_000);
    assert_eq!(iv[1], r(col(&h, &row, "w/s")));
    let (fl, flt): (Option<i64>, Option<i64>) = c
        .query_row("SELECT flushes, flush_time_ms FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name='nvme0n1' AND end_utc_ms=1654041601000", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(fl, r(col(&h, &row, "f/s")));
    assert_eq!(flt, r(col(&h, &row, "f_await") * col(&h, &row, "f/s")));
    let roles = q("SELECT name || ':' || role, NULL FROM devices ORDER BY name");
    let roles: Vec<String> = roles.into_iter().map(|x| x.0).collect();
    assert_eq!(
        roles,
        [
            "mmcblk0:backing",
            "nvme0n1:backing",
            "sda:backing",
            "zram0:other"
        ]
    );
}

#[test]
fn iostat_text_and_json_of_one_run_import_to_the_same_counts_and_match_diskstats() {
    let Some(dir) = realdata(
        "iostat_text_and_json_of_one_run_import_to_the_same_counts_and_match_diskstats",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let t = TempDir::new("imp-sysstat");
    let txt = t.join("t.capture");
    let js = t.join("j.capture");
    let ds = t.join("d.capture");
    import_ok(
        "iostat",
        &[&dir.join("sysstat_expected_iostat-x_from_root1.txt")],
        &["--interval", "1", "--start", "0"],
        &txt,
    );
    import_ok(
        "iostat-json",
        &[&dir.join("sysstat_expected_iostat-x-p-ALL-JSON.json")],
        &["--interval", "1", "--start", "0"],
        &js,
    );
    let text =
        std::fs::read_to_string(dir.join("sysstat_expected_iostat-x_from_root1.txt")).unwrap();
    let (h, row) = iostat_block(&text, 1, "sdq");
    let (a, _, _) = interval(&db(&txt), "sdq", 1000);
    let (b, _, _) = interval(&db(&js), "sdq", 1000);
    assert_eq!(a, b, "text and JSON of the same iostat run");
    assert_eq!(a[0], r(col(&h, &row, "r/s")));
    let (d, dt): (Option<i64>, Option<i64>) = db(&txt)
        .query_row("SELECT discards, discard_time_ms FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name='sdq'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(d, r(col(&h, &row, "d/s")));
    assert_eq!(dt, r(col(&h, &row, "d_await") * col(&h, &row, "d/s")));
    // partitions of the JSON are 'other', with their disk as parent
    let (role, part, parent): (String, i64, String) = db(&js)
        .query_row(
            "SELECT role, is_partition, parent FROM devices WHERE name='sda1'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((role.as_str(), part, parent.as_str()), ("other", 1, "sda"));
    // The same run from the raw snapshots (root1 -> root2): iostat's r/s is reads / Δt.
    let j = import_ok(
        "diskstats",
        &[
            &dir.join("sysstat_root1_proc_diskstats.txt"),
            &dir.join("sysstat_root2_proc_diskstats.txt"),
            &dir.join("sysstat_root3_proc_diskstats.txt"),
        ],
        &[],
        &ds,
    );
    assert_eq!(j["samples"], 3);
    let c = db(&ds);
    let (reads, ms): (i64, f64) = c
        .query_row("SELECT reads, interval_ms FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name='sdq' ORDER BY start_utc_ms LIMIT 1", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    let up = |n: u32| -> f64 {
        std::fs::read_to_string(dir.join(format!("sysstat_root{n}_proc_uptime.txt")))
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(
        (ms - (up(2) - up(1)) * 1000.0).abs() < 1.0,
        "Δt from the uptimes: {ms}"
    );
    let f = |n: u32| -> i64 {
        let t = std::fs::read_to_string(dir.join(format!("sysstat_root{n}_proc_diskstats.txt")))
            .unwrap();
        t.lines()
            .find(|l| l.split_whitespace().nth(2) == Some("sdq"))
            .unwrap()
            .split_whitespace()
            .nth(3)
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(reads, f(2) - f(1));
    let rate = reads as f64 / (ms / 1000.0);
    assert!(
        (rate - col(&h, &row, "r/s")).abs() < 0.01,
        "diskstats {rate}/s vs iostat {}",
        col(&h, &row, "r/s")
    );
}

#[test]
fn iostat_json_with_offset_timestamps() {
    let Some(dir) = realdata(
        "iostat_json_with_offset_timestamps",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("pkb_iostat_output.json");
    let t = TempDir::new("imp-pkb");
    let out = t.join("x.capture");
    let j = import_ok("iostat-json", &[&f], &[], &out);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    let s1 = &v["sysstat"]["hosts"][0]["statistics"][1];
    let dm0 = s1["disk"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["disk_device"] == "dm-0")
        .unwrap();
    let c = db(&out);
    // 2024-03-14T17:53:15-0700 = 2024-03-15T00:53:15Z
    assert_eq!(s1["timestamp"], "2024-03-14T17:53:15-0700");
    let (iv, ms, _) = interval(&c, "dm-0", 1_710_463_995_000);
    assert_eq!(ms, 1000.0);
    assert_eq!(iv[1], r(dm0["w/s"].as_f64().unwrap()));
    assert_eq!(iv[3], r(dm0["wkB/s"].as_f64().unwrap() * 1024.0));
    assert_eq!(iv[6], r(dm0["util"].as_f64().unwrap() / 100.0 * 1000.0));
    let off: i64 = c
        .query_row("SELECT utc_offset_min FROM import_files", [], |r| r.get(0))
        .unwrap();
    assert_eq!(off, -420);
    // dm-0 is a device-mapper volume on a disk the file does not name (one interval: too few
    // for the numbers to tell): listed, not counted, as sda (the whole disk) is
    let role: String = c
        .query_row("SELECT role FROM devices WHERE name='dm-0'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let why = j["preview"]["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "dm-0")
        .unwrap()["reason"]
        .to_string();
    assert_eq!(role, "other", "{why}");
    assert!(
        why.contains("device-mapper volume") && why.contains("not counted"),
        "{why}"
    );
}

#[test]
fn sar_pretty_d_estimates_the_read_write_split() {
    let Some(dir) = realdata(
        "sar_pretty_d_estimates_the_read_write_split",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("sysstat_expected_sar-pretty-d.txt");
    let t = TempDir::new("imp-sar");
    let out = t.join("x.capture");
    let j = import_ok("sar", &[&f], &[], &out);
    assert!(j["preview"]["notes"].to_string().contains("estimated"));
    let text = std::fs::read_to_string(&f).unwrap();
    let head: Vec<&str> = text
        .lines()
        .find(|l| l.contains(" DEV"))
        .unwrap()
        .split_whitespace()
        .collect();
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("13:20:29") && l.ends_with(" sdb"))
        .unwrap()
        .split_whitespace()
        .collect();
    let v = |n: &str| {
        row[head.iter().position(|x| *x == n).unwrap()]
            .parse::<f64>()
            .unwrap()
    };
    let (tps, rk, wk) = (v("tps"), v("rkB/s"), v("wkB/s"));
    let reads = tps * rk / (rk + wk) * 10.0;
    let c = db(&out);
    let end = 1_555_593_629_000; // 2019-04-18T13:20:29Z (banner date 04/18/19)
    let (iv, ms, _) = interval(&c, "sdb", end);
    assert_eq!(ms, 10_000.0);
    assert_eq!(iv[0], r(reads));
    assert_eq!(iv[2], r(rk * 1024.0 * 10.0));
    assert_eq!(iv[4], r(v("await") * reads));
    assert_eq!(iv[7], r(v("aqu-sz") * 10_000.0));
}

#[test]
fn sadf_d_written_from_the_sar_file() {
    // sadf -d of the same data, made here from the real sar file (sadf prints the same figures
    // as CSV with UTC timestamps): the two imports agree.
    let Some(dir) = realdata(
        "sadf_d_written_from_the_sar_file",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let f = dir.join("sysstat_expected_sar-pretty-d.txt");
    let text = std::fs::read_to_string(&f).unwrap();
    let head: Vec<&str> = text
        .lines()
        .find(|l| l.contains(" DEV"))
        .unwrap()
        .split_whitespace()
        .collect();
    let mut csv = format!(
        "# hostname;interval;timestamp;DEV;{}\n",
        head[1..head.len() - 1].join(";")
    );
    // sadf's interval column: the time since the sample before, or since the header above (the
    // start of the file, or of a restart: the header after 13:54:09's restart says 13:54:15)
    let secs = |hms: &str| -> i64 {
        hms.split(':')
            .fold(0, |a, x| a * 60 + x.parse::<i64>().unwrap())
    };
    let (mut from, mut at, mut iv) = (0i64, -1i64, 0i64);
    for l in text.lines().skip(2) {
        let t: Vec<&str> = l.split_whitespace().collect();
        if l.ends_with(" DEV") {
            from = secs(t[0]);
            continue;
        }
        if t.len() != head.len() || t[0].starts_with("Average") || t[1].parse::<f64>().is_err() {
            continue;
        }
        if secs(t[0]) != at {
            at = secs(t[0]);
            iv = at - from;
            from = at;
        }
        csv.push_str(&format!(
            "SYSSTAT.TEST;{iv};2019-04-18 {} UTC;{};{}\n",
            t[0],
            t[t.len() - 1],
            t[1..t.len() - 1].join(";")
        ));
    }
    let tmp = TempDir::new("imp-sadf");
    let sf = tmp.join("sadf.csv");
    std::fs::write(&sf, csv).unwrap();
    let a = tmp.join("a.capture");
    let b = tmp.join("b.capture");
    import_ok("sar", &[&f], &[], &a);
    import_ok("sadf", &[&sf], &[], &b);
    type Five = (String, i64, Option<i64>, Option<i64>, Option<i64>);
    let all = |p: &Path| -> Vec<Five> {
        db(p).prepare("SELECT d.name, end_utc_ms, reads, write_bytes, weighted_ms FROM intervals i JOIN devices d ON d.id=i.device_id ORDER BY 1,2")
            .unwrap().query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))).unwrap().map(Result::unwrap).collect()
    };
    let (x, y) = (all(&a), all(&b));
    assert!(!x.is_empty());
    assert_eq!(x, y);
}

#[test]
fn refusals_of_the_real_files_that_cannot_be_imported() {
    let Some(dir) = realdata(
        "refusals_of_the_real_files_that_cannot_be_imported",
        "linux_iostat_sar_diskstats",
    ) else {
        return;
    };
    let t = TempDir::new("imp-refuse");
    let e = refused(
        "iostat",
        &dir.join("rorymmclean_macOS_iostat_disk0-disk2_NOT-LINUX.txt"),
        &t.join("a.capture"),
    );
    assert!(
        e.contains("line 2") && e.contains("BSD or macOS iostat"),
        "{e}"
    );
    let e = refused(
        "diskstats",
        &dir.join("node_exporter_fixture_proc_diskstats.txt"),
        &t.join("b.capture"),
    );
    assert!(
        e.contains("node_exporter_fixture_proc_diskstats.txt, line 1")
            && e.contains("no time for this snapshot"),
        "{e}"
    );
    let e = refused(
        "diskstats",
        &dir.join("sysstat_root1_proc_uptime.txt"),
        &t.join("c.capture"),
    );
    assert!(e.contains("this is /proc/uptime"), "{e}");
    // one snapshot with its uptime: read, but a rate needs two moments
    let e = refused(
        "diskstats",
        &dir.join("sysstat_root1_proc_diskstats.txt"),
        &t.join("d.capture"),
    );
    assert!(e.contains("fewer than two samples"), "{e}");
    // the node_exporter fixture's mixed field counts (11, 15, 17) are read as the recorder reads them
    let text =
        std::fs::read_to_string(dir.join("node_exporter_fixture_proc_diskstats.txt")).unwrap();
    let series = format!("1700000000\n{text}1700000010\n{text}");
    let ds = t.join("ne.txt");
    std::fs::write(&ds, series).unwrap();
    let out = t.join("ne.capture");
    import_ok("diskstats", &[&ds], &[], &out);
    let counts: Vec<i64> = db(&out)
        .prepare("SELECT DISTINCT field_count FROM raw_counters ORDER BY 1")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(counts, [11, 15, 17]);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count() as i64;
    let n: i64 = db(&out)
        .query_row(
            "SELECT count(*) FROM intervals WHERE status='ok' AND reads=0",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        n, lines,
        "the same snapshot twice: every device had 0 reads"
    );
}

#[test]
fn baseline_and_measure_files_make_the_phases() {
    let Some(dir) = realdata("baseline_and_measure_files_make_the_phases", "perfmon_csv") else {
        return;
    };
    let a = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv");
    let b = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000395.csv");
    let t = TempDir::new("imp-bm");
    let out = t.join("x.capture");
    let o = probe(&[
        "import",
        "perfmon",
        "--measure",
        b.to_str().unwrap(),
        "--baseline",
        a.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tb = std::fs::read_to_string(&b).unwrap();
    let m0 = pdh_ms(&pdh(tb.lines().nth(1).unwrap())[0]);
    let c = db(&out);
    let phases: Vec<(String, i64, i64)> = c
        .prepare("SELECT name,start_utc_ms,end_utc_ms FROM phases ORDER BY rowid")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(phases[1], ("switch".into(), m0, m0));
    assert_eq!(phases[2], ("warmup".into(), m0, m0));
    assert_eq!(phases[3].1, m0);
    // the two parts are not joined: no interval ends at the first measure sample
    let n: i64 = c
        .query_row(
            "SELECT count(*) FROM intervals WHERE end_utc_ms=?1",
            [m0],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 0);
    let parts: Vec<String> = c
        .prepare("SELECT part FROM import_files ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(parts, ["measure", "baseline"]);
    // measure before baseline is a usage error
    let o = probe(&[
        "import",
        "perfmon",
        "--baseline",
        b.to_str().unwrap(),
        "--measure",
        a.to_str().unwrap(),
        "--out",
        t.join("y.capture").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("before the baseline files end"));
}

/// The value of `metric{device="dev"}` as written in a text exposition file.
fn prom_value(text: &str, metric: &str, dev: &str) -> f64 {
    let head = format!("{metric}{{device=\"{dev}\"}} ");
    let l = text.lines().find(|l| l.starts_with(&head)).unwrap();
    l[head.len()..].trim().parse().unwrap()
}

#[test]
fn node_exporter_scrape_alone_is_refused_and_two_scrapes_keep_its_counters() {
    let Some(dir) = realdata(
        "node_exporter_scrape_alone_is_refused_and_two_scrapes_keep_its_counters",
        "node_exporter",
    ) else {
        return;
    };
    let f = dir.join("node_exporter_e2e-output_linux.prom");
    let text = std::fs::read_to_string(&f).unwrap();
    let d = TempDir::new("imp-node");
    // One scrape: the preview and the import refuse it (a rate needs two), naming the file.
    let o = probe(&[
        "import",
        "--preview",
        "node-exporter",
        f.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(12));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("two scrapes at least are needed to get a rate"),
        "{e}"
    );
    let out = d.join("one.capture");
    let o = probe(&[
        "import",
        "node-exporter",
        f.to_str().unwrap(),
        "--start",
        "2024-03-14T10:00:00Z",
        "--interval",
        "15",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(12));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(f.to_str().unwrap()), "{e}");
    assert!(
        e.contains("two scrapes at least are needed to get a rate"),
        "{e}"
    );
    assert!(!out.exists());
    // The scrape taken twice, 15 s apart: the raw counters are the file's, turned back into
    // /proc/diskstats units (bytes / 512 = sectors, seconds × 1000 = ms), and nothing moved.
    let out = d.join("two.capture");
    import_ok(
        "node-exporter",
        &[&f, &f],
        &["--start", "2024-03-14T10:00:00Z", "--interval", "15"],
        &out,
    );
    let c = db(&out);
    let raw: (i64, i64, i64, i64, i64, i64) = c
        .query_row(
            "SELECT field_count, f1, f3, f4, f8, f10 FROM raw_counters r JOIN devices d ON d.id=r.device_id
             WHERE d.name='sda' ORDER BY sample_id LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .unwrap();
    let v = |m: &str| prom_value(&text, m, "sda");
    assert_eq!(raw.1, v("node_disk_reads_completed_total") as i64);
    assert_eq!(
        raw.2,
        (v("node_disk_read_bytes_total") / 512.0).round() as i64
    );
    assert_eq!(
        raw.3,
        (v("node_disk_read_time_seconds_total") * 1000.0).round() as i64
    );
    assert_eq!(
        raw.4,
        (v("node_disk_write_time_seconds_total") * 1000.0).round() as i64
    );
    assert_eq!(
        raw.5,
        (v("node_disk_io_time_seconds_total") * 1000.0).round() as i64
    );
    // sda has no discard or flush counters in this scrape: the 11-field layout; sdb has
    // discards (15), sdc flushes too (17).
    assert_eq!(raw.0, 11);
    let fc = |dev: &str| -> i64 {
        c.query_row(
            "SELECT field_count FROM raw_counters r JOIN devices d ON d.id=r.device_id WHERE d.name=?1 LIMIT 1",
            [dev],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!((fc("sdb"), fc("sdc")), (15, 17));
    let (n, moved, bad): (i64, i64, i64) = c
        .query_row(
            "SELECT count(*), coalesce(sum(reads+writes),0), sum(status<>'ok') FROM intervals",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((n, moved, bad), (15, 0, 0));
    let src: String = c
        .query_row("SELECT value FROM meta WHERE key='source'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(src, "import:node-exporter");
}
