//! Count every I/O once in esxtop and node_exporter imports (issue 26). An esxtop batch log in
//! the real layout (the header form of tests/fixtures/import-corpus/esxtop.ok.batch.csv) whose
//! adapter row is the sum of its two devices, with a path and a VM row: only the device rows are
//! counted, the other views are listed in the stack, and counting two views is refused with the
//! sentence naming the pair. The real node_exporter scrape (../shared/realdata/node_exporter/,
//! `testenv::realdata`) taken five times with sda and dm-0 advancing together: dm-0 and the
//! partitions are listed on their disks, not counted.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use cacheproof_probe::testenv;
use common::prom::advance;
use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

fn db(p: &Path) -> Connection {
    Connection::open_with_flags(p, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap()
}

/// Σ reads and Σ writes of the counted devices (role backing), and of the named device.
fn counted(cap: &Path) -> (i64, i64) {
    db(cap)
        .query_row(
            "SELECT COALESCE(SUM(reads),0), COALESCE(SUM(writes),0) FROM intervals i
             JOIN devices d ON d.id = i.device_id WHERE d.role = 'backing'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

fn of(cap: &Path, dev: &str) -> (i64, i64) {
    db(cap)
        .query_row(
            "SELECT COALESCE(SUM(reads),0), COALESCE(SUM(writes),0) FROM intervals i
             JOIN devices d ON d.id = i.device_id WHERE d.name = ?1",
            [dev],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

fn preview(kind: &str, files: &[&str], extra: &[&str]) -> std::process::Output {
    let mut a = vec!["import", kind];
    a.extend_from_slice(files);
    a.extend_from_slice(extra);
    a.extend(["--preview", "--json"]);
    probe(&a)
}

fn json(o: &std::process::Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn role(pv: &serde_json::Value, dev: &str) -> (String, String) {
    let d = pv["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == dev)
        .unwrap_or_else(|| panic!("no device {dev}: {}", pv["devices"]));
    (
        d["role"].as_str().unwrap().into(),
        d["reason"].as_str().unwrap().into(),
    )
}

fn edges(pv: &serde_json::Value) -> Vec<(String, String, String)> {
    pv["stack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["holder"].as_str().unwrap().into(),
                e["on"].as_str().unwrap().into(),
                e["kind"].as_str().unwrap().into(),
            )
        })
        .collect()
}

const DEV_A: &str = "naa.600508b1001c4d";
const DEV_B: &str = "naa.600508b1001c7e";

/// An esxtop batch log: two devices on vmhba1, the adapter's rates the sum of theirs, a path
/// row of device A and a VM row; 5 s apart, whole I/Os per s.
fn esxtop_log() -> (String, i64, i64) {
    let objs = [
        format!("Physical Disk SCSI Device({DEV_A})"),
        format!("Physical Disk SCSI Device({DEV_B})"),
        "Physical Disk Adapter(vmhba1)".to_string(),
        format!("Physical Disk Path(vmhba1:C0:T0:L0-{DEV_A})"),
        "Virtual Disk(sql01)".to_string(),
    ];
    let mut text = String::from(
        "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\esx01\\Memory\\Memory Overcommit (1 Minute Avg)\"",
    );
    for o in &objs {
        for c in ["Reads/sec", "Writes/sec"] {
            text.push_str(&format!(",\"\\\\esx01\\{o}\\{c}\""));
        }
    }
    text.push_str("\r\n");
    let (mut reads, mut writes) = (0i64, 0i64);
    for k in 0..6i64 {
        let (ar, aw, br, bw) = (100 + 10 * k, 40 + k, 7 * k, 20);
        let row = [
            (ar, aw),
            (br, bw),
            (ar + br, aw + bw),
            (ar, aw),
            (ar + br, aw + bw),
        ];
        text.push_str(&format!("\"05/02/2024 08:00:{:02}\",\"0.00\"", 5 * k));
        for (r, w) in row {
            text.push_str(&format!(",\"{r}\",\"{w}\""));
        }
        text.push_str("\r\n");
        if k > 0 {
            // the first row's rates give no interval; each later one is 5 s
            reads += 5 * (ar + br);
            writes += 5 * (aw + bw);
        }
    }
    (text, reads, writes)
}

#[test]
fn esxtop_adapter_rows_are_not_added_to_its_device_rows() {
    let d = TempDir::new("views-esx");
    let f = d.join("esxtop.csv");
    let (text, reads, writes) = esxtop_log();
    std::fs::write(&f, text).unwrap();
    let fs = f.to_str().unwrap();
    let pv = json(&preview("esxtop", &[fs], &[]));
    let (a, b) = (format!("EsxDisk({DEV_A})"), format!("EsxDisk({DEV_B})"));
    assert_eq!(role(&pv, &a).0, "backing");
    assert_eq!(role(&pv, &b).0, "backing");
    for (view, what) in [
        ("EsxAdapter(vmhba1)", "adapter"),
        (&format!("EsxPath(vmhba1:C0:T0:L0-{DEV_A})") as &str, "path"),
        ("EsxVm(sql01)", "VM or virtual disk"),
    ] {
        let (r, why) = role(&pv, view);
        assert_eq!(r, "other", "{view}: {why}");
        assert_eq!(
            why,
            format!(
                "an esxtop {what} row: another view of the same commands as the device rows: not counted"
            )
        );
    }
    let st = edges(&pv);
    let k = |w: &str| format!("another view of the same commands ({w} over device)");
    for (h, s, kind) in [
        ("EsxAdapter(vmhba1)", a.as_str(), k("adapter")),
        ("EsxAdapter(vmhba1)", b.as_str(), k("adapter")),
        ("EsxVm(sql01)", a.as_str(), k("VM or virtual disk")),
        ("EsxVm(sql01)", b.as_str(), k("VM or virtual disk")),
    ] {
        assert!(
            st.contains(&(h.into(), s.into(), kind.clone())),
            "{h} on {s}: {st:?}"
        );
    }
    // the path names its device: on that device only
    let path = format!("EsxPath(vmhba1:C0:T0:L0-{DEV_A})");
    let on: Vec<&str> = st
        .iter()
        .filter(|e| e.0 == path)
        .map(|e| e.1.as_str())
        .collect();
    assert_eq!(on, vec![a.as_str()]);
    // counting the adapter and its devices is refused with the sentence naming the pair
    let o = preview("esxtop", &[fs], &["--role", "EsxAdapter(vmhba1)=backing"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "EsxAdapter(vmhba1) and {a} would both be counted, but they are two views of the same commands (adapter over device)"
        )),
        "{err}"
    );
    // the adapter alone (its devices not counted) counts once
    let o = preview(
        "esxtop",
        &[fs],
        &[
            "--role",
            "EsxAdapter(vmhba1)=backing",
            "--role",
            &format!("{a}=other"),
            "--role",
            &format!("{b}=other"),
        ],
    );
    json(&o);
    // the capture counts the device rows: their sum, not devices + adapter (twice as much)
    let out = d.join("esx.capture");
    let o = probe(&["import", "esxtop", fs, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ra, wa) = of(&out, &a);
    let (rb, wb) = of(&out, &b);
    assert_eq!((ra + rb, wa + wb), (reads, writes));
    assert_eq!(
        of(&out, "EsxAdapter(vmhba1)"),
        (reads, writes),
        "the adapter row is the sum of its devices'"
    );
    assert_eq!(counted(&out), (reads, writes), "not devices + adapter");
    let topo: i64 = db(&out)
        .query_row(
            "SELECT COUNT(*) FROM topology WHERE holder='EsxAdapter(vmhba1)' AND kind LIKE 'another view%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(topo, 2, "the capture's topology keeps the views");
}

#[test]
fn node_exporter_partitions_and_dm_volumes_are_not_counted_on_their_disk() {
    let Some(src) = testenv::realdata(
        "node_exporter_partitions_and_dm_volumes_are_not_counted_on_their_disk",
        "node_exporter/node_exporter_e2e-output_linux.prom",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(src).unwrap();
    // sda and dm-0 (a volume on it) advance together, by uneven steps (so that the numbers
    // show dm-0 tracks sda); every other device stays level
    let inc = |name: &str, labels: &str| -> f64 {
        let (sda, dm0) = (labels.contains("\"sda\""), labels.contains("\"dm-0\""));
        match (name, sda, dm0) {
            ("node_disk_reads_completed_total", true, _) => 500.0,
            ("node_disk_read_bytes_total", true, _) => 500.0 * 4096.0,
            ("node_disk_writes_completed_total", true, _) => 200.0,
            ("node_disk_written_bytes_total", true, _) => 200.0 * 4096.0,
            ("node_disk_reads_completed_total", _, true) => 300.0,
            ("node_disk_read_bytes_total", _, true) => 300.0 * 4096.0,
            ("node_disk_writes_completed_total", _, true) => 150.0,
            ("node_disk_written_bytes_total", _, true) => 150.0 * 4096.0,
            _ => 0.0,
        }
    };
    let d = TempDir::new("views-node");
    let dir = d.join("scrapes");
    std::fs::create_dir_all(&dir).unwrap();
    let t0 = 1_764_000_000i64;
    let steps = [0usize, 1, 3, 4, 8];
    for (k, s) in steps.iter().enumerate() {
        let t = t0 + 15 * k as i64;
        std::fs::write(
            dir.join(format!("scrape-{t}.prom")),
            advance(&text, *s, &inc),
        )
        .unwrap();
    }
    let ds = dir.to_str().unwrap();
    let pv = json(&preview("node-exporter", &[ds], &[]));
    assert_eq!(role(&pv, "sda").0, "backing");
    assert_eq!(role(&pv, "mmcblk0").0, "backing");
    let (r, why) = role(&pv, "dm-0");
    assert_eq!(r, "other", "{why}");
    assert!(why.contains("proposed on sda from the numbers"), "{why}");
    for dm in ["dm-1", "dm-2", "dm-3", "dm-4", "dm-5"] {
        assert_eq!(role(&pv, dm).0, "other", "{dm}");
    }
    let st = edges(&pv);
    for e in [
        ("mmcblk0p1", "mmcblk0", "partition"),
        ("mmcblk0p2", "mmcblk0", "partition"),
        ("dm-0", "sda", "from the numbers"),
    ] {
        assert!(
            st.contains(&(e.0.into(), e.1.into(), e.2.into())),
            "{e:?}: {st:?}"
        );
    }
    // counting dm-0 and sda is refused with the sentence naming the pair
    let o = preview("node-exporter", &[ds], &["--role", "dm-0=backing"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("dm-0 and sda would both be counted, but dm-0 sits on sda"),
        "{err}"
    );
    // the capture counts sda once: its own I/Os, not sda + dm-0
    let out = d.join("node.capture");
    let o = probe(&[
        "import",
        "node-exporter",
        ds,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = *steps.last().unwrap() as i64;
    assert_eq!(of(&out, "sda"), (500 * n, 200 * n));
    assert_eq!(of(&out, "dm-0"), (300 * n, 150 * n));
    assert_eq!(counted(&out), (500 * n, 200 * n), "not sda + dm-0");
}

/// Two node_exporter instances in a real Prometheus (backfilled with `promtool tsdb
/// create-blocks-from openmetrics`), each with `sda`, its partition `sda1` and `dm-0` whose
/// reads track sda's: per instance the disk is counted, `sda1` and `dm-0` are listed on that
/// instance's `sda` (never the other's), counting dm-0 too is refused, and each host's capture
/// (`--out-dir`) keeps its own stack.
#[test]
fn prometheus_stacks_the_devices_of_each_instance() {
    let test = "prometheus_stacks_the_devices_of_each_instance";
    if common::skip_unless_root_with(&["prometheus"], test) {
        return;
    }
    if !common::has("promtool") {
        common::skip(
            test,
            "'promtool' is not installed (apt-get install -y prometheus)",
        );
        return;
    }
    use std::fmt::Write as _;
    const POINTS: i64 = 40;
    let dir = TempDir::new("views-prom");
    let now = common::prom::now_s() as i64;
    let t0 = (now - 2 * 3600) / 60 * 60;
    let t1 = t0 + POINTS * 60;
    // sda's reads by uneven steps; dm-0 does 2/5 of them; sda1 nothing
    let sda: Vec<i64> = (0..=POINTS)
        .scan(0i64, |c, k| {
            *c += 100 + (k * 37 % 11) * 50;
            Some(*c)
        })
        .collect();
    let insts = ["node-a:9100", "node-b:9100"];
    let mut om = String::new();
    for (fam, mul) in [
        ("node_disk_reads_completed", 1),
        ("node_disk_read_bytes", 4096),
        ("node_disk_writes_completed", 0),
        ("node_disk_written_bytes", 0),
    ] {
        writeln!(om, "# TYPE {fam} counter").unwrap();
        for inst in insts {
            for (dev, share) in [("sda", 5), ("sda1", 0), ("dm-0", 2)] {
                for (k, r) in sda.iter().enumerate() {
                    writeln!(
                        om,
                        "{fam}_total{{device=\"{dev}\",instance=\"{inst}\",job=\"node\"}} {} {}",
                        r * share / 5 * mul,
                        t0 + 60 * k as i64
                    )
                    .unwrap();
                }
            }
        }
    }
    om.push_str("# EOF\n");
    let omf = dir.join("nodes.om");
    std::fs::write(&omf, om).unwrap();
    let o = std::process::Command::new("promtool")
        .args(["tsdb", "create-blocks-from", "openmetrics"])
        .arg(&omf)
        .arg(dir.join("tsdb"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (mut d, port) = common::prom::start_prometheus(&dir.0, &[], &[]);
    common::wait_for(
        "Prometheus to load the backfilled blocks",
        std::time::Duration::from_secs(60),
        || {
            d.alive();
            common::prom::query(
                port,
                "count(node_disk_reads_completed_total{job=\"node\"})",
                Some(t1 as f64),
            )
            .first()
            .and_then(|r| r["value"][1].as_str().map(|v| v == "6"))
            .unwrap_or(false)
        },
    );
    let iso = |t: i64| {
        let o = std::process::Command::new("date")
            .args(["-u", "-d", &format!("@{t}"), "+%Y-%m-%dT%H:%M:%SZ"])
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap().trim().to_string()
    };
    let url = format!("http://127.0.0.1:{port}");
    let (from, to) = (iso(t0), iso(t1));
    let base = [
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
        "--hosts",
        "{job=\"node\"}",
    ];
    let run = |extra: &[&str]| probe(&[&base[..], extra].concat());
    let pv = json(&run(&["--preview", "--json"]));
    let st = edges(&pv);
    for inst in insts {
        assert_eq!(role(&pv, &format!("{inst}/sda")).0, "backing");
        for v in ["sda1", "dm-0"] {
            let (r, why) = role(&pv, &format!("{inst}/{v}"));
            assert_eq!(r, "other", "{inst}/{v}: {why}");
        }
        for (h, kind) in [("sda1", "partition"), ("dm-0", "from the numbers")] {
            assert!(
                st.contains(&(format!("{inst}/{h}"), format!("{inst}/sda"), kind.into())),
                "{inst}/{h}: {st:?}"
            );
        }
    }
    assert_eq!(st.len(), 4, "nothing stacked across instances: {st:?}");
    let o = run(&["--role", "node-b:9100/dm-0=backing", "--preview", "--json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("node-b:9100/dm-0 and node-b:9100/sda would both be counted"),
        "{err}"
    );
    // one capture per host, each with its own stack, sda counted once
    let out = dir.join("hosts");
    let o = run(&["--out-dir", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cap = out.join("node-a_9100.capture");
    let topo: Vec<(String, String, String)> = {
        let c = db(&cap);
        let mut s = c
            .prepare("SELECT holder, slave, kind FROM topology ORDER BY holder")
            .unwrap();
        s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(
        topo,
        vec![
            ("dm-0".into(), "sda".into(), "from the numbers".into()),
            ("sda1".into(), "sda".into(), "partition".into()),
        ]
    );
    assert_eq!(counted(&cap).0, of(&cap, "sda").0, "not sda + dm-0");
    assert!(of(&cap, "dm-0").0 > 0);
}
