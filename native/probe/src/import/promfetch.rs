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

/// Read the range from the server.
pub fn fetch(o: &PromOpts) -> Result<Fetched> {
    if o.end_ms <= o.start_ms {
        return Err(ProbeError::Usage(format!(
            "--to must be after --from (from {}, to {})",
            time::iso(o.start_ms),
            time::iso(o.end_ms)
        )));
    }
    let client = Client::new(&o.url, &o.http)?;
    let insts: Vec<Option<&str>> = if o.instances.is_empty() {
        vec![None]
    } else {
        o.instances.iter().map(|s| Some(s.as_str())).collect()
    };
    let names = metric_names().join("|");
    let mut s = Series::default();
    let mut bytes = 0;
    let mut queries = Vec::new();
    let mut step_used = 0;
    for inst in insts {
        let step = match o.step_ms {
            Some(x) => x,
            None => scrape_step(&client, o, inst)?.unwrap_or(15_000).max(1000),
        };
        step_used = step;
        let sel = selector(&names, o, inst);
        let mut a = o.start_ms;
        let mut got = 0usize;
        while a <= o.end_ms {
            let b = (a + step * MAX_POINTS).min(o.end_ms);
            let (v, n) = client.get_json(
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
                let instance = m["instance"].as_str().unwrap_or_default();
                let label = |l: &str| m[l].as_str().map(str::to_string);
                for p in r["values"].as_array().into_iter().flatten() {
                    if let Some((t, val)) = sample_pair(p) {
                        s.put(instance, name, label, t, val);
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
            let whose = match inst {
                Some(i) => format!("instance '{i}'"),
                None if o.matchers.is_empty() => "any host".into(),
                None => format!("the hosts {{{}}}", promql::render(&o.matchers)),
            };
            return Err(ProbeError::Import(format!(
                "Prometheus at {} has no node_disk_* or windows_*_disk_* samples for {whose} between {} and {} (query {sel}): check the time range, the host selector (the 'instance' and 'job' labels) and that node_exporter's diskstats or windows_exporter's logical_disk/physical_disk collector is scraped",
                o.url,
                time::iso(o.start_ms),
                time::iso(o.end_ms)
            )));
        }
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
    parsed.notes.extend(queries.iter().cloned());
    Ok(Fetched {
        parsed,
        bytes,
        queries,
        step_ms: step_used,
    })
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
