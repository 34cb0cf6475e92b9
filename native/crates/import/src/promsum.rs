//! `import prometheus --fleet-summary FILE`: the fleet's figures computed by the server (PromQL
//! pushdown) instead of pulling every series (docs/import.md § Fleet summary). The probe only
//! fetches each host's sums over its devices, not a device's series; the
//! engine (`fleetOfSummary`) turns them into the fleet view's figures and their words.
//!
//! An interval is the difference between two successive samples at the step, as `import
//! prometheus` reads them (`x - x offset STEP` evaluated at each step: the last sample at or
//! before it, within the server's lookback): the counters' increase over `(t - STEP, t]`. A
//! host's group is the devices an import counts: a node_exporter host's whole disks (its dm/md
//! volumes and partitions sit on them and are not counted, linux/stack.rs), else its stacked
//! devices; a windows_exporter host's disks, else its volumes (promwin.rs), `_Total` never.
//! The counters' sums over the range are the counters at `--to` minus at `--from` (the
//! intervals' increases telescope: the counters at two moments); the counts of intervals, each host's
//! peak and the per-moment sum are made here from each host's group summed by the server at
//! every step (promgrid.rs: range queries, a day at most a piece); the sums of a host whose
//! counters went back are `sum_over_time` of subqueries (promsums.rs).

use std::collections::BTreeMap;

use super::promfetch::PromOpts;
use super::promhttp::Client;
use super::promq::Q;
use super::promql;
use super::time;
use crate::error::{ProbeError, Result};

/// Stacked devices: what the applications use (`linux_role` "front").
pub const FRONT_RE: &str = "(dm-|md|bcache|dev253-|dev9-|flashcache).*";
/// Not a whole disk: stacked devices, loop/RAM/optical/network devices and partitions (`linux_role`).
pub const NOT_BACKING_RE: &str = "(dm-|md|bcache|dev253-|dev9-|flashcache|loop|ram|zram|sr|fd|nbd).*|(nvme|mmcblk|cciss/).*p[0-9]+|(sd|vd|xvd|hd|dasd)[^0-9]*[0-9]+";

/// The latency targets whose breaking intervals are counted: the `generic` preset's (reads and
/// writes, 20 ms), the targets the fleet view grades with.
pub const BREAKING_MS: f64 = 20.0;

/// Longest piece of the range one subquery (a reset host's sums) covers.
const PIECE_MS: i64 = 86_400_000;

pub(super) const COUNTERS: [(&str, &str, f64); 6] = [
    ("reads", "node_disk_reads_completed_total", 1.0),
    ("writes", "node_disk_writes_completed_total", 1.0),
    ("readBytes", "node_disk_read_bytes_total", 1.0),
    ("writeBytes", "node_disk_written_bytes_total", 1.0),
    ("readTimeMs", "node_disk_read_time_seconds_total", 1000.0),
    ("writeTimeMs", "node_disk_write_time_seconds_total", 1000.0),
];

pub(super) fn secs(ms: i64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

/// The selector of one metric over the `--hosts` matchers and a device regex.
pub(super) fn sel(metric: &str, o: &PromOpts, device: (&'static str, &str)) -> String {
    let mut m = o.matchers.clone();
    m.push(promql::Matcher {
        label: "device".into(),
        op: device.0,
        value: device.1.into(),
    });
    if metric.contains('|') {
        format!(
            "{{__name__=~{},{}}}",
            promql::quote(metric),
            promql::render(&m)
        )
    } else {
        format!("{metric}{{{}}}", promql::render(&m))
    }
}

/// A host's group's increase of the counters `idx` ([`COUNTERS`] indices, added together) over
/// each interval, by `instance`: a node_exporter host's whole disks (the one layer an import
/// counts: its stacked volumes and partitions sit on them, linux/stack.rs), else, on a host with
/// no whole disk, its stacked devices; a windows_exporter host's disks, else its volumes
/// (promwin.rs); summed over the group before the difference (one subtraction a host, not a
/// device); an interval where the group's sum went backwards (a reset) gives nothing.
pub fn group(idx: &[usize], o: &PromOpts, step_ms: i64) -> String {
    let d = |s: String| {
        format!(
            "(sum by (instance) ({s}) - sum by (instance) ({s} offset {}s))",
            step_ms / 1000
        )
    };
    let node: Vec<&str> = idx.iter().map(|&i| COUNTERS[i].1).collect();
    let node = node.join("|");
    let back = d(sel(&node, o, ("!~", NOT_BACKING_RE)));
    let front = d(sel(&node, o, ("=~", FRONT_RE)));
    let [disks, volumes] = super::promwin::groups(idx, o);
    let g = format!(
        "(({back} or {front} or {} or {}) >= 0)",
        d(disks),
        d(volumes)
    );
    let scale = idx.first().map_or(1.0, |&i| COUNTERS[i].2);
    if scale == 1.0 {
        g
    } else {
        format!("({g} * {scale})")
    }
}

pub(super) fn g(name: &str, o: &PromOpts, step_ms: i64) -> String {
    let i = COUNTERS.iter().position(|c| c.0 == name).unwrap_or(0);
    group(&[i], o, step_ms)
}

/// One host's sums and counts over the range.
#[derive(serde::Serialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct HostSums {
    pub host: String,
    pub devices: u64,
    /// Intervals with reads and writes counted.
    pub ok_intervals: u64,
    pub reads: f64,
    pub writes: f64,
    pub read_bytes: f64,
    pub write_bytes: f64,
    pub read_time_ms: f64,
    pub write_time_ms: f64,
    /// Intervals with at least one read / write: counted on a host with a breaking interval of
    /// that kind only (else 0: the grade does not need them, no interval breaking is 0 %).
    pub checked_read: u64,
    pub checked_write: u64,
    /// Of those, intervals whose average is at or over [`BREAKING_MS`].
    pub breaking_read: u64,
    pub breaking_write: u64,
    /// The host's highest interval IOPS.
    pub peak_iops: Option<f64>,
    /// Intervals where the host's I/O counters went back (a reset): its sums are then added
    /// interval by interval, leaving those out, as an import does.
    pub reset_intervals: u64,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PeakHost {
    pub host: String,
    pub iops: f64,
}

/// What `--fleet-summary` writes (docs/import.md § Fleet summary).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub format: &'static str,
    pub version: u32,
    pub url: String,
    pub selector: String,
    pub start_ms: i64,
    pub end_ms: i64,
    pub step_ms: i64,
    pub breaking_ms: f64,
    pub hosts: Vec<HostSums>,
    /// The per-moment sum of the hosts' IOPS: interval starts and values.
    pub moment_start_ms: Vec<i64>,
    pub moment_iops: Vec<f64>,
    /// Every host's IOPS at the first highest moment (the engine names the largest).
    pub peak_hosts: Vec<PeakHost>,
    pub queries: usize,
    pub bytes: usize,
    /// The server's own evaluation time (s, Σ over the queries: some ran at once) and the
    /// samples it read, where it says (`stats=all`: Prometheus); 0 where it does not.
    pub server_eval_s: f64,
    pub server_samples: u64,
}

/// The pieces `(end of piece, its length)` of the range, each at most [`PIECE_MS`].
pub(super) fn pieces(o: &PromOpts) -> Vec<(i64, i64)> {
    let mut v = Vec::new();
    let mut a = o.start_ms;
    while a < o.end_ms {
        let b = (a + PIECE_MS).min(o.end_ms);
        v.push((b, b - a));
        a = b;
    }
    v
}

/// Read the fleet's summary from the server. The range must start and end on multiples of the
/// step (the server's steps are aligned to the epoch).
pub fn summarize(o: &PromOpts) -> Result<Summary> {
    let step = o.step_ms.unwrap_or(60_000);
    if step % 1000 != 0 || o.start_ms % step != 0 || o.end_ms % step != 0 {
        return Err(ProbeError::Usage(format!(
            "--fleet-summary needs --from and --to on multiples of --step ({} s) and a whole number of seconds: the server's steps are aligned to it (from {}, to {})",
            step / 1000,
            time::iso(o.start_ms),
            time::iso(o.end_ms)
        )));
    }
    let c = Client::new(&o.url, &o.http)?;
    let mut q = Q {
        c: &c,
        queries: 0,
        bytes: 0,
        eval_s: 0.0,
        samples: 0,
    };
    let mut hosts: BTreeMap<String, HostSums> = BTreeMap::new();
    // the counters' sums and each host's devices: the counters at --from and at --to
    super::promsums::telescoped(&mut q, o, &mut hosts)?;
    // the per-interval figures: each host's group summed at each step by the server
    let m = super::promgrid::per_interval(&mut q, o, &mut hosts)?;
    for h in hosts.values_mut() {
        // the intervals with a read (a write) are a grade's only on a host with one breaking
        if h.breaking_read == 0 {
            h.checked_read = 0;
        }
        if h.breaking_write == 0 {
            h.checked_write = 0;
        }
    }
    // a host whose counters went back in the range: its sums interval by interval
    super::promsums::exact_where_reset(&mut q, o, &mut hosts)?;
    let (starts, iops, peak_hosts) = (m.starts, m.iops, m.peak_hosts);
    let hosts: Vec<HostSums> = hosts
        .into_iter()
        .map(|(host, h)| HostSums { host, ..h })
        .filter(|h| h.devices > 0 || h.ok_intervals > 0)
        .collect();
    if hosts.is_empty() {
        return Err(ProbeError::Import(format!(
            "Prometheus at {} has no node_disk_* or windows_*_disk_* samples for {{{}}} between {} and {}: check the time range and the host selector",
            o.url,
            promql::render(&o.matchers),
            time::iso(o.start_ms),
            time::iso(o.end_ms)
        )));
    }
    Ok(Summary {
        format: "cacheproof-fleet-summary",
        version: 1,
        url: o.url.clone(),
        selector: format!("{{{}}}", promql::render(&o.matchers)),
        start_ms: o.start_ms,
        end_ms: o.end_ms,
        step_ms: step,
        breaking_ms: BREAKING_MS,
        hosts,
        moment_start_ms: starts,
        moment_iops: iops,
        peak_hosts,
        queries: q.queries,
        bytes: q.bytes,
        server_eval_s: q.eval_s,
        server_samples: q.samples,
    })
}

/// `import prometheus --fleet-summary FILE`: read the summary and write it (a temporary file
/// renamed at the end); prints one line, or with `--json` what it wrote without the series.
pub fn write(o: &super::write::Options, file: &std::path::Path, json: bool) -> Result<()> {
    let Some(p) = o
        .parse
        .prometheus
        .as_ref()
        .filter(|_| o.kind == super::Kind::Prometheus)
    else {
        return Err(ProbeError::Usage(
            "--fleet-summary is for import prometheus (--url URL --from T --to T)".into(),
        ));
    };
    if !p.instances.is_empty() {
        return Err(ProbeError::Usage(
            "--fleet-summary sums the hosts --hosts selects: use --hosts '{instance=~\"a|b\"}' rather than --instance".into(),
        ));
    }
    let started = std::time::Instant::now();
    let s = summarize(p)?;
    let tmp = file.with_extension("json.part");
    let io = |e: std::io::Error| {
        ProbeError::Usage(format!(
            "--fleet-summary {}: cannot be written: {e}",
            file.display()
        ))
    };
    std::fs::write(&tmp, serde_json::to_vec(&s).unwrap_or_default()).map_err(io)?;
    std::fs::rename(&tmp, file).map_err(io)?;
    let secs = started.elapsed().as_secs_f64();
    if json {
        let v = serde_json::json!({
            "out": file.display().to_string(), "hosts": s.hosts.len(), "moments": s.moment_iops.len(),
            "queries": s.queries, "bytes": s.bytes, "seconds": secs,
        });
        println!("{v}");
    } else {
        println!(
            "wrote {}: {} hosts, {} moments, {} queries, {} bytes read in {secs:.1} s",
            file.display(),
            s.hosts.len(),
            s.moment_iops.len(),
            s.queries,
            s.bytes
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn pieces_cover_the_range_a_day_at_most() {
        let o = PromOpts {
            start_ms: 0,
            end_ms: 2 * PIECE_MS + 60_000,
            ..PromOpts::default()
        };
        assert_eq!(
            pieces(&o),
            vec![
                (PIECE_MS, PIECE_MS),
                (2 * PIECE_MS, PIECE_MS),
                (2 * PIECE_MS + 60_000, 60_000)
            ]
        );
    }
}
