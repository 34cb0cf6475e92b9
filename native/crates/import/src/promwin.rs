//! The windows_exporter hosts of `import prometheus --fleet-summary` (promsum.rs): the selectors
//! of their counters and the devices a host's group counts, those the pull import counts
//! (prometheus/mod.rs, perfmon/roles.rs): the disks (`windows_physical_disk_*{disk="0 C:"}`,
//! PhysicalDisk) of a host that has any, else its volumes (`windows_logical_disk_*{volume="C:"}`,
//! LogicalDisk: the two are one layer, both below any in-OS cache); the `_Total` instance (the
//! sum of the others, older releases export it) never. The counters are the ones the import
//! reads ([`WIN_FIELDS`]): `reads_total`, `writes_total`, `read_bytes_total`,
//! `write_bytes_total`, and `read_latency_seconds_total` / `write_latency_seconds_total` as the
//! read and write time (× 1000 ms: the latency is Δ(read_latency_seconds_total) ÷
//! Δ(reads_total)); `read_seconds_total` is busy time, not a latency, and is not read.

use std::collections::BTreeMap;

use super::prometheus::{win_field_of, WinObj, WIN_FIELDS};
use super::promfetch::PromOpts;
use super::promql;
use super::promsum::COUNTERS;

/// The windows_exporter metric of `COUNTERS[i]` for one object: [`WIN_FIELDS`] holds the same
/// six counters first, in the same order (checked by a test below).
fn metric(obj: WinObj, i: usize) -> String {
    format!("{}{}", obj.prefix(), WIN_FIELDS[i].suffix)
}

/// The label matchers of a Windows selector: `--hosts`' and the `_Total` instances left out.
fn matchers(o: &PromOpts, objs: &[WinObj]) -> String {
    let mut m = o.matchers.clone();
    for obj in objs {
        m.push(promql::Matcher {
            label: obj.label().into(),
            op: "!=",
            value: "_Total".into(),
        });
    }
    promql::render(&m)
}

/// The counters `idx` (indices of [`COUNTERS`]) of the devices of `objs` over the `--hosts`
/// matchers, `_Total` left out (a volume has no `disk` label and a disk no `volume`: each
/// matcher leaves the other object's series in).
pub(super) fn sel(objs: &[WinObj], idx: &[usize], o: &PromOpts) -> String {
    let names: Vec<String> = objs
        .iter()
        .flat_map(|obj| idx.iter().map(|&i| metric(*obj, i)))
        .collect();
    format!(
        "{{__name__=~{},{}}}",
        promql::quote(&names.join("|")),
        matchers(o, objs)
    )
}

/// A Windows host's group, as two selectors of the counters `idx`: its disks (counted when it
/// has any), then its volumes (counted on a host with no disk).
pub(super) fn groups(idx: &[usize], o: &PromOpts) -> [String; 2] {
    [
        sel(&[WinObj::Physical], idx, o),
        sel(&[WinObj::Logical], idx, o),
    ]
}

/// Every Windows device's counters `idx`, disks and volumes (the `_Total` instances left out).
pub(super) fn all(idx: &[usize], o: &PromOpts) -> String {
    sel(&[WinObj::Logical, WinObj::Physical], idx, o)
}

/// A windows_exporter series of an answer: the device as the import names it
/// (`PhysicalDisk(0 C:)`, `LogicalDisk(C:)`), its layer in a host's group (`backing` for a
/// disk, `front` for a volume: counted when the host has no disk) and its index in [`COUNTERS`];
/// None for any other series and for `_Total`.
pub(super) fn device(labels: &BTreeMap<String, String>) -> Option<(String, &'static str, usize)> {
    let (obj, i) = win_field_of(labels.get("__name__")?)?;
    let inst = labels
        .get(obj.label())
        .filter(|v| !v.is_empty() && *v != "_Total")?;
    let layer = match obj {
        WinObj::Physical => "backing",
        WinObj::Logical => "front",
    };
    (i < COUNTERS.len()).then(|| (format!("{}({inst})", obj.object()), layer, i))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_six_counters_are_the_ones_the_import_reads_in_the_same_order() {
        // COUNTERS' names in the capture's words (readTimeMs: read_time_ms)
        for (i, c) in COUNTERS.iter().enumerate() {
            let snake: String =
                c.0.chars()
                    .flat_map(|ch| {
                        let low = ch.to_ascii_lowercase();
                        (ch.is_ascii_uppercase())
                            .then_some('_')
                            .into_iter()
                            .chain(std::iter::once(low))
                    })
                    .collect();
            assert!(
                WIN_FIELDS[i].feeds.starts_with(&snake),
                "{} feeds {}",
                WIN_FIELDS[i].suffix,
                c.0
            );
            assert!(WIN_FIELDS[i].counter);
            assert_eq!(COUNTERS[i].2, if i >= 4 { 1000.0 } else { 1.0 });
        }
    }

    #[test]
    fn disks_and_volumes_are_named_as_the_import_names_them_total_left_out() {
        let l = |name: &str, k: &str, v: &str| -> BTreeMap<String, String> {
            [("__name__", name), (k, v), ("instance", "w1:9182")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(
            device(&l(
                "windows_physical_disk_write_bytes_total",
                "disk",
                "0 C:"
            )),
            Some(("PhysicalDisk(0 C:)".into(), "backing", 3))
        );
        assert_eq!(
            device(&l(
                "windows_logical_disk_read_latency_seconds_total",
                "volume",
                "HarddiskVolume4"
            )),
            Some(("LogicalDisk(HarddiskVolume4)".into(), "front", 4))
        );
        assert_eq!(
            device(&l("windows_logical_disk_reads_total", "volume", "_Total")),
            None
        );
        // busy time and the idle counter are not summed
        assert_eq!(
            device(&l(
                "windows_logical_disk_read_seconds_total",
                "volume",
                "C:"
            )),
            None
        );
        assert_eq!(
            device(&l(
                "windows_physical_disk_idle_seconds_total",
                "disk",
                "0 C:"
            )),
            None
        );
        let o = PromOpts {
            matchers: promql::parse_selector("{job=\"win\"}").unwrap(),
            ..PromOpts::default()
        };
        assert_eq!(
            all(&[0, 1], &o),
            "{__name__=~\"windows_logical_disk_reads_total|windows_logical_disk_writes_total|windows_physical_disk_reads_total|windows_physical_disk_writes_total\",job=\"win\",volume!=\"_Total\",disk!=\"_Total\"}"
        );
    }
}
