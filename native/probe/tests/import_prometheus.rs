//! `import prometheus` (and its old spelling `import --prometheus`) against real daemons (root, Debian's `prometheus` and
//! `prometheus-node-exporter`, fio, a loop device): node_exporter on a free loopback port with
//! only the diskstats collector (and only the test's loop device), Prometheus scraping it every
//! second with its own config and storage in a temp dir; fio does a known number of direct I/Os
//! on the loop device; the import of the range finds fio's I/O count within 2%. Both daemons
//! are killed and the loop device detached at the end, even on failure. Also: an unreachable
//! server is exit 13 with one sentence naming the URL and the query, and no capture is left.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::prom::{free_port, now_s, start_prometheus, wait_scrapes_after, Daemon};
use common::{one_sentence, probe, sh, skip_unless_root_with, LoopGuard, TempDir};

/// The series of the device's reads counter.
fn reads(dev: &str) -> String {
    format!("node_disk_reads_completed_total{{device=\"{dev}\"}}")
}

fn fio_ios(dev: &str, out: &Path) -> (i64, i64) {
    let o = Command::new("fio")
        .args([
            "--name=prom",
            &format!("--filename=/dev/{dev}"),
            "--direct=1",
            "--ioengine=psync",
            "--rw=randrw",
            "--rwmixread=70",
            "--bs=4k",
            "--size=32M",
            "--io_size=12M",
            "--randrepeat=1",
            "--rate_iops=800",
            "--output-format=json",
            &format!("--output={}", out.display()),
        ])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "fio: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    let job = &v["jobs"][0];
    assert_eq!(job["error"], 0, "fio job error");
    (
        job["read"]["total_ios"].as_i64().unwrap(),
        job["write"]["total_ios"].as_i64().unwrap(),
    )
}

fn capture_ios(cap: &Path, dev: &str) -> (i64, i64, i64, i64) {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row(
        "SELECT coalesce(sum(reads),0), coalesce(sum(writes),0), sum(status<>'ok'), count(*)
         FROM intervals i JOIN devices d ON d.id=i.device_id WHERE d.name=?1",
        [dev],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .unwrap()
}

#[test]
fn prometheus_range_matches_fio() {
    if skip_unless_root_with(
        &["fio", "losetup", "prometheus", "prometheus-node-exporter"],
        "prometheus_range_matches_fio",
    ) {
        return;
    }
    let d = TempDir::new("prom");
    let backing = d.join("backing.img");
    sh(&format!("truncate -s 64M {}", backing.display()));
    let lo = sh(&format!(
        "losetup -f --show --direct-io=on {}",
        backing.display()
    ));
    let _lg = LoopGuard(lo.clone());
    let dev = lo.trim_start_matches("/dev/").to_string();
    // One fio I/O, one request: no merging on this device.
    let _ = std::fs::write(format!("/sys/block/{dev}/queue/nomerges"), "2");

    let pe = free_port();
    let mut ne = Daemon(
        Command::new("prometheus-node-exporter")
            .args([
                &format!("--web.listen-address=127.0.0.1:{pe}"),
                "--collector.disable-defaults",
                "--collector.diskstats",
                "--collector.diskstats.device-exclude=",
                &format!("--collector.diskstats.device-include=^{dev}$"),
            ])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(d.join("node_exporter.log")).unwrap())
            .spawn()
            .unwrap(),
        "prometheus-node-exporter",
    );
    let (mut pr, pp) = start_prometheus(&d.0, &[("node", vec![format!("127.0.0.1:{pe}")])], &[]);
    // Two scrapes of the device before the range starts.
    wait_scrapes_after(pp, &reads(&dev), 0.0, 2, &mut [&mut ne, &mut pr]);
    let start = now_s().floor();
    // fio starts once a scrape made after `start` is stored: the range's first value (the last
    // scrape at or before `start`) then surely read the counters before fio's first I/O
    wait_scrapes_after(pp, &reads(&dev), start, 1, &mut [&mut ne, &mut pr]);
    let (r, w) = fio_ios(&dev, &d.join("fio.json"));
    let fio_end = now_s();
    wait_scrapes_after(pp, &reads(&dev), fio_end, 2, &mut [&mut ne, &mut pr]);
    let end = now_s().ceil();

    let url = format!("http://127.0.0.1:{pp}");
    for step in [Some("1"), None] {
        let cap = d.join(&format!("prom-{}.capture", step.unwrap_or("auto")));
        let (s, e) = (format!("{start}"), format!("{end}"));
        // the old spellings (--prometheus, --start, --end) with --step 1; the issue's
        // (prometheus --url --hosts --from --to) with the step found from the scrapes
        let mut args = if step.is_some() {
            vec!["import", "--prometheus", &url, "--start", &s, "--end", &e]
        } else {
            vec![
                "import",
                "prometheus",
                "--url",
                &url,
                "--hosts",
                r#"{job="node"}"#,
                "--from",
                &s,
                "--to",
                &e,
            ]
        };
        args.extend(["--out", cap.to_str().unwrap(), "--json"]);
        if let Some(st) = step {
            args.extend(["--step", st]);
        }
        let o = probe(&args);
        assert!(
            o.status.success(),
            "import: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let (cr, cw, not_ok, n) = capture_ios(&cap, &dev);
        let (fio_total, cap_total) = ((r + w) as f64, (cr + cw) as f64);
        let diff = (cap_total - fio_total).abs() / fio_total;
        println!(
            "step {:?}: fio {r} reads + {w} writes = {fio_total}; capture {cr} + {cw} = {cap_total} over {n} intervals ({not_ok} not ok): {:+.3}%",
            step,
            (cap_total - fio_total) / fio_total * 100.0
        );
        assert!(n > 3, "too few intervals: {n}");
        assert_eq!(not_ok, 0, "intervals not ok");
        assert!(
            diff <= 0.02,
            "capture {cap_total} I/Os vs fio {fio_total}: {:.2}% apart",
            diff * 100.0
        );
        // The analysis reads it as a capture: source and host recorded.
        let c = rusqlite::Connection::open(&cap).unwrap();
        let src: String = c
            .query_row("SELECT value FROM meta WHERE key='source'", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(src, "import:prometheus");
        let name: String = c
            .query_row("SELECT name FROM import_files", [], |r| r.get(0))
            .unwrap();
        assert_eq!(name, url);
    }
    // An instance that is not there: a clear refusal, nothing written.
    let cap = d.join("none.capture");
    let (s, e) = (format!("{start}"), format!("{end}"));
    let o = probe(&[
        "import",
        "--prometheus",
        &url,
        "--start",
        &s,
        "--end",
        &e,
        "--instance",
        "no-such-host:9100",
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(12));
    let msg = one_sentence(&o);
    assert!(
        msg.contains("no-such-host:9100") && msg.contains(&url),
        "{msg}"
    );
    assert!(!cap.exists());
}

#[test]
fn unreachable_prometheus_is_one_sentence_and_exit_13() {
    let d = TempDir::new("prom-down");
    let port = free_port(); // nothing listens there once the listener is dropped
    let url = format!("http://127.0.0.1:{port}");
    let cap = d.join("x.capture");
    let o = probe(&[
        "import",
        "--prometheus",
        &url,
        "--start",
        "2024-03-14T10:00:00Z",
        "--end",
        "2024-03-14T11:00:00Z",
        "--step",
        "15",
        "--out",
        cap.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(13),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let msg = one_sentence(&o);
    assert!(msg.contains(&url), "names the URL: {msg}");
    assert!(
        msg.contains("node_disk_reads_completed_total"),
        "names the query: {msg}"
    );
    let left: Vec<_> = std::fs::read_dir(&d.0).unwrap().collect();
    assert!(left.is_empty(), "nothing left behind");
}

#[test]
fn prometheus_usage_errors_are_exit_2() {
    for (args, want) in [
        (
            vec![
                "import",
                "--prometheus",
                "http://127.0.0.1:1",
                "--end",
                "10",
                "--out",
                "/tmp/x",
            ],
            "--start",
        ),
        (
            vec![
                "import",
                "--prometheus",
                "http://127.0.0.1:1",
                "--start",
                "10",
                "--out",
                "/tmp/x",
            ],
            // (clap names the flag; --end is its alias, as its --help says)
            "not provided: --to <TIME>",
        ),
        (
            vec![
                "import",
                "--prometheus",
                "127.0.0.1:9090",
                "--start",
                "1",
                "--end",
                "10",
            ],
            "http://",
        ),
        (
            vec!["import", "perfmon", "x.csv", "--step", "10"],
            // --step is for a Prometheus server: clap names --url (its alias --prometheus)
            "--url <URL>",
        ),
    ] {
        let o = probe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let m = one_sentence(&o);
        assert!(m.contains(want), "{args:?}: {m}");
    }
}
