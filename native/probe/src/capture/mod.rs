//! The capture file: SQLite in WAL mode, schema of docs/capture-schema.md, versioned with
//! `PRAGMA user_version` and changed only by the numbered migrations in `migrations/`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};

use crate::delta::{DevSample, Snapshot, Step};
use crate::error::{ProbeError, Result};
use crate::sysfs::DeviceInfo;

pub mod space;

/// Schema version this probe writes and reads.
pub const SCHEMA_VERSION: i64 = 2;
/// `PRAGMA application_id`: "CPRF".
pub const APPLICATION_ID: i64 = 0x4350_5246;

/// Numbered migrations, applied in order; entry N brings the file to user_version N.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_initial.sql")),
    (2, include_str!("migrations/0002_block_requests.sql")),
];

/// One row of `block_requests`.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockRow {
    pub device_id: i64,
    pub issue_ns: i64,
    pub complete_ns: Option<i64>,
    pub utc_ms: i64,
    pub sector: i64,
    pub bytes: i64,
    pub op: char,
    pub rwbs: String,
    pub error: Option<i32>,
}

/// An open capture.
pub struct Capture {
    conn: Connection,
    path: PathBuf,
    dev_ids: HashMap<String, i64>,
    dev_nums: HashMap<String, (u32, u32)>,
}

fn map_err(path: &Path, e: rusqlite::Error, samples: i64) -> ProbeError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => ProbeError::DiskFull {
            path: path.to_path_buf(),
            samples,
            free: space::free_text(path),
        },
        // A full tmpfs fails SQLite's shared memory or a write as an I/O error (ENOSPC).
        Some(ErrorCode::SystemIoFailure) if space::too_full_to_start(path) => {
            ProbeError::DiskFull {
                path: path.to_path_buf(),
                samples,
                free: space::free_text(path),
            }
        }
        Some(ErrorCode::CannotOpen)
        | Some(ErrorCode::ReadOnly)
        | Some(ErrorCode::PermissionDenied) => ProbeError::Unwritable {
            path: path.to_path_buf(),
            reason: e.to_string(),
        },
        Some(ErrorCode::NotADatabase) => damaged(
            path,
            "SQLite says it is not a database (it does not begin with an SQLite header: it was overwritten, or is no capture at all)",
        ),
        Some(ErrorCode::DatabaseCorrupt) => damaged(
            path,
            "SQLite says the database disk image is malformed (pages are missing or hold garbage: the file was cut short or overwritten)",
        ),
        _ => ProbeError::Sqlite(e),
    }
}

/// The error for a damaged capture: `what` SQLite found, and where a copy of the recorded
/// pages may be (the `-wal` file beside it, which holds the pages written since the last
/// checkpoint) or that there is none.
pub fn damaged(path: &Path, what: &str) -> ProbeError {
    let wal = wal_path(path);
    let copy = match std::fs::metadata(&wal) {
        // 32 bytes: a WAL header without frames.
        Ok(m) if m.len() > 32 => format!(
            "a copy of the pages recorded since the last checkpoint may be in {} ({} bytes): keep it beside the capture and copy both before any repair",
            wal.display(),
            m.len()
        ),
        _ => format!(
            "no copy of it exists: there is no {} with recorded pages beside it",
            wal.display()
        ),
    };
    ProbeError::Damaged {
        path: path.to_path_buf(),
        what: what.to_string(),
        copy,
    }
}

/// The page size in an SQLite file's header, when the file has one.
fn header_page_size(path: &Path) -> Option<u64> {
    use std::io::Read;
    let mut h = [0u8; 18];
    std::fs::File::open(path).ok()?.read_exact(&mut h).ok()?;
    if &h[..16] != b"SQLite format 3\0" {
        return None;
    }
    match u16::from_be_bytes([h[16], h[17]]) {
        1 => Some(65536),
        n if n >= 512 && n.is_power_of_two() => Some(u64::from(n)),
        _ => None,
    }
}

/// `<capture>-wal`: SQLite's write-ahead log beside the capture.
pub fn wal_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push("-wal");
    PathBuf::from(s)
}

/// Name the capture in an error that came out of SQLite without it (a damaged file found by
/// a query rather than at open): `status` and `record --resume` say which file is damaged.
pub fn with_path(path: &Path, e: ProbeError) -> ProbeError {
    match e {
        ProbeError::Sqlite(s) => map_err(path, s, 0),
        other => other,
    }
}

/// Read every page of a capture (`PRAGMA quick_check`) without writing to it, so that
/// `record --resume` refuses a damaged file before it writes (a writer's checkpoint would
/// fold the `-wal` copy into the damaged file and delete it).
pub fn check_intact(path: &Path) -> Result<()> {
    let c = Capture::open(path, false)?;
    let r: String = c
        .conn
        .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
        .map_err(|e| map_err(path, e, 0))?;
    if r != "ok" {
        let found = r
            .lines()
            .filter(|l| !l.starts_with("***"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(damaged(
            path,
            &format!("SQLite's check of its pages found '{found}' (the file was cut short or overwritten)"),
        ));
    }
    Ok(())
}

/// Whether an error is a full disk (SQLITE_FULL, which SQLite reports for ENOSPC).
pub fn is_disk_full(e: &ProbeError) -> bool {
    matches!(
        e,
        ProbeError::DiskFull { .. } | ProbeError::NothingRecorded(_)
    ) || matches!(e, ProbeError::Sqlite(s) if s.sqlite_error_code() == Some(ErrorCode::DiskFull))
}

/// Remove a capture that holds nothing recorded, with its sidecar files (SQLite's `-wal` and
/// `-shm`, the recorder's `.lock` and `.reserve`). Only for a capture this process created.
pub fn remove_unrecorded(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal", ".lock", ".reserve"] {
        let mut s = path.as_os_str().to_owned();
        s.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(s));
    }
}

impl Capture {
    /// Create a new capture; the file must not exist.
    pub fn create(path: &Path) -> Result<Capture> {
        if path.exists() {
            return Err(ProbeError::Usage(format!(
                "{} already exists: choose another --out, or continue it with 'record --resume {}'",
                path.display(),
                path.display()
            )));
        }
        // Probe writability with a plain create first, for a clear sentence.
        if let Err(e) = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            if e.raw_os_error() == Some(libc::ENOSPC) {
                return Err(ProbeError::DiskFull {
                    path: path.to_path_buf(),
                    samples: 0,
                    free: space::free_text(path),
                });
            }
            return Err(ProbeError::Unwritable {
                path: path.to_path_buf(),
                reason: e.to_string(),
            });
        }
        let conn = Connection::open(path).map_err(|e| map_err(path, e, 0))?;
        let mut c = Capture {
            conn,
            path: path.to_path_buf(),
            dev_ids: HashMap::new(),
            dev_nums: HashMap::new(),
        };
        c.configure()?;
        c.conn
            .pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(|e| map_err(path, e, 0))?;
        c.migrate()?;
        Ok(c)
    }

    /// Open an existing capture for reading (`write = false`) or writing. Refuses files of a
    /// newer schema and files that are not captures; migrates older ones when writing.
    pub fn open(path: &Path, write: bool) -> Result<Capture> {
        let len = match std::fs::metadata(path) {
            Ok(m) => m.len(),
            Err(_) => return Err(ProbeError::NoCapture(path.to_path_buf())),
        };
        // In WAL mode the file itself stays empty until the first checkpoint while its pages
        // are in the -wal beside it; empty with no -wal is a capture cut to nothing.
        let wal_len = std::fs::metadata(wal_path(path)).map_or(0, |m| m.len());
        if len == 0 && wal_len <= 32 {
            return Err(damaged(path, "it is empty (0 bytes)"));
        }
        if let Some(page) = header_page_size(path) {
            if !len.is_multiple_of(page) {
                return Err(damaged(
                    path,
                    &format!("its {len} bytes are not a whole number of its {page}-byte pages (it was cut short)"),
                ));
            }
        }
        let flags = if write {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        let conn = Connection::open_with_flags(path, flags).map_err(|e| map_err(path, e, 0))?;
        let mut c = Capture {
            conn,
            path: path.to_path_buf(),
            dev_ids: HashMap::new(),
            dev_nums: HashMap::new(),
        };
        let app: i64 = c
            .conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(|e| map_err(path, e, 0))?;
        if app != APPLICATION_ID {
            return Err(ProbeError::NotACapture(path.to_path_buf()));
        }
        let v = c.user_version()?;
        if v > SCHEMA_VERSION {
            return Err(ProbeError::NewerSchema {
                path: path.to_path_buf(),
                found: v,
                supported: SCHEMA_VERSION,
            });
        }
        c.conn.busy_timeout(std::time::Duration::from_secs(10))?;
        if write {
            c.configure()?;
            c.migrate()?;
            let mut st = c
                .conn
                .prepare("SELECT name, id, coalesce(major,0), coalesce(minor,0) FROM devices")?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, u32>(3)?,
                ))
            })?;
            let mut ids = HashMap::new();
            let mut nums = HashMap::new();
            for r in rows {
                let (n, id, ma, mi) = r?;
                ids.insert(n.clone(), id);
                nums.insert(n, (ma, mi));
            }
            drop(st);
            c.dev_ids = ids;
            c.dev_nums = nums;
        }
        Ok(c)
    }

    fn configure(&mut self) -> Result<()> {
        let p = self.path.clone();
        let c = &self.conn;
        c.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| map_err(&p, e, 0))?;
        c.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))
            .map_err(|e| map_err(&p, e, 0))?;
        // NORMAL in WAL mode: a committed transaction survives a process crash (kill -9);
        // only a power loss may drop the last commits, never corrupting the file.
        c.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| map_err(&p, e, 0))?;
        // Small page cache: the probe must stay well under 10 MiB RSS.
        c.pragma_update(None, "cache_size", -512)
            .map_err(|e| map_err(&p, e, 0))?;
        Ok(())
    }

    /// `PRAGMA user_version`.
    pub fn user_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<()> {
        let v = self.user_version()?;
        for (n, sql) in MIGRATIONS {
            if *n > v {
                let tx = self.conn.transaction()?;
                tx.execute_batch(sql)?;
                tx.pragma_update(None, "user_version", n)?;
                tx.commit().map_err(|e| map_err(&self.path, e, 0))?;
            }
        }
        Ok(())
    }

    /// The underlying connection (for readers and tests).
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Turn an error into a disk-full error when it is one.
    pub fn classify(&self, e: ProbeError) -> ProbeError {
        match e {
            ProbeError::Sqlite(s) => {
                let n = self.sample_count().unwrap_or(0);
                map_err(&self.path, s, n)
            }
            other => other,
        }
    }

    /// Set a `meta` key.
    pub fn set_meta(&self, k: &str, v: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO meta(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            params![k, v],
        )?;
        Ok(())
    }

    /// Read a `meta` key.
    pub fn meta(&self, k: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key=?1", [k], |r| r.get(0))
            .optional()?)
    }

    /// Set a `recorder` key.
    pub fn set_recorder(&self, k: &str, v: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO recorder(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            params![k, v],
        )?;
        Ok(())
    }

    /// Read a `recorder` key.
    pub fn recorder(&self, k: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM recorder WHERE key=?1", [k], |r| r.get(0))
            .optional()?)
    }

    /// Add or refresh a device's inventory row; returns its id.
    pub fn upsert_device(&mut self, d: &DeviceInfo, utc_ms: i64) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO devices(name,major,minor,size_bytes,rotational,model,vendor,logical_block_size,
               physical_block_size,is_partition,parent,backing_file,role,first_seen_utc_ms,last_seen_utc_ms)
             VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?14)
             ON CONFLICT(name) DO UPDATE SET major=excluded.major, minor=excluded.minor,
               size_bytes=excluded.size_bytes, rotational=excluded.rotational, model=excluded.model,
               vendor=excluded.vendor, logical_block_size=excluded.logical_block_size,
               physical_block_size=excluded.physical_block_size, is_partition=excluded.is_partition,
               parent=excluded.parent, backing_file=excluded.backing_file, role=excluded.role",
            params![
                d.name,
                d.major,
                d.minor,
                d.size_bytes,
                d.rotational.map(i64::from),
                d.model,
                d.vendor,
                d.logical_block_size,
                d.physical_block_size,
                i64::from(d.is_partition),
                d.parent,
                d.backing_file,
                d.role,
                utc_ms
            ],
        )?;
        let id: i64 =
            self.conn
                .query_row("SELECT id FROM devices WHERE name=?1", [&d.name], |r| {
                    r.get(0)
                })?;
        self.dev_ids.insert(d.name.clone(), id);
        self.dev_nums.insert(d.name.clone(), (d.major, d.minor));
        Ok(id)
    }

    /// Number of devices known to this capture (opened for writing).
    pub fn device_count(&self) -> usize {
        self.dev_ids.len()
    }

    /// Id of a known device.
    pub fn device_id(&self, name: &str) -> Option<i64> {
        self.dev_ids.get(name).copied()
    }

    /// Replace the topology edges.
    pub fn set_topology(&self, edges: &[(String, String, String)]) -> Result<()> {
        self.conn.execute("DELETE FROM topology", [])?;
        let mut st = self
            .conn
            .prepare_cached("INSERT INTO topology(holder,slave,kind) VALUES(?1,?2,?3)")?;
        for (h, s, k) in edges {
            st.execute(params![h, s, k])?;
        }
        Ok(())
    }

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

    /// (name, major, minor, id) of every device known to this capture (opened for writing).
    pub fn device_numbers(&self) -> Vec<(String, u32, u32, i64)> {
        let mut v: Vec<(String, u32, u32, i64)> = self
            .dev_ids
            .iter()
            .map(|(n, &id)| {
                let (ma, mi) = self.dev_nums.get(n).copied().unwrap_or((0, 0));
                (n.clone(), ma, mi, id)
            })
            .collect();
        v.sort_by_key(|x| x.3);
        v
    }

    /// Write block requests, warnings and recorder keys in one transaction.
    pub fn write_requests(
        &mut self,
        rows: &[BlockRow],
        warnings: &[(i64, &str, Option<&str>, String)],
        recorder_kv: &[(&str, String)],
    ) -> Result<()> {
        let r = self.write_requests_inner(rows, warnings, recorder_kv);
        r.map_err(|e| self.classify(e))
    }

    fn write_requests_inner(
        &mut self,
        rows: &[BlockRow],
        warnings: &[(i64, &str, Option<&str>, String)],
        recorder_kv: &[(&str, String)],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
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
            let mut rk = tx.prepare_cached(
                "INSERT INTO recorder(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            )?;
            for (k, v) in recorder_kv {
                rk.execute(params![k, v])?;
            }
        }
        tx.commit()?;
        Ok(())
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
        {
            let mut raw = tx.prepare_cached(
                "INSERT INTO raw_counters(sample_id,device_id,field_count,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,
                   f11,f12,f13,f14,f15,f16,f17)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20)",
            )?;
            for (name, d) in &snap.devices {
                let Some(id) = self.dev_ids.get(name) else {
                    continue;
                };
                if self.dev_nums.get(name) != Some(&(d.major, d.minor)) {
                    // Re-created with other numbers: the inventory follows the device.
                    tx.prepare_cached("UPDATE devices SET major=?2, minor=?3 WHERE id=?1")?
                        .execute(params![id, d.major, d.minor])?;
                    self.dev_nums.insert(name.clone(), (d.major, d.minor));
                }
                let f = |i: usize| d.fields.get(i).map(|&x| x as i64);
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
            let mut iv = tx.prepare_cached(
                "INSERT OR IGNORE INTO intervals(device_id,start_utc_ms,end_utc_ms,interval_ms,status,reads,writes,
                   read_merges,write_merges,read_bytes,write_bytes,read_time_ms,write_time_ms,busy_ms,
                   weighted_ms,in_flight,discards,discard_bytes,discard_time_ms,flushes,flush_time_ms)
                 VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)",
            )?;
            let o = |x: Option<u64>| x.map(|v| v as i64);
            for i in &step.intervals {
                let Some(id) = self.dev_ids.get(&i.device) else {
                    continue;
                };
                let d = i.deltas;
                let n = iv.execute(params![
                    id,
                    i.start_utc_ms,
                    i.end_utc_ms,
                    i.interval_ms,
                    i.status.as_str(),
                    d.map(|d| d.reads as i64),
                    d.map(|d| d.writes as i64),
                    d.and_then(|d| o(d.read_merges)),
                    d.and_then(|d| o(d.write_merges)),
                    d.map(|d| d.read_bytes as i64),
                    d.map(|d| d.write_bytes as i64),
                    d.and_then(|d| o(d.read_time_ms)),
                    d.and_then(|d| o(d.write_time_ms)),
                    d.and_then(|d| o(d.busy_ms)),
                    d.and_then(|d| o(d.weighted_ms)),
                    d.and_then(|d| o(d.in_flight)),
                    d.and_then(|d| o(d.discards)),
                    d.and_then(|d| o(d.discard_bytes)),
                    d.and_then(|d| o(d.discard_time_ms)),
                    d.and_then(|d| o(d.flushes)),
                    d.and_then(|d| o(d.flush_time_ms)),
                ])?;
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
            let mut w = tx.prepare_cached(
                "INSERT INTO warnings(utc_ms,code,device,message) VALUES(?1,?2,?3,?4)",
            )?;
            for e in &step.events {
                w.execute(params![snap.utc_ms, e.code, e.device, e.message])?;
            }
            tx.prepare_cached("UPDATE devices SET last_seen_utc_ms=?1 WHERE id IN (SELECT device_id FROM raw_counters WHERE sample_id=?2)")?
                .execute(params![snap.utc_ms, sid])?;
            let mut rk = tx.prepare_cached(
                "INSERT INTO recorder(key,value) VALUES(?1,?2) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            )?;
            for (k, v) in recorder_kv {
                rk.execute(params![k, v])?;
            }
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
            for i in 0..(n as usize).min(17) {
                let v: Option<i64> = r.get(4 + i)?;
                fields.push(v.unwrap_or(0) as u64);
            }
            Ok((
                r.get::<_, String>(0)?,
                DevSample {
                    major: r.get::<_, Option<u32>>(1)?.unwrap_or(0),
                    minor: r.get::<_, Option<u32>>(2)?.unwrap_or(0),
                    fields,
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
