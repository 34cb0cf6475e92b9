//! Prometheus exporters' disk counters turned into a capture: node_exporter's `node_disk_*`
//! and windows_exporter's `windows_logical_disk_*` / `windows_physical_disk_*`, read from a
//! Prometheus server's HTTP API (`import prometheus --url URL`, range queries: promfetch.rs) or,
//! for node_exporter, from text exposition scrapes (`import node-exporter FILE…`)
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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{bad, lines, linux_role, Device, Parsed, Rates, Sample, Unmapped};
use crate::delta::{DevSample, Snapshot};
use crate::error::Result;

/// One /proc/diskstats field and the node_exporter metric that exports it, with the factor
/// that turns the metric back into the kernel's unit (bytes → 512-byte sectors, s → ms).
pub struct Field {
    pub metric: &'static str,
    pub factor: f64,
    /// The capture figure it feeds (for provenance).
    pub feeds: &'static str,
    pub counter: bool,
}

/// The 17 /proc/diskstats fields in kernel order (iostats.rst), as node_exporter names them.
pub const FIELDS: [Field; 17] = [
    Field {
        metric: "node_disk_reads_completed_total",
        factor: 1.0,
        feeds: "reads",
        counter: true,
    },
    Field {
        metric: "node_disk_reads_merged_total",
        factor: 1.0,
        feeds: "read_merges",
        counter: true,
    },
    Field {
        metric: "node_disk_read_bytes_total",
        factor: 1.0 / 512.0,
        feeds: "read_bytes",
        counter: true,
    },
    Field {
        metric: "node_disk_read_time_seconds_total",
        factor: 1000.0,
        feeds: "read_time_ms",
        counter: true,
    },
    Field {
        metric: "node_disk_writes_completed_total",
        factor: 1.0,
        feeds: "writes",
        counter: true,
    },
    Field {
        metric: "node_disk_writes_merged_total",
        factor: 1.0,
        feeds: "write_merges",
        counter: true,
    },
    Field {
        metric: "node_disk_written_bytes_total",
        factor: 1.0 / 512.0,
        feeds: "write_bytes",
        counter: true,
    },
    Field {
        metric: "node_disk_write_time_seconds_total",
        factor: 1000.0,
        feeds: "write_time_ms",
        counter: true,
    },
    Field {
        metric: "node_disk_io_now",
        factor: 1.0,
        feeds: "in_flight",
        counter: false,
    },
    Field {
        metric: "node_disk_io_time_seconds_total",
        factor: 1000.0,
        feeds: "busy_ms",
        counter: true,
    },
    Field {
        metric: "node_disk_io_time_weighted_seconds_total",
        factor: 1000.0,
        feeds: "weighted_ms",
        counter: true,
    },
    Field {
        metric: "node_disk_discards_completed_total",
        factor: 1.0,
        feeds: "discards",
        counter: true,
    },
    Field {
        metric: "node_disk_discards_merged_total",
        factor: 1.0,
        feeds: "(discard merges)",
        counter: true,
    },
    Field {
        metric: "node_disk_discarded_sectors_total",
        factor: 1.0,
        feeds: "discard_bytes",
        counter: true,
    },
    Field {
        metric: "node_disk_discard_time_seconds_total",
        factor: 1000.0,
        feeds: "discard_time_ms",
        counter: true,
    },
    Field {
        metric: "node_disk_flush_requests_total",
        factor: 1.0,
        feeds: "flushes",
        counter: true,
    },
    Field {
        metric: "node_disk_flush_requests_time_seconds_total",
        factor: 1000.0,
        feeds: "flush_time_ms",
        counter: true,
    },
];

fn field_of(metric: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.metric == metric)
}

/// Values of one device at one moment, by field (None: not exported at that moment).
type Vals = [Option<f64>; 17];

/// The kernel fields of one device at one moment: 17, 15 or 11 when all of those are there,
/// the old 4-field layout (reads, sectors read, writes, sectors written) when only those are,
/// else None.
fn kernel_fields(v: &Vals) -> Option<Vec<u64>> {
    let k = |i: usize| v[i].map(|x| (x * FIELDS[i].factor).round().max(0.0) as u64);
    let upto = |n: usize| (0..n).map(k).collect::<Option<Vec<u64>>>();
    upto(17)
        .or_else(|| upto(15))
        .or_else(|| upto(11))
        .or_else(|| Some(vec![k(0)?, k(2)?, k(4)?, k(6)?]))
}

/// A windows_exporter disk object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WinObj {
    /// `windows_logical_disk_*{volume="C:"}`: a volume, what the applications use (front).
    Logical,
    /// `windows_physical_disk_*{disk="0 C:"}`: a disk beneath the volumes (backing).
    Physical,
}

impl WinObj {
    fn prefix(self) -> &'static str {
        match self {
            WinObj::Logical => "windows_logical_disk_",
            WinObj::Physical => "windows_physical_disk_",
        }
    }
    /// The label that names the instance.
    pub fn label(self) -> &'static str {
        match self {
            WinObj::Logical => "volume",
            WinObj::Physical => "disk",
        }
    }
    /// The PerfMon object, as the capture names the device (`LogicalDisk(C:)`, as the PerfMon importer does).
    fn object(self) -> &'static str {
        match self {
            WinObj::Logical => "LogicalDisk",
            WinObj::Physical => "PhysicalDisk",
        }
    }
}

/// A windows_exporter disk counter read by the import.
pub struct WinField {
    /// After `windows_logical_disk_` / `windows_physical_disk_`.
    pub suffix: &'static str,
    /// The PerfMon counter it comes from.
    pub perfmon: &'static str,
    /// The capture figure it feeds (for provenance).
    pub feeds: &'static str,
    pub counter: bool,
}

/// The windows_exporter counters the import reads, in the order of [`WinVals`].
pub const WIN_FIELDS: [WinField; 8] = [
    WinField {
        suffix: "reads_total",
        perfmon: "Disk Reads/sec",
        feeds: "reads = Δ",
        counter: true,
    },
    WinField {
        suffix: "writes_total",
        perfmon: "Disk Writes/sec",
        feeds: "writes = Δ",
        counter: true,
    },
    WinField {
        suffix: "read_bytes_total",
        perfmon: "Disk Read Bytes/sec",
        feeds: "read_bytes = Δ",
        counter: true,
    },
    WinField {
        suffix: "write_bytes_total",
        perfmon: "Disk Write Bytes/sec",
        feeds: "write_bytes = Δ",
        counter: true,
    },
    WinField {
        suffix: "read_latency_seconds_total",
        perfmon: "Avg. Disk sec/Read",
        feeds: "read_time_ms = Δ × 1000 (latency = Δ ÷ Δreads_total)",
        counter: true,
    },
    WinField {
        suffix: "write_latency_seconds_total",
        perfmon: "Avg. Disk sec/Write",
        feeds: "write_time_ms = Δ × 1000 (latency = Δ ÷ Δwrites_total)",
        counter: true,
    },
    WinField {
        suffix: "idle_seconds_total",
        perfmon: "% Idle Time",
        feeds: "busy_ms = Δt − Δ × 1000",
        counter: true,
    },
    WinField {
        suffix: "requests_queued",
        perfmon: "Current Disk Queue Length",
        feeds: "in_flight (a gauge)",
        counter: false,
    },
];

/// Values of one windows device at one moment, by [`WIN_FIELDS`] (None: not exported then).
type WinVals = [Option<f64>; 8];

/// The windows_exporter metric and field of a name, if the import reads it.
fn win_field_of(metric: &str) -> Option<(WinObj, usize)> {
    for obj in [WinObj::Logical, WinObj::Physical] {
        if let Some(rest) = metric.strip_prefix(obj.prefix()) {
            return WIN_FIELDS
                .iter()
                .position(|f| f.suffix == rest)
                .map(|i| (obj, i));
        }
    }
    None
}

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
    v
}

/// Why a disk metric that the import does not read is left out.
fn why_not(metric: &str) -> &'static str {
    if metric.starts_with("windows_")
        && (metric.ends_with("_read_seconds_total") || metric.ends_with("_write_seconds_total"))
    {
        "the time the disk was busy reading or writing (% Disk Read/Write Time), not a latency: the latency is read_latency_seconds_total ÷ reads_total"
    } else if metric.starts_with("windows_") {
        "not a counter the capture holds (sizes, queue averages, split I/Os, information)"
    } else {
        "not a /proc/diskstats counter (information, or a figure the capture does not hold)"
    }
}

/// Series by host (`instance`) and device, and time (UTC ms).
#[derive(Debug, Default)]
pub struct Series {
    /// node_exporter: (instance, kernel device name) → time → fields.
    pub by_dev: BTreeMap<(String, String), BTreeMap<i64, Vals>>,
    /// windows_exporter: (instance, object, volume or disk label) → time → fields.
    pub win: BTreeMap<(String, WinObj, String), BTreeMap<i64, WinVals>>,
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
        if let Some(i) = field_of(metric) {
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

/// Pair each Windows volume with the disk beneath it, within one host: PhysicalDisk `0 C: D:`
/// holds C: and D: (the PerfMon importer and the windows_exporter import pair them alike).
/// Names are `[PREFIX]LogicalDisk(C:)` and `[PREFIX]PhysicalDisk(0 C:)`; a volume pairs only
/// with a disk of the same prefix (host).
pub fn pair_volumes(devices: &mut [Device]) {
    let split = |name: &str, obj: &str| -> Option<(String, String)> {
        let i = name.find(&format!("{obj}("))?;
        let inst = name[i + obj.len() + 1..].strip_suffix(')')?;
        Some((name[..i].to_string(), inst.to_string()))
    };
    let phys: Vec<(String, String, Vec<String>)> = devices
        .iter()
        .filter_map(|d| {
            let (pre, inst) = split(&d.name, "PhysicalDisk")?;
            Some((
                d.name.clone(),
                pre,
                inst.split_whitespace()
                    .skip(1)
                    .map(|x| x.to_uppercase())
                    .collect(),
            ))
        })
        .collect();
    for d in devices.iter_mut() {
        let Some((pre, inst)) = split(&d.name, "LogicalDisk") else {
            continue;
        };
        let inst = inst.to_uppercase();
        if let Some((pn, _, _)) = phys
            .iter()
            .find(|(_, p, letters)| *p == pre && letters.contains(&inst))
        {
            d.on = Some(pn.clone());
            d.reason = format!("a Windows volume (LogicalDisk) on {pn}: what the applications use");
        }
    }
}

/// The rates of one windows device between two moments `dt_ms` apart: the counters' differences
/// over Δt (so that `counts` gives back each difference, rounded). A counter that went down is a
/// reset (Prometheus: any decrease is one; the exporter or the host restarted): no numbers.
fn win_rates(a: &WinVals, b: &WinVals, dt_ms: f64) -> Rates {
    let down = (0..8)
        .any(|i| WIN_FIELDS[i].counter && matches!((a[i], b[i]), (Some(x), Some(y)) if y < x));
    if down {
        return Rates {
            reset: true,
            ..Rates::default()
        };
    }
    let dt_s = dt_ms / 1000.0;
    let d = |i: usize| match (a[i], b[i]) {
        (Some(x), Some(y)) => Some(y - x),
        _ => None,
    };
    let per_s = |i: usize| d(i).map(|x| x / dt_s);
    // time per I/O (ms) so that time = per × count gives back Δtime; no I/O: no time
    let per_io = |t: usize, n: usize| match (d(t), d(n)) {
        (Some(tt), Some(nn)) if nn > 0.0 => Some(tt * 1000.0 / nn),
        (Some(_), Some(_)) => Some(0.0),
        _ => None,
    };
    Rates {
        reads_per_s: per_s(0),
        writes_per_s: per_s(1),
        read_bytes_per_s: per_s(2),
        write_bytes_per_s: per_s(3),
        read_ms_per_io: per_io(4, 0),
        write_ms_per_io: per_io(5, 1),
        busy_frac: d(6).map(|idle| (1.0 - idle / dt_s).clamp(0.0, 1.0)),
        in_flight: b[7],
        ..Rates::default()
    }
}

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
    let instances: Vec<String> = s
        .by_dev
        .keys()
        .map(|k| k.0.clone())
        .chain(s.win.keys().map(|k| k.0.clone()))
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    let fleet = instances.len() > 1;
    let prefix = |inst: &str| {
        if fleet {
            format!("{inst}/")
        } else {
            String::new()
        }
    };
    p.hosts = instances.clone();
    let mut snaps: BTreeMap<i64, BTreeMap<String, DevSample>> = BTreeMap::new();
    for ((inst, dev), series) in &s.by_dev {
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
        let major = instances.iter().position(|i| i == inst).unwrap_or(0) as u32 + 1;
        let mut gen = 0u32;
        let mut prev: Option<&Vals> = None;
        let mut resets = 0usize;
        for (t, v) in series {
            let Some(fields) = kernel_fields(v) else {
                continue;
            };
            if let Some(pv) = prev {
                let down = (0..17).any(|i| {
                    FIELDS[i].counter && matches!((pv[i], v[i]), (Some(a), Some(b)) if b < a)
                });
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
                },
            );
        }
        if resets > 0 {
            p.notes.push(format!(
                "{name}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a 'reset' with no numbers"
            ));
        }
    }
    // windows_exporter devices: their moments join the sample times
    let first_win = p.devices.len();
    for (inst, obj, label) in s.win.keys() {
        let name = format!("{}{}({label})", prefix(inst), obj.object());
        let (role, reason) = match obj {
            WinObj::Logical => (
                "front",
                "a Windows volume (windows_exporter logical_disk): what the applications use",
            ),
            WinObj::Physical => (
                "backing",
                "a Windows disk (windows_exporter physical_disk): the storage beneath the volumes",
            ),
        };
        p.devices.push(Device {
            name,
            source: format!(
                "{{instance=\"{inst}\",{}=\"{label}\"}} ({})",
                obj.label(),
                obj.prefix().trim_end_matches('_')
            ),
            role: role.into(),
            reason: reason.into(),
            on: None,
            is_partition: false,
            parent: None,
            host: Some(inst.clone()),
        });
    }
    pair_volumes(&mut p.devices[first_win..]);
    let times: Vec<i64> = snaps
        .keys()
        .copied()
        .chain(s.win.values().flat_map(|m| m.keys().copied()))
        .collect::<BTreeSet<i64>>()
        .into_iter()
        .collect();
    let at: HashMap<i64, usize> = times.iter().enumerate().map(|(i, t)| (*t, i)).collect();
    let ndev = p.devices.len();
    let mut rates: Vec<Vec<Option<Rates>>> = if s.win.is_empty() {
        Vec::new()
    } else {
        vec![vec![None; ndev]; times.len()]
    };
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
    if !s.win.is_empty() {
        p.notes.push("windows_exporter: the latency is Δ(read_latency_seconds_total) ÷ Δ(reads_total) (and likewise for writes); read_seconds_total and write_seconds_total are busy time, not latency, and are not used".into());
    }
    let t0 = times.first().copied().unwrap_or(0);
    let mut rates = rates.into_iter();
    for t in &times {
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
    for (m, why) in &s.other {
        p.unmapped.push(Unmapped {
            what: format!("metric {m}"),
            why: (*why).into(),
        });
    }
    p
}

// ---------------------------------------------------------------------------------------
// Text exposition scrapes (`curl http://host:9100/metrics > scrape.prom`).

/// One scrape in the text exposition format: its time (from the samples' timestamps, when
/// they carry one) and its node_disk_* values.
#[derive(Debug, Default)]
pub struct Scrape {
    pub utc_ms: Option<i64>,
    pub series: Series,
    /// Lines of node_disk_* samples read.
    pub samples: usize,
}

fn labels(file: &str, line: usize, s: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i] == ',' || b[i] == ' ') {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let k0 = i;
        while i < b.len() && b[i] != '=' {
            i += 1;
        }
        let key: String = b[k0..i].iter().collect::<String>().trim().to_string();
        if i + 1 >= b.len() || b[i + 1] != '"' {
            return Err(bad(file, Some(line), None, format!("label '{key}' has no quoted value (the text exposition format is name{{label=\"value\"}} number)")));
        }
        i += 2;
        let mut val = String::new();
        let mut closed = false;
        while i < b.len() {
            match b[i] {
                '\\' if i + 1 < b.len() => {
                    val.push(match b[i + 1] {
                        'n' => '\n',
                        c => c,
                    });
                    i += 2;
                }
                '"' => {
                    closed = true;
                    i += 1;
                    break;
                }
                c => {
                    val.push(c);
                    i += 1;
                }
            }
        }
        if !closed {
            return Err(bad(
                file,
                Some(line),
                None,
                format!(
                    "the value of label '{key}' is not closed by a quote (the line is cut off)"
                ),
            ));
        }
        out.insert(key, val);
    }
    Ok(out)
}

/// Why a windows_exporter counter in a scrape file is not imported.
const WIN_TEXT: &str = "windows_exporter counters are read through a Prometheus server (import prometheus --url URL): scrape files are read for node_exporter only";

/// Parse one text exposition file (node_exporter's /metrics).
pub fn parse_text(file: &str, text: &str, instance: &str) -> Result<Scrape> {
    let mut sc = Scrape::default();
    for (n, l) in lines(text).iter().enumerate() {
        let line = n + 1;
        let l = l.trim();
        let windows =
            l.starts_with("windows_logical_disk_") || l.starts_with("windows_physical_disk_");
        if l.is_empty() || l.starts_with('#') || !(l.starts_with("node_disk_") || windows) {
            continue;
        }
        let (name, rest) = match l.find(['{', ' ']) {
            Some(i) => l.split_at(i),
            None => return Err(bad(file, Some(line), None, "a metric without a value")),
        };
        if windows {
            if !sc.series.other.iter().any(|(m, _)| m == name) {
                sc.series.other.push((name.to_string(), WIN_TEXT));
            }
            continue;
        }
        let (lab, tail) = if let Some(r) = rest.strip_prefix('{') {
            match r.rfind('}') {
                Some(j) => (labels(file, line, &r[..j])?, &r[j + 1..]),
                None => {
                    return Err(bad(
                        file,
                        Some(line),
                        None,
                        "the labels are not closed by '}' (the line is cut off)",
                    ))
                }
            }
        } else {
            (BTreeMap::new(), rest)
        };
        let mut t = tail.split_whitespace();
        let col = l.len() - tail.trim_start().len() + 1;
        let v: f64 = match t.next().map(|x| x.parse::<f64>()) {
            Some(Ok(v)) => v,
            _ => {
                return Err(bad(
                    file,
                    Some(line),
                    Some(col),
                    format!("the value of {name} is not a number"),
                ))
            }
        };
        let ts = match t.next() {
            Some(x) => Some(x.parse::<i64>().map_err(|_| {
                bad(
                    file,
                    Some(line),
                    None,
                    format!("the timestamp '{x}' of {name} is not whole milliseconds"),
                )
            })?),
            None => None,
        };
        let Some(dev) = lab.get("device") else {
            continue;
        };
        if let Some(ts) = ts {
            sc.utc_ms = Some(sc.utc_ms.map_or(ts, |a: i64| a.max(ts)));
        }
        sc.series.put_node(instance, dev, name, 0, v);
        sc.samples += 1;
    }
    if sc.samples == 0 {
        let win = if sc.series.other.is_empty() {
            ""
        } else {
            " (its windows_exporter disk counters are read through a Prometheus server: import prometheus --url URL)"
        };
        return Err(bad(file, None, None, format!("has no node_disk_* samples: it is not a node_exporter scrape with the diskstats collector (curl http://HOST:9100/metrics > FILE){win}")));
    }
    Ok(sc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delta::{step, Status};

    fn put_all(s: &mut Series, inst: &str, dev: &str, t: i64, reads: f64) {
        for f in &FIELDS[..11] {
            let v = if f.metric == "node_disk_reads_completed_total" {
                reads
            } else {
                0.0
            };
            s.put_node(inst, dev, f.metric, t, v);
        }
    }

    #[test]
    fn a_fleet_names_devices_by_instance_and_a_counter_reset_is_a_reset_interval() {
        let mut s = Series::default();
        for (t, r) in [(0, 100.0), (1000, 150.0), (2000, 20.0), (3000, 70.0)] {
            put_all(&mut s, "web1:9100", "sda", t, r);
            put_all(&mut s, "web2:9100", "sda", t, r * 2.0);
        }
        s.put_node("web1:9100", "sda", "node_disk_info", 0, 1.0);
        let p = to_parsed(&s, "test".into());
        let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["web1:9100/sda", "web2:9100/sda"]);
        assert_eq!(p.hosts, ["web1:9100", "web2:9100"]);
        assert!(p.unmapped.iter().any(|u| u.what.contains("node_disk_info")));
        let snaps: Vec<&Snapshot> = p.samples.iter().filter_map(|x| x.snap.as_ref()).collect();
        assert_eq!(snaps.len(), 4);
        let st: Vec<Vec<(Status, Option<u64>)>> = snaps
            .windows(2)
            .map(|w| {
                step(w[0], w[1], 1000.0)
                    .intervals
                    .iter()
                    .filter(|i| i.device == "web1:9100/sda")
                    .map(|i| (i.status, i.deltas.map(|d| d.reads)))
                    .collect()
            })
            .collect();
        // 100 → 150: 50 reads; 150 → 20: the exporter restarted (no numbers); 20 → 70: 50.
        assert_eq!(
            st,
            [
                vec![(Status::Ok, Some(50))],
                vec![(Status::Reset, None)],
                vec![(Status::Ok, Some(50))]
            ]
        );
        assert!(p
            .notes
            .iter()
            .any(|n| n.contains("web1:9100/sda: 1 counter reset")));
    }

    #[test]
    fn units_are_turned_back_into_diskstats_fields() {
        let mut s = Series::default();
        for f in &FIELDS {
            let v = match f.metric {
                "node_disk_read_bytes_total" => 1024.0 * 512.0,
                "node_disk_read_time_seconds_total" => 18492.372,
                _ => 1.0,
            };
            s.put_node("h", "sdc", f.metric, 5, v);
        }
        let p = to_parsed(&s, "t".into());
        let d = &p.samples[0].snap.as_ref().expect("a snapshot").devices["sdc"];
        assert_eq!(d.fields.len(), 17);
        assert_eq!(d.fields[2], 1024);
        assert_eq!(d.fields[3], 18_492_372);
        // Only the 4 basics: the old 4-field layout.
        let mut s = Series::default();
        for m in [
            "node_disk_reads_completed_total",
            "node_disk_read_bytes_total",
            "node_disk_writes_completed_total",
            "node_disk_written_bytes_total",
        ] {
            s.put_node("h", "sdd", m, 5, 512.0);
        }
        let p = to_parsed(&s, "t".into());
        assert_eq!(
            p.samples[0].snap.as_ref().expect("a snapshot").devices["sdd"].fields,
            [512, 1, 512, 1]
        );
    }

    /// A windows_exporter series (synthetic values, clearly so: the real exposition is tested in
    /// tests/import_windows_exporter.rs): every counter of one device at one moment.
    fn put_win(s: &mut Series, inst: &str, obj: WinObj, label: &str, t: i64, v: [f64; 8]) {
        let pre = match obj {
            WinObj::Logical => "windows_logical_disk_",
            WinObj::Physical => "windows_physical_disk_",
        };
        for (f, x) in WIN_FIELDS.iter().zip(v) {
            s.put(
                inst,
                &format!("{pre}{}", f.suffix),
                |l| (l == obj.label()).then(|| label.to_string()),
                t,
                x,
            );
        }
        // busy time, not latency: must not feed anything
        s.put(
            inst,
            &format!("{pre}read_seconds_total"),
            |l| (l == obj.label()).then(|| label.to_string()),
            t,
            1e6 + t as f64,
        );
    }

    #[test]
    fn windows_volumes_front_disks_backing_latency_from_the_latency_counters() {
        use crate::import::counts;
        let mut s = Series::default();
        // reads, writes, read bytes, write bytes, read latency s, write latency s, idle s, queued
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Logical,
            "C:",
            0,
            [100.0, 50.0, 4096e3, 8192e3, 10.0, 2.0, 1000.0, 0.0],
        );
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Logical,
            "C:",
            15_000,
            [
                400.0,
                150.0,
                4096e3 + 1_228_800.0,
                8192e3 + 409_600.0,
                11.5,
                2.5,
                1012.0,
                3.0,
            ],
        );
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Physical,
            "0 C: D:",
            0,
            [90.0, 40.0, 0.0, 0.0, 9.0, 1.0, 1000.0, 0.0],
        );
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Physical,
            "0 C: D:",
            15_000,
            [290.0, 140.0, 0.0, 0.0, 10.0, 1.5, 1010.0, 1.0],
        );
        // a counter reset on the disk: the next interval has no numbers
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Physical,
            "0 C: D:",
            30_000,
            [5.0, 1.0, 0.0, 0.0, 0.1, 0.0, 3.0, 0.0],
        );
        put_win(
            &mut s,
            "win1:9182",
            WinObj::Logical,
            "C:",
            30_000,
            [
                500.0,
                150.0,
                4096e3 + 1_638_400.0,
                8192e3 + 409_600.0,
                11.6,
                2.5,
                1026.0,
                0.0,
            ],
        );
        let p = to_parsed(&s, "t".into());
        let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["LogicalDisk(C:)", "PhysicalDisk(0 C: D:)"]);
        assert_eq!(
            (p.devices[0].role.as_str(), p.devices[1].role.as_str()),
            ("front", "backing")
        );
        assert_eq!(p.devices[0].on.as_deref(), Some("PhysicalDisk(0 C: D:)"));
        assert_eq!(p.devices[0].host.as_deref(), Some("win1:9182"));
        assert!(p.unmapped.iter().any(|u| u
            .what
            .contains("windows_logical_disk_read_seconds_total")
            && u.why.contains("not a latency")));
        assert_eq!(p.samples.len(), 3);
        // an old exporter's _Total volume: the sum of the others, listed, not a device
        let mut t = Series::default();
        put_win(&mut t, "h", WinObj::Logical, "_Total", 0, [1.0; 8]);
        put_win(&mut t, "h", WinObj::Logical, "C:", 0, [1.0; 8]);
        put_win(&mut t, "h", WinObj::Logical, "C:", 1000, [2.0; 8]);
        let q = to_parsed(&t, "t".into());
        assert_eq!(q.devices.len(), 1);
        assert!(q
            .unmapped
            .iter()
            .any(|u| u.what == "metric windows_logical_disk{volume=\"_Total\"}"));
        assert!(
            p.samples[0].rates.iter().all(Option::is_none),
            "the first moment gives no interval"
        );
        let c = counts(&p.samples[1].rates[0].expect("C: rates"), 15_000.0);
        assert_eq!(c.reads, Some(300));
        assert_eq!(c.writes, Some(100));
        assert_eq!(c.read_bytes, Some(1_228_800));
        assert_eq!(c.write_bytes, Some(409_600));
        // Δ read latency 1.5 s over 300 reads: 1500 ms, 5 ms a read (not the busy-time counter)
        assert_eq!(c.read_time_ms, Some(1500));
        assert_eq!(c.write_time_ms, Some(500));
        // idle 12 s of 15: busy 3 s
        assert_eq!(c.busy_ms, Some(3000));
        assert_eq!(c.in_flight, Some(3));
        let r = p.samples[2].rates[1].expect("disk rates");
        assert!(r.reset, "a counter went down");
        assert!(p
            .notes
            .iter()
            .any(|n| n.contains("PhysicalDisk(0 C: D:): 1 counter reset")));
        let c = counts(&p.samples[2].rates[0].expect("C: rates"), 15_000.0);
        assert_eq!(
            (c.reads, c.read_time_ms, c.busy_ms),
            (Some(100), Some(100), Some(1000))
        );
    }

    #[test]
    fn a_fleet_of_linux_and_windows_hosts_pairs_within_a_host() {
        let mut s = Series::default();
        for (t, r) in [(0, 10.0), (1000, 20.0)] {
            put_all(&mut s, "lin:9100", "sda", t, r);
            put_win(&mut s, "win:9182", WinObj::Logical, "C:", t, [r; 8]);
            put_win(&mut s, "win2:9182", WinObj::Physical, "0 C:", t, [r; 8]);
        }
        let p = to_parsed(&s, "t".into());
        let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "lin:9100/sda",
                "win2:9182/PhysicalDisk(0 C:)",
                "win:9182/LogicalDisk(C:)"
            ]
        );
        // C: of win is not on win2's disk: another host
        assert_eq!(p.devices[2].on, None);
        assert_eq!(p.hosts, ["lin:9100", "win2:9182", "win:9182"]);
        assert!(p
            .samples
            .iter()
            .all(|x| x.snap.is_some() && x.rates.len() == 3));
        assert!(p.samples[1].rates[2].is_some() && p.samples[1].rates[0].is_none());
    }
}
