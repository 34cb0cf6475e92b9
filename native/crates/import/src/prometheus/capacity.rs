//! Volume capacity from the exporters (docs/import.md, "Capacity"): windows_exporter's
//! `windows_logical_disk_size_bytes` / `windows_logical_disk_free_bytes` per volume, and
//! node_exporter's `node_filesystem_size_bytes` / `node_filesystem_avail_bytes` per filesystem
//! (`avail`, what an ordinary writer can still use, as `df` counts it; not `free`, which counts
//! the blocks kept for root). The capture's `volume_capacity` table (schema v7) holds them.
//!
//! The node_exporter rule: a filesystem is kept when its `device` is a block device path
//! (`/dev/…`) and its `fstype` is not one that holds no disk's data or is always full
//! ([`SKIPPED_FSTYPES`]: tmpfs, overlay, squashfs…); the other filesystems are listed as not
//! imported, with that reason. A device mounted at several mount points (bind mounts) is one
//! volume, with the shortest mount point.

use std::collections::BTreeMap;

use super::Series;
use crate::Parsed;

pub use crate::fstypes::SKIPPED_FSTYPES;

/// The capacity metrics: name, source, and 0 for size / 1 for free.
pub const CAP_METRICS: [(&str, &str, usize); 4] = [
    ("windows_logical_disk_size_bytes", "windows_exporter", 0),
    ("windows_logical_disk_free_bytes", "windows_exporter", 1),
    ("node_filesystem_size_bytes", "node_exporter", 0),
    ("node_filesystem_avail_bytes", "node_exporter", 1),
];

/// One volume's capacity over time, as the exporter gave it.
#[derive(Debug, Clone, Default)]
pub struct CapSeries {
    pub source: &'static str,
    pub mount: Option<String>,
    /// time (UTC ms) → [size, free] in bytes.
    pub at: BTreeMap<i64, [Option<f64>; 2]>,
}

/// One row of the capture's `volume_capacity`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CapRow {
    pub utc_ms: i64,
    /// As the source names it (`C:`, `/dev/sda1`), `HOST/` prefixed in a fleet.
    pub volume: String,
    /// The capture's device of that volume, when it has one.
    pub device: Option<String>,
    pub mount: Option<String>,
    pub size_bytes: Option<i64>,
    pub free_bytes: Option<i64>,
    pub source: String,
    pub host: Option<String>,
}

/// Whether `metric` is a capacity metric: (source, 0 size / 1 free).
pub fn cap_metric(metric: &str) -> Option<(&'static str, usize)> {
    CAP_METRICS
        .iter()
        .find(|m| m.0 == metric)
        .map(|m| (m.1, m.2))
}

/// Why a node_exporter filesystem is not imported, or None when it is.
pub fn node_skip(device: &str, fstype: &str) -> Option<&'static str> {
    if !device.starts_with("/dev/") {
        Some("not a block device's filesystem (its device is not a /dev/ path)")
    } else if SKIPPED_FSTYPES.contains(&fstype) {
        Some("a filesystem type that holds no disk's data or is always full (tmpfs, overlay, squashfs…)")
    } else {
        None
    }
}

impl Series {
    /// One sample of a capacity metric (see [`cap_metric`]).
    pub(super) fn put_cap(
        &mut self,
        instance: &str,
        source: &'static str,
        i: usize,
        label: impl Fn(&str) -> Option<String>,
        t: i64,
        v: f64,
    ) {
        let (volume, mount) = if source == "windows_exporter" {
            let Some(vol) = label("volume").filter(|x| !x.is_empty() && x != "_Total") else {
                return;
            };
            (vol, None)
        } else {
            let dev = label("device").unwrap_or_default();
            let fstype = label("fstype").unwrap_or_default();
            if let Some(why) = node_skip(&dev, &fstype) {
                let what = format!("node_filesystem_*{{fstype=\"{fstype}\"}}");
                if !self.other.iter().any(|(m, _)| *m == what) {
                    self.other.push((what, why));
                }
                return;
            }
            (dev, label("mountpoint"))
        };
        let e = self.cap.entry((instance.to_string(), volume)).or_default();
        e.source = source;
        if let Some(m) = mount {
            let shorter = e
                .mount
                .as_ref()
                .is_none_or(|o| (m.len(), &m) < (o.len(), o));
            if shorter {
                e.mount = Some(m);
            }
        }
        e.at.entry(t).or_insert([None; 2])[i] = Some(v);
    }
}

/// The capacity rows of `s` into `p` (its devices already named): one row per volume per
/// moment; `prefix` names a host's volumes in a fleet.
pub fn add_rows(s: &Series, p: &mut Parsed, prefix: &dyn Fn(&str) -> String) {
    for ((inst, vol), cs) in &s.cap {
        let pre = prefix(inst);
        let cand = if cs.source == "windows_exporter" {
            format!("{pre}LogicalDisk({vol})")
        } else {
            format!("{pre}{}", vol.trim_start_matches("/dev/"))
        };
        let device = p.devices.iter().any(|d| d.name == cand).then_some(cand);
        for (t, [size, free]) in &cs.at {
            p.capacity.push(CapRow {
                utc_ms: *t,
                volume: format!("{pre}{vol}"),
                device: device.clone(),
                mount: cs.mount.clone(),
                size_bytes: size.map(|x| x.round() as i64),
                free_bytes: free.map(|x| x.round() as i64),
                source: cs.source.to_string(),
                host: Some(inst.clone()),
            });
        }
    }
    for (name, source, i) in CAP_METRICS {
        if s.cap
            .values()
            .any(|c| c.source == source && c.at.values().any(|v| v[i].is_some()))
        {
            let col = if i == 0 { "size_bytes" } else { "free_bytes" };
            p.mapping
                .push((name.to_string(), format!("volume_capacity.{col}")));
        }
    }
}
