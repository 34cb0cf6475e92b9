//! What the import preview says, as codes with values (issue 37; docs/import.md "Preview JSON",
//! `said`): every sentence of a preview (notes, needs, why a source column was not imported, why a
//! device has its role, where the time zone came from, how the encoding was found, the phases and
//! the stack's kinds) is declared here once, with its English template. The app translates a code
//! with its values (app/src/shared/i18n/probe-said.ts, whose English is checked equal to
//! [`SAID`] by app/src/shared/i18n/probe-said.test.ts).
//!
//! The parsers still write their English sentences; [`recognize`] reads each back into its code
//! and values by these templates (a sentence no template matches is `as-written`, its text a
//! value), and [`Said::text`] writes the template back, equal to the sentence (tests below).

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// Every code, with its English template: `{name}` is a value. One `("code", "template"),` a
/// line: the app's catalog test reads this table from this file.
#[rustfmt::skip]
pub const SAID: &[(&str, &str)] = &[
    ("as-written", "{text}"),
    ("empty", ""),
    ("in-file", "{file}: {said}"),
    // notes
    ("iostat-first-since-boot", "iostat's first report covers the time since boot: like every first sample, it gives no interval"),
    ("iostat-first-kept-y", "iostat ran with -y: its first report is an interval like the others (ending at its time), not the time since boot, and is kept"),
    ("no-times-midnight", "the file has no times: the first report is placed at midnight of the banner's date (give --start TIME for the real start)"),
    ("tps-split", "the source gives tps (transfers/s) without the read/write split: reads and writes are estimated by sharing tps in proportion to the bytes read and written, and both use the one await"),
    ("sadf-each-line", "each line is the rate over its interval, ending at its timestamp (the interval column gives the length): the first line's interval starts before it, so no line is left out"),
    ("sar-each-line", "each line is the rate over the interval ending at its time; the first line after a header starts at the header's time, so no line is left out"),
    ("sar-restart", "line {line}: the system restarted; the interval across it is a gap"),
    ("stack-one-layer", "the device stack ({edges}): one layer is counted, the whole disks; a partition or a volume on a disk is listed, not counted again"),
    ("stack-edge", "{holder} on {on} ({kind})"),
    ("perfmon-backing-only", "the comparison is backing-only (the drives before vs after): on Windows, LogicalDisk and PhysicalDisk both sit below any in-OS cache, so they are one layer; PhysicalDisk is counted and LogicalDisk is not (give --role NAME=front only when a cache sits between them)"),
    ("perfmon-incomplete-fronts", "not a possible front, its counters are incomplete over the file: {volumes}"),
    ("perfmon-repeat-column", "{n} column repeat an earlier column's path: the first of each is used"),
    ("perfmon-repeat-columns", "{n} columns repeat an earlier column's path: the first of each is used"),
    ("no-switch", "no switch given (--switch-at, or --baseline and --measure files): the whole import is the baseline"),
    ("stitch-repeat", "{file} line {line}: {ms} ms from the last row of {other}: a repeat of the same moment, not used"),
    ("prom-resets", "{device}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a 'reset' with no numbers"),
    ("esxtop-counted-host", "esxtop ({host}): the {counted} rows are counted; the {others} rows are another view of the same commands (an adapter's Commands/sec is the sum of its devices'): listed in the stack, not counted"),
    ("esxtop-counted", "esxtop: the {counted} rows are counted; the {others} rows are another view of the same commands (an adapter's Commands/sec is the sum of its devices'): listed in the stack, not counted"),
    ("prom-win-latency", "windows_exporter: the latency is Δ(read_latency_seconds_total) ÷ Δ(reads_total) (and likewise for writes); read_seconds_total and write_seconds_total are busy time, not latency, and are not used"),
    // needs
    ("needs-interval", "--interval SECONDS: {what} printed no times (run it with -t next time); give the interval it ran with"),
    // where the time zone came from
    ("tz-given", "--utc-offset"),
    ("tz-header-bias", "header (bias = UTC − local)"),
    ("tz-not-in-file-zone", "not in the file (zone name without bias): times taken as UTC (give --utc-offset MINUTES if they were local)"),
    ("tz-not-in-file", "not in the file: times taken as UTC (give --utc-offset MINUTES if they were local)"),
    ("tz-timestamps-utc", "timestamps (UTC)"),
    ("tz-timestamps-offset", "timestamps (ISO 8601 with offset)"),
    ("tz-diskstats-utc", "times are UTC (epoch or ISO 8601 with offset)"),
    ("tz-uptime", "uptime only: the absolute time is --start (or the epoch) + uptime"),
    ("tz-prometheus-utc", "Prometheus times are UTC"),
    // how the encoding was found
    ("enc-detected", "detected"),
    ("enc-bom", "bom"),
    ("enc-given", "given"),
    ("enc-http", "HTTP API (JSON)"),
    // why a device has its role
    ("role-stacked", "a stacked device (device-mapper, md or bcache): what the applications use"),
    ("role-loop", "loop, RAM, optical or network block device: not a disk under a cache"),
    ("role-partition", "a partition (its disk is counted whole)"),
    ("role-whole-disk", "a whole disk: the slow storage a cache would sit in front of"),
    ("role-volume-on-numbers", "a {kind} volume; the file does not name its disks: proposed on {on} from the numbers (its traffic tracks {on}'s interval by interval, r = {r} over {n} intervals, and never exceeds it): not counted, its I/O is counted on {on}"),
    ("role-volume-untracked", "a {kind} volume; the file does not name its disks, and no disk's numbers track it: not counted (its I/O is its disks'); give --role {device}=backing to count it instead of them"),
    ("role-given", "given with --role"),
    ("role-win-disk", "a Windows disk (PhysicalDisk): the drives, counted"),
    ("role-win-disk-first", "a Windows disk (PhysicalDisk): the storage beneath the volumes"),
    ("role-win-volume", "a Windows volume (LogicalDisk)"),
    ("role-win-volume-same-layer-on", "a Windows volume (LogicalDisk) on {on}: the same layer as the disks (both below any in-OS cache), not counted"),
    ("role-win-volume-same-layer", "a Windows volume (LogicalDisk): the same layer as the disks (both below any in-OS cache), not counted"),
    ("role-win-volume-counted-on", "a Windows volume (LogicalDisk) on {on}: no PhysicalDisk in the log for its host, so the volumes are counted as the drives"),
    ("role-win-volume-counted", "a Windows volume (LogicalDisk): no PhysicalDisk in the log for its host, so the volumes are counted as the drives"),
    ("role-win-exporter-volume", "a Windows volume (LogicalDisk) on {on}: what the applications use"),
    ("role-esx-device", "an ESXi SCSI device: the storage the datastores sit on"),
    ("role-esx-adapter", "an ESXi adapter: the log has no device rows, so the adapters are the view counted"),
    ("role-esx-other", "an esxtop view of the devices' commands"),
    ("role-esx-view", "an esxtop {view} row: another view of the same commands as the {counted} rows: not counted"),
    // what was not imported, and why
    ("what-column", "column '{name}'"),
    ("what-column-at", "column {n} '{name}'"),
    ("what-counter", "counter '{name}'"),
    ("what-counter-column", "counter '{name}' ({n} column)"),
    ("what-counter-columns", "counter '{name}' ({n} columns)"),
    ("what-object-column", "object '{name}' ({n} column)"),
    ("what-object-columns", "object '{name}' ({n} columns)"),
    ("what-metric", "metric {name}"),
    ("why-not-counter-path", "not a counter path (\\\\HOST\\Object(Instance)\\Counter)"),
    ("why-total", "the sum of the other instances, which are imported one by one"),
    ("why-not-disk-object", "not a disk object (PhysicalDisk or LogicalDisk), or a name missing from the table (add it with --names FILE)"),
    ("why-not-esxtop-object", "not an esxtop disk object (Physical Disk SCSI Device)"),
    ("why-not-in-table", "not in the name table: add it with --names FILE"),
    ("why-derived-counter", "known, but the capture has no column for it (derived from the imported ones)"),
    ("why-derived-column", "derived from the imported columns (a ratio or size per request)"),
    ("why-unknown-column", "not a column this importer knows"),
    ("why-not-work-counter", "not a work counter (the work imported is a process's IO Data, Read and Write Operations/sec and SQL Server's Batch Requests/sec)"),
    // phases and the stack's kinds
    ("phase-baseline", "baseline"),
    ("phase-switch", "switch"),
    ("phase-warmup", "warmup"),
    ("phase-measure", "measure"),
    ("kind-partition", "partition"),
    ("kind-from-numbers", "from the numbers"),
    ("kind-view", "another view of the same commands"),
    ("kind-esx-view", "another view of the same commands ({view} over {counted})"),
    // the views of an esxtop log (perfmon/esx.rs), only ever values of the sentences above
    ("esx-device", "device"),
    ("esx-adapter", "adapter"),
    ("esx-path", "path"),
    ("esx-vm", "VM or virtual disk"),
    ("esx-world", "world"),
];

/// Codes only ever inside another sentence (never recognized on their own).
const INNER: &[&str] = &[
    "as-written",
    "in-file",
    "stack-edge",
    "esx-device",
    "esx-adapter",
    "esx-path",
    "esx-vm",
    "esx-world",
];

/// An esxtop view's name (`device`, `VM or virtual disk`…) as its code; None for any other text.
fn esx_view(v: &str) -> Option<Said> {
    SAID.iter()
        .find(|(c, t)| c.starts_with("esx-") && *t == v)
        .map(|&(code, _)| Said {
            code,
            values: BTreeMap::new(),
        })
}

/// A value of a sentence: a name, path or number as written, another sentence, or a list of them.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(String),
    Said(Box<Said>),
    List(Vec<Said>),
}

/// One sentence: its code and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    pub code: &'static str,
    pub values: BTreeMap<&'static str, Value>,
}

fn template(code: &str) -> &'static str {
    SAID.iter()
        .find(|(c, _)| *c == code)
        .map_or("", |(_, t)| *t)
}

/// A template's parts: literal text and value names, in order.
fn parts(t: &'static str) -> Vec<(bool, &'static str)> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        if i > 0 {
            out.push((false, &rest[..i]));
        }
        out.push((true, &rest[i + 1..i + j]));
        rest = &rest[i + j + 1..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

impl Said {
    /// A sentence no template matches: its text as a value.
    fn as_written(text: &str) -> Said {
        let mut values = BTreeMap::new();
        values.insert("text", Value::Text(text.to_string()));
        Said {
            code: "as-written",
            values,
        }
    }

    /// A file's sentence (`FILE: sentence`).
    pub fn in_file(file: &str, said: Said) -> Said {
        let mut values = BTreeMap::new();
        values.insert("file", Value::Text(file.to_string()));
        values.insert("said", Value::Said(Box::new(said)));
        Said {
            code: "in-file",
            values,
        }
    }

    /// The English sentence: the template with its values.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (is_value, p) in parts(template(self.code)) {
            if !is_value {
                s.push_str(p);
                continue;
            }
            match self.values.get(p) {
                Some(Value::Text(t)) => s.push_str(t),
                Some(Value::Said(x)) => s.push_str(&x.text()),
                Some(Value::List(xs)) => {
                    s.push_str(&xs.iter().map(Said::text).collect::<Vec<_>>().join(", "))
                }
                None => {}
            }
        }
        s
    }
}

/// The values of `text` by the template of `code`, or None when it does not match. A value
/// ends at the first place the literal after it is found (the last runs to the end).
fn matches(code: &'static str, text: &str) -> Option<BTreeMap<&'static str, Value>> {
    let ps = parts(template(code));
    let mut values = BTreeMap::new();
    let mut rest = text;
    let mut i = 0;
    while i < ps.len() {
        let (is_value, p) = ps[i];
        if !is_value {
            rest = rest.strip_prefix(p)?;
            i += 1;
            continue;
        }
        let (v, next) = match ps.get(i + 1) {
            Some((false, lit)) => {
                let at = rest.find(lit)?;
                (&rest[..at], at)
            }
            _ => (rest, rest.len()),
        };
        // an empty value only between two literals (`column 12 ''`: a column with no name)
        let enclosed = i > 0 && !ps[i - 1].0 && matches!(ps.get(i + 1), Some((false, _)));
        if v.is_empty() && !enclosed {
            return None;
        }
        let value = inner(code, p, v)?;
        if let Some(old) = values.get(p) {
            if *old != value {
                return None;
            }
        }
        values.insert(p, value);
        rest = &rest[next..];
        i += 1;
    }
    rest.is_empty().then_some(values)
}

/// A value that is itself sentences: the stack's edges and their kinds.
fn inner(code: &str, name: &str, v: &str) -> Option<Value> {
    Some(match (code, name) {
        ("stack-one-layer", "edges") => Value::List(
            v.split(", ")
                .map(|e| {
                    matches("stack-edge", e).map(|values| Said {
                        code: "stack-edge",
                        values,
                    })
                })
                .collect::<Option<Vec<_>>>()?,
        ),
        ("stack-edge", "kind") => Value::Said(Box::new(recognize(v))),
        ("kind-esx-view" | "role-esx-view", "view" | "counted")
        | ("esxtop-counted" | "esxtop-counted-host", "counted") => {
            Value::Said(Box::new(esx_view(v)?))
        }
        ("esxtop-counted" | "esxtop-counted-host", "others") => {
            Value::List(v.split(", ").map(esx_view).collect::<Option<Vec<_>>>()?)
        }
        _ => Value::Text(v.to_string()),
    })
}

/// The code and values of an English sentence the import wrote; `as-written` when no template
/// matches it. The longest templates are tried first, so a template is never read as a shorter
/// one it contains.
pub fn recognize(text: &str) -> Said {
    let mut codes: Vec<&(&'static str, &'static str)> =
        SAID.iter().filter(|(c, _)| !INNER.contains(c)).collect();
    codes.sort_by_key(|(_, t)| std::cmp::Reverse(t.len()));
    for &(code, _) in codes {
        if let Some(values) = matches(code, text) {
            return Said { code, values };
        }
    }
    Said::as_written(text)
}

/// A number as written (`12`, `0.95`) is a JSON number, so the app writes it in the person's
/// locale; anything else is a string.
fn text_value(t: &str) -> serde_json::Value {
    if let Ok(n) = t.parse::<u64>() {
        if n.to_string() == t {
            return n.into();
        }
    }
    match t.parse::<f64>() {
        Ok(n) if n.is_finite() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            serde_json::Number::from_f64(n)
                .filter(|x| x.to_string() == t)
                .map_or_else(|| t.into(), serde_json::Value::Number)
        }
        _ => t.into(),
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Text(t) => text_value(t).serialize(s),
            Value::Said(x) => x.serialize(s),
            Value::List(xs) => xs.serialize(s),
        }
    }
}

/// `{ "code": …, "values": { … } }`.
impl Serialize for Said {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("code", self.code)?;
        m.serialize_entry("values", &self.values)?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &Said) -> serde_json::Value {
        serde_json::to_value(s).expect("a sentence serializes")
    }

    fn round(t: &str) -> Said {
        let s = recognize(t);
        assert_eq!(s.text(), t, "{} does not write back its sentence", s.code);
        s
    }

    #[test]
    fn every_template_reads_back_its_own_sentence() {
        for (code, t) in SAID {
            if INNER.contains(code) || t.is_empty() {
                continue;
            }
            let filled = t
                .replace("{on}", "sdb")
                .replace("{kind}", "LVM")
                .replace("{view}", "VM or virtual disk")
                .replace("{counted}", "device")
                .replace("{others}", "adapter, path, world")
                .replace(
                    "{edges}",
                    "vg-data on sdb (from the numbers), sda1 on sda (partition)",
                )
                .replace('{', "<")
                .replace('}', ">");
            let s = round(&filled);
            assert_eq!(s.code, *code, "{filled}");
        }
    }

    #[test]
    fn values_are_names_numbers_and_inner_sentences() {
        let s = round("a LVM volume; the file does not name its disks: proposed on sdb from the numbers (its traffic tracks sdb's interval by interval, r = 0.98 over 120 intervals, and never exceeds it): not counted, its I/O is counted on sdb");
        let j = json(&s);
        assert_eq!(j["code"], "role-volume-on-numbers");
        assert_eq!(j["values"]["r"], 0.98);
        assert_eq!(j["values"]["n"], 120);
        assert_eq!(j["values"]["on"], "sdb");
        let s = round("the device stack (vg-data on sdb (from the numbers), sda1 on sda (partition)): one layer is counted, the whole disks; a partition or a volume on a disk is listed, not counted again");
        let j = json(&s);
        assert_eq!(
            j["values"]["edges"][0]["values"]["kind"]["code"],
            "kind-from-numbers"
        );
        assert_eq!(j["values"]["edges"][1]["values"]["holder"], "sda1");
        let s = round("esxtop (localhost.home): the device rows are counted; the adapter, path, world, VM or virtual disk rows are another view of the same commands (an adapter's Commands/sec is the sum of its devices'): listed in the stack, not counted");
        let j = json(&s);
        assert_eq!(j["code"], "esxtop-counted-host");
        assert_eq!(j["values"]["host"], "localhost.home");
        assert_eq!(j["values"]["counted"]["code"], "esx-device");
        let others: Vec<_> = (0..4)
            .map(|i| j["values"]["others"][i]["code"].clone())
            .collect();
        assert_eq!(others, ["esx-adapter", "esx-path", "esx-world", "esx-vm"]);
        let j = json(&round("an esxtop VM or virtual disk row: another view of the same commands as the device rows: not counted"));
        assert_eq!(j["code"], "role-esx-view");
        assert_eq!(j["values"]["view"]["code"], "esx-vm");
        let j = json(&round(
            "another view of the same commands (path over device)",
        ));
        assert_eq!(j["code"], "kind-esx-view");
        assert_eq!(j["values"]["view"]["code"], "esx-path");
        // a view esxtop does not have is no esx code: the sentence is as written
        assert_eq!(
            round("another view of the same commands (disk over device)").code,
            "as-written"
        );
        // a column with no name
        let j = json(&round("column 7632 ''"));
        assert_eq!(j["code"], "what-column-at");
        assert_eq!(j["values"]["name"], "");
        assert_eq!(round("something new").code, "as-written");
        assert_eq!(round("0.90 s").code, "as-written");
        assert_eq!(
            json(&round(
                "line 0.90: the system restarted; the interval across it is a gap"
            ))["values"]["line"],
            "0.90"
        );
    }
}
