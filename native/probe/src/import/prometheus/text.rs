//! The Prometheus text exposition format (`curl http://host:9100/metrics > scrape.prom`):
//! one scrape's node_disk_* samples, with their labels and timestamps.

use std::collections::BTreeMap;

use super::Series;
use crate::error::Result;
use crate::import::{bad, lines};

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

/// Why a windows_exporter counter in a scrape file is not imported.
const WIN_TEXT: &str = "windows_exporter counters are read through a Prometheus server (import prometheus --url URL): scrape files are read for node_exporter only";

/// Parse one text exposition file (node_exporter's /metrics).
pub fn parse_text(file: &str, text: &str, instance: &str) -> Result<Scrape> {
    let mut sc = Scrape::default();
    for (n, l) in lines(text).iter().enumerate() {
        let line = n + 1;
        let l = l.trim();
        let windows =
            l.starts_with("windows_logical_disk_") || l.starts_with("windows_physical_disk_");
        if l.is_empty() || l.starts_with('#') || !(l.starts_with("node_disk_") || windows) {
            continue;
        }
        let (name, rest) = match l.find(['{', ' ']) {
            Some(i) => l.split_at(i),
            None => return Err(bad(file, Some(line), None, "a metric without a value")),
        };
        if windows {
            if !sc.series.other.iter().any(|(m, _)| m == name) {
                sc.series.other.push((name.to_string(), WIN_TEXT));
            }
            continue;
        }
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
        sc.series.put_node(instance, dev, name, 0, v);
        sc.samples += 1;
    }
    if sc.samples == 0 {
        let win = if sc.series.other.is_empty() {
            ""
        } else {
            " (its windows_exporter disk counters are read through a Prometheus server: import prometheus --url URL)"
        };
        return Err(bad(file, None, None, format!("has no node_disk_* samples: it is not a node_exporter scrape with the diskstats collector (curl http://HOST:9100/metrics > FILE){win}")));
    }
    Ok(sc)
}
