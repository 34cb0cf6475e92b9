//! Scrape files of node_exporter and windows_exporter (`import node-exporter FILE|DIR…`,
//! docs/import.md, "node-exporter"): each file is one scrape (`curl -s URL > FILE`); a folder
//! stands for its files. A scrape's time is, in this order: the samples' own timestamps
//! (milliseconds after the value), `--start` + i × `--interval` (the i-th file given), an epoch
//! in the file's name (10 digits: seconds, 13: milliseconds, as `scrape-$(date +%s).prom`),
//! else the file's modification time. The scrapes of one part (all, baseline or measure) are
//! joined into one series and turned into the capture's intervals once, by the Prometheus
//! import's own mapping (`prometheus::to_parsed`): counter deltas, a reset as it does.

use std::path::{Path, PathBuf};

use super::load::{Loaded, Part, Span};
use super::prometheus::Series;
use super::{bad, prometheus, time, ParseOpts};
use crate::error::Result;

/// Where a scrape's time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Stamps,
    StartInterval,
    Name,
    Mtime,
}

impl When {
    /// In words, for the preview.
    pub fn words(self) -> &'static str {
        match self {
            When::Stamps => "the samples' timestamps",
            When::StartInterval => "--start + i × --interval",
            When::Name => "the epoch in the file's name",
            When::Mtime => "the file's modification time",
        }
    }
}

/// One scrape as read: its time, where that came from, and its series (at that time).
#[derive(Debug, Clone)]
pub struct ScrapeAt {
    pub utc_ms: i64,
    pub when: When,
    pub series: Series,
}

/// The inputs with each folder replaced by its files (not hidden ones), by name.
pub fn expand(inputs: &[(PathBuf, Part)]) -> Result<Vec<(PathBuf, Part)>> {
    let mut out = Vec::new();
    for (p, part) in inputs {
        if !p.is_dir() {
            out.push((p.clone(), *part));
            continue;
        }
        let name = p.display().to_string();
        let rd = std::fs::read_dir(p)
            .map_err(|e| bad(&name, None, None, format!("cannot be read: {e}")))?;
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| {
                f.is_file()
                    && f.file_name()
                        .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
            })
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(bad(&name, None, None, "is a folder with no file in it: give the folder of the scrape files (one scrape per file)"));
        }
        out.extend(files.into_iter().map(|f| (f, *part)));
    }
    Ok(out)
}

/// An epoch in a file name: the last run of 10 digits (seconds) or 13 (milliseconds) that is
/// a time after 2001-09-09.
pub fn epoch_in_name(name: &str) -> Option<i64> {
    let mut found = None;
    for run in name.split(|c: char| !c.is_ascii_digit()) {
        let v: Option<i64> = run.parse().ok();
        found = match (run.len(), v) {
            (10, Some(s)) if s >= 1_000_000_000 => Some(s * 1000),
            (13, Some(ms)) if ms >= 1_000_000_000_000 => Some(ms),
            _ => found,
        };
    }
    found
}

/// The time of the `index`-th file given (rule above).
pub fn scrape_time(
    path: &Path,
    stamps: Option<i64>,
    index: usize,
    opts: &ParseOpts,
) -> Result<(i64, When)> {
    if let Some(t) = stamps {
        return Ok((t, When::Stamps));
    }
    if let (Some(a), Some(i)) = (opts.start_utc_ms, opts.interval_s) {
        return Ok((
            a + (index as f64 * i * 1000.0).round() as i64,
            When::StartInterval,
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if let Some(t) = epoch_in_name(&name) {
        return Ok((t, When::Name));
    }
    let file = path.display().to_string();
    let m = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_err(|e| bad(&file, None, None, format!("has no modification time: {e}")))?;
    let ms = m
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    Ok((ms, When::Mtime))
}

/// A series' samples moved to time `t` (a scrape file's series are at 0).
pub fn at(s: Series, t: i64) -> Series {
    let mut out = Series {
        other: s.other,
        ..Series::default()
    };
    for (k, m) in s.by_dev {
        out.by_dev
            .insert(k, m.into_values().map(|v| (t, v)).collect());
    }
    for (k, m) in s.win {
        out.win.insert(k, m.into_values().map(|v| (t, v)).collect());
    }
    for (k, mut c) in s.cap {
        c.at = std::mem::take(&mut c.at)
            .into_values()
            .map(|v| (t, v))
            .collect();
        out.cap.insert(k, c);
    }
    out
}

fn add(all: &mut Series, s: &Series) {
    for (k, m) in &s.by_dev {
        all.by_dev.entry(k.clone()).or_default().extend(m.clone());
    }
    for (k, m) in &s.win {
        all.win.entry(k.clone()).or_default().extend(m.clone());
    }
    for (k, c) in &s.cap {
        let e = all.cap.entry(k.clone()).or_insert_with(|| c.clone());
        e.at.extend(c.at.clone());
    }
    for o in &s.other {
        if !all.other.iter().any(|x| x.0 == o.0) {
            all.other.push(o.clone());
        }
    }
}

/// The sentence for a part with one scrape.
fn one_scrape(f: &Loaded) -> crate::error::ProbeError {
    bad(
        &f.path.display().to_string(),
        None,
        None,
        "is one scrape, and two scrapes at least are needed to get a rate (the counters' difference over the time between them): save one scrape per file at a steady pace, e.g. for i in $(seq 60); do curl -s http://HOST:9182/metrics > scrape-$(date +%s).prom; sleep 60; done (port 9100 for node_exporter), then import the folder: cacheproof-probe import node-exporter FOLDER --out X.capture",
    )
}

/// Join the scrapes of each part into one series, turned into intervals once; each file keeps
/// its own moment's sample. Refuses a part of one scrape, two files of one moment, and
/// modification times less than a second apart (files copied: not the scrape times).
pub fn merge(files: &mut [Loaded]) -> Result<()> {
    for part in [Part::All, Part::Baseline, Part::Measure] {
        let mut idx: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].part == part && files[i].scrape.is_some())
            .collect();
        if idx.is_empty() {
            continue;
        }
        let t_of = |f: &Loaded| f.scrape.as_ref().map(|s| (s.utc_ms, s.when));
        idx.sort_by_key(|&i| t_of(&files[i]).map(|x| x.0));
        if idx.len() < 2 {
            return Err(one_scrape(&files[idx[0]]));
        }
        for w in idx.windows(2) {
            let (Some((ta, wa)), Some((tb, wb))) = (t_of(&files[w[0]]), t_of(&files[w[1]])) else {
                continue;
            };
            let a = &files[w[0]].name;
            if ta == tb {
                return Err(bad(&files[w[1]].path.display().to_string(), None, None, format!(
                    "is a scrape of the same moment as {a} ({}, from {}): give each scrape once, in its own file",
                    time::iso(tb), wb.words()
                )));
            }
            if (wa == When::Mtime || wb == When::Mtime) && tb - ta < 1000 {
                return Err(bad(&files[w[1]].path.display().to_string(), None, None, format!(
                    "was modified {} ms after {a}: modification times that close are not scrape times (were the files copied?); name each file by its scrape time (scrape-$(date +%s).prom) or give --start TIME and --interval SECONDS",
                    tb - ta
                )));
            }
        }
        let mut all = Series::default();
        for &i in &idx {
            if let Some(s) = &files[i].scrape {
                add(&mut all, &s.series);
            }
        }
        let cp = prometheus::to_parsed(&all, files[idx[0]].parsed.format.clone());
        for (k, &i) in idx.iter().enumerate() {
            let t = files[i].scrape.as_ref().map(|s| s.utc_ms);
            let f = &mut files[i];
            f.parsed.devices = cp.devices.clone();
            f.parsed.stack = cp.stack.clone();
            f.parsed.samples = cp
                .samples
                .iter()
                .filter(|s| Some(s.utc_ms) == t)
                .cloned()
                .collect();
            f.parsed.capacity = cp
                .capacity
                .iter()
                .filter(|r| Some(r.utc_ms) == t)
                .cloned()
                .collect();
            f.span = Span::of(&f.parsed.samples);
            if k == 0 {
                f.parsed.notes.extend(cp.notes.iter().cloned());
            }
        }
    }
    Ok(())
}
