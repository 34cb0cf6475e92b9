//! The rows a recording writes in bulk: samples with their raw counters and intervals, block
//! requests, and the last sample read back to continue after a crash.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension};

use super::imported::{insert_interval, IntervalCounters, IntervalRow, INSERT_INTERVAL};
use super::{BlockRow, Capture, HistRow};
use crate::delta::{Deltas, DevSample, Snapshot, Step};
use crate::error::Result;

impl Capture {
    /// Write block requests, latency histograms, warnings and recorder keys in one
    /// transaction. A histogram of an interval already written (a completion that came late) is
    /// added to the stored one.
    pub fn write_requests(
        &mut self,
        rows: &[BlockRow],
        hists: &[HistRow],
        warnings: &[(i64, &str, Option<&str>, String)],
        recorder_kv: &[(&str, String)],
    ) -> Result<()> {
        let r = self.write_requests_inner(rows, hists, warnings, recorder_kv);
        r.map_err(|e| self.classify(e))
    }

    fn write_requests_inner(
        &mut self,
        rows: &[BlockRow],
        hists: &[HistRow],
        warnings: &[(i64, &str, Option<&str>, String)],
        recorder_kv: &[(&str, String)],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut ins = tx.prepare_cached(
                "INSERT OR IGNORE INTO latency_histograms(device_id,start_utc_ms,end_utc_ms,op,requests,completed,sum_ns,buckets)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
            )?;
            let mut old = tx.prepare_cached(
                "SELECT requests,completed,sum_ns,buckets FROM latency_histograms WHERE device_id=?1 AND start_utc_ms=?2 AND op=?3",
            )?;
            let mut upd = tx.prepare_cached(
                "UPDATE latency_histograms SET requests=?4,completed=?5,sum_ns=?6,buckets=?7 WHERE device_id=?1 AND start_utc_ms=?2 AND op=?3",
            )?;
            let mut op = [0u8; 4];
            for h in hists {
                let op = &*h.op.encode_utf8(&mut op);
                let sum = i64::try_from(h.hist.sum_ns).unwrap_or(i64::MAX);
                let n = ins.execute(params![
                    h.device_id,
                    h.start_utc_ms,
                    h.end_utc_ms,
                    op,
                    h.requests as i64,
                    h.hist.n as i64,
                    sum,
                    h.hist.encode_buckets()
                ])?;
                if n == 1 {
                    continue;
                }
                let (requests, completed, sum_ns, buckets): (i64, i64, i64, Vec<u8>) = old
                    .query_row(params![h.device_id, h.start_utc_ms, op], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                    })?;
                let mut m = crate::hist::Hist::decode(
                    &buckets,
                    completed.max(0) as u64,
                    sum_ns.max(0) as u128,
                )
                .unwrap_or_default();
                m.merge(&h.hist);
                upd.execute(params![
                    h.device_id,
                    h.start_utc_ms,
                    op,
                    requests + h.requests as i64,
                    m.n as i64,
                    i64::try_from(m.sum_ns).unwrap_or(i64::MAX),
                    m.encode_buckets()
                ])?;
            }
        }
        {
            let mut ins = tx.prepare_cached(
                "INSERT INTO block_requests(device_id,issue_ns,complete_ns,utc_ms,sector,bytes,op,rwbs,error)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
            )?;
            let mut op = [0u8; 4];
            for r in rows {
                ins.execute(params![
                    r.device_id,
                    r.issue_ns,
                    r.complete_ns,
                    r.utc_ms,
                    r.sector,
                    r.bytes,
                    &*r.op.encode_utf8(&mut op),
                    r.rwbs,
                    r.error
                ])?;
            }
            let mut w = tx.prepare_cached(
                "INSERT INTO warnings(utc_ms,code,device,message) VALUES(?1,?2,?3,?4)",
            )?;
            for (utc, code, dev, msg) in warnings {
                w.execute(params![utc, code, dev, msg])?;
            }
            put_recorder_kv(&tx, recorder_kv)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Record a change of the trace's sampling threshold: its `trace_sample_rates` row and
    /// the meta keys of the rate in force, in one transaction.
    pub fn record_rate_change(
        &mut self,
        c: &crate::shards::RateChange,
        mono_ns: u64,
    ) -> Result<()> {
        let r = (|| -> Result<()> {
            let tx = self.conn.transaction()?;
            tx.execute(
                "INSERT INTO trace_sample_rates(utc_ms,mono_ns,threshold_before,threshold_after,traced_s,seen,stored,reason)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8)",
                params![
                    c.utc_ms,
                    mono_ns as i64,
                    c.threshold_before as i64,
                    c.threshold_after as i64,
                    c.traced_s,
                    c.seen as i64,
                    c.stored as i64,
                    c.reason
                ],
            )?;
            for (k, v) in [
                ("trace_sample_threshold", c.threshold_after.to_string()),
                ("trace_sample_rate", c.rate_after.to_string()),
            ] {
                tx.execute(
                    "INSERT INTO meta(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                    params![k, v],
                )?;
            }
            tx.commit()?;
            Ok(())
        })();
        r.map_err(|e| self.classify(e))
    }

    /// Every change of the trace's sampling rate, oldest first (none before v6).
    pub fn rate_changes(&self) -> Result<Vec<crate::shards::RateChange>> {
        let has: i64 = self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='trace_sample_rates'",
            [],
            |r| r.get(0),
        )?;
        if has == 0 {
            return Ok(Vec::new());
        }
        let mut q = self.conn.prepare(
            "SELECT utc_ms,threshold_before,threshold_after,traced_s,seen,stored,reason FROM trace_sample_rates ORDER BY id",
        )?;
        let v = q
            .query_map([], |r| {
                let tb: i64 = r.get(1)?;
                let ta: i64 = r.get(2)?;
                Ok(crate::shards::RateChange {
                    utc_ms: r.get(0)?,
                    rate_before: crate::shards::rate_of(tb.max(0) as u64),
                    rate_after: crate::shards::rate_of(ta.max(0) as u64),
                    threshold_before: tb.max(0) as u64,
                    threshold_after: ta.max(0) as u64,
                    traced_s: r.get(3)?,
                    seen: r.get::<_, i64>(4)?.max(0) as u64,
                    stored: r.get::<_, i64>(5)?.max(0) as u64,
                    reason: r.get(6)?,
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(v)
    }

    /// Largest rowid of `block_requests` (0 when empty).
    pub fn last_request_rowid(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT coalesce(max(rowid),0) FROM block_requests",
            [],
            |r| r.get(0),
        )?)
    }

    /// Delete the requests written after rowid `after_rowid` and issued after `end_ns`;
    /// returns how many.
    pub fn trim_requests_after(&self, after_rowid: i64, end_ns: i64) -> Result<usize> {
        let mut n = 0;
        for (_, _, _, id) in self.device_numbers() {
            n += self.conn.execute(
                "DELETE FROM block_requests WHERE device_id=?1 AND issue_ns>?2 AND rowid>?3",
                params![id, end_ns, after_rowid],
            )?;
        }
        Ok(n)
    }

    /// For a capture with no sample stored: (devices, interval in ms, plan), to say how much
    /// space its recording needs. `None` once a sample is stored.
    pub fn unrecorded_plan(&self) -> Result<Option<(u64, u64, Option<crate::plan::PlanMeta>)>> {
        if self.sample_count()? > 0 {
            return Ok(None);
        }
        let devices: i64 = self
            .conn
            .query_row("SELECT count(*) FROM devices", [], |r| r.get(0))?;
        let interval_ms = self
            .meta("interval_ms")?
            .and_then(|s| s.parse().ok())
            .unwrap_or(1000);
        let plan = self
            .meta("plan")?
            .and_then(|s| serde_json::from_str(&s).ok());
        Ok(Some((devices.max(1) as u64, interval_ms, plan)))
    }

    /// Number of samples written.
    pub fn sample_count(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM samples", [], |r| r.get(0))?)
    }

    /// Write one sample, its raw counters, the intervals and warnings of `step`, and the given
    /// recorder keys, in one transaction (a crash loses at most this sample).
    pub fn write_sample(
        &mut self,
        snap: &Snapshot,
        step: &Step,
        recorder_kv: &[(&str, String)],
    ) -> Result<i64> {
        let r = self.write_sample_inner(snap, step, recorder_kv);
        r.map_err(|e| self.classify(e))
    }

    fn write_sample_inner(
        &mut self,
        snap: &Snapshot,
        step: &Step,
        recorder_kv: &[(&str, String)],
    ) -> Result<i64> {
        let tx = self.conn.transaction()?;
        tx.prepare_cached("INSERT INTO samples(mono_ns,utc_ms,boot_id) VALUES(?1,?2,?3)")?
            .execute(params![snap.mono_ns as i64, snap.utc_ms, snap.boot_id])?;
        let sid = tx.last_insert_rowid();
        put_raw_counters(&tx, sid, snap, &self.dev_ids, &mut self.dev_nums)?;
        put_intervals(&tx, snap, step, &self.dev_ids)?;
        {
            let mut w = tx.prepare_cached(
                "INSERT INTO warnings(utc_ms,code,device,message) VALUES(?1,?2,?3,?4)",
            )?;
            for e in &step.events {
                w.execute(params![snap.utc_ms, e.code, e.device, e.message])?;
            }
            put_recorder_kv(&tx, recorder_kv)?;
        }
        tx.commit()?;
        Ok(sid)
    }

    /// The last sample with its raw counters, to continue after a crash.
    pub fn last_snapshot(&self) -> Result<Option<Snapshot>> {
        let row: Option<(i64, i64, i64, String)> = self
            .conn
            .query_row(
                "SELECT id,mono_ns,utc_ms,boot_id FROM samples ORDER BY id DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let Some((sid, mono, utc, boot)) = row else {
            return Ok(None);
        };
        let mut st = self.conn.prepare(
            "SELECT d.name,d.major,d.minor,r.field_count,r.f1,r.f2,r.f3,r.f4,r.f5,r.f6,r.f7,r.f8,r.f9,r.f10,
               r.f11,r.f12,r.f13,r.f14,r.f15,r.f16,r.f17
             FROM raw_counters r JOIN devices d ON d.id=r.device_id WHERE r.sample_id=?1",
        )?;
        let rows = st.query_map([sid], |r| {
            let n: i64 = r.get(3)?;
            let mut fields = Vec::with_capacity(n as usize);
            let mut absent = 0u32;
            for i in 0..(n as usize).min(17) {
                let v: Option<i64> = r.get(4 + i)?;
                if v.is_none() {
                    absent |= 1 << i;
                }
                fields.push(v.unwrap_or(0) as u64);
            }
            Ok((
                r.get::<_, String>(0)?,
                DevSample {
                    major: r.get::<_, Option<u32>>(1)?.unwrap_or(0),
                    minor: r.get::<_, Option<u32>>(2)?.unwrap_or(0),
                    fields,
                    absent,
                },
            ))
        })?;
        let mut devices = std::collections::BTreeMap::new();
        for r in rows {
            let (n, d) = r?;
            devices.insert(n, d);
        }
        Ok(Some(Snapshot {
            mono_ns: mono as u64,
            utc_ms: utc,
            boot_id: boot,
            devices,
        }))
    }
}

/// Sample `sid`'s raw counters of every known device, each device seen at the sample's time
/// (`devices.last_seen_utc_ms`); a device re-created with other numbers has its inventory follow
/// it. When the sample has every known device (`dev_ids` holds every row of `devices`) one update
/// sets them all; otherwise the devices are updated one by one by id: the same rows as an update
/// `WHERE id IN` the sample's raw counters, without the temporary index SQLite builds for that
/// list every sample.
fn put_raw_counters(
    tx: &rusqlite::Transaction<'_>,
    sid: i64,
    snap: &Snapshot,
    dev_ids: &HashMap<String, i64>,
    dev_nums: &mut HashMap<String, (u32, u32)>,
) -> Result<()> {
    let mut raw = tx.prepare_cached(
        "INSERT INTO raw_counters(sample_id,device_id,field_count,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,
           f11,f12,f13,f14,f15,f16,f17)
         VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20)",
    )?;
    // Every known device in the sample (the usual case): one statement sets them all.
    let every = snap
        .devices
        .keys()
        .filter(|n| dev_ids.contains_key(*n))
        .count()
        == dev_ids.len();
    if every {
        tx.prepare_cached("UPDATE devices SET last_seen_utc_ms=?1")?
            .execute([snap.utc_ms])?;
    }
    let mut seen = tx.prepare_cached("UPDATE devices SET last_seen_utc_ms=?1 WHERE id=?2")?;
    for (name, d) in &snap.devices {
        let Some(id) = dev_ids.get(name) else {
            continue;
        };
        if !every {
            seen.execute(params![snap.utc_ms, id])?;
        }
        if dev_nums.get(name) != Some(&(d.major, d.minor)) {
            // Re-created with other numbers: the inventory follows the device.
            tx.prepare_cached("UPDATE devices SET major=?2, minor=?3 WHERE id=?1")?
                .execute(params![id, d.major, d.minor])?;
            dev_nums.insert(name.clone(), (d.major, d.minor));
        }
        // a field the source did not report is NULL, not 0 (DevSample::absent)
        let f = |i: usize| {
            (d.absent & (1 << i) == 0)
                .then(|| d.fields.get(i).map(|&x| x as i64))
                .flatten()
        };
        raw.execute(params![
            sid,
            id,
            d.fields.len() as i64,
            f(0),
            f(1),
            f(2),
            f(3),
            f(4),
            f(5),
            f(6),
            f(7),
            f(8),
            f(9),
            f(10),
            f(11),
            f(12),
            f(13),
            f(14),
            f(15),
            f(16)
        ])?;
    }
    Ok(())
}

/// The intervals of `step` of every known device; one whose start is already stored (after a
/// backwards wall-clock jump) is not, and a warning says so.
fn put_intervals(
    tx: &rusqlite::Transaction<'_>,
    snap: &Snapshot,
    step: &Step,
    dev_ids: &HashMap<String, i64>,
) -> Result<()> {
    let mut iv = tx.prepare_cached(INSERT_INTERVAL)?;
    for i in &step.intervals {
        let Some(&id) = dev_ids.get(&i.device) else {
            continue;
        };
        let n = insert_interval(
            &mut iv,
            &IntervalRow {
                device_id: id,
                start_utc_ms: i.start_utc_ms,
                end_utc_ms: i.end_utc_ms,
                interval_ms: i.interval_ms,
                status: i.status.as_str(),
                counters: i.deltas.map(counters_of).unwrap_or_default(),
            },
        )?;
        if n == 0 {
            // Same (device, start_utc_ms) twice: only after a backwards wall-clock jump.
            tx.prepare_cached(
                "INSERT INTO warnings(utc_ms,code,device,message) VALUES(?1,?2,?3,?4)",
            )?
            .execute(params![
                snap.utc_ms,
                "clock-jump",
                i.device,
                "an interval with the same start time already exists (wall clock went back); this interval was not stored"
            ])?;
        }
    }
    Ok(())
}

/// An `ok` interval's numbers as the `intervals` columns hold them.
/// The recorder's state (`recorder` key/value rows) written in the transaction of the rows it describes.
fn put_recorder_kv(tx: &rusqlite::Transaction<'_>, recorder_kv: &[(&str, String)]) -> Result<()> {
    let mut rk = tx.prepare_cached(
        "INSERT INTO recorder(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
    )?;
    for (k, v) in recorder_kv {
        rk.execute(params![k, v])?;
    }
    Ok(())
}

fn counters_of(d: Deltas) -> IntervalCounters {
    let o = |x: Option<u64>| x.map(|v| v as i64);
    [
        Some(d.reads as i64),
        Some(d.writes as i64),
        o(d.read_merges),
        o(d.write_merges),
        Some(d.read_bytes as i64),
        Some(d.write_bytes as i64),
        o(d.read_time_ms),
        o(d.write_time_ms),
        o(d.busy_ms),
        o(d.weighted_ms),
        o(d.in_flight),
        o(d.discards),
        o(d.discard_bytes),
        o(d.discard_time_ms),
        o(d.flushes),
        o(d.flush_time_ms),
    ]
}
