//! The one statement that stores an interval (a recording's and an import's), and what an
//! import writes that a recording does not: the samples of a rate series (no raw counters)
//! with their intervals, phases known whole, the `import_files` rows, and the writing without a
//! journal of a capture nobody reads before it is whole.

use rusqlite::{params, CachedStatement};

use super::Capture;
use crate::error::{ProbeError, Result};

/// Stores one interval; a second of the same device and start is ignored.
pub(super) const INSERT_INTERVAL: &str =
    "INSERT OR IGNORE INTO intervals(device_id,start_utc_ms,end_utc_ms,interval_ms,status,reads,writes,
       read_merges,write_merges,read_bytes,write_bytes,read_time_ms,write_time_ms,busy_ms,
       weighted_ms,in_flight,discards,discard_bytes,discard_time_ms,flushes,flush_time_ms)
     VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)";

/// An interval's counters in the order of the `intervals` columns `reads`, `writes`,
/// `read_merges`, `write_merges`, `read_bytes`, `write_bytes`, `read_time_ms`,
/// `write_time_ms`, `busy_ms`, `weighted_ms`, `in_flight`, `discards`, `discard_bytes`,
/// `discard_time_ms`, `flushes`, `flush_time_ms` (`None`: NULL).
pub type IntervalCounters = [Option<i64>; 16];

/// One row of `intervals` (docs/capture-schema.md).
#[derive(Debug, Clone, Copy)]
pub struct IntervalRow<'a> {
    pub device_id: i64,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub interval_ms: f64,
    pub status: &'a str,
    pub counters: IntervalCounters,
}

/// Insert `r` with [`INSERT_INTERVAL`] prepared as `st`; 0 when an interval of that device and
/// start is stored already.
pub(super) fn insert_interval(st: &mut CachedStatement<'_>, r: &IntervalRow) -> Result<usize> {
    let c = &r.counters;
    Ok(st.execute(params![
        r.device_id,
        r.start_utc_ms,
        r.end_utc_ms,
        r.interval_ms,
        r.status,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        c[8],
        c[9],
        c[10],
        c[11],
        c[12],
        c[13],
        c[14],
        c[15]
    ])?)
}

/// One row of `import_files` (docs/capture-schema.md): a file an import read.
#[derive(Debug, Clone)]
pub struct ImportFileRow<'a> {
    pub name: &'a str,
    pub path: String,
    pub size_bytes: i64,
    pub sha256: &'a str,
    pub kind: &'a str,
    pub format: &'a str,
    pub encoding: &'a str,
    pub encoding_how: &'a str,
    pub time_zone: Option<&'a str>,
    pub utc_offset_min: Option<i64>,
    pub time_zone_source: &'a str,
    pub part: &'a str,
    /// JSON array of the host names found in the file.
    pub hosts: String,
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
    pub samples: i64,
    /// JSON: {mapped, unmapped, notes, devices}.
    pub mapping: String,
}

impl Capture {
    /// Write the samples of an imported rate series (at the UTC times `utc_ms`, their clock
    /// counted from `t0_utc_ms`; they carry no raw counters) and the intervals `rows` gives,
    /// in one transaction. Returns (samples written, intervals stored).
    pub fn write_rate_series(
        &mut self,
        t0_utc_ms: i64,
        utc_ms: impl IntoIterator<Item = i64>,
        rows: impl FnOnce(&mut dyn FnMut(IntervalRow) -> Result<()>) -> Result<()>,
    ) -> Result<(usize, u64)> {
        let (mut samples, mut stored) = (0usize, 0u64);
        let tx = self.conn.transaction()?;
        {
            let mut ins_s = tx.prepare_cached(
                "INSERT INTO samples(mono_ns,utc_ms,boot_id) VALUES(?1,?2,'import')",
            )?;
            for t in utc_ms {
                ins_s.execute(params![(t - t0_utc_ms) * 1_000_000, t])?;
                samples += 1;
            }
            let mut iv = tx.prepare_cached(INSERT_INTERVAL)?;
            rows(&mut |r| {
                stored += insert_interval(&mut iv, &r)? as u64;
                Ok(())
            })?;
        }
        tx.commit()?;
        Ok((samples, stored))
    }

    /// For a new capture nobody reads until it is renamed into place, whole: written without a
    /// journal, without a sync at each commit, and with a large page cache, until
    /// [`Capture::end_unjournaled`]. The importer syncs the whole file once before it renames it
    /// (import `write::commit`); a crash before that leaves a temporary file, never a capture.
    /// (A snapshot import writes each sample in its own transaction, as the recorder does: with
    /// the recorder's sync per commit, 100 hosts of 720 samples took 75,000 fsyncs.)
    pub fn begin_unjournaled(&self) -> Result<()> {
        self.journal_mode("OFF")?;
        self.conn.pragma_update(None, "synchronous", "OFF")?;
        self.conn.pragma_update(None, "cache_size", -65536)?;
        Ok(())
    }

    /// Back in WAL mode, and to the sync of every capture, as every capture is.
    pub fn end_unjournaled(&self) -> Result<()> {
        self.journal_mode("WAL")?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// SQLite answers a journal mode it could not set with the mode it kept, not an error: on
    /// this new file that is a write or fsync of its first page that failed (EIO), said as such.
    fn journal_mode(&self, mode: &str) -> Result<()> {
        let now = self
            .conn
            .query_row(&format!("PRAGMA journal_mode={mode}"), [], |r| {
                r.get::<_, String>(0)
            })?;
        if !now.eq_ignore_ascii_case(mode) {
            return Err(ProbeError::DiskIo(super::disk_io_sentence(&self.path)));
        }
        Ok(())
    }

    /// A phase whose start and end are both known (an import's); planned as long as it is.
    pub fn add_phase(&self, name: &str, start_utc_ms: i64, end_utc_ms: i64) -> Result<()> {
        self.conn.execute(
            "INSERT INTO phases(name,start_utc_ms,end_utc_ms,planned_s) VALUES(?1,?2,?3,?4)",
            params![
                name,
                start_utc_ms,
                end_utc_ms,
                (end_utc_ms - start_utc_ms) as f64 / 1000.0
            ],
        )?;
        Ok(())
    }

    /// Record a file an import read.
    pub fn add_import_file(&self, f: &ImportFileRow) -> Result<()> {
        self.conn.execute(
            "INSERT INTO import_files(name,path,size_bytes,sha256,kind,format,encoding,encoding_how,time_zone,
               utc_offset_min,time_zone_source,part,hosts,first_utc_ms,last_utc_ms,samples,mapping)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)",
            params![
                f.name,
                f.path,
                f.size_bytes,
                f.sha256,
                f.kind,
                f.format,
                f.encoding,
                f.encoding_how,
                f.time_zone,
                f.utc_offset_min,
                f.time_zone_source,
                f.part,
                f.hosts,
                f.first_utc_ms,
                f.last_utc_ms,
                f.samples,
                f.mapping,
            ],
        )?;
        Ok(())
    }
}
