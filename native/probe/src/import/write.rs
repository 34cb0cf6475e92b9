//! Loading the files of one import, stitching them in time order, the preview, and writing
//! the capture (to a temporary file renamed at the end: a failed import leaves nothing).

use std::path::{Path, PathBuf};

use rusqlite::params;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{
    bad, decode, linux, median_step, perfmon, prometheus, promfetch, time, Device, Kind, ParseOpts,
    Parsed, Rates, Unmapped,
};
use crate::capture::blocks::{status_code_of, Block, BlockBuilder};
use crate::capture::Capture;
use crate::delta::{self, Snapshot};
use crate::error::{ProbeError, Result};
use crate::sysfs::DeviceInfo;

/// Which part of a before/after import a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    All,
    Baseline,
    Measure,
}

impl Part {
    fn as_str(self) -> &'static str {
        match self {
            Part::All => "all",
            Part::Baseline => "baseline",
            Part::Measure => "measure",
        }
    }
}

/// What `import` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    pub kind: Kind,
    pub inputs: Vec<(PathBuf, Part)>,
    pub out: Option<PathBuf>,
    /// `--switch-at`, UTC ms.
    pub switch_at: Option<i64>,
    pub encoding: Option<String>,
    pub parse: ParseOpts,
    /// `--role NAME=ROLE` overrides.
    pub roles: Vec<(String, String)>,
    /// `--out-dir DIR`: one capture per host in DIR (instead of `--out`).
    pub out_dir: Option<PathBuf>,
    /// The command line, for `meta.command`.
    pub command: String,
}

/// A file's first and last sample and how many it has (kept when the samples are stitched).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
    pub samples: usize,
}

impl Span {
    /// The span of a file's samples.
    pub fn of(s: &[super::Sample]) -> Span {
        Span {
            first_utc_ms: s.first().map(|x| x.utc_ms),
            last_utc_ms: s.last().map(|x| x.utc_ms),
            samples: s.len(),
        }
    }
}

/// One file as read.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    pub name: String,
    pub size: u64,
    pub sha256: String,
    pub encoding: String,
    pub encoding_how: String,
    pub part: Part,
    /// The file's samples as parsed; [`plan`] takes them over into its series.
    pub parsed: Parsed,
    pub span: Span,
}

/// A source column and the capture figure it feeds.
#[derive(Debug, Clone, Serialize)]
pub struct MapRow {
    pub source: String,
    pub field: String,
}

/// The preview of one file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilePreview {
    pub name: String,
    pub path: String,
    pub size_bytes: u64,
    pub sha256: String,
    pub format: String,
    pub encoding: String,
    pub encoding_how: String,
    pub time_zone: Option<String>,
    pub utc_offset_min: Option<i64>,
    pub time_zone_source: String,
    pub part: Part,
    pub hosts: Vec<String>,
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
    pub samples: usize,
    pub devices: Vec<String>,
    pub mapping: Vec<MapRow>,
    pub unmapped: Vec<Unmapped>,
    pub notes: Vec<String>,
    pub needs: Vec<String>,
}

/// A front volume and the backing device beneath it.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub front: String,
    pub backing: String,
}

/// A phase as it will be written.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhasePlan {
    pub name: String,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
}

/// Start and end of the imported data.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub start: String,
    pub end: String,
}

/// What `import --preview` prints (docs/import.md, "Preview JSON").
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    pub kind: Kind,
    pub files: Vec<FilePreview>,
    pub hosts: Vec<String>,
    pub devices: Vec<Device>,
    pub pairs: Vec<Pair>,
    pub time_range: Option<Range>,
    /// Median step between samples, ms.
    pub interval_ms: Option<f64>,
    /// Device-intervals the capture would hold.
    pub intervals: usize,
    pub phases: Vec<PhasePlan>,
    pub unmapped: Vec<Unmapped>,
    pub notes: Vec<String>,
    pub needs: Vec<String>,
    /// True when nothing is missing to import.
    pub ready: bool,
    /// What sits on what (the capture's `topology`, from the names or the numbers).
    pub stack: Vec<StackEdge>,
}

/// One edge of the device stack: `holder` sits on `on`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StackEdge {
    pub holder: String,
    pub on: String,
    pub kind: String,
}

/// The stack edges of every file, once each.
fn stack_of(p: &Plan) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = Vec::new();
    for e in p.files.iter().flat_map(|f| &f.parsed.stack) {
        if !v.contains(e) {
            v.push(e.clone());
        }
    }
    v
}

fn sha256_hex(b: &[u8]) -> String {
    let d = Sha256::digest(b);
    d.iter().map(|x| format!("{x:02x}")).collect()
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// Read, decode and parse one file.
pub fn load_one(path: &Path, part: Part, opts: &Options) -> Result<Loaded> {
    load_nth(path, part, opts, 0)
}

/// [`load_one`] for the `index`-th file given (node_exporter scrapes without timestamps are
/// placed at `--start` + index × `--interval`).
pub fn load_nth(path: &Path, part: Part, opts: &Options, index: usize) -> Result<Loaded> {
    let file = display(path);
    if opts.kind == Kind::Prometheus {
        let po = opts.parse.prometheus.clone().ok_or_else(|| {
            ProbeError::Usage("import prometheus needs --url URL, --from and --to".into())
        })?;
        let f = promfetch::fetch(&po)?;
        let digest = sha256_hex(f.queries.join("\n").as_bytes());
        return Ok(Loaded {
            path: path.to_path_buf(),
            name: po.url.clone(),
            size: f.bytes as u64,
            sha256: digest,
            encoding: "utf-8".into(),
            encoding_how: "HTTP API (JSON)".into(),
            part,
            span: Span::of(&f.parsed.samples),
            parsed: f.parsed,
        });
    }
    let t = std::time::Instant::now();
    let bytes =
        std::fs::read(path).map_err(|e| bad(&file, None, None, format!("cannot be read: {e}")))?;
    super::phase("read", t);
    let is_blg = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("blg"));
    let stem = path.with_extension("csv");
    if is_blg || (matches!(opts.kind, Kind::Perfmon | Kind::Esxtop) && decode::looks_binary(&bytes))
    {
        return Err(bad(&file, None, None, format!(
            "is a binary Performance Monitor log (BLG), which cannot be read here: convert it on Windows with: relog \"{}\" -f csv -o \"{}\"",
            path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default(),
            stem.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
        )));
    }
    if decode::looks_binary(&bytes) {
        let hint = match opts.kind {
            Kind::Sar | Kind::Sadf => "a binary sysstat data file (saDD): convert it with: sadf -d FILE -- -d -p > FILE.csv, then import it as sadf",
            _ => "a binary file, not text",
        };
        return Err(bad(&file, None, None, format!("is {hint}")));
    }
    // the hash on another thread while this one decodes (plain UTF-8: no copy) and parses
    let size = bytes.len() as u64;
    let (sha256, res) = std::thread::scope(|sc| {
        let hashing = sc.spawn(|| {
            let t = std::time::Instant::now();
            let h = sha256_hex(&bytes);
            super::phase("sha256 (beside decode and parse)", t);
            h
        });
        let res = (|| -> Result<(Parsed, &'static str, &'static str)> {
            let t = std::time::Instant::now();
            let dec =
                decode::decode_cow(&bytes, opts.encoding.as_deref()).map_err(ProbeError::Usage)?;
            super::phase("decode", t);
            let t = std::time::Instant::now();
            let parsed = parse_text(opts, path, &file, index, &dec.text)?;
            super::phase("parse", t);
            Ok((parsed, dec.encoding, dec.how))
        })();
        (hashing.join().unwrap_or_default(), res)
    });
    let (parsed, encoding, encoding_how) = res?;
    Ok(Loaded {
        path: path.to_path_buf(),
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| file.clone()),
        size,
        sha256,
        encoding: encoding.to_string(),
        encoding_how: encoding_how.to_string(),
        part,
        span: Span::of(&parsed.samples),
        parsed,
    })
}

/// The parser of the import's kind over one file's text.
fn parse_text(opts: &Options, path: &Path, file: &str, index: usize, text: &str) -> Result<Parsed> {
    Ok(match opts.kind {
        Kind::Perfmon => perfmon::parse(file, text, &opts.parse, false)?,
        Kind::Esxtop => perfmon::parse(file, text, &opts.parse, true)?,
        Kind::Iostat => linux::parse_iostat(file, text, &opts.parse)?,
        Kind::IostatJson => linux::parse_iostat_json(file, text, &opts.parse)?,
        Kind::Sar => linux::parse_sar(file, text, &opts.parse)?,
        Kind::Sadf => linux::parse_sadf(file, text, &opts.parse)?,
        Kind::Diskstats => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let up = name
                .contains("diskstats")
                .then(|| path.with_file_name(name.replace("diskstats", "uptime")))
                .and_then(|u| std::fs::read_to_string(u).ok());
            linux::parse_diskstats(file, text, up.as_deref(), &opts.parse)?
        }
        Kind::NodeExporter => node_exporter_file(file, index, text, opts)?,
        Kind::Prometheus => {
            return Err(ProbeError::Usage(
                "import prometheus reads a server, not a file".into(),
            ))
        }
    })
}

/// One node_exporter text scrape: one snapshot, at the time its samples carry, else at
/// `--start` + i × `--interval` for the i-th file given.
fn node_exporter_file(file: &str, idx: usize, text: &str, opts: &Options) -> Result<Parsed> {
    let sc = prometheus::parse_text(file, text, "")?;
    let mut p = prometheus::to_parsed(
        &sc.series,
        "Prometheus text exposition (node_exporter /metrics scrape)".into(),
    );
    p.hosts.clear();
    let t = match (sc.utc_ms, opts.parse.start_utc_ms, opts.parse.interval_s) {
        (Some(t), _, _) => {
            p.tz_source = "sample timestamps (UTC ms)".into();
            Some(t)
        }
        (None, Some(a), Some(i)) => {
            p.tz_source = "--start + i × --interval (the scrape carries no timestamps)".into();
            Some(a + (idx as f64 * i * 1000.0).round() as i64)
        }
        (None, _, _) => {
            p.needs.push(format!(
                "{file}: the scrape carries no timestamps: give --start TIME and --interval SECONDS (the time of the first file and the seconds between scrapes, files in the order given)"
            ));
            None
        }
    };
    p.notes.push(format!(
        "one scrape of {} node_disk_* samples ({} devices)",
        sc.samples,
        p.devices.len()
    ));
    for s in &mut p.samples {
        s.utc_ms = t.unwrap_or(0);
        if let Some(sn) = &mut s.snap {
            sn.utc_ms = s.utc_ms;
            sn.mono_ns = 0;
        }
    }
    Ok(p)
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
    let mut files: Vec<Loaded> = Vec::new();
    for (i, (p, part)) in opts.inputs.iter().enumerate() {
        files.push(load_nth(p, *part, opts, i)?);
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
type Row = (usize, i64, i64, f64, &'static str, Option<super::Counts>);

/// Write the samples and intervals of every series; (samples, intervals, of which rate rows).
fn write_rows(cap: &mut Capture, p: &Plan, ids: &[i64], t0: i64) -> Result<(usize, i64, u64)> {
    let (mut samples, mut intervals, mut rate_rows) = (0usize, 0i64, 0u64);
    for (_, s) in &p.series {
        // snapshots go through the recorder's interval computation (and write their samples);
        // rates (of the other samples, or beside the snapshots: windows_exporter devices in a
        // fleet) are converted by `counts`
        let mut prev: Option<&Snapshot> = None;
        for g in s {
            let Some(sn) = &g.snap else { continue };
            let step = match prev {
                Some(pr) => delta::step(pr, sn, p.nominal_ms),
                None => delta::Step::default(),
            };
            intervals += step.intervals.len() as i64;
            cap.write_sample(sn, &step, &[])?;
            samples += 1;
            prev = Some(sn);
        }
        let c = cap.conn();
        c.execute_batch("BEGIN")?;
        {
            let mut ins_s = c.prepare_cached(
                "INSERT INTO samples(mono_ns,utc_ms,boot_id) VALUES(?1,?2,'import')",
            )?;
            for g in s.iter().filter(|g| g.snap.is_none()) {
                ins_s.execute(params![(g.utc_ms - t0) * 1_000_000, g.utc_ms])?;
                samples += 1;
            }
            let mut iv = c.prepare_cached(
                "INSERT OR IGNORE INTO intervals(device_id,start_utc_ms,end_utc_ms,interval_ms,status,reads,writes,
                   read_merges,write_merges,read_bytes,write_bytes,read_time_ms,write_time_ms,busy_ms,
                   weighted_ms,in_flight,discards,discard_bytes,discard_time_ms,flushes,flush_time_ms)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)",
            )?;
            each_rate_row(s, p.nominal_ms, |(d, a, b, dt, st, cn)| {
                let k = cn.unwrap_or_default();
                let n = iv.execute(params![
                    ids[d],
                    a,
                    b,
                    dt,
                    st,
                    k.reads,
                    k.writes,
                    k.read_merges,
                    k.write_merges,
                    k.read_bytes,
                    k.write_bytes,
                    k.read_time_ms,
                    k.write_time_ms,
                    k.busy_ms,
                    k.weighted_ms,
                    k.in_flight,
                    k.discards,
                    k.discard_bytes,
                    k.discard_time_ms,
                    k.flushes,
                    k.flush_time_ms
                ])?;
                intervals += n as i64;
                rate_rows += n as u64;
                Ok(())
            })?;
        }
        c.execute_batch("COMMIT")?;
    }
    Ok((samples, intervals, rate_rows))
}

/// The interval blocks of a rate import's rows, in the order [`write_rows`] inserts them, and
/// how many rows they hold.
fn build_blocks(p: &Plan, ids: &[i64]) -> (Vec<Block>, u64) {
    let mut b = BlockBuilder::new(ids.len());
    let mut blocks = Vec::new();
    let nan = |x: Option<i64>| x.map_or(f64::NAN, |v| v as f64);
    for (_, s) in &p.series {
        let _ = each_rate_row(s, p.nominal_ms, |(d, a, e, dt, st, cn)| {
            let k = cn.unwrap_or_default();
            let row = [
                a as f64,
                e as f64,
                dt,
                status_code_of(st),
                nan(k.reads),
                nan(k.writes),
                nan(k.read_bytes),
                nan(k.write_bytes),
                nan(k.read_time_ms),
                nan(k.write_time_ms),
                nan(k.busy_ms),
                nan(k.weighted_ms),
            ];
            if let Some(full) = b.push(ids[d], row) {
                blocks.push(full);
            }
            Ok(())
        });
    }
    let rows = b.rows;
    blocks.extend(b.finish());
    (blocks, rows)
}

/// Visit the per-interval rows of a rate series, device by device (each device's rows in time
/// order, so that the capture's tables and indexes grow at their end), without collecting them.
fn each_rate_row(
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
fn rate_row_count(s: &[GSample]) -> usize {
    s.windows(2)
        .map(|w| w[1].rates.iter().filter(|r| r.is_some()).count())
        .sum()
}

/// Build the preview of a plan.
pub fn preview(kind: Kind, p: &Plan) -> Preview {
    let mut unmapped: Vec<Unmapped> = Vec::new();
    let mut notes = p.notes.clone();
    let mut needs = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for f in &p.files {
        for u in &f.parsed.unmapped {
            if !unmapped.contains(u) {
                unmapped.push(u.clone());
            }
        }
        for n in &f.parsed.notes {
            let n = format!("{}: {n}", f.name);
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        for n in &f.parsed.needs {
            if !needs.contains(n) {
                needs.push(n.clone());
            }
        }
        for h in &f.parsed.hosts {
            if !hosts.contains(h) {
                hosts.push(h.clone());
            }
        }
        files.push(FilePreview {
            name: f.name.clone(),
            path: display(&f.path),
            size_bytes: f.size,
            sha256: f.sha256.clone(),
            format: f.parsed.format.clone(),
            encoding: f.encoding.clone(),
            encoding_how: f.encoding_how.clone(),
            time_zone: f.parsed.tz_name.clone(),
            utc_offset_min: f.parsed.utc_offset_min,
            time_zone_source: f.parsed.tz_source.clone(),
            part: f.part,
            hosts: f.parsed.hosts.clone(),
            first_utc_ms: f.span.first_utc_ms,
            last_utc_ms: f.span.last_utc_ms,
            samples: f.span.samples,
            devices: f.parsed.devices.iter().map(|d| d.name.clone()).collect(),
            mapping: f
                .parsed
                .mapping
                .iter()
                .map(|(s, d)| MapRow {
                    source: s.clone(),
                    field: d.clone(),
                })
                .collect(),
            unmapped: f.parsed.unmapped.clone(),
            notes: f.parsed.notes.clone(),
            needs: f.parsed.needs.clone(),
        });
    }
    let first = p.series.first().and_then(|s| s.1.first()).map(|s| s.utc_ms);
    let last = p.series.last().and_then(|s| s.1.last()).map(|s| s.utc_ms);
    let intervals = p
        .series
        .iter()
        .map(|(_, s)| {
            // snapshots (diskstats, node_exporter) pair with the previous snapshot; rates
            // (every other source, windows_exporter) are intervals of their own
            let snaps: Vec<&Snapshot> = s.iter().filter_map(|x| x.snap.as_ref()).collect();
            snaps.windows(2).map(|w| w[1].devices.len()).sum::<usize>() + rate_row_count(s)
        })
        .sum();
    Preview {
        kind,
        files,
        hosts,
        devices: p.devices.clone(),
        pairs: p
            .devices
            .iter()
            .filter_map(|d| {
                d.on.as_ref().map(|b| Pair {
                    front: d.name.clone(),
                    backing: b.clone(),
                })
            })
            .collect(),
        time_range: match (first, last) {
            (Some(a), Some(b)) => Some(Range {
                start_utc_ms: a,
                end_utc_ms: b,
                start: time::iso(a),
                end: time::iso(b),
            }),
            _ => None,
        },
        interval_ms: (p.series.iter().map(|s| s.1.len()).sum::<usize>() > 1)
            .then_some(p.nominal_ms),
        intervals,
        phases: p.phases.clone(),
        unmapped,
        notes,
        ready: needs.is_empty() && intervals > 0,
        stack: stack_of(p)
            .into_iter()
            .map(|(holder, on, kind)| StackEdge { holder, on, kind })
            .collect(),
        needs,
    }
}

/// Render a preview for a person.
pub fn render(pv: &Preview) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "import {} — {} file(s)",
        pv.kind.as_str(),
        pv.files.len()
    );
    for f in &pv.files {
        let _ = writeln!(
            s,
            "  {} ({} bytes, sha256 {}…)",
            f.name,
            f.size_bytes,
            &f.sha256[..12]
        );
        let _ = writeln!(
            s,
            "    format: {}; encoding: {} ({})",
            f.format, f.encoding, f.encoding_how
        );
        let _ = writeln!(
            s,
            "    time zone: {}{}; source: {}",
            f.time_zone.clone().unwrap_or_else(|| "-".into()),
            f.utc_offset_min
                .map(|o| format!(" (UTC{:+}:{:02})", o / 60, (o % 60).abs()))
                .unwrap_or_default(),
            f.time_zone_source
        );
        let _ = writeln!(
            s,
            "    part: {}; hosts: {}; samples: {}",
            f.part.as_str_pub(),
            f.hosts.join(", "),
            f.samples
        );
    }
    let _ = writeln!(s, "devices:");
    for d in &pv.devices {
        let _ = writeln!(s, "  {:<28} {:<8} {}", d.name, d.role, d.reason);
    }
    for p in &pv.pairs {
        let _ = writeln!(
            s,
            "  pairing: {} (front) on {} (backing)",
            p.front, p.backing
        );
    }
    match &pv.time_range {
        Some(r) => {
            let _ = writeln!(s, "time range: {} – {} (UTC)", r.start, r.end);
        }
        None => {
            let _ = writeln!(s, "time range: none");
        }
    }
    if let Some(i) = pv.interval_ms {
        let _ = writeln!(
            s,
            "interval: {:.0} ms (median step); {} device-intervals",
            i, pv.intervals
        );
    }
    for ph in &pv.phases {
        let _ = writeln!(
            s,
            "phase {}: {} – {}",
            ph.name,
            time::iso(ph.start_utc_ms),
            time::iso(ph.end_utc_ms)
        );
    }
    if !pv.unmapped.is_empty() {
        let _ = writeln!(s, "not imported:");
        for u in &pv.unmapped {
            let _ = writeln!(s, "  {}: {}", u.what, u.why);
        }
    }
    for n in &pv.notes {
        let _ = writeln!(s, "note: {n}");
    }
    for n in &pv.needs {
        let _ = writeln!(s, "needed: {n}");
    }
    s
}

impl Part {
    /// The name used in the preview and the `import_files.part` column.
    pub fn as_str_pub(self) -> &'static str {
        self.as_str()
    }
}

pub(super) fn tmp_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "capture".into());
    out.with_file_name(format!(".{name}.import-{}.tmp", std::process::id()))
}

pub(super) fn remove_all(p: &Path) {
    for suf in ["", "-wal", "-shm", "-journal"] {
        let mut s = p.as_os_str().to_owned();
        s.push(suf);
        let _ = std::fs::remove_file(PathBuf::from(s));
    }
}

/// What an import wrote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    pub out: String,
    pub devices: usize,
    pub samples: usize,
    pub intervals: i64,
    pub preview: Preview,
}

/// Import: plan, then write the capture to a temporary file and rename it to `out`.
pub fn import(opts: &Options) -> Result<Written> {
    let out = opts
        .out
        .clone()
        .ok_or_else(|| ProbeError::Usage("import needs --out CAPTURE (or --preview)".into()))?;
    if out.exists() {
        return Err(ProbeError::Usage(format!(
            "{} already exists: choose another --out",
            out.display()
        )));
    }
    let p = plan(opts)?;
    let t = std::time::Instant::now();
    let pv = preview(opts.kind, &p);
    super::phase("preview", t);
    check_ready(&p, &pv)?;
    let tmp = tmp_path(&out);
    remove_all(&tmp);
    let r = write(&tmp, &out, opts, &p, &pv);
    match r {
        Ok((samples, intervals)) => {
            commit(&[(tmp, out.clone())], "--out")?;
            Ok(Written {
                out: display(&out),
                devices: p.devices.len(),
                samples,
                intervals,
                preview: pv,
            })
        }
        Err(e) => {
            remove_all(&tmp);
            Err(e)
        }
    }
}

/// Refuses a plan that still needs something, or has no interval.
pub(super) fn check_ready(p: &Plan, pv: &Preview) -> Result<()> {
    if !pv.needs.is_empty() {
        return Err(ProbeError::Usage(format!(
            "cannot import yet: {}",
            pv.needs.join("; ")
        )));
    }
    if pv.intervals == 0 {
        return Err(bad(
            &p.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>().join(", "),
            None,
            None,
            "fewer than two samples: a rate needs two moments, so there is no interval to import (give a longer log, or several snapshots)",
        ));
    }
    Ok(())
}

/// Renames every written temporary file to its capture, or none: on any failure the
/// temporary files and the captures already renamed are removed (`flag` names the option).
pub(super) fn commit(moves: &[(PathBuf, PathBuf)], flag: &str) -> Result<()> {
    let undo = |done: &[(PathBuf, PathBuf)]| {
        for (t, o) in moves {
            remove_all(t);
            if done.iter().any(|(_, d)| d == o) {
                remove_all(o);
            }
        }
    };
    for (i, (tmp, out)) in moves.iter().enumerate() {
        if out.exists() {
            undo(&moves[..i]);
            return Err(ProbeError::Usage(format!(
                "{} appeared while importing: choose another {flag}",
                out.display()
            )));
        }
        if let Err(e) = std::fs::rename(tmp, out) {
            undo(&moves[..i]);
            return Err(ProbeError::Unwritable {
                path: out.clone(),
                reason: e.to_string(),
            });
        }
    }
    Ok(())
}

/// Write a plan into a new capture at `tmp` (`out`: the capture it will be renamed to, for errors).
pub(super) fn write(
    tmp: &Path,
    out: &Path,
    opts: &Options,
    p: &Plan,
    pv: &Preview,
) -> Result<(usize, i64)> {
    let mut cap = Capture::create(tmp).map_err(|e| match e {
        ProbeError::Unwritable { reason, .. } => ProbeError::Unwritable {
            path: out.to_path_buf(),
            reason,
        },
        o => o,
    })?;
    // a new file nobody reads until it is renamed into place, whole: written without a journal
    // and with a large page cache, then put in WAL mode as every capture is
    let journal = |cap: &Capture, mode: &str| -> Result<()> {
        cap.conn()
            .query_row(&format!("PRAGMA journal_mode={mode}"), [], |r| {
                r.get::<_, String>(0)
            })?;
        Ok(())
    };
    journal(&cap, "OFF")?;
    cap.conn().pragma_update(None, "cache_size", -65536)?;
    let now = crate::clock::utc_ms();
    let first = &p.files[0];
    let hosts = pv.hosts.join(", ");
    let kv: Vec<(&str, String)> = vec![
        ("probe_version", env!("CARGO_PKG_VERSION").to_string()),
        ("created_utc_ms", now.to_string()),
        (
            "hostname",
            if hosts.is_empty() {
                "unknown".into()
            } else {
                hosts
            },
        ),
        (
            "utc_offset_min",
            first.parsed.utc_offset_min.unwrap_or(0).to_string(),
        ),
        ("command", opts.command.clone()),
        ("interval_ms", format!("{}", p.nominal_ms.round() as i64)),
        ("source", format!("import:{}", opts.kind.as_str())),
        ("import_file", first.name.clone()),
        ("import_sha256", first.sha256.clone()),
        ("import_files", p.files.len().to_string()),
        (
            "devices",
            serde_json::to_string(&p.devices.iter().map(|d| d.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default(),
        ),
    ];
    for (k, v) in &kv {
        cap.set_meta(k, v)?;
    }
    if let Some(k) = p.files.iter().find_map(|f| f.parsed.kernel.clone()) {
        cap.set_meta("kernel", &k)?;
    }
    let t0 = p
        .series
        .first()
        .and_then(|s| s.1.first())
        .map(|s| s.utc_ms)
        .unwrap_or(0);
    let mut ids = Vec::new();
    for d in &p.devices {
        let info = DeviceInfo {
            name: d.name.clone(),
            is_partition: d.is_partition,
            parent: d.parent.clone(),
            role: d.role.clone(),
            role_reason: Some(d.reason.clone()),
            ..Default::default()
        };
        ids.push(cap.upsert_device(&info, t0)?);
    }
    let mut edges: Vec<(String, String, String)> = p
        .devices
        .iter()
        .filter_map(|d| {
            d.on.as_ref()
                .map(|b| (d.name.clone(), b.clone(), "perfmon-volume".to_string()))
        })
        .collect();
    edges.extend(stack_of(p));
    cap.set_topology(&edges)?;
    // a capture of several hosts (a Prometheus fleet, a PerfMon log of several computers): which
    // device is whose (docs/capture-schema.md, meta `fleet`)
    let mut fleet: Vec<(String, Vec<String>)> = Vec::new();
    for d in &p.devices {
        let Some(h) = &d.host else { continue };
        match fleet.iter_mut().find(|(x, _)| x == h) {
            Some((_, v)) => v.push(d.name.clone()),
            None => fleet.push((h.clone(), vec![d.name.clone()])),
        }
    }
    if fleet.len() > 1 {
        let v: Vec<serde_json::Value> = fleet
            .iter()
            .map(|(h, ds)| serde_json::json!({ "host": h, "devices": ds }))
            .collect();
        cap.set_meta("fleet", &serde_json::Value::Array(v).to_string())?;
    }
    let t_rows = std::time::Instant::now();
    // the interval blocks of a rate import are built from its rows on another thread while this
    // one inserts them (a snapshot import's are read back from the table, at the end)
    let rate_only = p
        .series
        .iter()
        .all(|(_, s)| s.iter().all(|g| g.snap.is_none()));
    let (rows, built) = std::thread::scope(|sc| {
        let building = rate_only.then(|| sc.spawn(|| build_blocks(p, &ids)));
        let rows = write_rows(&mut cap, p, &ids, t0);
        (rows, building.map(|h| h.join()))
    });
    let (samples, intervals, rate_rows) = rows?;
    for ph in &p.phases {
        cap.conn().execute(
            "INSERT INTO phases(name,start_utc_ms,end_utc_ms,planned_s) VALUES(?1,?2,?3,?4)",
            params![
                ph.name,
                ph.start_utc_ms,
                ph.end_utc_ms,
                (ph.end_utc_ms - ph.start_utc_ms) as f64 / 1000.0
            ],
        )?;
    }
    if let Some(t) = p.switch_at {
        cap.add_mark(
            t,
            ((t - t0).max(0) as u64) * 1_000_000,
            "switch",
            Some("from the import (--switch-at or the start of the --measure files)"),
        )?;
    }
    let plan_len = |n: &str| {
        p.phases
            .iter()
            .find(|x| x.name == n)
            .map(|x| (x.end_utc_ms - x.start_utc_ms) as f64 / 1000.0)
    };
    if p.switch_at.is_some() {
        let pm = serde_json::json!({
            "baselineS": plan_len("baseline"),
            "warmupS": plan_len("warmup"),
            "measureS": plan_len("measure"),
            "switch": "import",
        });
        cap.set_meta("plan", &pm.to_string())?;
    }
    for f in &p.files {
        let mapping = serde_json::json!({
            "mapped": f.parsed.mapping.iter().map(|(s, d)| serde_json::json!({"source": s, "field": d})).collect::<Vec<_>>(),
            "unmapped": f.parsed.unmapped,
            "notes": f.parsed.notes,
            "devices": f.parsed.devices.iter().map(|d| serde_json::json!({"name": d.name, "source": d.source, "role": d.role})).collect::<Vec<_>>(),
        });
        cap.conn().execute(
            "INSERT INTO import_files(name,path,size_bytes,sha256,kind,format,encoding,encoding_how,time_zone,
               utc_offset_min,time_zone_source,part,hosts,first_utc_ms,last_utc_ms,samples,mapping)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)",
            params![
                f.name,
                display(&f.path),
                f.size as i64,
                f.sha256,
                opts.kind.as_str(),
                f.parsed.format,
                f.encoding,
                f.encoding_how,
                f.parsed.tz_name,
                f.parsed.utc_offset_min,
                f.parsed.tz_source,
                f.part.as_str(),
                serde_json::to_string(&f.parsed.hosts).unwrap_or_default(),
                f.span.first_utc_ms,
                f.span.last_utc_ms,
                f.span.samples as i64,
                mapping.to_string(),
            ],
        )?;
    }
    // The columnar blocks of the interval table (docs/capture-schema.md, `interval_blocks`): the
    // app then opens the imported capture without reading every row.
    super::phase("write rows (beside: the blocks built)", t_rows);
    let t = std::time::Instant::now();
    match built {
        Some(Ok((blocks, n))) if n == rate_rows => cap.write_built_blocks(blocks)?,
        _ => cap.write_interval_blocks()?,
    };
    journal(&cap, "WAL")?;
    drop(cap);
    super::phase("interval blocks", t);
    Ok((samples, intervals))
}
