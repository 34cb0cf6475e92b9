//! Rows of a cache engine adapter: its actions (`engine_actions`) and the engine's own
//! counters (`engine_stats`), schema version 4.

use rusqlite::params;

use super::Capture;
use crate::adapters::{Stat, StepRecord};
use crate::error::Result;

impl Capture {
    /// Store the steps of one adapter action with the engine's mode before and after it.
    pub fn write_engine_action(
        &self,
        adapter: &str,
        device: &str,
        action: &str,
        steps: &[StepRecord],
        mode_before: Option<&str>,
        mode_after: Option<&str>,
    ) -> Result<()> {
        let mut st = self.conn.prepare_cached(
            "INSERT INTO engine_actions(start_utc_ms,end_utc_ms,adapter,device,action,step,output,exit_status,ok,mode_before,mode_after)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
        )?;
        for s in steps {
            st.execute(params![
                s.start_utc_ms,
                s.end_utc_ms,
                adapter,
                device,
                action,
                s.step,
                s.output,
                s.exit_status,
                s.ok as i64,
                mode_before,
                mode_after
            ])?;
        }
        Ok(())
    }

    /// Store one read of the engine's counters.
    pub fn write_engine_stats(
        &self,
        utc_ms: i64,
        adapter: &str,
        device: &str,
        stats: &[Stat],
    ) -> Result<()> {
        let mut st = self.conn.prepare_cached(
            "INSERT INTO engine_stats(utc_ms,adapter,device,name,value,unit,window) VALUES(?1,?2,?3,?4,?5,?6,?7)",
        )?;
        for s in stats {
            st.execute(params![
                utc_ms, adapter, device, s.name, s.value, s.unit, s.window
            ])?;
        }
        Ok(())
    }
}
