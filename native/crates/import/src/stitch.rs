//! Stitching the files of one import in time order: devices matched by name across files,
//! the series of each part (all, or baseline then measure), the nominal step and the phases.

use serde::Serialize;

use super::load::{display, load_nth, Loaded, Options, Part};
use super::{bad, linux, median_step, scrapes, time, Device, Kind, Rates, Sample};
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
pub fn plan(opts: &Options) -> Result<Plan> {
    if opts.inputs.is_empty() {
        return Err(ProbeError::Usage(
            "import needs at least one FILE (or --baseline FILE… --measure FILE…)".into(),
        ));
    }
    let mut files = load_files(opts)?;
    let t_stitch = std::time::Instant::now();
    let (mut devices, maps) = match_devices(&files);
    apply_roles(opts, &mut devices)?;
    let stack: Vec<_> = files.iter().flat_map(|f| f.parsed.stack.clone()).collect();
    if let Some(why) = linux::stack::double_count(&devices, &stack) {
        return Err(ProbeError::Usage(why));
    }
    let mut notes = Vec::new();
    let parts = parts_of(opts)?;
    // Files of one snapshot each have no step of their own: then the stitched series' median.
    let file_nominal = file_nominal(&files);
    let mut stitch = Stitch {
        maps: &maps,
        ndev: devices.len(),
        half_step: file_nominal.unwrap_or(0.0) / 2.0,
        notes: &mut notes,
    };
    let mut series = Vec::new();
    for part in parts {
        let out = stitch.part(&mut files, part)?;
        series.push((part, out));
    }
    let nominal_ms = file_nominal
        .or_else(|| series_nominal(&series))
        .unwrap_or(1000.0);
    let (phases, switch_at) = phases_of(&series, opts, &mut notes)?;
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

/// Every input file loaded (node-exporter scrapes expanded and merged).
fn load_files(opts: &Options) -> Result<Vec<Loaded>> {
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
    Ok(files)
}

/// Devices by name across files, and per file its devices' indexes among them.
fn match_devices(files: &[Loaded]) -> (Vec<Device>, Vec<Vec<usize>>) {
    let mut devices: Vec<Device> = Vec::new();
    let mut maps: Vec<Vec<usize>> = Vec::new();
    for f in files {
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
    (devices, maps)
}

/// The roles given with `--role NAME=ROLE`.
fn apply_roles(opts: &Options, devices: &mut [Device]) -> Result<()> {
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
    Ok(())
}

/// The parts of the import: all, or baseline then measure (every file given with one).
fn parts_of(opts: &Options) -> Result<Vec<Part>> {
    if !opts.inputs.iter().any(|(_, p)| *p != Part::All) {
        return Ok(vec![Part::All]);
    }
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
    Ok(vec![Part::Baseline, Part::Measure])
}

/// Nominal step: the median over all files (None when no file has a step of its own).
fn file_nominal(files: &[Loaded]) -> Option<f64> {
    let mut sorted: Vec<f64> = files
        .iter()
        .filter_map(|f| median_step(&f.parsed.samples))
        .collect();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}

/// The median positive step of the stitched series.
fn series_nominal(series: &[(Part, Vec<GSample>)]) -> Option<f64> {
    let mut d: Vec<f64> = series
        .iter()
        .flat_map(|(_, s)| s.windows(2).map(|w| (w[1].utc_ms - w[0].utc_ms) as f64))
        .filter(|x| *x > 0.0)
        .collect();
    d.sort_by(f64::total_cmp);
    d.get(d.len() / 2).copied()
}

/// How a file's first sample meets the series before it.
enum Start {
    /// Only a mark of where the first interval starts, at or before the end of the file before.
    Mark,
    /// A repeat of the same moment (named in the notes).
    Repeat,
    /// After the end of the file before.
    Follows,
}

/// The files' samples stitched into one series per part, devices as in the plan.
struct Stitch<'a> {
    maps: &'a [Vec<usize>],
    ndev: usize,
    half_step: f64,
    notes: &'a mut Vec<String>,
}

impl Stitch<'_> {
    /// The series of one part: its files in order of their first sample.
    fn part(&mut self, files: &mut [Loaded], part: Part) -> Result<Vec<GSample>> {
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
            self.append(files, fi, &mut out)?;
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
        Ok(out)
    }

    /// Append the samples of file `fi` to `out`.
    fn append(&mut self, files: &mut [Loaded], fi: usize, out: &mut Vec<GSample>) -> Result<()> {
        // the samples are taken over, not copied (a large log is held once)
        let taken = std::mem::take(&mut files[fi].parsed.samples);
        let files = &*files;
        let same = self.maps[fi].len() == self.ndev
            && self.maps[fi].iter().enumerate().all(|(i, &g)| i == g);
        let mut first_dropped = false;
        for (k, s) in taken.into_iter().enumerate() {
            // a file's first sample may only mark where its first interval starts (sar,
            // sadf): at or before the end of the file before, it is not needed
            let mark = s.snap.is_none() && s.rates.iter().all(Option::is_none);
            if k == 0 || (k == 1 && first_dropped) {
                if let Some(last) = out.last() {
                    match self.start(files, fi, &s, last, k == 0 && mark)? {
                        Start::Mark => {
                            first_dropped = true;
                            continue;
                        }
                        Start::Repeat => continue,
                        Start::Follows => {}
                    }
                }
            }
            let rates = if same && s.rates.len() == self.ndev {
                s.rates
            } else {
                let mut rates = vec![None; self.ndev];
                for (li, r) in s.rates.iter().enumerate() {
                    if let (Some(&g), Some(r)) = (self.maps[fi].get(li), r) {
                        rates[g] = Some(*r);
                    }
                }
                rates
            };
            out.push(GSample {
                utc_ms: s.utc_ms,
                file: fi,
                line: s.line,
                rates,
                snap: s.snap,
            });
        }
        Ok(())
    }

    /// How the sample `s` at the start of file `fi` meets `last`, the end of the series so far
    /// (`droppable`: a first sample that only marks a start); files that overlap are refused.
    fn start(
        &mut self,
        files: &[Loaded],
        fi: usize,
        s: &Sample,
        last: &GSample,
        droppable: bool,
    ) -> Result<Start> {
        let f = &files[fi];
        let d = s.utc_ms - last.utc_ms;
        if droppable && (d as f64) < self.half_step {
            return Ok(Start::Mark);
        }
        if (d as f64).abs() < self.half_step {
            self.notes.push(format!(
                "{} line {}: {} ms from the last row of {}: a repeat of the same moment, not used",
                f.name, s.line, d, files[last.file].name
            ));
            return Ok(Start::Repeat);
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
        Ok(Start::Follows)
    }
}

/// A phase named `name` from `start_utc_ms` to `end_utc_ms`.
fn phase(name: &str, start_utc_ms: i64, end_utc_ms: i64) -> PhasePlan {
    PhasePlan {
        name: name.into(),
        start_utc_ms,
        end_utc_ms,
    }
}

/// The phases and the switch: from the measure files' start (baseline and measure files), from
/// `--switch-at`, or none (the whole import is the baseline).
fn phases_of(
    series: &[(Part, Vec<GSample>)],
    opts: &Options,
    notes: &mut Vec<String>,
) -> Result<(Vec<PhasePlan>, Option<i64>)> {
    let first = series.first().and_then(|s| s.1.first()).map(|s| s.utc_ms);
    let last = series.last().and_then(|s| s.1.last()).map(|s| s.utc_ms);
    let (Some(a), Some(b)) = (first, last) else {
        return Ok((Vec::new(), None));
    };
    if series.len() == 2 {
        let bl = series[0].1.last().map(|s| s.utc_ms).unwrap_or(a);
        let m0 = series[1].1.first().map(|s| s.utc_ms).unwrap_or(b);
        if m0 <= bl {
            return Err(ProbeError::Usage(format!(
                "the measure files start at {}, before the baseline files end ({}): give the files before the switch with --baseline and those after with --measure",
                time::iso(m0), time::iso(bl)
            )));
        }
        let phases = vec![
            phase("baseline", a, bl),
            phase("switch", m0, m0),
            phase("warmup", m0, m0),
            phase("measure", m0, b),
        ];
        return Ok((phases, Some(m0)));
    }
    let Some(t) = opts.switch_at else {
        notes.push("no switch given (--switch-at, or --baseline and --measure files): the whole import is the baseline".into());
        return Ok((vec![phase("baseline", a, b)], None));
    };
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
    let phases = vec![
        phase("baseline", a, bl),
        phase("switch", t, t),
        phase("warmup", t, m0),
        phase("measure", m0, b),
    ];
    Ok((phases, Some(t)))
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
