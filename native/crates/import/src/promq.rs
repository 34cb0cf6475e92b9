//! The queries of `import prometheus --fleet-summary` (promsum.rs): instant queries by instance,
//! several in flight at once, and the server's own account of each (`stats=all`: its evaluation
//! time and the samples it read), summed for the summary.

use std::collections::BTreeMap;

use super::promhttp::Client;
use super::promsum::secs;
use crate::error::Result;

#[derive(serde::Deserialize)]
pub(super) struct VecSample {
    pub(super) metric: BTreeMap<String, String>,
    pub(super) value: (f64, String),
}

#[derive(serde::Deserialize)]
pub(super) struct Vector {
    pub(super) result: Vec<VecSample>,
    /// The server's own account of the query (`stats=all`; absent where not supported).
    #[serde(default)]
    pub(super) stats: Option<Stats>,
}

#[derive(serde::Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "camelCase")]
pub(super) struct Stats {
    #[serde(default)]
    timings: Timings,
    #[serde(default)]
    samples: Samples,
}

#[derive(serde::Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Timings {
    #[serde(default)]
    eval_total_time: f64,
}

#[derive(serde::Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Samples {
    #[serde(default)]
    total_queryable_samples: u64,
}

pub(super) struct Q<'a> {
    pub(super) c: &'a Client,
    pub(super) queries: usize,
    pub(super) bytes: usize,
    /// The server's evaluation time (s) and samples read, summed over the queries that said.
    pub(super) eval_s: f64,
    pub(super) samples: u64,
}

/// Instant queries in flight at once: the server evaluates each on one of its cores
/// (Prometheus runs up to `--query.max-concurrency`, 20 by default).
const PARALLEL: usize = 4;

/// An instant query at `at_ms`: value by instance, and the answer's bytes.
fn instant_of(c: &Client, query: &str, at_ms: i64) -> Result<(Answer, usize)> {
    let (a, n) = c.get::<Vector>(
        "/api/v1/query",
        &[
            ("query", query.to_string()),
            ("time", secs(at_ms)),
            ("stats", "all".into()),
        ],
    )?;
    let (result, stats) = a.data.map(|d| (d.result, d.stats)).unwrap_or_default();
    let v = result
        .into_iter()
        .filter_map(|s| {
            let v: f64 = s.value.1.parse().ok()?;
            v.is_finite()
                .then(|| (s.metric.get("instance").cloned().unwrap_or_default(), v))
        })
        .collect();
    Ok(((v, stats), n))
}

/// An instant query's values by instance, and the server's account of it.
type Answer = (Vec<(String, f64)>, Option<Stats>);

/// A number of a range query's answer, read from its string without a copy ("NaN" where it is
/// not one: a point the caller leaves out).
pub(super) struct Num(pub(super) f64);

impl<'de> serde::Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number as a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<Num, E> {
                Ok(Num(s.parse().unwrap_or(f64::NAN)))
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(serde::Deserialize)]
struct RangeSeries {
    #[serde(default)]
    metric: BTreeMap<String, String>,
    values: Vec<(f64, Num)>,
}

#[derive(serde::Deserialize)]
struct Matrix {
    result: Vec<RangeSeries>,
    #[serde(default)]
    stats: Option<Stats>,
}

/// One series of a range query's answer: its `instance` and its points `(time ms, value)`.
pub(super) type Ranged = (String, Vec<(i64, f64)>);

/// A range query's series, the server's account of it, and the answer's bytes.
type RangeAnswer = ((Vec<Ranged>, Option<Stats>), usize);

/// A range query from `a_ms` to `b_ms` at `step_ms`.
fn range_of(c: &Client, query: &str, a_ms: i64, b_ms: i64, step_ms: i64) -> Result<RangeAnswer> {
    let (m, n) = c.get::<Matrix>(
        "/api/v1/query_range",
        &[
            ("query", query.to_string()),
            ("start", secs(a_ms)),
            ("end", secs(b_ms)),
            ("step", secs(step_ms)),
            ("stats", "all".into()),
        ],
    )?;
    let (result, stats) = m.data.map(|d| (d.result, d.stats)).unwrap_or_default();
    let v = result
        .into_iter()
        .map(|r| {
            let inst = r.metric.get("instance").cloned().unwrap_or_default();
            let pts = r
                .values
                .into_iter()
                .map(|(t, v)| ((t * 1000.0).round() as i64, v.0))
                .collect();
            (inst, pts)
        })
        .collect();
    Ok(((v, stats), n))
}

/// A series' labels and one value.
pub(super) type Labelled = (BTreeMap<String, String>, f64);

/// The series at one moment, the server's account of the query, and the answer's bytes.
type PointsAnswer = ((Vec<Labelled>, Option<Stats>), usize);

/// Every series' labels and value at exactly `at_ms`, read as the first point of a range query
/// from `at_ms` to `at_ms + step_ms` (what an instant query at `at_ms` gives on Prometheus).
/// Not an instant query: VictoriaMetrics looks a query's series up in its per-day index up to
/// the day of the query's end less 1 ms, so an instant query at exactly 00:00 UTC does not find
/// a series whose first sample is then (docs/import.md § VictoriaMetrics).
pub(super) fn points_at(c: &Client, query: &str, at_ms: i64, step_ms: i64) -> Result<PointsAnswer> {
    let (m, n) = c.get::<Matrix>(
        "/api/v1/query_range",
        &[
            ("query", query.to_string()),
            ("start", secs(at_ms)),
            ("end", secs(at_ms + step_ms)),
            ("step", secs(step_ms)),
            ("stats", "all".into()),
        ],
    )?;
    let (result, stats) = m.data.map(|d| (d.result, d.stats)).unwrap_or_default();
    let v = result
        .into_iter()
        .filter_map(|r| {
            let (_, Num(x)) = r
                .values
                .into_iter()
                .find(|(t, _)| (t * 1000.0).round() as i64 == at_ms)?;
            x.is_finite().then_some((r.metric, x))
        })
        .collect();
    Ok(((v, stats), n))
}

impl Q<'_> {
    /// Counts a query's answer: its bytes and, where the server said, its evaluation.
    pub(super) fn count(&mut self, bytes: usize, stats: Option<Stats>) {
        self.queries += 1;
        self.bytes += bytes;
        if let Some(s) = stats {
            self.eval_s += s.timings.eval_total_time;
            self.samples += s.samples.total_queryable_samples;
        }
    }

    /// Instant queries `(query, at_ms)`, [`PARALLEL`] in flight at once; the answers in the
    /// order asked (so sums over them add in one order), the first error in that order.
    pub(super) fn instants(&mut self, jobs: &[(String, i64)]) -> Result<Vec<Vec<(String, f64)>>> {
        self.parallel(jobs, |c, (query, at)| instant_of(c, query, *at))
    }

    /// Range queries `(query, start_ms, end_ms, step_ms)`, [`PARALLEL`] in flight at once: each
    /// series' `instance` and its values (NaN where a point is not a number), in the order asked.
    pub(super) fn ranges(&mut self, jobs: &[(String, i64, i64, i64)]) -> Result<Vec<Vec<Ranged>>> {
        self.parallel(jobs, |c, (query, a, b, step)| {
            range_of(c, query, *a, *b, *step)
        })
    }

    /// Runs `f` on every job, [`PARALLEL`] at once; the answers in the order asked, each
    /// counted; the first error in that order (the jobs after a failed one are not run).
    fn parallel<J: Sync, T: Send>(
        &mut self,
        jobs: &[J],
        f: impl Fn(&Client, &J) -> Result<((T, Option<Stats>), usize)> + Sync,
    ) -> Result<Vec<T>> {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Mutex;
        type Slot<T> = Option<Result<((T, Option<Stats>), usize)>>;
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let out: Mutex<Vec<Slot<T>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
        let c = self.c;
        std::thread::scope(|s| {
            for _ in 0..PARALLEL.min(jobs.len()) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = f(c, &jobs[i]);
                    failed.fetch_or(r.is_err(), Ordering::Relaxed);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                });
            }
        });
        let mut v = Vec::with_capacity(jobs.len());
        for r in out.into_inner().unwrap_or_else(|e| e.into_inner()) {
            // a query not run follows a failed one, whose error comes first
            let Some(r) = r else { continue };
            let ((a, stats), n) = r?;
            self.count(n, stats);
            v.push(a);
        }
        Ok(v)
    }
}
