//! `import prometheus` of a fleet the size of a rack row, from a real Prometheus: node_exporter
//! counters of 100 hosts × 2 disks × 12 h at a 60 s step, written with `promtool tsdb
//! create-blocks-from openmetrics` into a Prometheus started on a free loopback port. One query
//! of every raw series of every host used to fail ("response too big for into_string", exit 13)
//! above ~20 hosts; the import now reads host by host, in bounded pieces, streaming each answer.
//! Checked: 100 captures with `--out-dir`, one fleet capture with `--out`, and three hosts' reads
//! equal to the counter increase Prometheus itself reports for them (within 0.5 %). Also: a host
//! whose series cannot be read is named and left out, the others kept, exit 14.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::prom::{start_prometheus, value};
use common::{probe, skip, skip_unless_root_with, wait_for, TempDir};

const HOSTS: usize = 100;
const STEP_S: i64 = 60;
const POINTS: i64 = 12 * 60; // 12 h at 60 s

fn host(h: usize) -> String {
    format!("host{h:03}:9100")
}

/// The reads counter of host `h`, disk `d` at point `k`: the sum of per-minute rates that
/// differ per host and disk, with a five-minute burst every 97 minutes (no two hosts alike).
fn reads_at(h: usize, d: usize, k: i64) -> i64 {
    let rate = 20 + (h as i64 * 7 + d as i64 * 13) % 90;
    let bursts = (0..k).filter(|j| (j + h as i64) % 97 < 5).count() as i64;
    1_000_000 * h as i64 + (k * rate + bursts * 400) * STEP_S
}

/// The OpenMetrics text of the fleet (every family's series together, ascending times).
fn openmetrics(t0: i64) -> String {
    type Family = (&'static str, fn(i64) -> i64);
    let fams: [Family; 6] = [
        ("node_disk_reads_completed", |r| r),
        ("node_disk_writes_completed", |r| r / 3),
        ("node_disk_read_bytes", |r| r * 4096),
        ("node_disk_written_bytes", |r| (r / 3) * 8192),
        ("node_disk_read_time_seconds", |r| r / 500),
        ("node_disk_io_time_seconds", |r| r / 900),
    ];
    let counters: Vec<Vec<i64>> = (0..HOSTS * 2)
        .map(|i| (0..=POINTS).map(|k| reads_at(i / 2, i % 2, k)).collect())
        .collect();
    let mut s = String::with_capacity(120 << 20);
    for (fam, f) in fams {
        writeln!(s, "# TYPE {fam} counter").unwrap();
        for h in 0..HOSTS {
            for (d, dev) in ["sda", "sdb"].iter().enumerate() {
                for (k, r) in counters[h * 2 + d].iter().enumerate() {
                    writeln!(
                        s,
                        "{fam}_total{{device=\"{dev}\",instance=\"{}\",job=\"node\"}} {} {}",
                        host(h),
                        f(*r),
                        t0 + k as i64 * STEP_S
                    )
                    .unwrap();
                }
            }
        }
    }
    s.push_str("# EOF\n");
    s
}

fn capture_reads(cap: &Path, dev: &str) -> i64 {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row(
        "SELECT coalesce(sum(reads),0) FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name=?1",
        [dev],
        |r| r.get(0),
    )
    .unwrap()
}

fn iso(t: i64) -> String {
    let o = Command::new("date")
        .args(["-u", "-d", &format!("@{t}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn a_fleet_of_100_hosts_imports_host_by_host() {
    let test = "a_fleet_of_100_hosts_imports_host_by_host";
    if skip_unless_root_with(&["prometheus"], test) {
        return;
    }
    if !common::has("promtool") {
        skip(
            test,
            "'promtool' is not installed (apt-get install -y prometheus)",
        );
        return;
    }
    let dir = TempDir::new("prom-fleet");
    // the last 12 h, whole minutes, ending an hour ago (inside the default 15-day retention)
    let now = common::prom::now_s() as i64;
    let t0 = (now - 13 * 3600) / 60 * 60;
    let t1 = t0 + POINTS * STEP_S;
    let om = dir.join("fleet.om");
    std::fs::write(&om, openmetrics(t0)).unwrap();
    let tsdb = dir.join("tsdb");
    let o = Command::new("promtool")
        .args(["tsdb", "create-blocks-from", "openmetrics"])
        .arg(&om)
        .arg(&tsdb)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "promtool: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_file(&om).unwrap();
    let (mut d, port) = start_prometheus(&dir.0, &[], &[]);
    let q = "count(node_disk_reads_completed_total{job=\"node\"})";
    wait_for(
        "Prometheus to load the backfilled blocks",
        Duration::from_secs(60),
        || {
            d.alive();
            common::prom::query(port, q, Some(t1 as f64))
                .first()
                .and_then(|r| r["value"][1].as_str().map(|v| v == (HOSTS * 2).to_string()))
                .unwrap_or(false)
        },
    );
    let url = format!("http://127.0.0.1:{port}");
    let (from, to) = (iso(t0), iso(t1));
    let range = [
        "import",
        "prometheus",
        "--url",
        &url,
        "--from",
        &from,
        "--to",
        &to,
        "--step",
        "60s",
    ];
    let base = [&range[..], &["--hosts", "{job=\"node\"}"]].concat();

    // one fleet capture
    let fleet = dir.join("fleet.capture");
    let o = probe(&[&base[..], &["--out", fleet.to_str().unwrap()]].concat());
    assert!(
        o.status.success(),
        "fleet import: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    // the capture's reads of a device against the counter increase Prometheus reports for it
    let agrees = |cap: &Path, name: &str, h: usize, i: usize, dev: &str| {
        let sel = format!(
            "node_disk_reads_completed_total{{instance=\"{}\",device=\"{dev}\"}}",
            host(h)
        );
        let increase = value(port, &sel, t1 as f64) - value(port, &sel, t0 as f64);
        assert_eq!(
            increase as i64,
            reads_at(h, i, POINTS) - reads_at(h, i, 0),
            "the generator and Prometheus agree"
        );
        let got = capture_reads(cap, name) as f64;
        assert!(
            (got - increase).abs() <= increase * 0.005,
            "{} {dev}: capture {got} reads, Prometheus {increase}",
            host(h)
        );
    };
    for h in [0, 41, 99] {
        for (i, dev) in ["sda", "sdb"].iter().enumerate() {
            agrees(&fleet, &format!("{}/{dev}", host(h)), h, i, dev);
        }
    }

    // one capture per host
    let out = dir.join("hosts");
    let o = probe(&[&base[..], &["--out-dir", out.to_str().unwrap()]].concat());
    assert!(
        o.status.success(),
        "per-host import: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let n = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "capture")
        })
        .count();
    assert_eq!(n, HOSTS);
    agrees(&out.join("host041_9100.capture"), "sda", 41, 0, "sda");

    // a host that cannot be read (no such instance) is named and left out; the others are kept
    let part = dir.join("part.capture");
    let o = probe(
        &[
            &range[..],
            &[
                "--instance",
                &host(3),
                "--instance",
                "gone:9100",
                "--out",
                part.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(14), "{err}");
    assert!(
        err.contains("1 of 2 hosts could not be read") && err.contains("gone:9100"),
        "{err}"
    );
    assert!(
        capture_reads(&part, "sda") > 0,
        "the readable host was imported"
    );
}
