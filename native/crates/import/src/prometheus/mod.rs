//! Prometheus exporters' disk counters turned into a capture: node_exporter's `node_disk_*`
//! and windows_exporter's `windows_logical_disk_*` / `windows_physical_disk_*`, read from a
//! Prometheus server's HTTP API (`import prometheus --url URL`, range queries: promfetch.rs) or,
//! from text exposition scrapes (`import node-exporter FILE|DIR…`, import/scrapes.rs)
//! (docs/import.md, "prometheus").
//!
//! node_exporter reads /proc/diskstats and exports each field as a counter, sectors as bytes
//! (× 512) and milliseconds as seconds (× 0.001); [`FIELDS`] undoes that, field by field, and
//! each moment becomes a /proc/diskstats snapshot that goes through the recorder's own interval
//! computation (`delta::step`): the capture is what the recorder would have written from the
//! same counters.
//!
//! windows_exporter exports the raw PerfMon counters of each volume (LogicalDisk) and disk
//! (PhysicalDisk) as cumulative counters ([`WIN_FIELDS`]); each interval between two moments is
//! their difference: reads = Δreads_total, bytes = Δ…_bytes_total, read time = Δ
//! read_latency_seconds_total × 1000 (so the latency is Δ(read_latency_seconds_total) /
//! Δ(reads_total)), busy = Δt − Δidle_seconds_total. `windows_*_disk_read_seconds_total` is the
//! time the disk was busy reading (% Disk Read Time), **not** a latency, and is not used.
//!
//! node_exporter's metrics are in `node`, windows_exporter's in `windows`, the text
//! exposition parser in `text`.

mod capacity;
mod node;
#[cfg(test)]
mod tests;
mod text;
mod windows;

pub use capacity::{cap_metric, node_skip, CapRow, CapSeries, CAP_METRICS, SKIPPED_FSTYPES};
pub use node::{Field, FIELDS};
pub use text::{parse_text, Scrape};
pub(crate) use windows::win_field_of;
pub use windows::{pair_volumes, WinField, WinObj, WIN_FIELDS};

use node::{field_of, kernel_fields, Vals};
use windows::{win_rates, WinVals};

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::perfmon::roles;
use super::{linux_role, Device, Parsed, Rates, Sample, Unmapped};
use crate::delta::{DevSample, Snapshot};

/// Every metric name the import queries (node_exporter's, then windows_exporter's).
pub fn metric_names() -> Vec<String> {
    let mut v: Vec<String> = FIELDS.iter().map(|f| f.metric.to_string()).collect();
    for obj in [WinObj::Logical, WinObj::Physical] {
        v.extend(
            WIN_FIELDS
                .iter()
                .map(|f| format!("{}{}", obj.prefix(), f.suffix)),
        );
    }
    v.extend(CAP_METRICS.iter().map(|m| m.0.to_string()));
    v
}

/// Why a disk metric that the import does not read is left out.
fn why_not(metric: &str) -> &'static str {
    if metric.starts_with("windows_")
        && (metric.ends_with("_read_seconds_total") || metric.ends_with("_write_seconds_total"))
    {
        "the time the disk was busy reading or writing (% Disk Read/Write Time), not a latency: the latency is read_latency_seconds_total ÷ reads_total"
    } else if metric.starts_with("windows_") {
        "not a counter the capture holds (queue averages, split I/Os, information)"
    } else {
        "not a /proc/diskstats counter (information, or a figure the capture does not hold)"
    }
}

/// Series by host (`instance`) and device, and time (UTC ms).
#[derive(Debug, Default, Clone)]
pub struct Series {
    /// node_exporter: (instance, kernel device name) → time → fields.
    pub by_dev: BTreeMap<(String, String), BTreeMap<i64, Vals>>,
    /// windows_exporter: (instance, object, volume or disk label) → time → fields.
    pub win: BTreeMap<(String, WinObj, String), BTreeMap<i64, WinVals>>,
    /// Volume capacity (windows_exporter, node_exporter): (instance, volume) → series.
    pub cap: BTreeMap<(String, String), CapSeries>,
    /// Disk metrics seen that the import does not read, and why (listed, never dropped silently).
    pub other: Vec<(String, &'static str)>,
}

impl Series {
    /// One sample of a disk metric with its labels (`device` for node_exporter, `volume` or
    /// `disk` for windows_exporter); a sample without them is not a device's and is ignored.
    pub fn put(
        &mut self,
        instance: &str,
        metric: &str,
        label: impl Fn(&str) -> Option<String>,
        t: i64,
        v: f64,
    ) {
        if let Some((source, i)) = cap_metric(metric) {
            self.put_cap(instance, source, i, label, t, v);
        } else if let Some(i) = field_of(metric) {
            let Some(dev) = label("device").filter(|d| !d.is_empty()) else {
                return;
            };
            let e = self
                .by_dev
                .entry((instance.to_string(), dev))
                .or_default()
                .entry(t)
                .or_insert([None; 17]);
            e[i] = Some(v);
        } else if let Some((obj, i)) = win_field_of(metric) {
            let Some(name) = label(obj.label()).filter(|d| !d.is_empty()) else {
                return;
            };
            if name == "_Total" {
                // the sum of the other instances (older windows_exporter releases export it)
                let what = format!(
                    "{}{{{}=\"_Total\"}}",
                    obj.prefix().trim_end_matches('_'),
                    obj.label()
                );
                if !self.other.iter().any(|(m, _)| *m == what) {
                    self.other.push((
                        what,
                        "the sum of the other instances, which are imported one by one",
                    ));
                }
                return;
            }
            let e = self
                .win
                .entry((instance.to_string(), obj, name))
                .or_default()
                .entry(t)
                .or_insert([None; 8]);
            e[i] = Some(v);
        } else if !self.other.iter().any(|(m, _)| m == metric) {
            self.other.push((metric.to_string(), why_not(metric)));
        }
    }

    #[cfg(test)]
    fn put_node(&mut self, instance: &str, device: &str, metric: &str, t: i64, v: f64) {
        self.put(
            instance,
            metric,
            |l| (l == "device").then(|| device.to_string()),
            t,
            v,
        );
    }
}

/// Snapshots of node_exporter devices by time, then device name.
type Snaps = BTreeMap<i64, BTreeMap<String, DevSample>>;

/// Turn series into a parsed import: one device per host and device (named `INSTANCE/DEVICE`
/// when there are several hosts), one sample per moment. node_exporter devices give a
/// /proc/diskstats snapshot per moment (a counter that goes down gives the device a new
/// generation, its minor number, so that `delta::step` marks that interval `reset` with no
/// numbers, as the recorder does for a re-created device); windows_exporter devices give the
/// rates of each interval between two successive moments ([`win_rates`]).
pub fn to_parsed(s: &Series, format: String) -> Parsed {
    let mut p = Parsed {
        format,
        utc_offset_min: Some(0),
        tz_source: "Prometheus times are UTC".into(),
        ..Parsed::default()
    };
    let instances = instances_of(s);
    let fleet = instances.len() > 1;
    let prefix = |inst: &str| {
        if fleet {
            format!("{inst}/")
        } else {
            String::new()
        }
    };
    p.hosts = instances.clone();
    let mut snaps: Snaps = BTreeMap::new();
    for ((inst, dev), series) in &s.by_dev {
        let major = instances.iter().position(|i| i == inst).unwrap_or(0) as u32 + 1;
        add_node_device(&mut p, &mut snaps, (inst, dev), series, major, &prefix);
    }
    // windows_exporter devices: their moments join the sample times
    let first_win = p.devices.len();
    add_win_devices(s, &mut p, &prefix);
    let times: Vec<i64> = snaps
        .keys()
        .copied()
        .chain(s.win.values().flat_map(|m| m.keys().copied()))
        .collect::<BTreeSet<i64>>()
        .into_iter()
        .collect();
    let rates = win_interval_rates(s, &mut p, first_win, &times);
    add_samples(&mut p, &times, snaps, rates);
    // node_exporter devices: the device stack of each instance (linux/stack.rs's rules)
    let edges = node::stack(&mut p.devices[..first_win], &p.samples, fleet);
    p.stack.extend(edges);
    if let Some(n) = super::linux::stack::note(&p.stack) {
        p.notes.push(n);
    }
    // Windows roles as for PerfMon (perfmon/roles.rs): the disks are the backing, the volumes
    // of a host with disks are the same layer and not counted, a host without disks counts its
    // volumes; never both summed.
    let complete = roles::completeness(p.devices.len(), &p.samples);
    let notes = roles::propose(&mut p.devices[first_win..], &complete[first_win..]);
    p.notes.extend(notes);
    add_mapping(s, &mut p);
    capacity::add_rows(s, &mut p, &prefix);
    for (m, why) in &s.other {
        p.unmapped.push(Unmapped {
            what: format!("metric {m}"),
            why: (*why).into(),
        });
    }
    p
}

/// The hosts (`instance`) of every series, sorted.
fn instances_of(s: &Series) -> Vec<String> {
    s.by_dev
        .keys()
        .map(|k| k.0.clone())
        .chain(s.win.keys().map(|k| k.0.clone()))
        .chain(s.cap.keys().map(|k| k.0.clone()))
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect()
}

/// A node_exporter device (`(instance, device)`) and its snapshot at each moment, a new
/// generation after each counter that goes down.
fn add_node_device(
    p: &mut Parsed,
    snaps: &mut Snaps,
    (inst, dev): (&String, &String),
    series: &BTreeMap<i64, Vals>,
    major: u32,
    prefix: &dyn Fn(&str) -> String,
) {
    let name = format!("{}{dev}", prefix(inst));
    let (role, is_part, parent, reason) = linux_role(dev);
    p.devices.push(Device {
        name: name.clone(),
        source: format!("{{instance=\"{inst}\",device=\"{dev}\"}}"),
        role: role.into(),
        reason,
        on: None,
        is_partition: is_part,
        parent: parent.map(|x| format!("{}{x}", prefix(inst))),
        host: Some(inst.clone()),
    });
    let mut gen = 0u32;
    let mut prev: Option<&Vals> = None;
    let mut resets = 0usize;
    for (t, v) in series {
        let Some((fields, absent)) = kernel_fields(v) else {
            continue;
        };
        if let Some(pv) = prev {
            let down = (0..17)
                .any(|i| FIELDS[i].counter && matches!((pv[i], v[i]), (Some(a), Some(b)) if b < a));
            if down {
                gen += 1;
                resets += 1;
            }
        }
        prev = Some(v);
        snaps.entry(*t).or_default().insert(
            name.clone(),
            DevSample {
                major,
                minor: gen,
                fields,
                absent,
            },
        );
    }
    if resets > 0 {
        p.notes.push(format!(
            "{name}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a 'reset' with no numbers"
        ));
    }
}

/// The windows_exporter devices (volumes paired with their disks), roles set later.
fn add_win_devices(s: &Series, p: &mut Parsed, prefix: &dyn Fn(&str) -> String) {
    let first_win = p.devices.len();
    for (inst, obj, label) in s.win.keys() {
        let name = format!("{}{}({label})", prefix(inst), obj.object());
        // set with the PerfMon rule once the intervals are known (below)
        let (role, reason) = ("backing", String::new());
        p.devices.push(Device {
            name,
            source: format!(
                "{{instance=\"{inst}\",{}=\"{label}\"}} ({})",
                obj.label(),
                obj.prefix().trim_end_matches('_')
            ),
            role: role.into(),
            reason,
            on: None,
            is_partition: false,
            parent: None,
            host: Some(inst.clone()),
        });
    }
    pair_volumes(&mut p.devices[first_win..]);
}

/// The windows_exporter devices' rates per moment of `times` (empty without them), each
/// interval between two successive moments.
fn win_interval_rates(
    s: &Series,
    p: &mut Parsed,
    first_win: usize,
    times: &[i64],
) -> Vec<Vec<Option<Rates>>> {
    if s.win.is_empty() {
        return Vec::new();
    }
    let at: HashMap<i64, usize> = times.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    let mut rates = vec![vec![None; p.devices.len()]; times.len()];
    for (k, ((_, _, _), series)) in s.win.iter().enumerate() {
        let d = first_win + k;
        let mut resets = 0usize;
        let pts: Vec<(&i64, &WinVals)> = series.iter().collect();
        for w in pts.windows(2) {
            let (ia, ib) = (at[w[0].0], at[w[1].0]);
            // an interval only between two successive moments of the import (a moment missing
            // for this device leaves its interval out rather than stretch one over the hole)
            if ib != ia + 1 {
                continue;
            }
            let r = win_rates(w[0].1, w[1].1, (w[1].0 - w[0].0) as f64);
            resets += usize::from(r.reset);
            rates[ib][d] = Some(r);
        }
        if resets > 0 {
            p.notes.push(format!(
                "{}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a 'reset' with no numbers",
                p.devices[d].name
            ));
        }
    }
    p.notes.push("windows_exporter: the latency is Δ(read_latency_seconds_total) ÷ Δ(reads_total) (and likewise for writes); read_seconds_total and write_seconds_total are busy time, not latency, and are not used".into());
    rates
}

/// One sample per moment: its node_exporter snapshot and windows_exporter rates.
fn add_samples(p: &mut Parsed, times: &[i64], mut snaps: Snaps, rates: Vec<Vec<Option<Rates>>>) {
    let t0 = times.first().copied().unwrap_or(0);
    let mut rates = rates.into_iter();
    for t in times {
        let snap = snaps.remove(t).map(|devs| Snapshot {
            mono_ns: ((t - t0).max(0) as u64).saturating_mul(1_000_000) + 1,
            utc_ms: *t,
            boot_id: "prometheus".into(),
            devices: devs,
        });
        p.samples.push(Sample {
            utc_ms: *t,
            line: 0,
            rates: rates.next().unwrap_or_default(),
            snap,
        });
    }
}

/// Each metric read, with the figure it feeds (for provenance).
fn add_mapping(s: &Series, p: &mut Parsed) {
    for (i, f) in FIELDS.iter().enumerate() {
        if s.by_dev
            .values()
            .any(|m| m.values().any(|v| v[i].is_some()))
        {
            p.mapping.push((f.metric.to_string(), f.feeds.to_string()));
        }
    }
    for obj in [WinObj::Logical, WinObj::Physical] {
        for (i, f) in WIN_FIELDS.iter().enumerate() {
            if s.win
                .iter()
                .any(|(k, m)| k.1 == obj && m.values().any(|v| v[i].is_some()))
            {
                p.mapping.push((
                    format!("{}{} ({})", obj.prefix(), f.suffix, f.perfmon),
                    f.feeds.to_string(),
                ));
            }
        }
    }
}
