//! `work_counters` (schema v8, docs/capture-schema.md): the work the server did per interval
//! (a process's I/O requests, SQL Server batches), from an import. A second row of the same
//! counter, instance and start replaces the first (the same interval read again from an
//! overlapping file).

use rusqlite::params;

use super::Capture;
use crate::error::Result;

/// One interval of one work counter (a row of `work_counters`).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkRow {
    /// `io_ops_per_s`, `io_reads_per_s`, `io_writes_per_s`, `batches_per_s`.
    pub name: String,
    /// The process (`_Total`, `sqlservr`) or SQL Server instance (`SQLServer`, `MSSQL$NAME`),
    /// `HOST\` prefixed when the log holds several hosts.
    pub instance: String,
    /// The counter path as the file spells it.
    pub source: String,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub rate_per_s: f64,
}

impl Capture {
    /// Store one interval of one work counter.
    pub fn add_work_counter(&self, r: &WorkRow) -> Result<()> {
        let mut st = self.conn.prepare_cached(
            "INSERT OR REPLACE INTO work_counters(name,instance,start_utc_ms,end_utc_ms,rate_per_s,source)
             VALUES(?1,?2,?3,?4,?5,?6)",
        )?;
        st.execute(params![
            r.name,
            r.instance,
            r.start_utc_ms,
            r.end_utc_ms,
            r.rate_per_s,
            r.source
        ])?;
        Ok(())
    }
}
