//! The capture's journal: the phases of the measurement, the marks and the warnings.

use rusqlite::{params, OptionalExtension};

use super::Capture;
use crate::error::Result;

impl Capture {
    /// Record a warning.
    pub fn warn(&self, utc_ms: i64, code: &str, device: Option<&str>, message: &str) -> Result<()> {
        self.conn
            .prepare_cached("INSERT INTO warnings(utc_ms,code,device,message) VALUES(?1,?2,?3,?4)")?
            .execute(params![utc_ms, code, device, message])?;
        Ok(())
    }

    /// Open a phase.
    pub fn phase_start(&self, name: &str, utc_ms: i64, planned_s: Option<f64>) -> Result<()> {
        self.conn.execute(
            "INSERT INTO phases(name,start_utc_ms,end_utc_ms,planned_s) VALUES(?1,?2,NULL,?3)",
            params![name, utc_ms, planned_s],
        )?;
        Ok(())
    }

    /// A phase of no length (the switch): it starts and ends at `utc_ms`.
    pub fn phase_instant(&self, name: &str, utc_ms: i64) -> Result<()> {
        self.conn.execute(
            "INSERT INTO phases(name,start_utc_ms,end_utc_ms,planned_s) VALUES(?1,?2,?2,0)",
            params![name, utc_ms],
        )?;
        Ok(())
    }

    /// Rows in `warnings`.
    pub fn warning_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM warnings", [], |r| r.get(0))?)
    }

    /// The latest `n` warnings, newest first: (utc_ms, code, device, message).
    #[allow(clippy::type_complexity)]
    pub fn latest_warnings(&self, n: i64) -> Result<Vec<(i64, String, Option<String>, String)>> {
        let mut st = self
            .conn
            .prepare("SELECT utc_ms,code,device,message FROM warnings ORDER BY id DESC LIMIT ?1")?;
        let v = st
            .query_map([n], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(v)
    }

    /// Rows in `phases`.
    pub fn phase_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM phases", [], |r| r.get(0))?)
    }

    /// Close the open phase of that name.
    pub fn phase_end(&self, name: &str, utc_ms: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE phases SET end_utc_ms=?2 WHERE name=?1 AND end_utc_ms IS NULL",
            params![name, utc_ms],
        )?;
        Ok(())
    }

    /// Record a mark; returns its id.
    pub fn add_mark(
        &self,
        utc_ms: i64,
        mono_ns: u64,
        kind: &str,
        note: Option<&str>,
    ) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO marks(utc_ms,mono_ns,kind,note) VALUES(?1,?2,?3,?4)",
            params![utc_ms, mono_ns as i64, kind, note],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// First mark of `kind` with id greater than `after`: (id, utc_ms, mono_ns).
    pub fn mark_after(&self, kind: &str, after: i64) -> Result<Option<(i64, i64, i64)>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT id,utc_ms,mono_ns FROM marks WHERE kind=?1 AND id>?2 ORDER BY id LIMIT 1",
            )?
            .query_row(params![kind, after], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?)
    }
}
