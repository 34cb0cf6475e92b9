//! `import prometheus --fleet-summary` (PromQL pushdown, docs/import.md § Fleet summary) of a
//! fleet of windows_exporter hosts with node_exporter hosts mixed in, against the pull import of
//! the same range (`--out`: every series pulled, one fleet capture), from Debian's real
//! Prometheus on a free loopback port, the series backfilled with `promtool tsdb
//! create-blocks-from openmetrics`. windows_exporter's own metric names and label sets (as in
//! the real scrape tests/fixtures/windows_exporter/, and its physical_disk collector's
//! `windows_physical_disk_*{disk="0 C:"}`), `instance` and `job` as Prometheus adds them, the
//! `_Total` instances (the sum of the others) included; six Windows hosts over 6 h at 60 s:
//! - win0: disks `0 C:` and `1 D: E:`, volumes C:, D:, E: on them and HarddiskVolume1 (counted:
//!   the disks; the volumes are the same layer and not counted);
//! - win1: volumes only (its physical_disk collector off: the volumes are counted);
//! - win2: restarts in interval 200 (every counter from 0: a reset interval, left out);
//! - win3: two disks with slow reads in every tenth interval (25 ms and more);
//! - win4: a disk only (no logical_disk collector);
//! - win5: slow writes in every seventh interval (30 ms and more);
//! - node0 (sda, sdb), node1 (nvme0n1 and its partition), node2 (sda and dm-0 on it);
//! - node3 (vda) exports neither the merged nor the in-flight family (a node_exporter whose
//!   diskstats series were filtered): its read and write time must still be imported (issue #36:
//!   the pull import dropped them to "n/a" while the pushdown summed them).
//!
//! Checked: every host once, in both; per host its devices, counted intervals, the six sums
//! (equal within 1e-9 relative; the read and write times within the half millisecond per
//! counted device that the capture's whole milliseconds carry), peak IOPS, breaking intervals
//! and the intervals with a read (a write) where one breaks, and reset intervals, equal to those
//! of the capture; the sums equal the generator's exact ones; the per-moment sum of the fleet's
//! IOPS at every moment, and its peak, equal to the one computed from the raw series.
//! Needs `prometheus` and `promtool` (outside CI a missing one is a counted SKIP).
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::prom::{now_s, query, range_args, start_prometheus};
use common::{has, probe, skip, wait_for, TempDir};

const STEP_S: i64 = 60;
const POINTS: usize = 360; // 6 h at 60 s
const RESET_K: usize = 200;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Node,
    Disk,
    Volume,
}

/// One device of the generator: its host, kind, label, whether the import counts it, and the
/// disk it sits on (index, share of its traffic) for a Windows volume or a stacked node device.
struct Dev {
    host: &'static str,
    kind: Kind,
    name: &'static str,
    counted: bool,
    on: Option<(usize, f64)>,
}

/// One interval's increments: reads, writes, read and write bytes, read and write time and busy
/// time in 100 ns ticks (windows_exporter's resolution; node_exporter's are whole ms).
#[derive(Clone, Copy, Default)]
struct Inc([u64; 7]);

fn fleet() -> Vec<Dev> {
    let d = |host, kind, name, counted, on| Dev {
        host,
        kind,
        name,
        counted,
        on,
    };
    use Kind::*;
    vec![
        d("win0:9182", Disk, "0 C:", true, None),
        d("win0:9182", Disk, "1 D: E:", true, None),
        d("win0:9182", Volume, "C:", false, Some((0, 1.0))),
        d("win0:9182", Volume, "D:", false, Some((1, 0.6))),
        d("win0:9182", Volume, "E:", false, Some((1, 0.4))),
        d(
            "win0:9182",
            Volume,
            "HarddiskVolume1",
            false,
            Some((0, 0.01)),
        ),
        d("win1:9182", Volume, "C:", true, None),
        d("win1:9182", Volume, "HarddiskVolume4", true, None),
        d("win2:9182", Disk, "0 C:", true, None),
        d("win2:9182", Volume, "C:", false, Some((8, 0.98))),
        d("win3:9182", Disk, "0 C:", true, None),
        d("win3:9182", Disk, "1 D:", true, None),
        d("win3:9182", Volume, "C:", false, Some((10, 0.97))),
        d("win3:9182", Volume, "D:", false, Some((11, 1.0))),
        d("win4:9182", Disk, "0 C:", true, None),
        d("win5:9182", Disk, "0 C: D:", true, None),
        d("win5:9182", Volume, "C:", false, Some((15, 0.7))),
        d("win5:9182", Volume, "D:", false, Some((15, 0.3))),
        d("node0:9100", Node, "sda", true, None),
        d("node0:9100", Node, "sdb", true, None),
        d("node1:9100", Node, "nvme0n1", true, None),
        d("node1:9100", Node, "nvme0n1p1", false, Some((20, 1.0))),
        d("node2:9100", Node, "sda", true, None),
        d("node2:9100", Node, "dm-0", false, Some((22, 1.0))),
        d("node3:9100", Node, "vda", true, None),
    ]
}

/// The increments of device `i` in interval `k` (1-based): a base that differs by device, a
/// one-hour burst at a host-dependent time, 1–8 ms a read and 0.5–3.5 ms a write but for win3's
/// slow reads (every tenth interval, 25 ms and more) and win5's slow writes (every seventh, 30 ms
/// and more). A volume or stacked device carries its share of the disk beneath it.
fn inc(devs: &[Dev], i: usize, k: usize) -> Inc {
    let d = &devs[i];
    if let Some((on, share)) = d.on {
        let b = inc(devs, on, k);
        return Inc(b.0.map(|x| (x as f64 * share).floor() as u64));
    }
    let frac = ((k * 37 + i * 11) % 100) as f64 / 100.0;
    let burst = if (k + i * 40) % 360 < 60 { 150 } else { 0 };
    let reads = 20 + ((i * 7 + k * 13) % 90) as u64 + burst;
    let writes = 5 + ((i * 3 + k) % 40) as u64;
    let mut read_ms = 1.0 + (i % 5) as f64 * 1.3 + frac;
    let mut write_ms = 0.5 + (i % 3) as f64 + frac;
    if d.host == "win3:9182" && k.is_multiple_of(10) {
        read_ms = 25.0 + frac;
    }
    if d.host == "win5:9182" && k.is_multiple_of(7) {
        write_ms = 30.0 + frac;
    }
    // node_exporter's times are whole milliseconds (/proc/diskstats)
    let ticks = |n: u64, ms: f64| {
        if d.kind == Kind::Node {
            (n as f64 * ms).round() as u64 * 10_000
        } else {
            (n as f64 * ms * 10_000.0).round() as u64
        }
    };
    let (rt, wt) = (ticks(reads, read_ms), ticks(writes, write_ms));
    Inc([
        reads,
        writes,
        reads * 4096 * (1 + i as u64 % 4),
        writes * 8192 + 512 * (k as u64 % 7),
        rt,
        wt,
        ((rt + wt) * 8 / 10).min(STEP_S as u64 * 10_000_000),
    ])
}

/// Each series' counters at points 0..=POINTS: (host, kind, label, values). The `_Total`
/// instances sum their host's others of that kind; win2's counters start again from 0 in
/// interval RESET_K (a restart).
type Series = (&'static str, Kind, String, Vec<[u64; 7]>);

fn series(devs: &[Dev]) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for (i, d) in devs.iter().enumerate() {
        let mut v = vec![[0u64; 7]; POINTS + 1];
        v[0] = [7, 3, 4096, 8192, 5, 6, 9].map(|x| x * 1_000_000 * (i as u64 + 1));
        for k in 1..=POINTS {
            let n = inc(devs, i, k).0;
            let base = if d.host == "win2:9182" && k == RESET_K {
                [0; 7]
            } else {
                v[k - 1]
            };
            v[k] = std::array::from_fn(|j| base[j] + n[j]);
        }
        out.push((d.host, d.kind, d.name.to_string(), v));
    }
    let hosts: BTreeSet<&str> = devs.iter().map(|d| d.host).collect();
    for h in hosts {
        for kind in [Kind::Disk, Kind::Volume] {
            let own: Vec<&Series> = out.iter().filter(|s| s.0 == h && s.1 == kind).collect();
            if own.is_empty() {
                continue;
            }
            let total: Vec<[u64; 7]> = (0..=POINTS)
                .map(|k| std::array::from_fn(|j| own.iter().map(|s| s.3[k][j]).sum()))
                .collect();
            out.push((h, kind, "_Total".into(), total));
        }
    }
    out
}

/// The OpenMetrics text: every family's series together, ascending times.
fn openmetrics(all: &[Series], t0: i64) -> String {
    let mut s = String::new();
    let sec = |t: u64| t as f64 / 10_000_000.0;
    // node_exporter's diskstats families (the 11 fields of a kernel before 4.18)
    type Node = (&'static str, &'static str, fn(&[u64; 7]) -> f64);
    let node: [Node; 11] = [
        ("reads_completed", "counter", |v| v[0] as f64),
        ("reads_merged", "counter", |v| (v[0] / 9) as f64),
        ("read_bytes", "counter", |v| v[2] as f64),
        ("read_time_seconds", "counter", |v| {
            v[4] as f64 / 10_000_000.0
        }),
        ("writes_completed", "counter", |v| v[1] as f64),
        ("writes_merged", "counter", |v| (v[1] / 4) as f64),
        ("written_bytes", "counter", |v| v[3] as f64),
        ("write_time_seconds", "counter", |v| {
            v[5] as f64 / 10_000_000.0
        }),
        ("io_now", "gauge", |v| (v[0] % 4) as f64),
        ("io_time_seconds", "counter", |v| v[6] as f64 / 10_000_000.0),
        ("io_time_weighted_seconds", "counter", |v| {
            (v[4] + v[5]) as f64 / 10_000_000.0
        }),
    ];
    for (fam, typ, f) in node {
        let total = if typ == "counter" { "_total" } else { "" };
        writeln!(s, "# TYPE node_disk_{fam} {typ}").unwrap();
        // node3 exports no merged and no in-flight series
        let left_out = matches!(fam, "reads_merged" | "writes_merged" | "io_now");
        for (h, _, dev, v) in all
            .iter()
            .filter(|x| x.1 == Kind::Node && !(left_out && x.0 == "node3:9100"))
        {
            for (k, x) in v.iter().enumerate() {
                let t = t0 + k as i64 * STEP_S;
                writeln!(
                    s,
                    "node_disk_{fam}{total}{{device=\"{dev}\",instance=\"{h}\",job=\"node\"}} {} {t}",
                    f(x)
                )
                .unwrap();
            }
        }
    }
    // windows_exporter's names: windows_{logical,physical}_disk_*; read_seconds_total is busy
    // time (% Disk Read Time), not a latency: it must not be read as one
    type Win = (
        &'static str,
        &'static str,
        Box<dyn Fn(&[u64; 7], usize, &str) -> f64>,
    );
    let win: Vec<Win> = vec![
        ("reads", "counter", Box::new(|v, _, _| v[0] as f64)),
        ("writes", "counter", Box::new(|v, _, _| v[1] as f64)),
        ("read_bytes", "counter", Box::new(|v, _, _| v[2] as f64)),
        ("write_bytes", "counter", Box::new(|v, _, _| v[3] as f64)),
        (
            "read_latency_seconds",
            "counter",
            Box::new(move |v, _, _| sec(v[4])),
        ),
        (
            "write_latency_seconds",
            "counter",
            Box::new(move |v, _, _| sec(v[5])),
        ),
        (
            "read_seconds",
            "counter",
            Box::new(move |v, _, _| sec(v[6]) * 0.7),
        ),
        (
            "write_seconds",
            "counter",
            Box::new(move |v, _, _| sec(v[6]) * 0.3),
        ),
        (
            "idle_seconds",
            "counter",
            // the seconds since the exporter started (win2 restarts) less the busy ones
            Box::new(move |v, k, h| {
                let up = if h == "win2:9182" && k >= RESET_K {
                    k - RESET_K + 1
                } else {
                    k + 1000
                };
                (up as f64 * STEP_S as f64) - sec(v[6])
            }),
        ),
        (
            "requests_queued",
            "gauge",
            Box::new(|v, _, _| (v[1] % 3) as f64),
        ),
    ];
    for (obj, kind, label) in [
        ("logical", Kind::Volume, "volume"),
        ("physical", Kind::Disk, "disk"),
    ] {
        for (fam, typ, f) in &win {
            let total = if *typ == "counter" { "_total" } else { "" };
            writeln!(s, "# TYPE windows_{obj}_disk_{fam} {typ}").unwrap();
            for (h, _, dev, v) in all.iter().filter(|x| x.1 == kind) {
                for (k, x) in v.iter().enumerate() {
                    let t = t0 + k as i64 * STEP_S;
                    writeln!(
                        s,
                        "windows_{obj}_disk_{fam}{total}{{instance=\"{h}\",job=\"windows\",{label}=\"{dev}\"}} {} {t}",
                        f(x, k, h)
                    )
                    .unwrap();
                }
            }
        }
    }
    s.push_str("# EOF\n");
    s
}

/// One counted interval of a host in the capture: end, the six sums (None: a reset or no
/// numbers), and whether one of its devices is marked `reset`.
#[derive(Default, Debug)]
struct HostInterval {
    sums: Option<[f64; 6]>,
    reset: bool,
}

/// The capture's hosts: (devices, counted devices, intervals by end time).
type Hosts = BTreeMap<String, (usize, Vec<String>, BTreeMap<i64, HostInterval>)>;

/// Each host's intervals over the devices the capture counts: its `backing` devices, else its
/// `front` ones (the roles the import proposed: what a capture of that host profiles).
fn capture_hosts(cap: &Path) -> Hosts {
    let c = rusqlite::Connection::open(cap).unwrap();
    let fleet: String = c
        .query_row("SELECT value FROM meta WHERE key='fleet'", [], |r| r.get(0))
        .unwrap();
    let fleet: Vec<serde_json::Value> = serde_json::from_str(&fleet).unwrap();
    let roles: BTreeMap<String, String> = c
        .prepare("SELECT name, role FROM devices")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = Hosts::new();
    for h in fleet {
        let host = h["host"].as_str().unwrap().to_string();
        let devs: Vec<String> = h["devices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        let of = |role: &str| -> Vec<String> {
            devs.iter().filter(|d| roles[*d] == role).cloned().collect()
        };
        let counted = Some(of("backing"))
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| of("front"));
        let mut iv: BTreeMap<i64, HostInterval> = BTreeMap::new();
        let mut st = c
            .prepare(
                "SELECT i.end_utc_ms, i.status, i.reads, i.writes, i.read_bytes, i.write_bytes,
                        i.read_time_ms, i.write_time_ms
                 FROM intervals i JOIN devices d ON d.id = i.device_id WHERE d.name = ?1",
            )
            .unwrap();
        for dev in &counted {
            let rows = st
                .query_map([dev], |r| {
                    let v: [Option<i64>; 6] = [
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ];
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, v))
                })
                .unwrap();
            for row in rows {
                let (end, status, v) = row.unwrap();
                let e = iv.entry(end).or_default();
                e.reset |= status == "reset";
                if v.iter().all(Option::is_some) {
                    let s = e.sums.get_or_insert([0.0; 6]);
                    for (j, x) in v.iter().enumerate() {
                        s[j] += x.unwrap() as f64;
                    }
                }
            }
        }
        out.insert(host, (devs.len(), counted, iv));
    }
    out
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(
        (a - b).abs() <= tol + 1e-9 * a.abs().max(b.abs()).max(1.0),
        "{what}: {a} vs {b}"
    );
}

fn iso(t: i64) -> String {
    let o = Command::new("date")
        .args(["-u", "-d", &format!("@{t}"), "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn a_fleet_of_windows_and_linux_hosts_summed_by_prometheus_equals_the_import() {
    let test = "a_fleet_of_windows_and_linux_hosts_summed_by_prometheus_equals_the_import";
    for tool in ["prometheus", "promtool"] {
        if !has(tool)
            && skip(
                test,
                &format!("'{tool}' is not installed (apt-get install prometheus)"),
            )
        {
            return;
        }
    }
    let dir = TempDir::new("fleet-sum-win");
    // the last 6 h, whole minutes, ending an hour ago
    let t0 = (now_s() as i64 - 7 * 3600) / STEP_S * STEP_S;
    let t1 = t0 + POINTS as i64 * STEP_S;
    let devs = fleet();
    let all = series(&devs);
    let om = dir.join("fleet.om");
    std::fs::write(&om, openmetrics(&all, t0)).unwrap();
    let o = Command::new("promtool")
        .args(["tsdb", "create-blocks-from", "openmetrics"])
        .arg(&om)
        .arg(dir.join("tsdb"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "promtool: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (mut d, port) = start_prometheus(&dir.0, &[], &[]);
    wait_for(
        "Prometheus to load the backfilled blocks",
        Duration::from_secs(60),
        || {
            d.alive();
            query(port, "count({__name__=~\"windows_.*_disk_reads_total|node_disk_reads_completed_total\"})", Some(t1 as f64))
                .first()
                .and_then(|r| r["value"][1].as_str().map(|v| v == all.len().to_string()))
                .unwrap_or(false)
        },
    );
    let url = format!("http://127.0.0.1:{port}");
    let (from, to) = (iso(t0), iso(t1));
    let mut args = range_args(&url, &from, &to, "60s");
    args.extend(["--hosts", "{job=~\"node|windows\"}"]);
    let summary = dir.join("fleet.json");
    let o = probe(&[&args[..], &["--fleet-summary", summary.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let capture = dir.join("fleet.capture");
    let o = probe(&[&args[..], &["--out", capture.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let cap = capture_hosts(&capture);
    // every host once, in both
    let want: BTreeSet<String> = devs.iter().map(|d| d.host.to_string()).collect();
    let got: Vec<String> = s["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got.iter().cloned().collect::<BTreeSet<_>>(), want);
    assert_eq!(got.len(), want.len(), "a host twice: {got:?}");
    assert_eq!(cap.keys().cloned().collect::<BTreeSet<_>>(), want);

    let keys = [
        "reads",
        "writes",
        "readBytes",
        "writeBytes",
        "readTimeMs",
        "writeTimeMs",
    ];
    for h in s["hosts"].as_array().unwrap() {
        let host = h["host"].as_str().unwrap();
        let n = |k: &str| h[k].as_f64().unwrap();
        let (ndev, counted, iv) = &cap[host];
        // the layer the import counts is the generator's: the pushdown counts the same devices
        let mine: Vec<&Dev> = devs.iter().filter(|d| d.host == host).collect();
        assert_eq!(
            counted.len(),
            mine.iter().filter(|d| d.counted).count(),
            "{host}: {counted:?}"
        );
        assert_eq!(n("devices") as usize, *ndev, "{host} devices");
        assert_eq!(
            *ndev,
            mine.len(),
            "{host}: the capture's devices, _Total left out"
        );
        let ok: Vec<[f64; 6]> = iv.values().filter_map(|x| x.sums).collect();
        assert_eq!(n("okIntervals") as usize, ok.len(), "{host} intervals");
        for (j, k) in keys.iter().enumerate() {
            let sum: f64 = ok.iter().map(|v| v[j]).sum();
            // the capture's times are whole ms, carried device by device (half a ms each)
            let tol = if j >= 4 {
                0.5 * counted.len() as f64
            } else {
                0.0
            };
            close(n(k), sum, tol, &format!("{host} {k}"));
        }
        // and exactly the generator's sums over the counted devices
        for (j, k) in keys.iter().enumerate() {
            let mut exact = 0.0;
            for (i, dv) in devs.iter().enumerate() {
                if dv.host != host || !dv.counted {
                    continue;
                }
                for kk in 1..=POINTS {
                    if !(host == "win2:9182" && kk == RESET_K) {
                        let x = inc(&devs, i, kk).0[j] as f64;
                        exact += if j >= 4 { x / 10_000.0 } else { x };
                    }
                }
            }
            close(n(k), exact, 1e-6, &format!("{host} {k} (generator)"));
        }
        let peak = ok.iter().map(|v| (v[0] + v[1]) / 60.0).fold(0.0, f64::max);
        close(n("peakIops"), peak, 0.0, &format!("{host} peak IOPS"));
        let breaking = |t: usize, c: usize| {
            ok.iter()
                .filter(|v| v[c] > 0.0 && v[t] / v[c] >= 20.0)
                .count()
        };
        let checked = |c: usize| ok.iter().filter(|v| v[c] > 0.0).count();
        let (br, bw) = (breaking(4, 0), breaking(5, 1));
        assert_eq!(n("breakingRead") as usize, br, "{host} breaking reads");
        assert_eq!(n("breakingWrite") as usize, bw, "{host} breaking writes");
        let want_br = if host == "win3:9182" { POINTS / 10 } else { 0 };
        let want_bw = if host == "win5:9182" { POINTS / 7 } else { 0 };
        assert_eq!(
            (br, bw),
            (want_br, want_bw),
            "{host}: the generator's slow intervals"
        );
        if br > 0 {
            assert_eq!(
                n("checkedRead") as usize,
                checked(0),
                "{host} checked reads"
            );
        }
        if bw > 0 {
            assert_eq!(
                n("checkedWrite") as usize,
                checked(1),
                "{host} checked writes"
            );
        }
        let resets = iv.values().filter(|x| x.reset).count();
        assert_eq!(n("resetIntervals") as usize, resets, "{host} resets");
        assert_eq!(resets, usize::from(host == "win2:9182"), "{host} resets");
    }

    // the per-moment sum of the fleet's IOPS, from the raw series, moment by moment
    let starts: Vec<i64> = s["momentStartMs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let iops: Vec<f64> = s["momentIops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let raw: Vec<f64> = (1..=POINTS)
        .map(|k| {
            devs.iter()
                .enumerate()
                .filter(|(_, d)| d.counted && !(d.host == "win2:9182" && k == RESET_K))
                .map(|(i, _)| {
                    let v = inc(&devs, i, k).0;
                    (v[0] + v[1]) as f64 / STEP_S as f64
                })
                .sum()
        })
        .collect();
    let raw_starts: Vec<i64> = (1..=POINTS)
        .map(|k| (t0 + (k as i64 - 1) * STEP_S) * 1000)
        .collect();
    assert_eq!(starts, raw_starts);
    for (k, (a, b)) in iops.iter().zip(&raw).enumerate() {
        close(*a, *b, 0.0, &format!("moment {k}"));
    }
    let top = |v: &[f64]| {
        v.iter().enumerate().fold(
            (0, f64::MIN),
            |m, (i, x)| if *x > m.1 { (i, *x) } else { m },
        )
    };
    let ((pi, pv), (ri, rv)) = (top(&iops), top(&raw));
    assert_eq!(starts[pi], raw_starts[ri], "the peak's moment");
    close(pv, rv, 0.0, "the fleet's peak IOPS");
}
