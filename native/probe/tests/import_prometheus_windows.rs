//! windows_exporter through Debian's real Prometheus, and fleets: a real windows_exporter
//! scrape (tests/fixtures/windows_exporter/, an excerpt of netdata's test data: windows_exporter
//! 0.20.0 on Windows 10, volumes C: and HarddiskVolume4) is served to Prometheus by two loopback
//! HTTP servers, two "hosts", its counters advancing by a fixed amount at each scrape (host A:
//! 100 reads and 0.5 s of read latency a scrape, 5 ms a read; host B: 200 reads and 0.4 s, 2 ms;
//! the busy-time counters `read_seconds_total` advance otherwise, so that using them as latency
//! would show). Then `import prometheus` of the range:
//! - one fleet capture (`--out`): devices `INSTANCE/LogicalDisk(C:)`, the `fleet` meta; each
//!   volume's reads summed over the capture equal the counter's increase as Prometheus answers
//!   it, and every interval's latency is Δ(read_latency_seconds_total) / Δ(reads_total);
//! - one capture per host (`--out-dir`), each with the same intervals as its host in the fleet;
//! - each volume's size and free bytes (`volume_capacity`, v7) at every step equal to the
//!   scrape's `windows_logical_disk_size_bytes` / `_free_bytes`, in the fleet (`HOST/C:`, linked
//!   to `HOST/LogicalDisk(C:)`) and in each host's own capture (`C:`);
//! - a selector that picks one host; one that picks none (exit 12, naming the selector).
//!
//! Needs `prometheus` (outside CI a missing one is a counted SKIP).
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::prom::{now_s, playback, range_args, start_prometheus, value, wait_scrapes_after};
use common::{has, one_sentence, probe, skip, TempDir};

const FIXTURE: &str = include_str!("fixtures/windows_exporter/netdata-v0.20.0-logical-disk.prom");

/// Per-scrape increments of host A (`fast` false) or B: C: only (HarddiskVolume4 stays idle).
fn inc(b: bool) -> impl Fn(&str, &str) -> f64 + Send + Sync + 'static {
    move |m: &str, labels: &str| {
        if !labels.contains("\"C:\"") {
            return 0.0;
        }
        let k = if b { 2.0 } else { 1.0 };
        match m.trim_start_matches("windows_logical_disk_") {
            "reads_total" => 100.0 * k,
            "writes_total" => 40.0 * k,
            "read_bytes_total" => 409_600.0 * k,
            "write_bytes_total" => 163_840.0 * k,
            "read_latency_seconds_total" => {
                if b {
                    0.4
                } else {
                    0.5
                }
            }
            "write_latency_seconds_total" => 0.08 * k,
            "read_seconds_total" => 0.05,
            "write_seconds_total" => 0.01,
            "idle_seconds_total" => 0.6,
            "read_write_latency_seconds_total" => 0.58,
            "split_ios_total" => 1.0,
            _ => 0.0,
        }
    }
}

/// Device name, size and free bytes of a `volume_capacity` row.
type CapRow = (Option<String>, Option<i64>, Option<i64>);

/// The distinct rows of `vol` in time order, and how many rows there are.
fn capacity(cap: &Path, vol: &str) -> (Vec<CapRow>, usize) {
    let c = rusqlite::Connection::open_with_flags(cap, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap();
    let mut st = c
        .prepare(
            "SELECT d.name, v.size_bytes, v.free_bytes FROM volume_capacity v
             LEFT JOIN devices d ON d.id = v.device_id WHERE v.volume = ?1 ORDER BY v.utc_ms",
        )
        .unwrap();
    let mut v: Vec<CapRow> = st
        .query_map([vol], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let n = v.len();
    v.dedup();
    (v, n)
}

/// start, end, status, reads, read_time_ms, busy_ms of one interval.
type Row = (i64, i64, String, Option<i64>, Option<i64>, Option<i64>);

fn rows(cap: &Path, dev: &str) -> Vec<Row> {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c
        .prepare(
            "SELECT start_utc_ms, end_utc_ms, status, reads, read_time_ms, busy_ms FROM intervals i
             JOIN devices d ON d.id = i.device_id WHERE d.name = ?1 ORDER BY start_utc_ms",
        )
        .unwrap();
    st.query_map([dev], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        ))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

fn meta(cap: &Path, key: &str) -> Option<String> {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .ok()
}

fn devices(cap: &Path) -> Vec<(String, String)> {
    let c = rusqlite::Connection::open(cap).unwrap();
    let mut st = c
        .prepare("SELECT name, role FROM devices ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn windows_exporter_fleet_through_real_prometheus() {
    if !has("prometheus")
        && skip(
            "windows_exporter_fleet_through_real_prometheus",
            "'prometheus' is not installed (apt-get install prometheus)",
        )
    {
        return;
    }
    let d = TempDir::new("prom-win");
    let (a, b) = (
        playback(FIXTURE.to_string(), inc(false)),
        playback(FIXTURE.to_string(), inc(true)),
    );
    let (ia, ib) = (
        format!("127.0.0.1:{}", a.port),
        format!("127.0.0.1:{}", b.port),
    );
    let (mut pr, pp) = start_prometheus(&d.0, &[("win", vec![ia.clone(), ib.clone()])], &[]);
    let ser =
        |i: &str| format!("windows_logical_disk_reads_total{{instance=\"{i}\",volume=\"C:\"}}");
    wait_scrapes_after(pp, &ser(&ia), 0.0, 2, &mut [&mut pr]);
    wait_scrapes_after(pp, &ser(&ib), 0.0, 2, &mut [&mut pr]);
    let from = now_s().ceil();
    // a range of 6 steps or more: 8 scrapes of each host after `from` (one a second)
    wait_scrapes_after(pp, &ser(&ia), from, 8, &mut [&mut pr]);
    wait_scrapes_after(pp, &ser(&ib), from, 8, &mut [&mut pr]);
    let to = now_s().floor();
    wait_scrapes_after(pp, &ser(&ia), to, 1, &mut [&mut pr]);
    wait_scrapes_after(pp, &ser(&ib), to, 1, &mut [&mut pr]);
    let url = format!("http://127.0.0.1:{pp}");
    let (f, t) = (format!("{from}"), format!("{to}"));
    let base = range_args(&url, &f, &t, "1");

    // the import of the range with these hosts and outputs
    let import = |hosts: &str, out: &[&str]| {
        let mut args = base.to_vec();
        args.extend(["--hosts", hosts]);
        args.extend(out.iter().copied());
        probe(&args)
    };
    let ok = |o: std::process::Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };

    // The real file's values reach Prometheus: host A's C: reads at `from` are the scrape's
    // 350 593 plus 100 a scrape.
    let r0 = value(pp, &ser(&ia), from);
    assert!(r0 >= 350_593.0 && (r0 - 350_593.0) % 100.0 == 0.0, "{r0}");

    // 1. One fleet capture.
    let fleet = d.join("fleet.capture");
    ok(import(
        r#"{job="win"}"#,
        &["--out", fleet.to_str().unwrap(), "--json"],
    ));
    let devs = devices(&fleet);
    for i in [&ia, &ib] {
        assert!(
            devs.contains(&(format!("{i}/LogicalDisk(C:)"), "backing".into())),
            "{devs:?}"
        );
        assert!(
            devs.contains(&(
                format!("{i}/LogicalDisk(HarddiskVolume4)"),
                "backing".into()
            )),
            "{devs:?}"
        );
    }
    let fm: serde_json::Value =
        serde_json::from_str(&meta(&fleet, "fleet").expect("fleet meta")).unwrap();
    assert_eq!(fm.as_array().unwrap().len(), 2);
    assert_eq!(fm[0]["devices"].as_array().unwrap().len(), 2);
    let mut per_host = Vec::new();
    for (i, ms_per_read) in [(&ia, 5), (&ib, 2)] {
        let dev = format!("{i}/LogicalDisk(C:)");
        let rs = rows(&fleet, &dev);
        assert!(rs.len() >= 6, "{dev}: {} intervals", rs.len());
        let sum: i64 = rs.iter().filter_map(|r| r.3).sum();
        let want = value(pp, &ser(i), to) - value(pp, &ser(i), from);
        println!(
            "{dev}: {} intervals, {sum} reads; Prometheus increase {want}",
            rs.len()
        );
        assert_eq!(
            sum as f64, want,
            "{dev}: reads over the capture vs the counter's increase"
        );
        for (s, e, st, reads, rt, busy) in &rs {
            assert_eq!(st, "ok", "{dev} {s}");
            let (reads, rt, busy) = (reads.unwrap(), rt.unwrap(), busy.unwrap());
            // latency from the latency counter, never from the busy-time one
            assert_eq!(
                rt,
                reads * ms_per_read,
                "{dev} {s}: {rt} ms over {reads} reads"
            );
            assert!(
                (0..=e - s).contains(&busy),
                "{dev} {s}: busy {busy} of {} ms",
                e - s
            );
        }
        // the scrape's size and free bytes of C: (gauges the playback leaves as they are), at
        // every step of the range
        let (vals, n) = capacity(&fleet, &format!("{i}/C:"));
        assert!(n >= rs.len(), "{i}/C: {n} capacity rows");
        assert_eq!(
            vals,
            [(
                Some(dev.clone()),
                Some(67_938_287_616),
                Some(43_636_490_240)
            )]
        );
        per_host.push(rs);
        // the idle volume: intervals with no reads (0, not absent)
        let idle = rows(&fleet, &format!("{i}/LogicalDisk(HarddiskVolume4)"));
        assert!(idle.iter().all(|r| r.3 == Some(0) && r.4 == Some(0)));
    }

    // 2. One capture per host: each what a one-host import would write.
    let dir = d.join("hosts");
    let per_host_args = ["--out-dir", dir.to_str().unwrap(), "--json"];
    let o = ok(import(r#"{job="win"}"#, &per_host_args));
    let w: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(w["captures"].as_array().unwrap().len(), 2);
    for (k, i) in [&ia, &ib].into_iter().enumerate() {
        let cap = dir.join(format!("{}.capture", i.replace(':', "_")));
        assert!(cap.exists(), "{}", cap.display());
        assert_eq!(
            devices(&cap),
            [
                ("LogicalDisk(C:)".to_string(), "backing".to_string()),
                ("LogicalDisk(HarddiskVolume4)".into(), "backing".into())
            ]
        );
        assert_eq!(meta(&cap, "fleet"), None);
        assert_eq!(meta(&cap, "hostname").as_deref(), Some(i.as_str()));
        assert_eq!(
            capacity(&cap, "HarddiskVolume4").0,
            [(
                Some("LogicalDisk(HarddiskVolume4)".to_string()),
                Some(654_311_424),
                Some(85_983_232)
            )]
        );
        assert_eq!(
            rows(&cap, "LogicalDisk(C:)"),
            per_host[k],
            "{i}: the same intervals as in the fleet capture"
        );
    }
    // again into the same folder: refused, nothing changed
    let o = import(r#"{job="win"}"#, &per_host_args);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("already exists"));

    // 3. A selector that picks one host: an ordinary one-host capture.
    let one = d.join("one.capture");
    let sel = format!(r#"{{job="win",instance="{ia}"}}"#);
    ok(import(&sel, &["--out", one.to_str().unwrap()]));
    assert_eq!(rows(&one, "LogicalDisk(C:)"), per_host[0]);
    assert_eq!(meta(&one, "fleet"), None);

    // 4. A selector that picks none: exit 12, naming it; a bad one: exit 2 before any query.
    let none = d.join("none.capture");
    let o = import(r#"{job="nope"}"#, &["--out", none.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(12));
    let m = one_sentence(&o);
    assert!(m.contains(r#"job="nope""#) && m.contains(&url), "{m}");
    assert!(!none.exists());
    let o = import("{job=win}", &["--out", none.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let m = one_sentence(&o);
    assert!(
        m.contains("invalid value '{job=win}' for '--hosts <SELECTOR>'")
            && m.contains("column 6")
            && m.contains("quoted"),
        "{m}"
    );
}
