//! node_exporter's `node_disk_*` counters, read from a Prometheus server's HTTP API
//! (`import --prometheus URL`, range queries) or from text exposition scrapes (`import
//! node-exporter FILE…`), turned back into /proc/diskstats snapshots so that they go through
//! the recorder's own interval computation (`delta::step`): the capture is what the recorder
//! would have written from the same counters (docs/import.md, "prometheus").
//!
//! node_exporter reads /proc/diskstats and exports each field as a counter, sectors as bytes
//! (× 512) and milliseconds as seconds (× 0.001); [`FIELDS`] undoes that, field by field.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{bad, lines, linux_role, Device, Parsed, Sample};
use crate::delta::{DevSample, Snapshot};
use crate::error::{ProbeError, Result};

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

fn field_of(metric: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.metric == metric)
}

/// Values of one device at one moment, by field (None: not exported at that moment).
type Vals = [Option<f64>; 17];

/// The kernel fields of one device at one moment: 17, 15 or 11 when all of those are there,
/// the old 4-field layout (reads, sectors read, writes, sectors written) when only those are,
/// else None.
fn kernel_fields(v: &Vals) -> Option<Vec<u64>> {
    let k = |i: usize| v[i].map(|x| (x * FIELDS[i].factor).round().max(0.0) as u64);
    let upto = |n: usize| (0..n).map(k).collect::<Option<Vec<u64>>>();
    upto(17)
        .or_else(|| upto(15))
        .or_else(|| upto(11))
        .or_else(|| Some(vec![k(0)?, k(2)?, k(4)?, k(6)?]))
}

/// Series by (instance, device) and time (UTC ms).
#[derive(Debug, Default)]
pub struct Series {
    pub by_dev: BTreeMap<(String, String), BTreeMap<i64, Vals>>,
    /// Metrics seen that are not one of [`FIELDS`] (listed, never dropped silently).
    pub other: Vec<String>,
}

impl Series {
    fn put(&mut self, instance: &str, device: &str, metric: &str, t: i64, v: f64) {
        let Some(i) = field_of(metric) else {
            if !self.other.iter().any(|m| m == metric) {
                self.other.push(metric.to_string());
            }
            return;
        };
        let e = self
            .by_dev
            .entry((instance.to_string(), device.to_string()))
            .or_default()
            .entry(t)
            .or_insert([None; 17]);
        e[i] = Some(v);
    }
}

/// Turn series into a parsed import: one device per instance:device (named `INSTANCE/DEVICE`
/// when there are several instances), one snapshot per moment. A counter that goes down is a
/// counter reset (Prometheus: any decrease is a reset, the exporter or the host restarted):
/// the device is given a new generation (its minor number), so `delta::step` marks that
/// interval `reset` with no numbers, as the recorder does for a re-created device.
pub fn to_parsed(s: &Series, format: String) -> Parsed {
    let mut p = Parsed {
        format,
        utc_offset_min: Some(0),
        tz_source: "Prometheus times are UTC".into(),
        ..Parsed::default()
    };
    let instances: Vec<String> = {
        let mut v: Vec<String> = s.by_dev.keys().map(|k| k.0.clone()).collect();
        v.dedup();
        v
    };
    let fleet = instances.len() > 1;
    p.hosts = instances.clone();
    let mut times: BTreeMap<i64, BTreeMap<String, DevSample>> = BTreeMap::new();
    for ((inst, dev), series) in &s.by_dev {
        let name = if fleet {
            format!("{inst}/{dev}")
        } else {
            dev.clone()
        };
        let (role, is_part, parent, reason) = linux_role(dev);
        p.devices.push(Device {
            name: name.clone(),
            source: format!("{{instance=\"{inst}\",device=\"{dev}\"}}"),
            role: role.into(),
            reason,
            on: None,
            is_partition: is_part,
            parent: parent.map(|x| if fleet { format!("{inst}/{x}") } else { x }),
        });
        let major = instances.iter().position(|i| i == inst).unwrap_or(0) as u32 + 1;
        let mut gen = 0u32;
        let mut prev: Option<&Vals> = None;
        let mut resets = 0usize;
        for (t, v) in series {
            let Some(fields) = kernel_fields(v) else {
                continue;
            };
            if let Some(pv) = prev {
                let down = (0..17).any(|i| {
                    FIELDS[i].counter && matches!((pv[i], v[i]), (Some(a), Some(b)) if b < a)
                });
                if down {
                    gen += 1;
                    resets += 1;
                }
            }
            prev = Some(v);
            times.entry(*t).or_default().insert(
                name.clone(),
                DevSample {
                    major,
                    minor: gen,
                    fields,
                },
            );
        }
        if resets > 0 {
            p.notes.push(format!(
                "{name}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a 'reset' with no numbers"
            ));
        }
    }
    let t0 = times.keys().next().copied().unwrap_or(0);
    for (t, devs) in times {
        p.samples.push(Sample {
            utc_ms: t,
            line: 0,
            rates: Vec::new(),
            snap: Some(Snapshot {
                mono_ns: ((t - t0).max(0) as u64).saturating_mul(1_000_000) + 1,
                utc_ms: t,
                boot_id: "prometheus".into(),
                devices: devs,
            }),
        });
    }
    for f in &FIELDS {
        if s.by_dev.values().any(|m| {
            m.values()
                .any(|v| v[field_of(f.metric).unwrap_or(0)].is_some())
        }) {
            p.mapping.push((f.metric.to_string(), f.feeds.to_string()));
        }
    }
    for m in &s.other {
        p.unmapped.push(super::Unmapped {
            what: format!("metric {m}"),
            why:
                "not a /proc/diskstats counter (information, or a figure the capture does not hold)"
                    .into(),
        });
    }
    p
}

// ---------------------------------------------------------------------------------------
// The HTTP API.

/// What `import --prometheus` reads.
#[derive(Debug, Clone, Default)]
pub struct PromOpts {
    pub url: String,
    pub start_ms: i64,
    pub end_ms: i64,
    /// `--step`; None: the median scrape interval of the range's raw samples.
    pub step_ms: Option<i64>,
    /// `--instance`, repeatable; empty: every instance.
    pub instances: Vec<String>,
}

/// Prometheus refuses a range query of more than 11 000 points per series.
const MAX_POINTS: i64 = 10_000;

fn secs(ms: i64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

fn selector(instance: Option<&str>) -> String {
    let names: Vec<&str> = FIELDS.iter().map(|f| f.metric).collect();
    let inst = instance
        .map(|i| {
            format!(
                ",instance=\"{}\"",
                i.replace('\\', "\\\\").replace('"', "\\\"")
            )
        })
        .unwrap_or_default();
    format!("{{__name__=~\"{}\"{inst}}}", names.join("|"))
}

/// One API call; the error is one sentence naming the URL and the query.
fn call(base: &str, path: &str, q: &[(&str, String)]) -> Result<(serde_json::Value, usize)> {
    let url = format!("{}{path}", base.trim_end_matches('/'));
    let query = q
        .iter()
        .find(|(k, _)| *k == "query")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let fail = |why: String| {
        ProbeError::Unreachable(format!(
            "Prometheus at {base} could not answer the query {query} ({path}): {why}"
        ))
    };
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(10))
        .timeout(Duration::from_secs(120))
        .build();
    let mut req = agent.get(&url);
    for (k, v) in q {
        req = req.query(k, v);
    }
    let body = match req.call() {
        Ok(r) => r
            .into_string()
            .map_err(|e| fail(format!("the answer could not be read: {e}")))?,
        Err(ureq::Error::Status(code, r)) => {
            let text = r.into_string().unwrap_or_default();
            let msg = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string))
                .unwrap_or_else(|| text.chars().take(200).collect());
            return Err(fail(format!("HTTP {code}: {msg}")));
        }
        Err(e) => {
            return Err(fail(format!(
                "{e} (is the server running, and is the URL right?)"
            )))
        }
    };
    let v: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
        fail(format!(
            "the answer is not the JSON of the Prometheus HTTP API ({e}): is this a Prometheus-compatible server?"
        ))
    })?;
    if v.get("status").and_then(|s| s.as_str()) != Some("success") {
        let msg = v
            .get("error")
            .and_then(|e| e.as_str())
            .unwrap_or("status is not success");
        return Err(fail(msg.to_string()));
    }
    Ok((v, body.len()))
}

fn sample_pair(p: &serde_json::Value) -> Option<(i64, f64)> {
    let a = p.as_array()?;
    let t = a.first()?.as_f64()?;
    let v: f64 = a.get(1)?.as_str()?.parse().ok()?;
    v.is_finite().then_some(((t * 1000.0).round() as i64, v))
}

/// The median scrape interval of the raw samples of reads in the last 10 minutes of the range.
fn scrape_step(o: &PromOpts, inst: Option<&str>) -> Result<Option<i64>> {
    let win = ((o.end_ms - o.start_ms) / 1000).clamp(1, 600);
    let sel = selector(inst).replace(
        &format!(
            "__name__=~\"{}",
            FIELDS
                .iter()
                .map(|f| f.metric)
                .collect::<Vec<_>>()
                .join("|")
        ),
        "__name__=~\"node_disk_reads_completed_total",
    );
    let (v, _) = call(
        &o.url,
        "/api/v1/query",
        &[
            ("query", format!("{sel}[{win}s]")),
            ("time", secs(o.end_ms)),
        ],
    )?;
    let mut steps = Vec::new();
    for r in v["data"]["result"].as_array().into_iter().flatten() {
        let ts: Vec<i64> = r["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(sample_pair)
            .map(|x| x.0)
            .collect();
        steps.extend(ts.windows(2).map(|w| w[1] - w[0]).filter(|d| *d > 0));
    }
    steps.sort_unstable();
    Ok(steps.get(steps.len() / 2).copied())
}

/// What the HTTP reads gave: the parsed import, the bytes read, and the queries made.
pub struct Fetched {
    pub parsed: Parsed,
    pub bytes: usize,
    pub queries: Vec<String>,
    pub step_ms: i64,
}

/// Read the range from the server.
pub fn fetch(o: &PromOpts) -> Result<Fetched> {
    if o.end_ms <= o.start_ms {
        return Err(ProbeError::Usage(format!(
            "--end must be after --start (start {}, end {})",
            super::time::iso(o.start_ms),
            super::time::iso(o.end_ms)
        )));
    }
    let insts: Vec<Option<&str>> = if o.instances.is_empty() {
        vec![None]
    } else {
        o.instances.iter().map(|s| Some(s.as_str())).collect()
    };
    let mut s = Series::default();
    let mut bytes = 0;
    let mut queries = Vec::new();
    let mut step_used = 0;
    for inst in insts {
        let step = match o.step_ms {
            Some(x) => x,
            None => scrape_step(o, inst)?.unwrap_or(15_000).max(1000),
        };
        step_used = step;
        let sel = selector(inst);
        let mut a = o.start_ms;
        let mut got = 0usize;
        while a <= o.end_ms {
            let b = (a + step * MAX_POINTS).min(o.end_ms);
            let (v, n) = call(
                &o.url,
                "/api/v1/query_range",
                &[
                    ("query", sel.clone()),
                    ("start", secs(a)),
                    ("end", secs(b)),
                    ("step", secs(step)),
                ],
            )?;
            bytes += n;
            for r in v["data"]["result"].as_array().into_iter().flatten() {
                let m = &r["metric"];
                let name = m["__name__"].as_str().unwrap_or_default();
                let dev = m["device"].as_str().unwrap_or_default();
                let instance = m["instance"].as_str().unwrap_or_default();
                if dev.is_empty() {
                    continue;
                }
                for p in r["values"].as_array().into_iter().flatten() {
                    if let Some((t, val)) = sample_pair(p) {
                        s.put(instance, dev, name, t, val);
                        got += 1;
                    }
                }
            }
            queries.push(format!(
                "query_range {sel} start={} end={} step={}s",
                secs(a),
                secs(b),
                secs(step)
            ));
            if b >= o.end_ms {
                break;
            }
            a = b + step;
        }
        if got == 0 {
            return Err(ProbeError::Import(format!(
                "Prometheus at {} has no node_disk_* samples for {} between {} and {} (query {sel}): check the time range, the instance name (the 'instance' label) and that node_exporter's diskstats collector is scraped",
                o.url,
                inst.map(|i| format!("instance '{i}'")).unwrap_or_else(|| "any instance".into()),
                super::time::iso(o.start_ms),
                super::time::iso(o.end_ms)
            )));
        }
    }
    let mut parsed = to_parsed(
        &s,
        format!(
            "Prometheus HTTP API range query (node_exporter node_disk_*), step {} s",
            secs(step_used)
        ),
    );
    parsed.notes.extend(queries.iter().cloned());
    Ok(Fetched {
        parsed,
        bytes,
        queries,
        step_ms: step_used,
    })
}

// ---------------------------------------------------------------------------------------
// Text exposition scrapes (`curl http://host:9100/metrics > scrape.prom`).

/// One scrape in the text exposition format: its time (from the samples' timestamps, when
/// they carry one) and its node_disk_* values.
#[derive(Debug, Default)]
pub struct Scrape {
    pub utc_ms: Option<i64>,
    pub series: Series,
    /// Lines of node_disk_* samples read.
    pub samples: usize,
}

fn labels(file: &str, line: usize, s: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i] == ',' || b[i] == ' ') {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let k0 = i;
        while i < b.len() && b[i] != '=' {
            i += 1;
        }
        let key: String = b[k0..i].iter().collect::<String>().trim().to_string();
        if i + 1 >= b.len() || b[i + 1] != '"' {
            return Err(bad(file, Some(line), None, format!("label '{key}' has no quoted value (the text exposition format is name{{label=\"value\"}} number)")));
        }
        i += 2;
        let mut val = String::new();
        let mut closed = false;
        while i < b.len() {
            match b[i] {
                '\\' if i + 1 < b.len() => {
                    val.push(match b[i + 1] {
                        'n' => '\n',
                        c => c,
                    });
                    i += 2;
                }
                '"' => {
                    closed = true;
                    i += 1;
                    break;
                }
                c => {
                    val.push(c);
                    i += 1;
                }
            }
        }
        if !closed {
            return Err(bad(
                file,
                Some(line),
                None,
                format!(
                    "the value of label '{key}' is not closed by a quote (the line is cut off)"
                ),
            ));
        }
        out.insert(key, val);
    }
    Ok(out)
}

/// Parse one text exposition file (node_exporter's /metrics).
pub fn parse_text(file: &str, text: &str, instance: &str) -> Result<Scrape> {
    let mut sc = Scrape::default();
    for (n, l) in lines(text).iter().enumerate() {
        let line = n + 1;
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') || !l.starts_with("node_disk_") {
            continue;
        }
        let (name, rest) = match l.find(['{', ' ']) {
            Some(i) => l.split_at(i),
            None => return Err(bad(file, Some(line), None, "a metric without a value")),
        };
        let (lab, tail) = if let Some(r) = rest.strip_prefix('{') {
            match r.rfind('}') {
                Some(j) => (labels(file, line, &r[..j])?, &r[j + 1..]),
                None => {
                    return Err(bad(
                        file,
                        Some(line),
                        None,
                        "the labels are not closed by '}' (the line is cut off)",
                    ))
                }
            }
        } else {
            (BTreeMap::new(), rest)
        };
        let mut t = tail.split_whitespace();
        let col = l.len() - tail.trim_start().len() + 1;
        let v: f64 = match t.next().map(|x| x.parse::<f64>()) {
            Some(Ok(v)) => v,
            _ => {
                return Err(bad(
                    file,
                    Some(line),
                    Some(col),
                    format!("the value of {name} is not a number"),
                ))
            }
        };
        let ts = match t.next() {
            Some(x) => Some(x.parse::<i64>().map_err(|_| {
                bad(
                    file,
                    Some(line),
                    None,
                    format!("the timestamp '{x}' of {name} is not whole milliseconds"),
                )
            })?),
            None => None,
        };
        let Some(dev) = lab.get("device") else {
            continue;
        };
        if let Some(ts) = ts {
            sc.utc_ms = Some(sc.utc_ms.map_or(ts, |a: i64| a.max(ts)));
        }
        sc.series.put(instance, dev, name, 0, v);
        sc.samples += 1;
    }
    if sc.samples == 0 {
        return Err(bad(file, None, None, "has no node_disk_* samples: it is not a node_exporter scrape with the diskstats collector (curl http://HOST:9100/metrics > FILE)"));
    }
    Ok(sc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delta::{step, Status};

    fn put_all(s: &mut Series, inst: &str, dev: &str, t: i64, reads: f64) {
        for f in &FIELDS[..11] {
            let v = if f.metric == "node_disk_reads_completed_total" {
                reads
            } else {
                0.0
            };
            s.put(inst, dev, f.metric, t, v);
        }
    }

    #[test]
    fn a_fleet_names_devices_by_instance_and_a_counter_reset_is_a_reset_interval() {
        let mut s = Series::default();
        for (t, r) in [(0, 100.0), (1000, 150.0), (2000, 20.0), (3000, 70.0)] {
            put_all(&mut s, "web1:9100", "sda", t, r);
            put_all(&mut s, "web2:9100", "sda", t, r * 2.0);
        }
        s.put("web1:9100", "sda", "node_disk_info", 0, 1.0);
        let p = to_parsed(&s, "test".into());
        let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["web1:9100/sda", "web2:9100/sda"]);
        assert_eq!(p.hosts, ["web1:9100", "web2:9100"]);
        assert!(p.unmapped.iter().any(|u| u.what.contains("node_disk_info")));
        let snaps: Vec<&Snapshot> = p.samples.iter().filter_map(|x| x.snap.as_ref()).collect();
        assert_eq!(snaps.len(), 4);
        let st: Vec<Vec<(Status, Option<u64>)>> = snaps
            .windows(2)
            .map(|w| {
                step(w[0], w[1], 1000.0)
                    .intervals
                    .iter()
                    .filter(|i| i.device == "web1:9100/sda")
                    .map(|i| (i.status, i.deltas.map(|d| d.reads)))
                    .collect()
            })
            .collect();
        // 100 → 150: 50 reads; 150 → 20: the exporter restarted (no numbers); 20 → 70: 50.
        assert_eq!(
            st,
            [
                vec![(Status::Ok, Some(50))],
                vec![(Status::Reset, None)],
                vec![(Status::Ok, Some(50))]
            ]
        );
        assert!(p
            .notes
            .iter()
            .any(|n| n.contains("web1:9100/sda: 1 counter reset")));
    }

    #[test]
    fn units_are_turned_back_into_diskstats_fields() {
        let mut s = Series::default();
        for f in &FIELDS {
            let v = match f.metric {
                "node_disk_read_bytes_total" => 1024.0 * 512.0,
                "node_disk_read_time_seconds_total" => 18492.372,
                _ => 1.0,
            };
            s.put("h", "sdc", f.metric, 5, v);
        }
        let p = to_parsed(&s, "t".into());
        let d = &p.samples[0].snap.as_ref().expect("a snapshot").devices["sdc"];
        assert_eq!(d.fields.len(), 17);
        assert_eq!(d.fields[2], 1024);
        assert_eq!(d.fields[3], 18_492_372);
        // Only the 4 basics: the old 4-field layout.
        let mut s = Series::default();
        for m in [
            "node_disk_reads_completed_total",
            "node_disk_read_bytes_total",
            "node_disk_writes_completed_total",
            "node_disk_written_bytes_total",
        ] {
            s.put("h", "sdd", m, 5, 512.0);
        }
        let p = to_parsed(&s, "t".into());
        assert_eq!(
            p.samples[0].snap.as_ref().expect("a snapshot").devices["sdd"].fields,
            [512, 1, 512, 1]
        );
    }
}
