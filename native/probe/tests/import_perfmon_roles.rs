//! PerfMon roles (issue #26): LogicalDisk and PhysicalDisk are one layer on Windows, so the
//! default comparison is backing-only on the disks; a volume with incomplete counters is never a
//! front; the two views of one host are never both counted.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use cacheproof_probe::testenv;
use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

fn import(args: &[&str]) -> serde_json::Value {
    let o = probe(args);
    assert!(
        o.status.success(),
        "import failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn role<'a>(j: &'a serde_json::Value, name: &str) -> &'a str {
    j["preview"]["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no device {name} in {j}"))["role"]
        .as_str()
        .unwrap()
}

/// Sum of the imported I/Os (reads + writes) of devices of a role, per phase.
fn ios(c: &Connection, role: &str, phase: &str) -> i64 {
    c.query_row(
        "SELECT COALESCE(SUM(COALESCE(i.reads,0)+COALESCE(i.writes,0)),0)
         FROM intervals i JOIN devices d ON d.id=i.device_id, phases p
         WHERE d.role=?1 AND p.name=?2 AND i.end_utc_ms>p.start_utc_ms AND i.end_utc_ms<=p.end_utc_ms",
        rusqlite::params![role, phase],
        |r| r.get(0),
    )
    .unwrap()
}

fn analyze(out: &Path) -> Option<serde_json::Value> {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../app/dist/cli.cjs");
    if !(cli.exists() && common::has("node")) {
        println!(
            "SKIP analyze check: {} not built (node scripts/build.mjs) or no node",
            cli.display()
        );
        return None;
    }
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
    Some(serde_json::from_slice(&o.stdout).unwrap())
}

#[test]
fn reecho_before_after_is_backing_only_with_figures() {
    let Some(dir) = testenv::realdata(
        "reecho_before_after_is_backing_only_with_figures",
        "perfmon_csv",
    ) else {
        return;
    };
    let a = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000394.csv");
    let b = dir.join("reecho-tsai_DESKTOP-5GTCQEM_physicaldisk_000395.csv");
    let t = TempDir::new("imp-roles-reecho");
    let out = t.join("x.capture");
    let j = import(&[
        "import",
        "perfmon",
        "--baseline",
        a.to_str().unwrap(),
        "--measure",
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let devs = j["preview"]["devices"].as_array().unwrap();
    assert!(
        devs.iter().all(|d| d["role"] != "front"),
        "no front proposed: {devs:?}"
    );
    assert_eq!(role(&j, "PhysicalDisk(1 C: E:)"), "backing");
    assert_eq!(role(&j, "LogicalDisk(C:)"), "other");
    // never both views of the host counted
    let counted: Vec<&str> = devs
        .iter()
        .filter(|d| d["role"] == "front" || d["role"] == "backing")
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(counted, ["PhysicalDisk(1 C: E:)"]);
    let notes: Vec<&str> = j["preview"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("backing-only")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("LogicalDisk(C:) (no write and time counters)")),
        "{notes:?}"
    );
    let c = Connection::open_with_flags(&out, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let (before, after) = (
        ios(&c, "backing", "baseline"),
        ios(&c, "backing", "measure"),
    );
    assert!(before > 0 && after > 0, "backing I/Os {before} → {after}");
    assert_eq!(
        ios(&c, "front", "baseline") + ios(&c, "front", "measure"),
        0
    );
    if let Some(a) = analyze(&out) {
        assert_eq!(a["mode"], "backing-only");
        assert!(a["devices"]["front"].as_array().unwrap().is_empty());
        assert_eq!(a["devices"]["backing"][0], "PhysicalDisk(1 C: E:)");
        assert!(a["benefit"]["iosToBacking"]["before"].as_f64().unwrap() > 0.0);
        assert!(a["benefit"]["iosToBacking"]["after"].as_f64().unwrap() > 0.0);
    }
}

/// A PerfMon log of `rows` rows every 30 s from `start` (MM/DD/YYYY HH:MM:SS), where
/// `PhysicalDisk(0 C:)` and `LogicalDisk(C:)` do `rps` reads and `wps` writes per second.
fn pdh(start_day: u32, rows: usize, rps: f64, wps: f64, total: bool) -> String {
    let objs: &[&str] = if total {
        &[
            "PhysicalDisk(0 C:)",
            "PhysicalDisk(_Total)",
            "LogicalDisk(C:)",
            "LogicalDisk(_Total)",
        ]
    } else {
        &["PhysicalDisk(0 C:)", "LogicalDisk(C:)"]
    };
    let counters = [
        "Disk Reads/sec",
        "Disk Writes/sec",
        "Disk Read Bytes/sec",
        "Disk Write Bytes/sec",
        "Avg. Disk sec/Read",
        "Avg. Disk sec/Write",
        "% Idle Time",
    ];
    let mut s = String::from("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"");
    for o in objs {
        for c in counters {
            s.push_str(&format!(",\"\\\\WINSRV\\{o}\\{c}\""));
        }
    }
    s.push('\n');
    for r in 0..rows {
        let sec = r * 30;
        s.push_str(&format!(
            "\"10/{start_day:02}/2024 10:{:02}:{:02}.000\"",
            sec / 60,
            sec % 60
        ));
        for _ in objs {
            for v in [rps, wps, rps * 8192.0, wps * 8192.0, 0.004, 0.006, 60.0] {
                s.push_str(&format!(",\"{v}\""));
            }
        }
        s.push('\n');
    }
    s
}

#[test]
fn in_os_cache_twelve_percent_is_saved_on_the_disks() {
    let t = TempDir::new("imp-roles-12");
    let before = t.join("before.csv");
    let after = t.join("after.csv");
    // 100 → 88 I/O per s on both views, 30 minutes each; _Total instances beside the members
    std::fs::write(&before, pdh(1, 61, 60.0, 40.0, true)).unwrap();
    std::fs::write(&after, pdh(2, 61, 52.8, 35.2, true)).unwrap();
    let out = t.join("x.capture");
    let j = import(&[
        "import",
        "perfmon",
        "--baseline",
        before.to_str().unwrap(),
        "--measure",
        after.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(role(&j, "PhysicalDisk(0 C:)"), "backing");
    assert_eq!(role(&j, "LogicalDisk(C:)"), "other");
    let names: Vec<&str> = j["preview"]["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.iter().any(|n| n.contains("_Total")),
        "_Total is never counted with its members: {names:?}"
    );
    let c = Connection::open_with_flags(&out, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    assert_eq!(ios(&c, "backing", "baseline"), 180_000);
    assert_eq!(ios(&c, "backing", "measure"), 158_400);
    if let Some(a) = analyze(&out) {
        assert_eq!(a["mode"], "backing-only");
        let saved = a["benefit"]["iosSavedPercent"]["value"].as_f64().unwrap();
        assert!((saved - 12.0).abs() < 0.05, "I/Os saved {saved} %");
    }
}

#[test]
fn a_role_given_still_wins() {
    let t = TempDir::new("imp-roles-given");
    let before = t.join("before.csv");
    let after = t.join("after.csv");
    std::fs::write(&before, pdh(1, 11, 60.0, 40.0, false)).unwrap();
    std::fs::write(&after, pdh(2, 11, 52.8, 35.2, false)).unwrap();
    let out = t.join("x.capture");
    let j = import(&[
        "import",
        "perfmon",
        "--baseline",
        before.to_str().unwrap(),
        "--measure",
        after.to_str().unwrap(),
        "--role",
        "LogicalDisk(C:)=front",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(role(&j, "LogicalDisk(C:)"), "front");
    assert_eq!(role(&j, "PhysicalDisk(0 C:)"), "backing");
}
