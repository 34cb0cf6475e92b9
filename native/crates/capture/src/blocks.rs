//! The interval table as per-device columnar blocks (schema v5, docs/capture-schema.md,
//! "`interval_blocks`"): written when a recording or an import ends, and by
//! `cacheproof-probe index`, so that the app opens a closed capture by copying columns instead
//! of reading every interval row through SQLite. The rows stay the source of truth: the blocks
//! are rebuilt from them, `meta.interval_blocks` names the rows they hold, and a recording that
//! resumes deletes them first ([`Capture::drop_interval_blocks`]).
//!
//! One scan of `intervals` in rowid order fills a buffer per device and writes it as a block
//! when full, so memory is bounded by [`BUFFERED_ROWS`] whatever the number of rows.

use rusqlite::params;
use serde::Serialize;

use super::Capture;
use crate::error::Result;

mod encode;

use encode::status_code;
pub use encode::{status_code_of, Block, BlockBuilder};

/// Version of the block encoding, in `meta.interval_blocks.format` and at the head of every block.
pub const BLOCK_FORMAT: u32 = 1;
/// Rows per block at most (fewer when many devices share [`BUFFERED_ROWS`]).
pub const MAX_BLOCK_ROWS: usize = 8192;
/// Rows buffered across all devices during the scan (about 96 bytes each).
pub const BUFFERED_ROWS: usize = 262_144;
/// Rows per block at least, however many devices there are.
pub const MIN_BLOCK_ROWS: usize = 256;

/// Number of encoded columns, in block order (docs/capture-schema.md).
pub const NCOL: usize = 12;

/// What [`Capture::write_interval_blocks`] wrote.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexSummary {
    pub format: u32,
    /// Interval rows held by the blocks (all of them).
    pub rows: i64,
    /// The interval table's highest rowid when the blocks were written.
    pub max_rowid: i64,
    pub blocks: i64,
    /// Bytes of the encoded columns.
    pub bytes: i64,
}

impl Capture {
    /// Deletes the interval blocks (a recording that resumes will add rows they do not hold).
    pub fn drop_interval_blocks(&self) -> Result<()> {
        self.conn.execute_batch(
            "BEGIN; DELETE FROM interval_blocks; DELETE FROM meta WHERE key='interval_blocks'; COMMIT;",
        )?;
        Ok(())
    }

    /// (Re)writes the interval blocks from every interval row, in one transaction, and
    /// `meta.interval_blocks` (`{"format","rows","maxRowid","blocks","bytes"}`).
    pub fn write_interval_blocks(&mut self) -> Result<IndexSummary> {
        let r = self.write_blocks_inner();
        r.map_err(|e| self.classify(e))
    }

    fn write_blocks_inner(&mut self) -> Result<IndexSummary> {
        let devices: i64 = self
            .conn
            .query_row("SELECT count(*) FROM devices", [], |r| r.get(0))?;
        let mut b = BlockBuilder::new(devices.max(0) as usize);
        let tx = self.conn.transaction()?;
        let max_rowid = clear_blocks(&tx)?;
        let mut ins = BlockInserter::new(&tx)?;
        {
            let mut st = tx.prepare(
                "SELECT device_id, start_utc_ms, end_utc_ms, interval_ms, status, reads, writes, read_bytes,
                   write_bytes, read_time_ms, write_time_ms, busy_ms, weighted_ms FROM intervals ORDER BY rowid",
            )?;
            let mut rows = st.query([])?;
            while let Some(r) = rows.next()? {
                let num = |i: usize| -> rusqlite::Result<f64> {
                    Ok(r.get::<_, Option<f64>>(i)?.unwrap_or(f64::NAN))
                };
                let mut row = [0.0; NCOL];
                row[0] = num(1)?;
                row[1] = num(2)?;
                row[2] = num(3)?;
                row[3] = status_code(r.get_ref(4)?.as_str().unwrap_or("gap"));
                for (k, v) in row.iter_mut().enumerate().skip(4) {
                    *v = num(k + 1)?;
                }
                if let Some(full) = b.push(r.get(0)?, row) {
                    ins.insert(full)?;
                }
            }
        }
        for blk in b.finish() {
            ins.insert(blk)?;
        }
        let sum = ins.finish(max_rowid)?;
        tx.commit()?;
        Ok(sum)
    }

    /// Writes blocks built beside the rows (an import builds them from the rows it inserts,
    /// in rowid order, instead of reading the rows back) and `meta.interval_blocks`, in one
    /// transaction. The caller checks that the builder saw every row.
    pub fn write_built_blocks(&mut self, blocks: Vec<Block>) -> Result<IndexSummary> {
        let r = (|| -> Result<IndexSummary> {
            let tx = self.conn.transaction()?;
            let max_rowid = clear_blocks(&tx)?;
            let mut ins = BlockInserter::new(&tx)?;
            for blk in blocks {
                ins.insert(blk)?;
            }
            let sum = ins.finish(max_rowid)?;
            tx.commit()?;
            Ok(sum)
        })();
        r.map_err(|e| self.classify(e))
    }
}

/// Deletes the blocks and their meta in `tx`; the interval table's highest rowid, which the new
/// blocks will hold.
fn clear_blocks(tx: &rusqlite::Transaction<'_>) -> Result<i64> {
    tx.execute("DELETE FROM interval_blocks", [])?;
    tx.execute("DELETE FROM meta WHERE key='interval_blocks'", [])?;
    Ok(
        tx.query_row("SELECT coalesce(max(rowid),0) FROM intervals", [], |r| {
            r.get(0)
        })?,
    )
}

/// Inserts blocks and, at the end, `meta.interval_blocks`.
struct BlockInserter<'t> {
    st: rusqlite::Statement<'t>,
    tx: &'t rusqlite::Transaction<'t>,
    sum: IndexSummary,
}

impl<'t> BlockInserter<'t> {
    fn new(tx: &'t rusqlite::Transaction<'t>) -> Result<BlockInserter<'t>> {
        Ok(BlockInserter {
            st: tx.prepare(
                "INSERT INTO interval_blocks(device_id,seq,rows,min_start_utc_ms,max_end_utc_ms,sorted,
                   first_start_utc_ms,last_start_utc_ms,data) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
            )?,
            tx,
            sum: IndexSummary {
                format: BLOCK_FORMAT,
                rows: 0,
                max_rowid: 0,
                blocks: 0,
                bytes: 0,
            },
        })
    }

    fn insert(&mut self, b: Block) -> Result<()> {
        self.st.execute(params![
            b.dev,
            b.seq,
            b.rows as i64,
            b.min_start as i64,
            b.max_end as i64,
            i64::from(b.sorted),
            b.first_start as i64,
            b.last_start as i64,
            b.data
        ])?;
        self.sum.rows += b.rows as i64;
        self.sum.blocks += 1;
        self.sum.bytes += b.data.len() as i64;
        Ok(())
    }

    fn finish(self, max_rowid: i64) -> Result<IndexSummary> {
        let mut sum = self.sum;
        sum.max_rowid = max_rowid;
        let meta = serde_json::json!({
            "format": sum.format,
            "rows": sum.rows,
            "maxRowid": sum.max_rowid,
            "blocks": sum.blocks,
            "bytes": sum.bytes,
        });
        self.tx.execute(
            "INSERT INTO meta(key,value) VALUES('interval_blocks',?1) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            [meta.to_string()],
        )?;
        Ok(sum)
    }
}
