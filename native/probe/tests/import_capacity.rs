//! Volume capacity imported (capture v7, `volume_capacity`; docs/import.md, "Capacity"): a real
//! windows_exporter scrape (tests/fixtures/windows_exporter/) and real node_exporter scrapes
//! (the `prometheus-node-exporter` of this machine, its filesystem collector with no exclusion,
//! so that tmpfs, cgroup and proc filesystems are in the file) give each volume's size and free
//! bytes equal to the file's values; the real node_exporter e2e scrape (no filesystem
//! collector) gives no row at all (absent, not 0); a PerfMon log with `% Free Space` and
//! `Free Megabytes` gives the volume's size within the precision of the two counters; a live
//! recording of the disk the root filesystem is on stores its size as statvfs (`df`) gives it.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use cacheproof_probe::testenv;
use common::prom::{advance, free_port, Daemon};
use common::{has, probe, skip, wait_for, TempDir, BIN};
use rusqlite::{Connection, OpenFlags};

const WIN: &str = include_str!("fixtures/windows_exporter/netdata-v0.20.0-logical-disk.prom");
const T0: i64 = 1_764_000_000;

/// (volume, utc_ms) → (device name, mount, size, free, source).
type Rows = BTreeMap<
    (String, i64),
    (
        Option<String>,
        Option<String>,
        Option<i64>,
        Option<i64>,
        String,
    ),
>;

fn rows(cap: &Path) -> Rows {
    let c = Connection::open_with_flags(cap, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let v: i64 = c
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(v, 8);
    let mut st = c
        .prepare(
            "SELECT v.volume, v.utc_ms, d.name, v.mount, v.size_bytes, v.free_bytes, v.source
             FROM volume_capacity v LEFT JOIN devices d ON d.id = v.device_id",
        )
        .unwrap();
    let it = st
        .query_map([], |r| {
            Ok((
                (r.get(0)?, r.get(1)?),
                (r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?),
            ))
        })
        .unwrap();
    it.map(Result::unwrap).collect()
}

/// Every sample of `metric` in a text exposition: (labels, value).
fn samples(text: &str, metric: &str) -> Vec<(BTreeMap<String, String>, f64)> {
    let mut out = Vec::new();
    for l in text.lines() {
        let Some(rest) = l.strip_prefix(metric) else {
            continue;
        };
        let Some(rest) = rest.strip_prefix('{') else {
            continue;
        };
        let (lab, val) = rest.split_once("} ").unwrap();
        let mut m = BTreeMap::new();
        for kv in lab.split("\",") {
            let (k, v) = kv.split_once("=\"").unwrap();
            m.insert(k.to_string(), v.trim_end_matches('"').to_string());
        }
        out.push((m, val.trim().parse().unwrap()));
    }
    out
}

fn import(kind: &str, input: &Path, out: &Path) {
    let o = probe(&[
        "import",
        kind,
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn windows_exporter_scrapes_give_each_volume_its_size_and_free_bytes() {
    let d = TempDir::new("cap-win");
    let dir = d.join("scrapes");
    std::fs::create_dir_all(&dir).unwrap();
    let inc = |name: &str, _: &str| f64::from(u8::from(name.ends_with("_reads_total")) * 5);
    for i in 0..2 {
        let t = T0 + 60 * i as i64;
        std::fs::write(dir.join(format!("scrape-{t}.prom")), advance(WIN, i, &inc)).unwrap();
    }
    let out = d.join("win.capture");
    import("node-exporter", &dir, &out);
    let got = rows(&out);
    let size = samples(WIN, "windows_logical_disk_size_bytes");
    let free = samples(WIN, "windows_logical_disk_free_bytes");
    assert_eq!(size.len(), 2, "C: and HarddiskVolume4 in the fixture");
    assert_eq!(got.len(), 2 * size.len(), "one row per volume per scrape");
    for (lab, s) in &size {
        let vol = &lab["volume"];
        let f = free.iter().find(|(l, _)| &l["volume"] == vol).unwrap().1;
        for i in 0..2 {
            let r = &got[&(vol.clone(), (T0 + 60 * i) * 1000)];
            assert_eq!(
                r,
                &(
                    Some(format!("LogicalDisk({vol})")),
                    None,
                    Some(*s as i64),
                    Some(f as i64),
                    "windows_exporter".to_string()
                ),
                "{vol}"
            );
        }
    }
    // the values of the file, exactly (C: 6.7938287616e+10 bytes, 4.363649024e+10 free)
    assert_eq!(got[&("C:".to_string(), T0 * 1000)].2, Some(67_938_287_616));
}

#[test]
fn node_exporter_scrapes_give_each_disk_filesystem_its_size_and_avail_bytes() {
    if !has("prometheus-node-exporter") {
        skip(
            "node_exporter_scrapes_give_each_disk_filesystem_its_size_and_avail_bytes",
            "prometheus-node-exporter is not installed",
        );
        return;
    }
    let d = TempDir::new("cap-node");
    let port = free_port();
    let mut ne = Daemon(
        Command::new("prometheus-node-exporter")
            .args([
                &format!("--web.listen-address=127.0.0.1:{port}"),
                "--collector.disable-defaults",
                "--collector.diskstats",
                "--collector.filesystem",
                "--collector.filesystem.fs-types-exclude=^$",
                "--collector.filesystem.mount-points-exclude=^$",
            ])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(d.join("node_exporter.log")).unwrap())
            .spawn()
            .unwrap(),
        "prometheus-node-exporter",
    );
    let dir = d.join("scrapes");
    std::fs::create_dir_all(&dir).unwrap();
    // two scrapes, each in a file named by its epoch (docs/import.md, "node-exporter")
    let mut texts = Vec::new();
    for i in 0..2i64 {
        let text = loop {
            ne.alive();
            let o = Command::new("curl")
                .args(["-sf", &format!("http://127.0.0.1:{port}/metrics")])
                .output()
                .unwrap();
            if o.status.success() {
                break String::from_utf8(o.stdout).unwrap();
            }
        };
        std::fs::write(dir.join(format!("scrape-{}.prom", T0 + 60 * i)), &text).unwrap();
        texts.push(text);
    }
    let out = d.join("node.capture");
    import("node-exporter", &dir, &out);
    let got = rows(&out);
    let pseudo = [
        "tmpfs", "devtmpfs", "cgroup", "cgroup2", "proc", "sysfs", "devpts", "tracefs", "overlay",
    ];
    let mut kept = 0;
    for (i, text) in texts.iter().enumerate() {
        let t = (T0 + 60 * i as i64) * 1000;
        let size = samples(text, "node_filesystem_size_bytes");
        let avail = samples(text, "node_filesystem_avail_bytes");
        assert!(!size.is_empty(), "the filesystem collector answered");
        for (lab, s) in &size {
            let dev = &lab["device"];
            let row = got.get(&(dev.clone(), t));
            if !dev.starts_with("/dev/") || pseudo.contains(&lab["fstype"].as_str()) {
                assert!(row.is_none(), "{lab:?} is not a disk's filesystem");
                continue;
            }
            let a = avail.iter().find(|(l, _)| l == lab).unwrap().1;
            let r = row.unwrap_or_else(|| panic!("{lab:?} imported"));
            assert_eq!((r.2, r.3), (Some(*s as i64), Some(a as i64)), "{lab:?}");
            assert_eq!(r.4, "node_exporter");
            if lab["mountpoint"] == "/" {
                assert_eq!(r.1.as_deref(), Some("/"));
            }
            let name = dev.trim_start_matches("/dev/");
            if text.contains(&format!(
                "node_disk_reads_completed_total{{device=\"{name}\"}}"
            )) {
                assert_eq!(r.0.as_deref(), Some(name), "linked to its disk's device");
            }
            kept += 1;
        }
    }
    assert!(kept >= 2, "the root filesystem in both scrapes");
    let vols: std::collections::BTreeSet<&String> = got.keys().map(|k| &k.0).collect();
    assert_eq!(got.len(), 2 * vols.len(), "one row per volume per scrape");
}

#[test]
fn node_exporter_e2e_scrape_without_filesystems_has_no_capacity_rows() {
    let Some(src) = testenv::realdata(
        "node_exporter_e2e_scrape_without_filesystems_has_no_capacity_rows",
        "node_exporter/node_exporter_e2e-output_linux.prom",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(src).unwrap();
    assert!(!text.contains("\nnode_filesystem_size_bytes{"));
    let d = TempDir::new("cap-e2e");
    let dir = d.join("scrapes");
    std::fs::create_dir_all(&dir).unwrap();
    let inc =
        |name: &str, _: &str| f64::from(u8::from(name == "node_disk_reads_completed_total") * 3);
    for i in 0..2 {
        let t = T0 + 60 * i as i64;
        std::fs::write(
            dir.join(format!("scrape-{t}.prom")),
            advance(&text, i, &inc),
        )
        .unwrap();
    }
    let out = d.join("e2e.capture");
    import("node-exporter", &dir, &out);
    assert!(rows(&out).is_empty(), "not in this log: no row, never a 0");
}

#[test]
fn perfmon_free_space_and_free_megabytes_give_the_volume_size() {
    const MIB: f64 = 1_048_576.0;
    let size: f64 = 136_365_211_648.0; // 127 GiB
    let d = TempDir::new("cap-perfmon");
    let f = d.join("SRV-SQL01_000001.csv");
    let counters = [
        "LogicalDisk(C:)\\% Free Space",
        "LogicalDisk(C:)\\Free Megabytes",
        "LogicalDisk(C:)\\Disk Reads/sec",
        "LogicalDisk(C:)\\Disk Writes/sec",
        "LogicalDisk(HarddiskVolume1)\\% Free Space",
    ];
    let mut s = String::from("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"");
    for c in counters {
        s.push_str(&format!(",\"\\\\SRV-SQL01\\{c}\""));
    }
    s.push_str("\r\n");
    let n = 30usize;
    let free_of = |r: usize| 40.0e9 - r as f64 * 123_456_789.0;
    for r in 0..n {
        let free = free_of(r);
        s.push_str(&format!(
            "\"03/04/2024 10:{r:02}:00.000\",\"{:.6}\",\"{}\",\"{}\",\"{}\",\"{:.6}\"\r\n",
            free / size * 100.0,
            (free / MIB).floor(),
            100 + r,
            50,
            37.5
        ));
    }
    std::fs::write(&f, s).unwrap();
    let out = d.join("pm.capture");
    import("perfmon", &f, &out);
    let got = rows(&out);
    assert_eq!(
        got.len(),
        n,
        "one row per sample of C:; a share alone is not stored"
    );
    for (r, ((vol, _), (dev, mount, sz, fr, src))) in got.iter().enumerate() {
        assert_eq!(vol, "C:");
        assert_eq!(dev.as_deref(), Some("LogicalDisk(C:)"));
        assert_eq!(mount.as_deref(), Some("C:\\"));
        assert_eq!(src, "perfmon");
        let free_mb = (free_of(r) / MIB).floor();
        assert_eq!(*fr, Some((free_mb * MIB) as i64), "Free Megabytes × 2^20");
        // the precision of the counters: Free Megabytes is whole MiB, % Free Space 6 decimals
        let pct = free_of(r) / size * 100.0;
        let tol = size * (MIB / free_of(r) + 0.5e-6 / pct);
        let err = (sz.unwrap() as f64 - size).abs();
        assert!(err <= tol, "row {r}: size {sz:?} off by {err} > {tol}");
    }
}

/// volume, device name, mount, size, free, source.
type LiveRow = (String, Option<String>, Option<String>, i64, i64, String);

/// The kernel name of the device the root filesystem is mounted on, when it is a block device
/// listed in /proc/diskstats.
fn root_device() -> Option<String> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let l = info.lines().find(|l| l.split(' ').nth(4) == Some("/"))?;
    let num = l.split(' ').nth(2)?;
    let link = std::fs::read_link(format!("/sys/dev/block/{num}")).ok()?;
    let name = link.file_name()?.to_string_lossy().to_string();
    let stats = std::fs::read_to_string("/proc/diskstats").ok()?;
    stats
        .lines()
        .any(|l| l.split_whitespace().nth(2) == Some(name.as_str()))
        .then_some(name)
}

#[test]
fn a_recording_stores_the_capacity_of_the_filesystem_on_its_device() {
    let Some(dev) = root_device() else {
        skip(
            "a_recording_stores_the_capacity_of_the_filesystem_on_its_device",
            "the root filesystem is not on a block device of /proc/diskstats (an overlay?)",
        );
        return;
    };
    let d = TempDir::new("cap-live");
    let cap = d.join("live.capture");
    let mut child = Command::new(BIN)
        .args(["record", "--out", cap.to_str().unwrap(), "--devices", &dev])
        .args(["--interval", "1s"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let row = || -> Option<LiveRow> {
        let c = Connection::open_with_flags(&cap, OpenFlags::SQLITE_OPEN_READ_ONLY).ok()?;
        c.query_row(
            "SELECT v.volume, d.name, v.mount, v.size_bytes, v.free_bytes, v.source
             FROM volume_capacity v LEFT JOIN devices d ON d.id = v.device_id WHERE v.mount = '/'",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .ok()
    };
    wait_for(
        "the first capacity row",
        std::time::Duration::from_secs(20),
        || row().is_some(),
    );
    let o = probe(&["stop", cap.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(child.wait().unwrap().success());
    let (vol, name, mount, size, free, src) = row().unwrap();
    assert_eq!(
        (vol, name, mount, src),
        (
            format!("/dev/{dev}"),
            Some(dev.clone()),
            Some("/".to_string()),
            "statvfs".to_string()
        )
    );
    // df reads the same statvfs: the size equals it; the free space of a shared disk moves a
    // little between the two reads
    let df = Command::new("df")
        .args(["-B1", "--output=size,avail", "/"])
        .output()
        .unwrap();
    let text = String::from_utf8(df.stdout).unwrap();
    let v: Vec<i64> = text
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(size, v[0], "size as df gives it");
    assert!((free - v[1]).abs() < 2 << 30, "free {free} vs df {}", v[1]);
}
