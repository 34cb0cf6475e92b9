//! windows_exporter's `windows_logical_disk_*` / `windows_physical_disk_*` counters: which are
//! read, the rates of an interval between two moments, and each volume paired with its disk.

use crate::{Device, Rates};

/// A windows_exporter disk object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WinObj {
    /// `windows_logical_disk_*{volume="C:"}`: a volume, what the applications use (front).
    Logical,
    /// `windows_physical_disk_*{disk="0 C:"}`: a disk beneath the volumes (backing).
    Physical,
}

impl WinObj {
    pub(crate) fn prefix(self) -> &'static str {
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
    pub(crate) fn object(self) -> &'static str {
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
pub(super) type WinVals = [Option<f64>; 8];

/// The windows_exporter metric and field of a name, if the import reads it.
pub(crate) fn win_field_of(metric: &str) -> Option<(WinObj, usize)> {
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
pub(super) fn win_rates(a: &WinVals, b: &WinVals, dt_ms: f64) -> Rates {
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
