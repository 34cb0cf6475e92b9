//! The work the server did, from a PerfMon log: `Process(NAME)\IO Data Operations/sec`, `IO
//! Read Operations/sec`, `IO Write Operations/sec` (the process's I/O requests, counted above the
//! file cache) and SQL Server's `SQL Statistics\Batch Requests/sec`. Stored per interval in
//! `work_counters` (schema v8, docs/capture-schema.md): a row's rate is over the interval from
//! the row above to it, as for the disk counters; the first row has no interval (PDH leaves it
//! blank), a blank or negative cell (PDH's -1) is absent, never 0. Every instance is kept
//! (`_Total`, and each process); the engine compares the disks' I/Os per unit of this work.

use super::names::key;
use super::rows::Rows;
use super::{CounterPath, Names};
use crate::error::Result;
use crate::{bad, num, Parsed, Unmapped};

pub use crate::capture::work::WorkRow;

#[derive(Debug, Clone)]
struct WorkCol {
    col: usize,
    name: &'static str,
    instance: String,
    source: String,
}

/// The work counter columns of a log.
#[derive(Debug, Default)]
pub(super) struct Cols {
    cols: Vec<WorkCol>,
    /// The objects they belong to, as the file names them (for a refusal's list of objects).
    pub(super) objects: Vec<String>,
    /// Other counters of those objects (`Process\% Processor Time`), with their column counts:
    /// named as not imported.
    others: Vec<(String, usize)>,
}

fn canonical(field: &str) -> Option<&'static str> {
    match field {
        "work_io_ops_per_s" => Some("io_ops_per_s"),
        "work_io_reads_per_s" => Some("io_reads_per_s"),
        "work_io_writes_per_s" => Some("io_writes_per_s"),
        "work_batches_per_s" => Some("batches_per_s"),
        _ => None,
    }
}

impl Cols {
    /// Take column `col` (0-based in the row) when it is a work counter; false otherwise.
    pub(super) fn take(
        &mut self,
        names: &Names,
        col: usize,
        cp: &CounterPath,
        header: &str,
        multi: bool,
    ) -> bool {
        // SQL Server's object is `SQLServer:SQL Statistics` or `MSSQL$NAME:SQL Statistics`
        let (prefix, object) = match cp.object.split_once(':') {
            Some((p, o)) => (Some(p), o),
            None => (None, cp.object.as_str()),
        };
        let Some(canon) = names.objects.get(&key(object)) else {
            return false;
        };
        if canon != "Process" && canon != "SqlStatistics" {
            return false;
        }
        if !self.objects.iter().any(|o| o == &cp.object) {
            self.objects.push(cp.object.clone());
        }
        let name = names
            .counters
            .get(&key(&cp.counter))
            .and_then(|c| canonical(&c.field))
            .filter(|n| (canon == "Process") == n.starts_with("io_"));
        let inst = match (canon.as_str(), &cp.instance, prefix) {
            ("Process", Some(i), _) => Some(i.clone()),
            ("SqlStatistics", _, Some(p)) => Some(p.to_string()),
            _ => None,
        };
        let (Some(name), Some(inst)) = (name, inst) else {
            // another counter of the object (% Processor Time): not work, named as not imported
            let what = format!("{}\\{}", cp.object, cp.counter);
            match self.others.iter_mut().find(|(w, _)| *w == what) {
                Some(e) => e.1 += 1,
                None => self.others.push((what, 1)),
            }
            return true;
        };
        self.cols.push(WorkCol {
            col,
            name,
            instance: if multi {
                format!("{}\\{inst}", cp.host)
            } else {
                inst
            },
            source: header.to_string(),
        });
        true
    }

    /// One row per counter per interval with a figure, into `p.work`, and the mapping; the
    /// objects' other counters into `p.unmapped`.
    pub(super) fn rows(&self, ctx: &Rows, data: &[(usize, &str)], p: &mut Parsed) -> Result<()> {
        for (what, n) in &self.others {
            p.unmapped.push(Unmapped {
                what: format!("counter '{what}' ({n} column{})", if *n == 1 { "" } else { "s" }),
                why: "not a work counter (the work imported is a process's IO Data, Read and Write Operations/sec and SQL Server's Batch Requests/sec)".into(),
            });
        }
        if self.cols.is_empty() {
            return Ok(());
        }
        let mut rg = Vec::new();
        let mut prev: Option<i64> = None;
        for &(ln, l) in data {
            let t = ctx.time_of(ln, l, &mut rg)?;
            let Some(start) = prev.replace(t) else {
                continue;
            };
            for c in &self.cols {
                let s = &l[rg[c.col].0..rg[c.col].1];
                let v = num(s).map_err(|_| {
                    bad(
                        ctx.file,
                        Some(ln),
                        Some(c.col + 1),
                        format!("'{}' is not a number", s.trim()),
                    )
                })?;
                let Some(v) = v.filter(|x| *x >= 0.0) else {
                    continue;
                };
                p.work.push(WorkRow {
                    name: c.name.to_string(),
                    instance: c.instance.clone(),
                    source: c.source.clone(),
                    start_utc_ms: start,
                    end_utc_ms: t,
                    rate_per_s: v,
                });
            }
        }
        let mut named: Vec<&str> = Vec::new();
        for c in &self.cols {
            if !named.contains(&c.name) {
                named.push(c.name);
                p.mapping
                    .push((c.source.clone(), format!("work_counters.{}", c.name)));
            }
        }
        Ok(())
    }
}
