//! The header's columns: which counter path feeds which device's figure, and what is left
//! unmapped (columns that are no counter path, other objects, unknown or ignored counters, a
//! `_Total` beside its instances, repeated paths).

use std::collections::HashMap;

use super::names::{key, CounterName, Names};
use super::text::CounterPath;
use super::{capacity, device_name, esx, work, Col, Field};
use crate::error::Result;
use crate::{bad, Device, Parsed, Unmapped};

/// The hosts the counter paths name, in order of first appearance (case-insensitive).
pub(super) fn hosts_of(paths: &[Option<CounterPath>]) -> Vec<String> {
    let mut hosts: Vec<String> = Vec::new();
    for cp in paths.iter().flatten() {
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(&cp.host)) {
            hosts.push(cp.host.clone());
        }
    }
    hosts
}

/// Instances per (host, canonical object), to decide about `_Total`.
fn instances_of(
    names: &Names,
    paths: &[Option<CounterPath>],
) -> HashMap<(String, String), Vec<String>> {
    let mut instances: HashMap<(String, String), Vec<String>> = HashMap::new();
    for cp in paths.iter().flatten() {
        if let Some(canon) = names.objects.get(&key(&cp.object)) {
            if let Some(inst) = &cp.instance {
                let e = instances
                    .entry((cp.host.to_lowercase(), canon.clone()))
                    .or_default();
                if !e.iter().any(|x| x.eq_ignore_ascii_case(inst)) {
                    e.push(inst.clone());
                }
            }
        }
    }
    instances
}

/// The columns of a header as they are read one by one, and what they have left unmapped.
pub(super) struct Columns<'a> {
    names: &'a Names,
    esxtop: bool,
    multi: bool,
    instances: HashMap<(String, String), Vec<String>>,
    /// What each column (0-based in the row) feeds, when it is mapped.
    pub(super) cols: Vec<Option<Col>>,
    seen: HashMap<String, usize>,
    /// Objects that are not disk objects, with their column counts.
    pub(super) other_objects: Vec<(String, usize)>,
    /// (counter, object) missing from the name table.
    unknown_counters: Vec<(String, String)>,
    ignored: Vec<String>,
    dups: usize,
    pub(super) caps: capacity::Cols,
    pub(super) works: work::Cols,
    /// every counter of a disk object, imported or not (named when nothing can be imported)
    disk_counters: Vec<String>,
}

impl<'a> Columns<'a> {
    pub(super) fn new(
        names: &'a Names,
        esxtop: bool,
        multi: bool,
        paths: &[Option<CounterPath>],
        ncols: usize,
    ) -> Columns<'a> {
        Columns {
            names,
            esxtop,
            multi,
            instances: instances_of(names, paths),
            cols: vec![None; ncols],
            seen: HashMap::new(),
            other_objects: Vec::new(),
            unknown_counters: Vec::new(),
            ignored: Vec::new(),
            dups: 0,
            caps: capacity::Cols::default(),
            works: work::Cols::default(),
            disk_counters: Vec::new(),
        }
    }

    /// Read column `ci + 1` (0-based in the row; `ci` counts the columns after the time) with
    /// its header cell `head[ci + 1]` and counter path `cp`.
    pub(super) fn take(
        &mut self,
        ci: usize,
        cp: Option<&CounterPath>,
        head: &[String],
        p: &mut Parsed,
    ) {
        let col = ci + 2; // 1-based, after the time column
        let Some(cp) = cp else {
            p.unmapped.push(Unmapped {
                what: format!("column {col} '{}'", head[ci + 1]),
                why: "not a counter path (\\\\HOST\\Object(Instance)\\Counter)".into(),
            });
            return;
        };
        // the work the server did (work_counters): Process I/O requests, SQL Server batches
        if !self.esxtop
            && self
                .works
                .take(self.names, ci + 1, cp, &head[ci + 1], self.multi)
        {
            return;
        }
        let Some(canon) = self.disk_object(cp) else {
            return;
        };
        if let Some(i) = &cp.instance {
            self.disk_counters
                .push(format!("{}({i})\\{}", cp.object, cp.counter));
        }
        let Some(inst) = cp.instance.clone() else {
            return;
        };
        if !self.first_of_path(&head[ci + 1], col)
            || self.total_beside_instances(cp, &canon, &inst, p)
        {
            return;
        }
        let Some(cn) = self.counter(cp) else {
            return;
        };
        let canon = esx::canon_of(&canon, &inst);
        let name = device_name(&canon, &inst, &cp.host, self.multi);
        if let f @ (Field::FreePct | Field::FreeMb) = Field::of(&cn.field) {
            // a volume's capacity (volume_capacity), read apart from the rates below
            self.caps.add(
                ci + 1,
                f == Field::FreePct,
                &name,
                &inst,
                &cp.host,
                self.multi,
            );
            return;
        }
        let dev = device_index(p, &name, &canon, cp, &inst);
        add_mapping(p, cp, &cn);
        self.cols[ci + 1] = Some(Col {
            dev,
            field: Field::of(&cn.field),
            factor: cn.factor,
        });
    }

    /// The canonical disk object of `cp`, or None (counted as another object) when it is not a
    /// disk object of this kind of log.
    fn disk_object(&mut self, cp: &CounterPath) -> Option<String> {
        let canon = self.names.objects.get(&key(&cp.object)).cloned();
        match canon {
            Some(canon) if self.esxtop == canon.starts_with("Esx") => Some(canon),
            _ => {
                match self.other_objects.iter_mut().find(|(o, _)| o == &cp.object) {
                    Some(e) => e.1 += 1,
                    None => self.other_objects.push((cp.object.clone(), 1)),
                }
                None
            }
        }
    }

    /// Whether the header cell is the first with its path (a repeat is counted).
    fn first_of_path(&mut self, header: &str, col: usize) -> bool {
        let k = key(header);
        if self.seen.contains_key(&k) {
            self.dups += 1;
            return false;
        }
        self.seen.insert(k, col);
        true
    }

    /// Whether the instance is a `_Total` beside other instances (named once as unmapped).
    fn total_beside_instances(
        &self,
        cp: &CounterPath,
        canon: &str,
        inst: &str,
        p: &mut Parsed,
    ) -> bool {
        let n = self
            .instances
            .get(&(cp.host.to_lowercase(), canon.to_string()))
            .map_or(0, Vec::len);
        if !(inst.eq_ignore_ascii_case("_Total") && n > 1) {
            return false;
        }
        let what = format!("{}(_Total)", cp.object);
        if !p.unmapped.iter().any(|u| u.what == what) {
            p.unmapped.push(Unmapped {
                what,
                why: "the sum of the other instances, which are imported one by one".into(),
            });
        }
        true
    }

    /// The counter's meaning, or None when the table lacks it or it feeds no column.
    fn counter(&mut self, cp: &CounterPath) -> Option<CounterName> {
        let Some(cn) = self.names.counters.get(&key(&cp.counter)).cloned() else {
            if !self
                .unknown_counters
                .iter()
                .any(|(c, _)| c.eq_ignore_ascii_case(&cp.counter))
            {
                self.unknown_counters
                    .push((cp.counter.clone(), cp.object.clone()));
            }
            return None;
        };
        if cn.field == "ignore" {
            if !self
                .ignored
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&cp.counter))
            {
                self.ignored.push(cp.counter.clone());
            }
            return None;
        }
        Some(cn)
    }

    /// Name what the columns left unmapped: other objects, unknown and ignored counters,
    /// repeated paths.
    pub(super) fn finish(&self, p: &mut Parsed) {
        for (o, n) in &self.other_objects {
            p.unmapped.push(Unmapped {
                what: format!("object '{o}' ({n} column{})", if *n == 1 { "" } else { "s" }),
                why: if self.esxtop {
                    "not an esxtop disk object (Physical Disk SCSI Device)".into()
                } else {
                    "not a disk object (PhysicalDisk or LogicalDisk), or a name missing from the table (add it with --names FILE)".into()
                },
            });
        }
        for (c, o) in &self.unknown_counters {
            p.unmapped.push(Unmapped {
                what: format!("counter '{o}\\{c}'"),
                why: "not in the name table: add it with --names FILE".into(),
            });
        }
        for c in &self.ignored {
            p.unmapped.push(Unmapped {
                what: format!("counter '{c}'"),
                why: "known, but the capture has no column for it (derived from the imported ones)"
                    .into(),
            });
        }
        if self.dups > 0 {
            p.notes.push(format!(
                "{} column{} repeat an earlier column's path: the first of each is used",
                self.dups,
                if self.dups == 1 { "" } else { "s" }
            ));
        }
    }

    /// Refuse a header with no device to import, naming what the file has instead.
    pub(super) fn check(&self, file: &str, h_line: usize, p: &Parsed) -> Result<()> {
        if !p.devices.is_empty() {
            return Ok(());
        }
        if !self.disk_counters.is_empty() {
            return Err(bad(
                file,
                Some(h_line),
                None,
                crate::partial::nothing_to_import(&self.disk_counters, self.esxtop),
            ));
        }
        let mut found: Vec<String> = self.other_objects.iter().map(|(o, _)| o.clone()).collect();
        found.extend(self.works.objects.iter().cloned());
        Err(bad(
            file,
            Some(h_line),
            None,
            format!(
                "no {} counters to import (objects in the file: {}); if they are disk objects in another language, add their names with --names FILE",
                if self.esxtop { "esxtop disk (Physical Disk SCSI Device)" } else { "PhysicalDisk or LogicalDisk" },
                if found.is_empty() { "none".into() } else { found.join(", ") }
            ),
        ))
    }
}

/// The index of device `name` in `p.devices`, added (with its first role) when new.
fn device_index(p: &mut Parsed, name: &str, canon: &str, cp: &CounterPath, inst: &str) -> usize {
    if let Some(i) = p
        .devices
        .iter()
        .position(|d| d.name.eq_ignore_ascii_case(name))
    {
        return i;
    }
    let (role, reason) = match canon {
        // PerfMon roles are set once the rows are read (`roles::propose`).
        "LogicalDisk" => ("other", "a Windows volume (LogicalDisk)"),
        "PhysicalDisk" => (
            "backing",
            "a Windows disk (PhysicalDisk): the storage beneath the volumes",
        ),
        c => esx::first_role(c),
    };
    p.devices.push(Device {
        name: name.to_string(),
        source: format!("\\\\{}\\{}({})", cp.host, cp.object, inst),
        role: role.into(),
        reason: reason.into(),
        on: None,
        is_partition: false,
        parent: None,
        host: Some(cp.host.clone()),
    });
    p.devices.len() - 1
}

/// Name the figure a counter feeds (once per counter name), for provenance.
fn add_mapping(p: &mut Parsed, cp: &CounterPath, cn: &CounterName) {
    if p.mapping
        .iter()
        .any(|(s, _)| s.eq_ignore_ascii_case(&cp.counter))
    {
        return;
    }
    p.mapping.push((
        cp.counter.clone(),
        if cn.field == "disk_time_pct" {
            "queue_avg × 0.01 (when the log has no Avg. Disk Queue Length)".into()
        } else if cn.factor == 1.0 {
            cn.field.clone()
        } else {
            format!("{} × {}", cn.field, cn.factor)
        },
    ));
}
