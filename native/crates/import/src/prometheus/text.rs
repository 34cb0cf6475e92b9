//! The Prometheus text exposition format (`curl http://host:9100/metrics > scrape.prom`):
//! one scrape's node_disk_* (node_exporter) and windows_logical_disk_* /
//! windows_physical_disk_* (windows_exporter) samples, with their labels and timestamps.

use std::collections::{BTreeMap, HashSet};

use super::Series;
use crate::error::Result;
use crate::{bad, lines};

// Text exposition scrapes (`curl http://host:9100/metrics > scrape.prom`).

/// One scrape in the text exposition format: its time (from the samples' timestamps, when
/// they carry one) and its disk counters' values.
#[derive(Debug, Default)]
pub struct Scrape {
    pub utc_ms: Option<i64>,
    pub series: Series,
    /// Lines of disk samples read (node_disk_*, windows_*_disk_*).
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

/// Parse one text exposition file (node_exporter's or windows_exporter's /metrics). A series
/// that comes twice is refused: the file holds several scrapes one after another, whose
/// moments the file cannot tell apart.
pub fn parse_text(file: &str, text: &str, instance: &str) -> Result<Scrape> {
    let mut sc = Scrape::default();
    let mut seen: HashSet<String> = HashSet::new();
    for (n, l) in lines(text).iter().enumerate() {
        let line = n + 1;
        let l = l.trim();
        let windows =
            l.starts_with("windows_logical_disk_") || l.starts_with("windows_physical_disk_");
        let node = l.starts_with("node_disk_")
            || l.starts_with("node_filesystem_size_bytes")
            || l.starts_with("node_filesystem_avail_bytes");
        if l.is_empty() || l.starts_with('#') || !(node || windows) {
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
        let key = if windows {
            ["volume", "disk"]
        } else {
            ["device"; 2]
        };
        if !key.iter().any(|k| lab.contains_key(*k)) {
            continue;
        }
        if !seen.insert(format!("{name}{lab:?}")) {
            return Err(bad(file, Some(line), None, format!(
                "{name} comes a second time for the same {}: the file holds several scrapes one after another; give one file per scrape (curl -s URL > scrape-$(date +%s).prom, each in its own file)",
                if windows { "volume or disk" } else { "device" }
            )));
        }
        if let Some(ts) = ts {
            sc.utc_ms = Some(sc.utc_ms.map_or(ts, |a: i64| a.max(ts)));
        }
        sc.series.put(instance, name, |l| lab.get(l).cloned(), 0, v);
        sc.samples += 1;
    }
    if sc.samples == 0 {
        return Err(bad(file, None, None, "has no node_disk_*, windows_logical_disk_* or windows_physical_disk_* samples: it is neither a node_exporter scrape with the diskstats collector (curl http://HOST:9100/metrics > FILE) nor a windows_exporter one with the logical_disk or physical_disk collector (curl http://HOST:9182/metrics > FILE)"));
    }
    Ok(sc)
}
