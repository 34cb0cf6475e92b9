//! Writing an import's capture (to a temporary file renamed at the end: a failed import leaves
//! nothing). Loading the files is in `load`, stitching them in `stitch`, the preview in
//! `preview`; what `import` and `import --preview` call is also named here (`write::plan`,
//! `write::preview`, `write::render`, `write::Options`, `write::Part`). The capture's tables
//! besides its samples and intervals (meta, devices, phases, files) are written by `tables`.

mod tables;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use super::load::{Options, Part};
pub use super::preview::{preview, render};
pub use super::stitch::plan;

use super::load::display;
use super::preview::Preview;
use super::stitch::{each_rate_row, Plan};
use super::{bad, Counts};
use crate::capture::blocks::{status_code_of, Block, BlockBuilder};
use crate::capture::imported::{IntervalCounters, IntervalRow};
use crate::capture::Capture;
use crate::delta::{self, Snapshot};
use crate::error::{ProbeError, Result};

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
            commit(&[(tmp, out.clone())], "--out").map_err(|e| write_fault(&out, e))?;
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
            Err(write_fault(&out, e))
        }
    }
}

/// An import that met a full disk (ENOSPC) or a disk's I/O error (EIO) while writing `out`:
/// nothing was written (the temporary file is gone), said in one sentence that names `out`,
/// not the temporary file (exit 8 full, 4 I/O error). Other errors pass through.
pub(super) fn write_fault(out: &Path, e: ProbeError) -> ProbeError {
    let os = match &e {
        ProbeError::Io { source, .. } => source.raw_os_error(),
        _ => None,
    };
    if crate::capture::is_disk_full(&e) || os == Some(libc::ENOSPC) {
        return ProbeError::NothingRecorded(format!(
            "the file system holding {} is full: nothing was imported, and no capture was written; {} is free there: free some space or choose another --out",
            out.display(),
            crate::capture::space::free_text(out)
        ));
    }
    if crate::capture::is_write_fault(&e) || os == Some(libc::EIO) {
        return ProbeError::DiskIo(format!(
            "the disk holding {} reported an I/O error: nothing was imported, and no capture was written; check the disk (dmesg, smartctl -a) or choose another --out",
            out.display()
        ));
    }
    e
}

trait FilterFault {
    fn filter_fault(self) -> std::io::Result<()>;
}

impl FilterFault for std::io::Result<()> {
    /// Only a full disk or an I/O error: what a folder's fsync may refuse otherwise is ignored.
    fn filter_fault(self) -> std::io::Result<()> {
        match self {
            Err(e) if matches!(e.raw_os_error(), Some(libc::EIO) | Some(libc::ENOSPC)) => Err(e),
            _ => Ok(()),
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
    // SQLite ignores a failed fsync of its last page (the journal mode's change): the files are
    // synced here, and the folder after the renames, so that an I/O error is said, not kept.
    for (tmp, _) in moves {
        if let Err(e) = std::fs::File::open(tmp).and_then(|f| f.sync_all()) {
            undo(&[]);
            return Err(ProbeError::io("fsync", e));
        }
    }
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
            return Err(match e.raw_os_error() {
                Some(libc::ENOSPC) | Some(libc::EIO) => ProbeError::io("rename", e),
                _ => ProbeError::Unwritable {
                    path: out.clone(),
                    reason: e.to_string(),
                },
            });
        }
    }
    let dirs: std::collections::BTreeSet<&Path> =
        moves.iter().filter_map(|(_, o)| o.parent()).collect();
    for d in dirs {
        let d = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        // (a file system that cannot sync a folder, EINVAL, is no fault of the disk)
        let r = std::fs::File::open(d).and_then(|f| f.sync_all());
        if let Err(e) = r.filter_fault() {
            undo(moves);
            return Err(ProbeError::io("fsync", e));
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
    // a new file nobody reads until it is renamed into place, whole
    cap.begin_unjournaled()?;
    tables::set_meta(&mut cap, opts, p, pv)?;
    let t0 = p
        .series
        .first()
        .and_then(|s| s.1.first())
        .map(|s| s.utc_ms)
        .unwrap_or(0);
    let ids = tables::add_devices(&mut cap, p, t0)?;
    tables::set_topology(&mut cap, p)?;
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
    tables::add_phases(&mut cap, p, t0)?;
    tables::add_import_files(&mut cap, opts, p)?;
    tables::add_capacity_and_work(&mut cap, p)?;
    // The columnar blocks of the interval table (docs/capture-schema.md, `interval_blocks`): the
    // app then opens the imported capture without reading every row.
    super::phase("write rows (beside: the blocks built)", t_rows);
    let t = std::time::Instant::now();
    match built {
        Some(Ok((blocks, n))) if n == rate_rows => cap.write_built_blocks(blocks)?,
        _ => cap.write_interval_blocks()?,
    };
    cap.end_unjournaled()?;
    drop(cap);
    super::phase("interval blocks", t);
    Ok((samples, intervals))
}

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
        let rated = s.iter().filter(|g| g.snap.is_none()).map(|g| g.utc_ms);
        let (n, stored) = cap.write_rate_series(t0, rated, |put| {
            each_rate_row(s, p.nominal_ms, |(d, a, b, dt, st, cn)| {
                put(IntervalRow {
                    device_id: ids[d],
                    start_utc_ms: a,
                    end_utc_ms: b,
                    interval_ms: dt,
                    status: st,
                    counters: columns(cn.unwrap_or_default()),
                })
            })
        })?;
        samples += n;
        intervals += stored as i64;
        rate_rows += stored;
    }
    Ok((samples, intervals, rate_rows))
}

/// Counts in the order of the `intervals` columns.
fn columns(k: Counts) -> IntervalCounters {
    [
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
        k.flush_time_ms,
    ]
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
