//! The per-interval figures of `import prometheus --fleet-summary` (promsum.rs): each host's
//! intervals at or over the latency target, its intervals with a read (a write), its highest
//! IOPS, its reset intervals, and the fleet's per-moment IOPS with the hosts at its peak.
//!
//! The server sums each host's group of devices at every step (`sum by (instance)` of one
//! counter over one kind of device, a range query a day at most, four at once): the work that
//! grows with the devices and the samples is done where the data lives, and the answer is a
//! number per host per step and counter. The differences between successive steps, the ratios
//! and the counts are made here. Prometheus evaluates the subqueries of the same figures
//! (`count_over_time((x - x offset 60s)[1d:60s])`) at several times the cost of these sums (its
//! binary operators match labels at every step, and nothing is shared between the figures: 225 s
//! of evaluation against 33 s on the bench's 500 hosts × 7 days); the figures are the same numbers
//! (docs/import.md § Fleet summary, § Speed of a fleet).
//!
//! An interval ending at step t is `S(t) − S(t − step)` of a host's group sum S, where both are
//! present: `x − x offset step`, the last sample at or before each within the server's lookback.
//! A host's group is the first kind of device, in [`KINDS`]' order, with both: its whole disks,
//! else its stacked devices, a Windows host's disks, else its volumes (as `or` picks it). An
//! interval whose difference is negative (the counters went back: a reset) gives nothing.

use std::collections::BTreeMap;

use super::promfetch::PromOpts;
use super::promq::Q;
use super::promsum::{sel, HostSums, PeakHost, BREAKING_MS, COUNTERS, FRONT_RE, NOT_BACKING_RE};
use super::time;
use crate::error::Result;

/// The kinds of device a host's group can be, in the order the group picks them.
const KINDS: usize = 4;
/// The counters summed at each step: reads, writes, read time, write time ([`COUNTERS`] indices).
const STEPPED: [usize; 4] = [0, 1, 4, 5];
/// Longest piece of the range one range query covers.
const PIECE_MS: i64 = 86_400_000;
/// Prometheus refuses a range query of more than 11 000 points per series.
const MAX_POINTS: i64 = 10_000;

/// The selectors of counter `i` over each kind of device.
fn kinds(i: usize, o: &PromOpts) -> [String; KINDS] {
    let m = COUNTERS[i].1;
    let [disks, volumes] = super::promwin::groups(&[i], o);
    [
        sel(m, o, ("!~", NOT_BACKING_RE)),
        sel(m, o, ("=~", FRONT_RE)),
        disks,
        volumes,
    ]
}

/// A host's sums in one piece: `[counter][kind]`, a value per point (NaN: none), or nothing.
type Sums = [[Option<Vec<f64>>; KINDS]; 4];

/// What the per-interval pass gives besides the hosts' counts.
pub(super) struct Moments {
    /// Interval starts and the fleet's IOPS over each.
    pub(super) starts: Vec<i64>,
    pub(super) iops: Vec<f64>,
    /// Every host's IOPS at the first highest moment.
    pub(super) peak_hosts: Vec<PeakHost>,
}

/// The interval ending at point `j` of one counter (`sums[kind]`): the first kind with both
/// points, its difference (negative: the counters went back).
fn interval(sums: &[Option<Vec<f64>>; KINDS], j: usize) -> Option<f64> {
    sums.iter().flatten().find_map(|v| {
        let (x, y) = (v[j], v[j - 1]);
        (!x.is_nan() && !y.is_nan()).then_some(x - y)
    })
}

/// A host's I/Os (reads and writes summed over one kind of device, as `sum by (instance)` of
/// both counters gives them: a point where either is present).
fn ios_of(s: &Sums) -> [Option<Vec<f64>>; KINDS] {
    std::array::from_fn(|k| match (&s[0][k], &s[1][k]) {
        (Some(r), Some(w)) => Some(
            r.iter()
                .zip(w)
                .map(|(a, b)| match (a.is_nan(), b.is_nan()) {
                    (true, true) => f64::NAN,
                    (true, false) => *b,
                    (false, true) => *a,
                    (false, false) => a + b,
                })
                .collect(),
        ),
        (Some(v), None) | (None, Some(v)) => Some(v.clone()),
        (None, None) => None,
    })
}

/// Adds the per-interval figures of every piece to `hosts`, and gives the per-moment sum.
pub(super) fn per_interval(
    q: &mut Q,
    o: &PromOpts,
    hosts: &mut BTreeMap<String, HostSums>,
) -> Result<Moments> {
    let step = o.step_ms.unwrap_or(60_000);
    let s = (step / 1000) as f64;
    let piece = PIECE_MS.min(step * (MAX_POINTS - 1));
    let sels: Vec<[String; KINDS]> = STEPPED.iter().map(|&i| kinds(i, o)).collect();
    let mut m = Moments {
        starts: Vec::new(),
        iops: Vec::new(),
        peak_hosts: Vec::new(),
    };
    let mut top = f64::NEG_INFINITY;
    let total = ((o.end_ms - o.start_ms) + piece - 1) / piece;
    let mut a = o.start_ms;
    while a < o.end_ms {
        let b = (a + piece).min(o.end_ms);
        let by = piece_sums(q, &sels, (a, b), step)?;
        let n = ((b - a) / step) as usize;
        let mut moment = vec![(0.0, false); n + 1];
        let ios: BTreeMap<&String, [Option<Vec<f64>>; KINDS]> =
            by.iter().map(|(h, x)| (h, ios_of(x))).collect();
        for (h, x) in &by {
            let e = hosts.entry(h.clone()).or_default();
            host_intervals(e, x, &ios[h], &mut moment, s);
        }
        for (j, (sum, any)) in moment.iter().enumerate().skip(1) {
            if !any {
                continue;
            }
            let t = a + j as i64 * step;
            let v = sum / s;
            m.starts.push(t - step);
            m.iops.push(v);
            if v > top {
                top = v;
                m.peak_hosts = peak_hosts(&ios, j, s);
            }
        }
        super::promfetch::progress(&format!(
            "import prometheus --fleet-summary: {}/{total} to {}: {} hosts",
            (a - o.start_ms) / piece + 1,
            time::iso(b),
            by.len()
        ));
        a = b;
    }
    Ok(m)
}

/// Every host's sums over the piece `(a, b)`, at each step from `a`, asked all at once.
fn piece_sums(
    q: &mut Q,
    sels: &[[String; KINDS]],
    (a, b): (i64, i64),
    step: i64,
) -> Result<BTreeMap<String, Sums>> {
    let jobs: Vec<(String, i64, i64, i64)> = sels
        .iter()
        .flat_map(|k| {
            k.iter()
                .map(|x| (format!("sum by (instance) ({x})"), a, b, step))
        })
        .collect();
    let answers = q.ranges(&jobs)?;
    let n = ((b - a) / step) as usize;
    let mut by: BTreeMap<String, Sums> = BTreeMap::new();
    for (job, answer) in answers.into_iter().enumerate() {
        let (c, k) = (job / KINDS, job % KINDS);
        for (inst, pts) in answer {
            let v = by.entry(inst).or_default()[c][k].get_or_insert_with(|| vec![f64::NAN; n + 1]);
            for (t, x) in pts {
                if (a..=b).contains(&t) && (t - a) % step == 0 {
                    v[((t - a) / step) as usize] = x;
                }
            }
        }
    }
    Ok(by)
}

/// One host's intervals of a piece (its sums `x`, its I/Os `h_ios`): its highest IOPS, resets
/// and latency checks into `e`, its I/Os into the fleet's `moment` sums (`s`: seconds a step).
fn host_intervals(
    e: &mut HostSums,
    x: &Sums,
    h_ios: &[Option<Vec<f64>>; KINDS],
    moment: &mut [(f64, bool)],
    s: f64,
) {
    for (j, mo) in moment.iter_mut().enumerate().skip(1) {
        let kept = |v: Option<f64>| v.filter(|v| *v >= 0.0);
        match interval(h_ios, j) {
            Some(d) if d >= 0.0 => {
                e.peak_iops = Some(e.peak_iops.map_or(d / s, |p| p.max(d / s)));
                mo.0 += d;
                mo.1 = true;
            }
            Some(_) => e.reset_intervals += 1,
            None => {}
        }
        for (read, n_i, t_i) in [(true, 0, 2), (false, 1, 3)] {
            let Some(n) = kept(interval(&x[n_i], j)).filter(|n| *n > 0.0) else {
                continue;
            };
            let breaking = kept(interval(&x[t_i], j))
                .is_some_and(|t| (t * COUNTERS[STEPPED[t_i]].2) / n >= BREAKING_MS);
            if read {
                e.checked_read += 1;
                e.breaking_read += u64::from(breaking);
            } else {
                e.checked_write += 1;
                e.breaking_write += u64::from(breaking);
            }
        }
    }
}

/// Every host's IOPS over the interval ending at point `j`.
fn peak_hosts(
    ios: &BTreeMap<&String, [Option<Vec<f64>>; KINDS]>,
    j: usize,
    s: f64,
) -> Vec<PeakHost> {
    ios.iter()
        .filter_map(|(h, k)| {
            let d = interval(k, j).filter(|d| *d >= 0.0)?;
            Some(PeakHost {
                host: (*h).clone(),
                iops: d / s,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: f64 = f64::NAN;

    #[test]
    fn an_interval_is_the_first_kind_with_both_points() {
        // whole disks miss the earlier point; the stacked devices have both; Windows' too
        let k = [
            Some(vec![N, 10.0]),
            Some(vec![3.0, 7.0]),
            Some(vec![0.0, 100.0]),
            None,
        ];
        assert_eq!(interval(&k, 1), Some(4.0));
        // a kind that went back is the interval (a reset), not a reason to take the next kind
        let k = [Some(vec![9.0, 2.0]), Some(vec![1.0, 5.0]), None, None];
        assert_eq!(interval(&k, 1), Some(-7.0));
        assert_eq!(interval(&[None, Some(vec![1.0, N]), None, None], 1), None);
    }

    #[test]
    fn a_hosts_ios_are_its_reads_and_writes_where_either_is() {
        let mut s: Sums = Default::default();
        s[0][0] = Some(vec![1.0, N, N]);
        s[1][0] = Some(vec![2.0, 5.0, N]);
        s[1][2] = Some(vec![4.0, 4.0, 4.0]);
        let ios = ios_of(&s);
        let v = ios[0].as_ref().map(|v| {
            v.iter()
                .map(|x| if x.is_nan() { -1.0 } else { *x })
                .collect::<Vec<_>>()
        });
        assert_eq!(v, Some(vec![3.0, 5.0, -1.0]));
        assert!(ios[1].is_none());
        assert_eq!(ios[2], Some(vec![4.0, 4.0, 4.0]));
    }
}
