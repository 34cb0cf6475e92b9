//! The views of an esxtop batch log (issue 26, "count every I/O once"): the device rows
//! (`Physical Disk SCSI Device`, or `Physical Disk` per device), the adapter rows
//! (`Physical Disk Adapter`, or `Physical Disk(vmhbaN)`; the adapter's Commands/sec is the sum
//! of its devices'), the path rows (`Physical Disk Path`, and the adapter panel per path,
//! `Physical Disk(vmhbaN:vmhbaN:C0:T0:L0)`), the VM and virtual-disk rows (`Virtual Disk`) and
//! the world rows (`Physical Disk Per-Device-Per-World`) are views of the same commands. One
//! view is counted: the devices (the adapters when a host has no device rows); every other row
//! is listed in the stack as another view of the same commands, not counted.

use super::super::linux::stack::VIEW;
use super::super::Device;

/// The canonical objects of an esxtop log, in the order a view is chosen to be counted.
const COUNTED_FIRST: [&str; 2] = ["EsxDisk", "EsxAdapter"];

/// The view of a row: its canonical object, with a `Physical Disk(vmhbaN)` row (an adapter
/// named where a device would be) taken as an adapter, and a `Physical Disk(vmhbaN:vmhbaN:C0:T4:L0)`
/// row (the adapter panel expanded per path: an ESXi 6 host writes it beside its
/// `Physical Disk SCSI Device` rows, the same commands again) taken as a path.
pub(super) fn canon_of(canon: &str, instance: &str) -> String {
    let is_adapter = |s: &str| {
        s.strip_prefix("vmhba")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
    };
    let adapter_path = instance
        .split_once(':')
        .is_some_and(|(a, path)| is_adapter(a) && path.starts_with(&format!("{a}:")));
    if canon == "EsxDisk" && is_adapter(instance) {
        "EsxAdapter".into()
    } else if canon == "EsxDisk" && adapter_path {
        "EsxPath".into()
    } else {
        canon.into()
    }
}

/// A view's name in words.
fn what(canon: &str) -> &'static str {
    match canon {
        "EsxDisk" => "device",
        "EsxAdapter" => "adapter",
        "EsxPath" => "path",
        "EsxVm" => "VM or virtual disk",
        _ => "world",
    }
}

/// The role and reason a row gets when first seen (the view counted is chosen in [`views`]).
pub(super) fn first_role(canon: &str) -> (&'static str, &'static str) {
    match canon {
        "EsxDisk" => (
            "backing",
            "an ESXi SCSI device: the storage the datastores sit on",
        ),
        _ => ("other", "an esxtop view of the devices' commands"),
    }
}

fn canon_in(name: &str) -> &str {
    let base = name.rsplit('\\').next().unwrap_or(name);
    base.split('(').next().unwrap_or("")
}

fn instance_in(name: &str) -> &str {
    let base = name.rsplit('\\').next().unwrap_or(name);
    base.split_once('(')
        .map(|(_, r)| r.strip_suffix(')').unwrap_or(r))
        .unwrap_or("")
}

/// Choose the view counted per host (the devices, else the adapters), set the roles and
/// reasons of the other views' rows, and return the stack edges (each other row on the
/// counted rows it is a view of: those whose name it holds, else all of its host's) and the
/// note that says which view is counted.
pub(super) fn views(devices: &mut [Device]) -> (Vec<(String, String, String)>, Vec<String>) {
    let mut edges = Vec::new();
    let mut notes = Vec::new();
    let mut hosts: Vec<Option<String>> = Vec::new();
    for d in devices.iter() {
        if !hosts.contains(&d.host) {
            hosts.push(d.host.clone());
        }
    }
    for h in hosts {
        let idx: Vec<usize> = (0..devices.len())
            .filter(|&i| devices[i].host == h)
            .collect();
        let Some(counted) = COUNTED_FIRST
            .into_iter()
            .find(|c| idx.iter().any(|&i| canon_in(&devices[i].name) == *c))
        else {
            continue;
        };
        let counted_rows: Vec<usize> = idx
            .iter()
            .copied()
            .filter(|&i| canon_in(&devices[i].name) == counted)
            .collect();
        let mut others = Vec::new();
        for &i in &idx {
            let c = canon_in(&devices[i].name).to_string();
            if c == counted {
                let d = &mut devices[i];
                d.role = "backing".into();
                if counted == "EsxAdapter" {
                    d.reason = "an ESXi adapter: the log has no device rows, so the adapters are the view counted".into();
                }
                continue;
            }
            let inst = instance_in(&devices[i].name).to_string();
            let named: Vec<usize> = counted_rows
                .iter()
                .copied()
                .filter(|&j| {
                    let di = instance_in(&devices[j].name);
                    !di.is_empty() && inst.contains(di)
                })
                .collect();
            let on = if named.is_empty() {
                &counted_rows
            } else {
                &named
            };
            for &j in on {
                edges.push((
                    devices[i].name.clone(),
                    devices[j].name.clone(),
                    format!("{VIEW} ({} over {})", what(&c), what(counted)),
                ));
            }
            let d = &mut devices[i];
            d.role = "other".into();
            d.reason = format!(
                "an esxtop {} row: {VIEW} as the {} rows: not counted",
                what(&c),
                what(counted)
            );
            if !others.contains(&what(&c)) {
                others.push(what(&c));
            }
        }
        if !others.is_empty() {
            notes.push(format!(
                "esxtop{}: the {} rows are counted; the {} rows are {VIEW} (an adapter's Commands/sec is the sum of its devices'): listed in the stack, not counted",
                h.as_ref().map(|x| format!(" ({x})")).unwrap_or_default(),
                what(counted),
                others.join(", ")
            ));
        }
    }
    (edges, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adapter_named_as_a_device_is_an_adapter() {
        assert_eq!(canon_of("EsxDisk", "vmhba2"), "EsxAdapter");
        assert_eq!(canon_of("EsxDisk", "naa.600508b1001c4d"), "EsxDisk");
        assert_eq!(canon_of("EsxDisk", "vmhba"), "EsxDisk");
        // the adapter panel per path (ESXi 6 writes it beside the SCSI devices): a path
        assert_eq!(canon_of("EsxDisk", "vmhba0:vmhba0:C0:T4:L0"), "EsxPath");
        // ESX 3's device rows name the LUN by its adapter, target and LUN: a device
        assert_eq!(canon_of("EsxDisk", "vmhba1:0:0"), "EsxDisk");
        assert_eq!(canon_of("EsxDisk", "vmhba1:vmhba2:C0:T0:L0"), "EsxDisk");
        assert_eq!(
            instance_in("esx01\\EsxPath(vmhba1:C0:T0:L0)"),
            "vmhba1:C0:T0:L0"
        );
        assert_eq!(canon_in("esx01\\EsxPath(vmhba1:C0:T0:L0)"), "EsxPath");
    }

    #[test]
    fn the_shipped_table_names_every_view() {
        let mut n = super::super::Names::default();
        assert!(n
            .add("perfmon-names.tsv", super::super::BUILTIN_NAMES)
            .is_ok());
        for (o, c) in [
            ("physical disk scsi device", "EsxDisk"),
            ("physical disk", "EsxDisk"),
            ("physical disk adapter", "EsxAdapter"),
            ("physical disk path", "EsxPath"),
            ("virtual disk", "EsxVm"),
            ("physical disk per-device-per-world", "EsxWorld"),
        ] {
            assert_eq!(n.objects.get(o).map(String::as_str), Some(c), "{o}");
        }
    }
}
