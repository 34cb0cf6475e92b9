//! node_exporter's `node_disk_*` metrics: the /proc/diskstats field each exports, and the
//! factor that turns it back into the kernel's unit.

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

pub(super) fn field_of(metric: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.metric == metric)
}

/// Values of one device at one moment, by field (None: not exported at that moment).
pub(super) type Vals = [Option<f64>; 17];

/// The kernel fields of one device at one moment, with the bit mask of those the exporter did
/// not export (`DevSample::absent`): 17, 15 or 11 when all of those are there; else, when the
/// counts and sectors are (reads, sectors read, writes, sectors written), the 11-field layout (17
/// when a discard or flush series is there) with every missing field marked absent, so that a
/// family left out (merges, in flight: a node_exporter with a collector filter) does not drop the
/// read and write time it did export; else None.
pub(super) fn kernel_fields(v: &Vals) -> Option<(Vec<u64>, u32)> {
    let k = |i: usize| v[i].map(|x| (x * FIELDS[i].factor).round().max(0.0) as u64);
    let upto = |n: usize| (0..n).map(k).collect::<Option<Vec<u64>>>();
    if let Some(f) = upto(17).or_else(|| upto(15)).or_else(|| upto(11)) {
        return Some((f, 0));
    }
    for i in [0, 2, 4, 6] {
        k(i)?;
    }
    let n = if (11..17).any(|i| v[i].is_some()) {
        17
    } else {
        11
    };
    let mut absent = 0u32;
    let fields = (0..n)
        .map(|i| {
            k(i).unwrap_or_else(|| {
                absent |= 1 << i;
                0
            })
        })
        .collect();
    Some((fields, absent))
}

/// The sectors read and written in a snapshot's fields (the old 4-field layout has them at 1
/// and 3, the 11-, 15- and 17-field layouts at 2 and 6; those are never absent).
fn sectors(fields: &[u64]) -> Option<u64> {
    match fields.len() {
        4 => Some(fields[1] + fields[3]),
        n if n >= 11 => Some(fields[2] + fields[6]),
        _ => None,
    }
}

/// The device stack of each node_exporter instance, by linux/stack.rs's rules on its `device`
/// labels (partitions on their disks; dm, LVM and md volumes on the disk whose traffic they
/// track): `devices[..n]` are the node devices, one instance after another (`fleet`: named
/// `INSTANCE/DEVICE`). Sets their roles and returns the edges.
pub(super) fn stack(
    devices: &mut [super::Device],
    samples: &[super::Sample],
    fleet: bool,
) -> Vec<(String, String, String)> {
    // each device's sectors per s over each interval between two successive scrapes
    let series: Vec<Vec<Option<f64>>> = devices
        .iter()
        .map(|d| {
            let mut prev: Option<(i64, u32, u64)> = None;
            samples
                .iter()
                .map(|s| {
                    let ds = s.snap.as_ref().and_then(|sn| sn.devices.get(&d.name));
                    let now = ds.and_then(|x| Some((s.utc_ms, x.minor, sectors(&x.fields)?)));
                    let r = match (prev, now) {
                        (Some((t0, g0, a)), Some((t1, g1, b))) if g0 == g1 && t1 > t0 && b >= a => {
                            Some((b - a) as f64 / ((t1 - t0) as f64 / 1000.0))
                        }
                        _ => None,
                    };
                    prev = now;
                    r
                })
                .collect()
        })
        .collect();
    let mut edges = Vec::new();
    let mut start = 0;
    while start < devices.len() {
        let host = devices[start].host.clone();
        let end = (start..devices.len())
            .find(|&i| devices[i].host != host)
            .unwrap_or(devices.len());
        let strip = match (&host, fleet) {
            (Some(h), true) => format!("{h}/"),
            _ => String::new(),
        };
        edges.extend(super::super::linux::stack::propose_in(
            &mut devices[start..end],
            &series[start..end],
            &strip,
        ));
        start = end;
    }
    edges
}
