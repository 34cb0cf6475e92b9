//! The roles proposed for PerfMon disks (docs/import.md, "PerfMon roles").
//!
//! On Windows, LogicalDisk and PhysicalDisk are two views of one layer: both sit below any
//! in-OS cache (the system file cache, a file-system filter driver) and above any
//! controller cache. Counting both counts every I/O twice, and taking the volume as a front
//! over the disk cancels the saving the disks show. So by default the disks are the backing
//! and the volumes are not counted (`other`): the comparison is backing-only, the drives
//! before vs after. A host whose log has no PhysicalDisk counts its volumes instead. A front
//! only ever comes from the user (`--role`), and a device that lacks reads, writes or time
//! over the file is named in a note as one that cannot be a front.

use super::super::{Device, Sample};

/// What a device's counters hold over the whole file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Complete {
    pub reads: bool,
    pub writes: bool,
    pub time: bool,
}

impl Complete {
    pub fn all(self) -> bool {
        self.reads && self.writes && self.time
    }

    /// The missing counters, in words (`write and time`).
    fn missing(self) -> String {
        let mut v = Vec::new();
        if !self.reads {
            v.push("read");
        }
        if !self.writes {
            v.push("write");
        }
        if !self.time {
            v.push("time");
        }
        match v.len() {
            0 => String::new(),
            1 => v[0].to_string(),
            _ => format!("{} and {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
        }
    }
}

/// Which of reads, writes and time each device has in at least one sample of the file.
pub(crate) fn completeness(ndev: usize, samples: &[Sample]) -> Vec<Complete> {
    let mut c = vec![Complete::default(); ndev];
    for s in samples {
        for (i, r) in s.rates.iter().enumerate().take(ndev) {
            let Some(r) = r else { continue };
            c[i].reads |= r.reads_per_s.is_some();
            c[i].writes |= r.writes_per_s.is_some();
            c[i].time |=
                r.read_ms_per_io.is_some() || r.write_ms_per_io.is_some() || r.busy_frac.is_some();
        }
    }
    c
}

fn object_of(name: &str) -> Option<&'static str> {
    ["LogicalDisk(", "PhysicalDisk("]
        .into_iter()
        .find(|o| name.contains(o))
        .map(|o| o.trim_end_matches('('))
}

/// The host prefix of a device name (`HOST\` in a multi-host log, empty otherwise).
fn prefix(name: &str) -> &str {
    name.find("LogicalDisk(")
        .or_else(|| name.find("PhysicalDisk("))
        .map(|i| &name[..i])
        .unwrap_or("")
}

/// Set the PerfMon roles and reasons, and return the notes that say why (one sentence each).
pub(crate) fn propose(devices: &mut [Device], complete: &[Complete]) -> Vec<String> {
    let mut notes = Vec::new();
    let hosts_with_disks: Vec<String> = devices
        .iter()
        .filter(|d| object_of(&d.name) == Some("PhysicalDisk"))
        .map(|d| prefix(&d.name).to_string())
        .collect();
    let mut volumes_not_counted = false;
    for d in devices.iter_mut() {
        match object_of(&d.name) {
            Some("PhysicalDisk") => {
                d.role = "backing".into();
                d.reason = "a Windows disk (PhysicalDisk): the drives, counted".into();
            }
            Some("LogicalDisk") => {
                let on =
                    d.on.as_ref()
                        .map(|b| format!(" on {b}"))
                        .unwrap_or_default();
                if hosts_with_disks.iter().any(|h| h == prefix(&d.name)) {
                    d.role = "other".into();
                    d.reason = format!(
                        "a Windows volume (LogicalDisk){on}: the same layer as the disks (both below any in-OS cache), not counted"
                    );
                    volumes_not_counted = true;
                } else {
                    d.role = "backing".into();
                    d.reason = format!(
                        "a Windows volume (LogicalDisk){on}: no PhysicalDisk in the log for its host, so the volumes are counted as the drives"
                    );
                }
            }
            _ => {}
        }
    }
    if volumes_not_counted {
        notes.push(
            "the comparison is backing-only (the drives before vs after): on Windows, LogicalDisk and PhysicalDisk both sit below any in-OS cache, so they are one layer; PhysicalDisk is counted and LogicalDisk is not (give --role NAME=front only when a cache sits between them)".into(),
        );
    }
    let lacking: Vec<String> = devices
        .iter()
        .zip(complete)
        .filter(|(d, c)| object_of(&d.name) == Some("LogicalDisk") && !c.all())
        .map(|(d, c)| format!("{} (no {} counters)", d.name, c.missing()))
        .collect();
    if !lacking.is_empty() {
        notes.push(format!(
            "not a possible front, its counters are incomplete over the file: {}",
            lacking.join(", ")
        ));
    }
    notes
}
