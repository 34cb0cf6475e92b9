//! The device stack of a Linux log (issue 26, "count every I/O once"): what sits on what, from
//! the names where they tell (a partition `sda1` on `sda`, `nvme0n1p1` on `nvme0n1`) and, for the
//! volumes whose names do not name their disks (device-mapper `dm-N`, LVM `vg-lv` and
//! `mapper/…`, md), from the numbers: a volume whose traffic tracks one disk's interval by
//! interval, and never exceeds it, is proposed on that disk, and the reason says so.
//!
//! Only one layer is counted by default: the whole disks (backing). Partitions and stacked
//! volumes are listed with what they sit on, role `other` (not counted: their I/O is their
//! disk's). A cache engine's device (bcache, flashcache) keeps its proposed role.

use super::super::{Parsed, Rates};

/// How a stacked volume is named: device-mapper (`dm-3`, `dev253-3`, `mapper/vg-lv`), LVM
/// (`vg-lv`, as sar -p and iostat -N print it), md (`md0`, `dev9-0`); None for any other name.
pub fn stacked_kind(name: &str) -> Option<&'static str> {
    let n = name.trim_start_matches("/dev/");
    if n.starts_with("dm-") || n.starts_with("dev253-") || n.starts_with("mapper/") {
        return Some("device-mapper");
    }
    if n.starts_with("md") || n.starts_with("dev9-") {
        return Some("md");
    }
    // kernel names have no '-' but device-mapper's and the devM-N of plain sar -d
    if n.contains('-') && !n.starts_with("dev") && !n.starts_with("bcache") {
        return Some("LVM");
    }
    None
}

/// The traffic of a device in one interval (bytes, else I/Os, per s), if the source gives it.
fn traffic(r: &Rates) -> Option<f64> {
    match (r.read_bytes_per_s, r.write_bytes_per_s) {
        (None, None) => match (r.reads_per_s, r.writes_per_s) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        },
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// Pearson's r of two series over the moments both have, with how many there were; None when
/// either does not vary.
fn correlation(a: &[Option<f64>], b: &[Option<f64>]) -> Option<(f64, usize, f64, f64)> {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
        .collect();
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return None;
    }
    let (sa, sb) = pairs
        .iter()
        .fold((0.0, 0.0), |(s, t), (x, y)| (s + x, t + y));
    let (ma, mb) = (sa / n, sb / n);
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        cov += (x - ma) * (y - mb);
        va += (x - ma) * (x - ma);
        vb += (y - mb) * (y - mb);
    }
    if va <= 0.0 || vb <= 0.0 {
        return None;
    }
    Some((cov / (va * vb).sqrt(), pairs.len(), sa, sb))
}

/// The smallest correlation of a volume's traffic with its disk's for the volume to be proposed
/// on that disk.
const MIN_R: f64 = 0.9;

/// Fill `p.stack` with (holder, slave, kind) edges, and make the partitions and stacked
/// volumes `other` (not counted) when the file has a whole disk their I/O is counted on.
pub fn propose(p: &mut Parsed) {
    let series: Vec<Vec<Option<f64>>> = (0..p.devices.len())
        .map(|d| {
            p.samples
                .iter()
                .map(|s| s.rates.get(d).copied().flatten().and_then(|r| traffic(&r)))
                .collect()
        })
        .collect();
    let edges = propose_in(&mut p.devices, &series, "");
    p.stack.extend(edges);
    if let Some(n) = note(&p.stack) {
        p.notes.push(n);
    }
}

/// The note that lists the stack (one layer counted), None when it is empty.
pub fn note(stack: &[(String, String, String)]) -> Option<String> {
    (!stack.is_empty()).then(|| {
        format!(
            "the device stack ({}): one layer is counted, the whole disks; a partition or a volume on a disk is listed, not counted again",
            stack
                .iter()
                .map(|(h, s, k)| format!("{h} on {s} ({k})"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The stack of one host's devices: `series[d]` is device d's traffic at each moment (bytes or
/// I/Os per s, the same unit for all), and `strip` the prefix of every name (`INSTANCE/` in a
/// fleet) left out when the kernel name is read. Sets the roles and reasons of the partitions
/// and stacked volumes, and returns the (holder, slave, kind) edges.
pub fn propose_in(
    devices: &mut [super::super::Device],
    series: &[Vec<Option<f64>>],
    strip: &str,
) -> Vec<(String, String, String)> {
    let mut edges = Vec::new();
    let n = devices.len();
    let kname =
        |d: &super::super::Device| d.name.strip_prefix(strip).unwrap_or(&d.name).to_string();
    let stacked: Vec<Option<&'static str>> =
        devices.iter().map(|d| stacked_kind(&kname(d))).collect();
    let engine = |d: &super::super::Device| {
        let k = kname(d);
        k.starts_with("bcache") || k.starts_with("flashcache")
    };
    let disks: Vec<usize> = (0..n)
        .filter(|&i| stacked[i].is_none() && !engine(&devices[i]) && devices[i].role == "backing")
        .collect();
    let names: Vec<String> = devices.iter().map(|d| d.name.clone()).collect();
    for d in devices.iter() {
        if let (true, Some(parent)) = (d.is_partition, &d.parent) {
            if names.contains(parent) {
                edges.push((d.name.clone(), parent.clone(), "partition".into()));
            }
        }
    }
    for v in 0..n {
        let Some(kind) = stacked[v] else { continue };
        if engine(&devices[v]) || disks.is_empty() {
            continue;
        }
        // the disks and partitions whose traffic the volume's tracks and never exceeds; of
        // those, the one with the least traffic: the lowest layer that holds the volume (a
        // partition rather than its disk, which tracks the volume as well)
        let best = (0..n)
            .filter(|&c| c != v && stacked[c].is_none() && !engine(&devices[c]))
            .filter_map(|c| {
                let (r, k, sv, sc) = correlation(series.get(v)?, series.get(c)?)?;
                (r >= MIN_R && sv <= sc * 1.05 + 1.0).then_some((c, r, k, sc))
            })
            .min_by(|a, b| a.3.total_cmp(&b.3));
        let d = &mut devices[v];
        d.role = "other".into();
        match best {
            Some((c, r, k, _)) => {
                let on = names[c].clone();
                d.reason = format!(
                    "a {kind} volume; the file does not name its disks: proposed on {on} from the numbers (its traffic tracks {on}'s interval by interval, r = {r:.2} over {k} intervals, and never exceeds it): not counted, its I/O is counted on {on}"
                );
                edges.push((d.name.clone(), on, "from the numbers".into()));
            }
            None => {
                d.reason = format!(
                    "a {kind} volume; the file does not name its disks, and no disk's numbers track it: not counted (its I/O is its disks'); give --role {}=backing to count it instead of them",
                    d.name
                );
            }
        }
    }
    edges
}

/// The kind of an edge between two views of the same commands (esxtop's adapter, path, VM and
/// world rows over its device rows): not a layer on another, the same I/O seen twice.
pub const VIEW: &str = "another view of the same commands";

/// The sentence refusing a role set that counts a device and a device stacked on it (both
/// `backing`), directly or through devices not counted (a volume on a partition of a counted
/// disk), naming the pair; None when no I/O is counted twice.
pub fn double_count(
    devices: &[super::super::Device],
    stack: &[(String, String, String)],
) -> Option<String> {
    let role = |n: &str| {
        devices
            .iter()
            .find(|d| d.name == n)
            .map(|d| d.role.as_str())
    };
    let direct = stack.iter().find_map(|(h, s, kind)| {
        (role(h) == Some("backing") && role(s) == Some("backing")).then(|| {
            if let Some(which) = kind.strip_prefix(VIEW) {
                format!(
                    "{h} and {s} would both be counted, but they are two views of the same commands{which}: each I/O counted twice; count one of them (--role {h}=other, or --role {s}=other)"
                )
            } else {
                format!(
                    "{h} and {s} would both be counted, but {h} sits on {s} ({kind}): its I/O is {s}'s, counted twice; count one of them (--role {h}=other, or --role {s}=other)"
                )
            }
        })
    });
    direct.or_else(|| {
        devices
            .iter()
            .filter(|d| d.role == "backing")
            .find_map(|d| through(&d.name, stack, &|n| role(n) == Some("backing")))
    })
}

/// A counted device `h` on a counted device further down the stack, through layers not
/// counted (views are the same commands, not layers: not followed): the sentence, or None.
fn through(
    h: &str,
    stack: &[(String, String, String)],
    counted: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let mut seen: Vec<&str> = vec![h];
    // (device reached, the devices passed on the way)
    let mut todo: Vec<(&str, Vec<&str>)> = vec![(h, Vec::new())];
    while let Some((at, via)) = todo.pop() {
        for (_, s, _) in stack
            .iter()
            .filter(|(x, _, k)| x == at && !k.starts_with(VIEW))
        {
            if seen.contains(&s.as_str()) {
                continue;
            }
            seen.push(s);
            if counted(s) && !via.is_empty() {
                let path = via.join(" on ");
                return Some(format!(
                    "{h} and {s} would both be counted, but {h} sits on {s} (through {path}): its I/O is {s}'s, counted twice; count one of them (--role {h}=other, or --role {s}=other)"
                ));
            }
            let mut next = via.clone();
            next.push(s);
            todo.push((s, next));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_stacked() {
        for (n, k) in [
            ("dm-0", Some("device-mapper")),
            ("mapper/rhel-root", Some("device-mapper")),
            ("vgsys-postgreSQL", Some("LVM")),
            ("centos--vg-root", Some("LVM")),
            ("md127", Some("md")),
            ("dev8-0", None),
            ("sda", None),
            ("nvme0n1p1", None),
            ("bcache0", None),
        ] {
            assert_eq!(stacked_kind(n), k, "{n}");
        }
    }

    #[test]
    fn a_series_that_does_not_vary_proves_nothing() {
        let a = [Some(1.0), Some(1.0), Some(1.0)];
        let b = [Some(1.0), Some(2.0), Some(3.0)];
        assert!(correlation(&a, &b).is_none());
        let c = [Some(2.0), Some(4.0), Some(6.5)];
        assert!(correlation(&b, &c).is_some_and(|x| x.0 > 0.99));
    }
}
