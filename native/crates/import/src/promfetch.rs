//! `import prometheus --url URL --hosts SELECTOR --from T --to T [--step S]`: range queries
//! (`/api/v1/query_range`) of the disk counters of node_exporter and windows_exporter over the
//! hosts the selector matches, turned into a [`Parsed`] by `prometheus::to_parsed`
//! (docs/import.md, "prometheus").

use super::prometheus::{metric_names, to_parsed, Series};
use super::promhttp::{Client, HttpOpts};
use super::promql::{self, Matcher};
use super::{time, Parsed};
use crate::error::{ProbeError, Result};

/// What `import prometheus` reads.
#[derive(Debug, Clone, Default)]
pub struct PromOpts {
    pub url: String,
    pub start_ms: i64,
    pub end_ms: i64,
    /// `--step`; None: the median scrape interval of the range's raw samples.
    pub step_ms: Option<i64>,
    /// `--instance`, repeatable (one query each); empty: the hosts the matchers select.
    pub instances: Vec<String>,
    /// `--hosts SELECTOR`: the label matchers every query carries.
    pub matchers: Vec<Matcher>,
    /// TLS and credentials.
    pub http: HttpOpts,
}

/// Prometheus refuses a range query of more than 11 000 points per series.
const MAX_POINTS: i64 = 10_000;

fn secs(ms: i64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

/// The selector of a query: the metric names, the `--hosts` matchers, one `--instance`.
fn selector(names: &str, o: &PromOpts, instance: Option<&str>) -> String {
    let mut m = o.matchers.clone();
    if let Some(i) = instance {
        m.push(Matcher {
            label: "instance".into(),
            op: "=",
            value: i.to_string(),
        });
    }
    let rest = promql::render(&m);
    format!(
        "{{__name__=~{}{}{rest}}}",
        promql::quote(names),
        if rest.is_empty() { "" } else { "," }
    )
}

fn sample_pair(p: &serde_json::Value) -> Option<(i64, f64)> {
    let a = p.as_array()?;
    let t = a.first()?.as_f64()?;
    let v: f64 = a.get(1)?.as_str()?.parse().ok()?;
    v.is_finite().then_some(((t * 1000.0).round() as i64, v))
}

/// The median scrape interval of the raw samples of the read counters in the last 10 minutes
/// of the range.
fn scrape_step(c: &Client, o: &PromOpts, inst: Option<&str>) -> Result<Option<i64>> {
    let win = ((o.end_ms - o.start_ms) / 1000).clamp(1, 600);
    let sel = selector(
        "node_disk_reads_completed_total|windows_logical_disk_reads_total|windows_physical_disk_reads_total",
        o,
        inst,
    );
    let (v, _) = c.get_json(
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

/// The words that open the note (in the import's notes, and so in `--preview --json`, after the
/// server's URL) of each host that could not be read and was left out; `import` exits 14 when
/// a note holds them.
pub const SKIPPED_HOST: &str = "host skipped: ";

/// Samples one range query may ask for (series × points): Prometheus' own limit
/// (`query.max-samples`) is 50 million by default; this keeps each answer to some tens of MB.
const SAMPLE_BUDGET: i64 = 2_000_000;

/// One series of a range answer (`resultType: matrix`), deserialized straight from the stream.
#[derive(serde::Deserialize)]
struct RangeSeries {
    metric: std::collections::HashMap<String, String>,
    values: Vec<(f64, String)>,
}

#[derive(serde::Deserialize)]
struct Matrix {
    result: Vec<RangeSeries>,
}

/// The hosts (`instance` label values) that have disk counters in the range, sorted: one query
/// (`/api/v1/label/instance/values`) that reads no samples.
fn instances(c: &Client, o: &PromOpts) -> Result<Vec<String>> {
    let sel = selector(
        "node_disk_reads_completed_total|windows_logical_disk_reads_total|windows_physical_disk_reads_total",
        o,
        None,
    );
    let (a, _) = c.get::<Vec<String>>(
        "/api/v1/label/instance/values",
        &[
            ("match[]", sel),
            ("start", secs(o.start_ms)),
            ("end", secs(o.end_ms)),
        ],
    )?;
    let mut v = a.data.unwrap_or_default();
    v.sort();
    v.dedup();
    Ok(v)
}

/// Progress on a terminal (a person waiting); nothing when stderr is a pipe (the app reads the
/// probe's stderr as its one error sentence).
pub(super) fn progress(line: &str) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!("{line}");
    }
}

/// What the reads of every host add up to.
#[derive(Default)]
struct Acc {
    series: Series,
    bytes: usize,
    queries: Vec<String>,
}

/// One host's range, in pieces of at most [`MAX_POINTS`] points per series and about
/// [`SAMPLE_BUDGET`] samples per answer (halved when the server says a piece loads too many
/// samples); every sample goes into `s`. Returns the samples read.
fn fetch_host(c: &Client, o: &PromOpts, inst: &str, step: i64, acc: &mut Acc) -> Result<usize> {
    let names = metric_names().join("|");
    let inst = Some(inst);
    let (s, bytes, queries) = (&mut acc.series, &mut acc.bytes, &mut acc.queries);
    let sel = selector(&names, o, inst);
    let mut points = MAX_POINTS;
    let mut a = o.start_ms;
    let mut got = 0usize;
    loop {
        let b = (a + step * points).min(o.end_ms);
        let q = [
            ("query", sel.clone()),
            ("start", secs(a)),
            ("end", secs(b)),
            ("step", secs(step)),
        ];
        let (m, n) = match c.get::<Matrix>("/api/v1/query_range", &q) {
            Ok(x) => x,
            // Prometheus: "query processing would load too many samples into memory"
            Err(ProbeError::Unreachable(e)) if e.contains("too many samples") && points > 10 => {
                points = (points / 2).max(10);
                continue;
            }
            Err(e) => return Err(e),
        };
        *bytes += n;
        let result = m.data.map(|d| d.result).unwrap_or_default();
        if !result.is_empty() {
            // the next pieces sized to this host's series count
            points = (SAMPLE_BUDGET / result.len() as i64).clamp(10, MAX_POINTS);
        }
        for r in result {
            let name = r
                .metric
                .get("__name__")
                .map(String::as_str)
                .unwrap_or_default();
            let instance = r
                .metric
                .get("instance")
                .map(String::as_str)
                .unwrap_or_default();
            let label = |l: &str| r.metric.get(l).cloned();
            for (t, v) in &r.values {
                if let Ok(val) = v.parse::<f64>() {
                    if val.is_finite() {
                        s.put(instance, name, label, (t * 1000.0).round() as i64, val);
                        got += 1;
                    }
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
            return Ok(got);
        }
        a = b + step;
    }
}

/// Read the range from the server: host by host (the `--instance` values, else every host the
/// selector matches that has disk counters in the range), each in bounded pieces. A host whose
/// queries fail is named in a note ([`SKIPPED_HOST`]) and left out; the others are kept. When
/// every host fails, the first failure is the error.
pub fn fetch(o: &PromOpts) -> Result<Fetched> {
    if o.end_ms <= o.start_ms {
        return Err(ProbeError::Usage(format!(
            "--to must be after --from (from {}, to {})",
            time::iso(o.start_ms),
            time::iso(o.end_ms)
        )));
    }
    let client = Client::new(&o.url, &o.http)?;
    let found: Vec<String> = if o.instances.is_empty() {
        instances(&client, o)?
    } else {
        o.instances.clone()
    };
    let Hosts {
        acc,
        step_used,
        skipped,
        empty,
    } = fetch_hosts(&client, o, &found);
    let Acc {
        series: s,
        bytes,
        queries,
    } = acc;
    if s.by_dev.is_empty() && s.win.is_empty() {
        return Err(match skipped.into_iter().next() {
            Some((_, e)) => e,
            None => nothing_found(o),
        });
    }
    let exporters = match (s.by_dev.is_empty(), s.win.is_empty()) {
        (false, false) => "node_exporter node_disk_* and windows_exporter windows_*_disk_*",
        (true, false) => "windows_exporter windows_*_disk_*",
        _ => "node_exporter node_disk_*",
    };
    let mut parsed = to_parsed(
        &s,
        format!(
            "Prometheus HTTP API range query ({exporters}), step {} s",
            secs(step_used)
        ),
    );
    for h in &empty {
        parsed.notes.push(format!(
            "{SKIPPED_HOST}{h}: no node_disk_* or windows_*_disk_* samples between {} and {}",
            time::iso(o.start_ms),
            time::iso(o.end_ms)
        ));
    }
    for (h, e) in &skipped {
        parsed.notes.push(format!("{SKIPPED_HOST}{h}: {e}"));
    }
    parsed.notes.extend(queries.iter().cloned());
    Ok(Fetched {
        parsed,
        bytes,
        queries,
        step_ms: step_used,
    })
}

/// What the hosts gave: their series, the step last used, the hosts skipped (with their
/// failure) and those without samples.
struct Hosts {
    acc: Acc,
    step_used: i64,
    skipped: Vec<(String, ProbeError)>,
    empty: Vec<String>,
}

/// Fetch every host of `found` in turn, each at its own scrape step unless `--step` is given.
fn fetch_hosts(client: &Client, o: &PromOpts, found: &[String]) -> Hosts {
    let mut h = Hosts {
        acc: Acc::default(),
        step_used: 0,
        skipped: Vec::new(),
        empty: Vec::new(),
    };
    let total = found.len();
    for (i, host) in found.iter().enumerate() {
        let one = (|| -> Result<usize> {
            let step = match o.step_ms {
                Some(x) => x,
                None => scrape_step(client, o, Some(host))?
                    .unwrap_or(15_000)
                    .max(1000),
            };
            h.step_used = step;
            fetch_host(client, o, host, step, &mut h.acc)
        })();
        let host = host.clone();
        match one {
            Ok(0) => h.empty.push(host),
            Ok(n) => progress(&format!(
                "import prometheus: host {}/{total} {host}: {n} samples",
                i + 1
            )),
            Err(e) => {
                progress(&format!(
                    "import prometheus: host {}/{total} {host}: skipped ({e})",
                    i + 1
                ));
                h.skipped.push((host, e));
            }
        }
    }
    h
}

/// The error of a range where no host has disk samples (and none failed).
fn nothing_found(o: &PromOpts) -> ProbeError {
    let sel = selector(&metric_names().join("|"), o, None);
    let whose = match (o.instances.as_slice(), o.matchers.is_empty()) {
        ([i], _) => format!("instance '{i}'"),
        ([], true) => "any host".into(),
        ([], false) => format!("the hosts {{{}}}", promql::render(&o.matchers)),
        (many, _) => format!("the instances {}", many.join(", ")),
    };
    ProbeError::Import(format!(
        "Prometheus at {} has no node_disk_* or windows_*_disk_* samples for {whose} between {} and {} (query {sel}): check the time range, the host selector (the 'instance' and 'job' labels) and that node_exporter's diskstats or windows_exporter's logical_disk/physical_disk collector is scraped",
        o.url,
        time::iso(o.start_ms),
        time::iso(o.end_ms)
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn queries_carry_the_host_selector_and_the_instance() {
        let o = PromOpts {
            matchers: promql::parse_selector(r#"{job="node",instance=~"db.*"}"#).unwrap(),
            ..PromOpts::default()
        };
        assert_eq!(
            selector("a|b", &o, None),
            r#"{__name__=~"a|b",job="node",instance=~"db.*"}"#
        );
        assert_eq!(
            selector("a", &PromOpts::default(), Some("web\"1:9100")),
            r#"{__name__=~"a",instance="web\"1:9100"}"#
        );
        assert_eq!(
            selector("a", &PromOpts::default(), None),
            r#"{__name__=~"a"}"#
        );
    }
}
