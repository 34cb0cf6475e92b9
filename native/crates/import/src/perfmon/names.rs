//! The PerfMon counter name table: object and counter names in every language of the shipped
//! table (and a user's `--names` file), each mapped to the capture figure it feeds.

use std::collections::HashMap;

use crate::error::Result;
use crate::{bad, lines};

/// The shipped name table.
pub const BUILTIN_NAMES: &str = include_str!("../perfmon-names.tsv");

/// A counter's meaning: capture field, factor into that field's unit, English name.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterName {
    pub field: String,
    pub factor: f64,
    pub english: String,
    pub lang: String,
}

/// Object and counter names in every language of the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Names {
    pub objects: HashMap<String, String>,
    pub counters: HashMap<String, CounterName>,
    /// (lang, localized object, canonical) in table order (for building localized files).
    pub object_rows: Vec<(String, String, String)>,
    /// (lang, localized counter) in table order.
    pub counter_rows: Vec<(String, String)>,
}

const FIELDS: &[&str] = &[
    "reads_per_s",
    "writes_per_s",
    "read_bytes_per_s",
    "write_bytes_per_s",
    "read_s_per_io",
    "write_s_per_io",
    "idle_pct",
    "queue_avg",
    "read_queue_avg",
    "write_queue_avg",
    "queue_current",
    "disk_time_pct",
    "free_pct",
    "free_mb",
    "work_io_ops_per_s",
    "work_io_reads_per_s",
    "work_io_writes_per_s",
    "work_batches_per_s",
    "ignore",
];

pub(super) fn key(s: &str) -> String {
    s.trim().to_lowercase().replace('\u{2019}', "'")
}

impl Names {
    /// The shipped table.
    pub fn builtin() -> Names {
        let mut n = Names::default();
        // The shipped table is checked by a unit test; a bad line there is a build defect.
        let _ = n.add("perfmon-names.tsv", BUILTIN_NAMES);
        n
    }

    /// Add the lines of a table (`file` names it in errors).
    pub fn add(&mut self, file: &str, text: &str) -> Result<()> {
        for (i, line) in lines(text).into_iter().enumerate() {
            let l = line.trim_end();
            if l.trim().is_empty() || l.trim_start().starts_with('#') {
                continue;
            }
            let p: Vec<&str> = l.split('\t').collect();
            let err = |m: &str| bad(file, Some(i + 1), None, m);
            match p.first().copied() {
                Some("object") if p.len() == 4 => {
                    if !["PhysicalDisk", "LogicalDisk", "EsxDisk", "EsxAdapter", "EsxPath", "EsxVm", "EsxWorld", "Process", "SqlStatistics"].contains(&p[3]) {
                        return Err(err("an object line's 4th column must be PhysicalDisk, LogicalDisk, EsxDisk, EsxAdapter, EsxPath, EsxVm, EsxWorld, Process or SqlStatistics"));
                    }
                    self.objects.insert(key(p[2]), p[3].to_string());
                    self.object_rows
                        .push((p[1].to_string(), p[2].to_string(), p[3].to_string()));
                }
                Some("counter") if p.len() == 6 => {
                    if !FIELDS.contains(&p[3]) {
                        return Err(err(&format!(
                            "unknown field '{}': use one of {}",
                            p[3],
                            FIELDS.join(", ")
                        )));
                    }
                    let factor: f64 = p[4]
                        .parse()
                        .map_err(|_| err(&format!("factor '{}' is not a number", p[4])))?;
                    self.counters.insert(
                        key(p[2]),
                        CounterName {
                            field: p[3].to_string(),
                            factor,
                            english: p[5].to_string(),
                            lang: p[1].to_string(),
                        },
                    );
                    self.counter_rows.push((p[1].to_string(), p[2].to_string()));
                }
                _ => {
                    return Err(err(
                        "expected 'object<TAB>LANG<TAB>NAME<TAB>CANONICAL' or 'counter<TAB>LANG<TAB>NAME<TAB>FIELD<TAB>FACTOR<TAB>ENGLISH'",
                    ))
                }
            }
        }
        Ok(())
    }

    /// The localized name of an English counter in `lang`, if the table has it.
    pub fn localize_counter(&self, english: &str, lang: &str) -> Option<String> {
        self.counter_rows
            .iter()
            .filter(|(l, _)| l == lang)
            .find(|(_, n)| {
                self.counters
                    .get(&key(n))
                    .is_some_and(|c| c.english.eq_ignore_ascii_case(english))
            })
            .map(|(_, n)| n.clone())
    }

    /// The localized name of a canonical object in `lang`.
    pub fn localize_object(&self, canonical: &str, lang: &str) -> Option<String> {
        self.object_rows
            .iter()
            .find(|(l, _, c)| l == lang && c == canonical)
            .map(|(_, n, _)| n.clone())
    }
}
