//! `import --prometheus` against real daemons (root, Debian's `prometheus` and
//! `prometheus-node-exporter`, fio, a loop device): node_exporter on a free loopback port with
//! only the diskstats collector (and only the test's loop device), Prometheus scraping it every
//! second with its own config and storage in a temp dir; fio does a known number of direct I/Os
//! on the loop device; the import of the range finds fio's I/O count within 2%. Both daemons
//! are killed and the loop device detached at the end, even on failure. Also: an unreachable
//! server is exit 13 with one sentence naming the URL and the query, and no capture is left.
#![allow(clippy::unwrap_used)]

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{one_sentence, probe, sh, skip_unless_root_with, LoopGuard, TempDir};

/// Kills a daemon on drop (even when the test panics).
struct Daemon(Child, &'static str);
impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn now_s() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// Instant query; the result array.
fn query(port: u16, q: &str) -> Vec<serde_json::Value> {
    let r = ureq::get(&format!("http://127.0.0.1:{port}/api/v1/query"))
        .query("query", q)
        .call();
    match r {
        Ok(r) => {
            let v: serde_json::Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
            v["data"]["result"].as_array().cloned().unwrap_or_default()
        }
        Err(_) => Vec::new(),
    }
}

/// Timestamp (s) of the newest scrape Prometheus stored for the device's reads counter.
fn last_scrape(port: u16, dev: &str) -> Option<f64> {
    query(
        port,
        &format!("timestamp(node_disk_reads_completed_total{{device=\"{dev}\"}})"),
    )
    .first()
    .and_then(|r| r["value"][1].as_str().and_then(|s| s.parse().ok()))
}

fn wait_scrapes_after(port: u16, dev: &str, t: f64, n: usize, daemons: &mut [&mut Daemon]) {
    let t0 = Instant::now();
    let mut seen = Vec::new();
    loop {
        for d in daemons.iter_mut() {
            if let Ok(Some(st)) = d.0.try_wait() {
                panic!("{} exited early ({st})", d.1);
            }
        }
        if let Some(ts) = last_scrape(port, dev) {
            let ms = (ts * 1000.0).round() as i64;
            if ts > t && !seen.contains(&ms) {
                seen.push(ms);
                if seen.len() >= n {
                    return;
                }
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "Prometheus did not store {n} scrapes of {dev} after {t} within 60 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
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

    let (pe, pp) = (free_port(), free_port());
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
    let cfg = d.join("prometheus.yml");
    std::fs::write(
        &cfg,
        format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:{pe}']\n"
        ),
    )
    .unwrap();
    let mut pr = Daemon(
        Command::new("prometheus")
            .args([
                &format!("--config.file={}", cfg.display()),
                &format!("--storage.tsdb.path={}", d.join("tsdb").display()),
                &format!("--web.listen-address=127.0.0.1:{pp}"),
            ])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(d.join("prometheus.log")).unwrap())
            .spawn()
            .unwrap(),
        "prometheus",
    );
    // Two scrapes of the device before the range starts.
    wait_scrapes_after(pp, &dev, 0.0, 2, &mut [&mut ne, &mut pr]);
    let start = now_s().floor();
    std::thread::sleep(Duration::from_millis(1200));
    let (r, w) = fio_ios(&dev, &d.join("fio.json"));
    let fio_end = now_s();
    wait_scrapes_after(pp, &dev, fio_end, 2, &mut [&mut ne, &mut pr]);
    let end = now_s().ceil();

    let url = format!("http://127.0.0.1:{pp}");
    for step in [Some("1"), None] {
        let cap = d.join(&format!("prom-{}.capture", step.unwrap_or("auto")));
        let (s, e) = (format!("{start}"), format!("{end}"));
        let mut args = vec![
            "import",
            "--prometheus",
            &url,
            "--start",
            &s,
            "--end",
            &e,
            "--out",
            cap.to_str().unwrap(),
            "--json",
        ];
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
            "--end",
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
            "--prometheus",
        ),
    ] {
        let o = probe(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let m = one_sentence(&o);
        assert!(m.contains(want), "{args:?}: {m}");
    }
}
