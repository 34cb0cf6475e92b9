//! Stitching the files of one import in time order: devices matched by name across files,
//! the series of each part (all, or baseline then measure), the nominal step and the phases.

use serde::Serialize;

use super::load::{display, load_nth, Loaded, Options, Part};
use super::{bad, linux, median_step, scrapes, time, Device, Kind, Rates};
use crate::delta::{self, Snapshot};
use crate::error::{ProbeError, Result};

/// A phase as it will be written.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhasePlan {
    pub name: String,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
}

/// One sample of the stitched series, devices indexed as in [`Plan::devices`].
#[derive(Debug, Clone)]
pub struct GSample {
    pub utc_ms: i64,
    pub file: usize,
    pub line: usize,
    pub rates: Vec<Option<Rates>>,
    pub snap: Option<Snapshot>,
}

/// Everything needed to preview or write an import.
#[derive(Debug, Clone)]
pub struct Plan {
    pub files: Vec<Loaded>,
    pub devices: Vec<Device>,
    /// One series per part (all, or baseline then measure).
    pub series: Vec<(Part, Vec<GSample>)>,
    pub nominal_ms: f64,
    pub phases: Vec<PhasePlan>,
    pub switch_at: Option<i64>,
    pub notes: Vec<String>,
}

/// Load every file and stitch them.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn plan(opts: &Options) -> Result<Plan> {
    if opts.inputs.is_empty() {
        return Err(ProbeError::Usage(
            "import needs at least one FILE (or --baseline FILE… --measure FILE…)".into(),
        ));
    }
    let mut files: Vec<Loaded> = Vec::new();
    let inputs = if opts.kind == Kind::NodeExporter {
        scrapes::expand(&opts.inputs)?
    } else {
        opts.inputs.clone()
    };
    for (i, (p, part)) in inputs.iter().enumerate() {
        files.push(load_nth(p, *part, opts, i)?);
    }
    if opts.kind == Kind::NodeExporter {
        scrapes::merge(&mut files)?;
    }
    let t_stitch = std::time::Instant::now();
    // Devices by name across files.
    let mut devices: Vec<Device> = Vec::new();
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for f in &files {
        let mut m = Vec::new();
        for d in &f.parsed.devices {
            let i = match devices
                .iter()
                .position(|x| x.name.eq_ignore_ascii_case(&d.name))
            {
                Some(i) => i,
                None => {
                    devices.push(d.clone());
                    devices.len() - 1
                }
            };
            m.push(i);
        }
        maps.push(m);
    }
    for (name, role) in &opts.roles {
        if !["front", "backing", "cache", "other"].contains(&role.as_str()) {
            return Err(ProbeError::Usage(format!(
                "--role {name}={role}: the role must be front, backing, cache or other"
            )));
        }
        let Some(d) = devices
            .iter_mut()
            .find(|d| d.name.eq_ignore_ascii_case(name))
        else {
            let names: Vec<&str> = devices.iter().map(|d| d.name.as_str()).collect();
            return Err(ProbeError::Usage(format!(
                "--role {name}=…: no such device; the devices are: {}",
                names.join(", ")
            )));
        };
        d.role = role.clone();
        d.reason = "given with --role".into();
    }
    let stack: Vec<_> = files.iter().flat_map(|f| f.parsed.stack.clone()).collect();
    if let Some(why) = linux::stack::double_count(&devices, &stack) {
        return Err(ProbeError::Usage(why));
    }
    let mut notes = Vec::new();
    let parts: Vec<Part> = if opts.inputs.iter().any(|(_, p)| *p != Part::All) {
        if opts.inputs.iter().any(|(_, p)| *p == Part::All) {
            return Err(ProbeError::Usage(
                "give every file with --baseline or --measure, or none of them".into(),
            ));
        }
        if !opts.inputs.iter().any(|(_, p)| *p == Part::Measure)
            || !opts.inputs.iter().any(|(_, p)| *p == Part::Baseline)
        {
            return Err(ProbeError::Usage(
                "a before/after import needs both --baseline FILE… and --measure FILE…".into(),
            ));
        }
        if opts.switch_at.is_some() {
            return Err(ProbeError::Usage("--switch-at is for one series; with --baseline and --measure the switch is the start of the measure files".into()));
        }
        vec![Part::Baseline, Part::Measure]
    } else {
        vec![Part::All]
    };
    // Nominal step: the median over all files.
    let steps: Vec<f64> = files
        .iter()
        .filter_map(|f| median_step(&f.parsed.samples))
        .collect();
    let mut sorted = steps.clone();
    sorted.sort_by(f64::total_cmp);
    // Files of one snapshot each have no step of their own: then the stitched series' median.
    let file_nominal = sorted.get(sorted.len() / 2).copied();
    let half_step = file_nominal.unwrap_or(0.0) / 2.0;
    let mut series = Vec::new();
    for part in parts {
        let mut idx: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].part == part)
            .collect();
        idx.sort_by_key(|&i| {
            files[i]
                .parsed
                .samples
                .first()
                .map(|s| s.utc_ms)
                .unwrap_or(i64::MAX)
        });
        let mut out: Vec<GSample> = Vec::new();
        for &fi in &idx {
            // the samples are taken over, not copied (a large log is held once)
            let taken = std::mem::take(&mut files[fi].parsed.samples);
            let f = &files[fi];
            let same = maps[fi].len() == devices.len()
                && maps[fi].iter().enumerate().all(|(i, &g)| i == g);
            let mut first_dropped = false;
            for (k, s) in taken.into_iter().enumerate() {
                // a file's first sample may only mark where its first interval starts (sar,
                // sadf): at or before the end of the file before, it is not needed
                let mark = s.snap.is_none() && s.rates.iter().all(Option::is_none);
                let rates = if same && s.rates.len() == devices.len() {
                    s.rates
                } else {
                    let mut rates = vec![None; devices.len()];
                    for (li, r) in s.rates.iter().enumerate() {
                        if let (Some(&g), Some(r)) = (maps[fi].get(li), r) {
                            rates[g] = Some(*r);
                        }
                    }
                    rates
                };
                if k == 0 || (k == 1 && first_dropped) {
                    if let Some(last) = out.last() {
                        let d = s.utc_ms - last.utc_ms;
                        if k == 0 && mark && (d as f64) < half_step {
                            first_dropped = true;
                            continue;
                        }
                        if (d as f64).abs() < half_step {
                            notes.push(format!(
                                "{} line {}: {} ms from the last row of {}: a repeat of the same moment, not used",
                                f.name, s.line, d, files[last.file].name
                            ));
                            continue;
                        }
                        if d < 0 {
                            return Err(bad(
                                &display(&f.path),
                                Some(s.line),
                                None,
                                format!(
                                    "starts at {}, before the end of {} ({}): the files overlap",
                                    time::iso(s.utc_ms),
                                    files[last.file].name,
                                    time::iso(last.utc_ms)
                                ),
                            ));
                        }
                    }
                }
                out.push(GSample {
                    utc_ms: s.utc_ms,
                    file: fi,
                    line: s.line,
                    rates,
                    snap: s.snap,
                });
            }
        }
        // Diskstats snapshots without an uptime clock get one from their times.
        if let Some(first) = out.first().map(|s| s.utc_ms) {
            for s in &mut out {
                if let Some(sn) = &mut s.snap {
                    if sn.mono_ns == 0 {
                        sn.mono_ns = ((s.utc_ms - first) as u64).saturating_mul(1_000_000) + 1;
                    }
                }
            }
        }
        series.push((part, out));
    }
    let nominal_ms = file_nominal
        .or_else(|| {
            let mut d: Vec<f64> = series
                .iter()
                .flat_map(|(_, s)| s.windows(2).map(|w| (w[1].utc_ms - w[0].utc_ms) as f64))
                .filter(|x| *x > 0.0)
                .collect();
            d.sort_by(f64::total_cmp);
            d.get(d.len() / 2).copied()
        })
        .unwrap_or(1000.0);
    let first = series.first().and_then(|s| s.1.first()).map(|s| s.utc_ms);
    let last = series.last().and_then(|s| s.1.last()).map(|s| s.utc_ms);
    let mut phases = Vec::new();
    let mut switch_at = None;
    if let (Some(a), Some(b)) = (first, last) {
        if series.len() == 2 {
            let bl = series[0].1.last().map(|s| s.utc_ms).unwrap_or(a);
            let m0 = series[1].1.first().map(|s| s.utc_ms).unwrap_or(b);
            if m0 <= bl {
                return Err(ProbeError::Usage(format!(
                    "the measure files start at {}, before the baseline files end ({}): give the files before the switch with --baseline and those after with --measure",
                    time::iso(m0), time::iso(bl)
                )));
            }
            phases.push(PhasePlan {
                name: "baseline".into(),
                start_utc_ms: a,
                end_utc_ms: bl,
            });
            phases.push(PhasePlan {
                name: "switch".into(),
                start_utc_ms: m0,
                end_utc_ms: m0,
            });
            phases.push(PhasePlan {
                name: "warmup".into(),
                start_utc_ms: m0,
                end_utc_ms: m0,
            });
            phases.push(PhasePlan {
                name: "measure".into(),
                start_utc_ms: m0,
                end_utc_ms: b,
            });
            switch_at = Some(m0);
        } else if let Some(t) = opts.switch_at {
            if t <= a || t > b {
                return Err(ProbeError::Usage(format!(
                    "--switch-at {} is outside the data ({} – {}): give a time after the first sample and not after the last",
                    time::iso(t), time::iso(a), time::iso(b)
                )));
            }
            let all = &series[0].1;
            let bl = all
                .iter()
                .rev()
                .find(|s| s.utc_ms <= t)
                .map(|s| s.utc_ms)
                .unwrap_or(a);
            let m0 = all
                .iter()
                .find(|s| s.utc_ms >= t)
                .map(|s| s.utc_ms)
                .unwrap_or(b);
            phases.push(PhasePlan {
                name: "baseline".into(),
                start_utc_ms: a,
                end_utc_ms: bl,
            });
            phases.push(PhasePlan {
                name: "switch".into(),
                start_utc_ms: t,
                end_utc_ms: t,
            });
            phases.push(PhasePlan {
                name: "warmup".into(),
                start_utc_ms: t,
                end_utc_ms: m0,
            });
            phases.push(PhasePlan {
                name: "measure".into(),
                start_utc_ms: m0,
                end_utc_ms: b,
            });
            switch_at = Some(t);
        } else {
            phases.push(PhasePlan {
                name: "baseline".into(),
                start_utc_ms: a,
                end_utc_ms: b,
            });
            notes.push("no switch given (--switch-at, or --baseline and --measure files): the whole import is the baseline".into());
        }
    }
    super::phase("stitch", t_stitch);
    Ok(Plan {
        files,
        devices,
        series,
        nominal_ms,
        phases,
        switch_at,
        notes,
    })
}

/// Per-interval rows of a rate series: (device index, start, end, Δt ms, status, counts).
pub(super) type Row = (usize, i64, i64, f64, &'static str, Option<super::Counts>);

/// Visit the per-interval rows of a rate series, device by device (each device's rows in time
/// order, so that the capture's tables and indexes grow at their end), without collecting them.
pub(super) fn each_rate_row(
    s: &[GSample],
    nominal_ms: f64,
    mut f: impl FnMut(Row) -> Result<()>,
) -> Result<()> {
    let ndev = s.iter().map(|g| g.rates.len()).max().unwrap_or(0);
    for d in 0..ndev {
        let mut conv = super::carry::RateToCount::default();
        for w in s.windows(2) {
            let Some(Some(r)) = w[1].rates.get(d) else {
                continue;
            };
            let dt = (w[1].utc_ms - w[0].utc_ms) as f64;
            let row = if r.reset {
                (d, w[0].utc_ms, w[1].utc_ms, dt, "reset", None)
            } else if dt > delta::GAP_FACTOR * nominal_ms {
                (d, w[0].utc_ms, w[1].utc_ms, dt, "gap", None)
            } else {
                let k = conv.next(r, dt);
                (d, w[0].utc_ms, w[1].utc_ms, dt, "ok", Some(k))
            };
            f(row)?;
        }
    }
    Ok(())
}

/// How many rows [`each_rate_row`] visits.
pub(super) fn rate_row_count(s: &[GSample]) -> usize {
    s.windows(2)
        .map(|w| w[1].rates.iter().filter(|r| r.is_some()).count())
        .sum()
}
