//! `volume_capacity` (schema v7, docs/capture-schema.md): a volume's size and free space at a
//! moment, from an import (PerfMon, windows_exporter, node_exporter) or the live probe
//! (statvfs). One row per volume per moment; a second row of the same volume and moment
//! replaces the first (the same moment read again from an overlapping file).

use rusqlite::params;

use super::Capture;
use crate::error::Result;

/// One row of `volume_capacity`; `None` is NULL (absent, never 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeRow<'a> {
    pub utc_ms: i64,
    pub volume: &'a str,
    pub device_id: Option<i64>,
    pub mount: Option<&'a str>,
    pub size_bytes: Option<i64>,
    pub free_bytes: Option<i64>,
    pub source: &'a str,
}

impl Capture {
    /// Store one volume's capacity at one moment.
    pub fn add_volume_capacity(&self, r: &VolumeRow) -> Result<()> {
        let mut st = self.conn.prepare_cached(
            "INSERT OR REPLACE INTO volume_capacity(volume,utc_ms,device_id,mount,size_bytes,free_bytes,source)
             VALUES(?1,?2,?3,?4,?5,?6,?7)",
        )?;
        st.execute(params![
            r.volume,
            r.utc_ms,
            r.device_id,
            r.mount,
            r.size_bytes,
            r.free_bytes,
            r.source
        ])?;
        Ok(())
    }
}
