//! The capture file: SQLite in WAL mode, schema of docs/capture-schema.md, versioned with
//! `PRAGMA user_version` and changed only by the numbered migrations in `migrations/`.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_adapters as adapters;
use cacheproof_core::{delta, error, hist, plan, shards, sysfs};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};

use crate::error::{ProbeError, Result};
use crate::sysfs::DeviceInfo;

pub mod blocks;
pub mod capacity;
mod damage;
mod engine;
pub mod imported;
mod journal;
mod rows;
pub mod space;
pub mod work;

pub use blocks::{IndexSummary, BLOCK_FORMAT};
pub use damage::{check_intact, damaged, remove_unrecorded, wal_path, with_path};

/// Schema version this probe writes and reads.
pub const SCHEMA_VERSION: i64 = 8;
/// `PRAGMA application_id`: "CPRF".
pub const APPLICATION_ID: i64 = 0x4350_5246;

/// Numbered migrations, applied in order; entry N brings the file to user_version N.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_initial.sql")),
    (2, include_str!("migrations/0002_block_requests.sql")),
    (3, include_str!("migrations/0003_import_files.sql")),
    (4, include_str!("migrations/0004_engine.sql")),
    (5, include_str!("migrations/0005_interval_blocks.sql")),
    (6, include_str!("migrations/0006_trace_sampling.sql")),
    (7, include_str!("migrations/0007_volume_capacity.sql")),
    (8, include_str!("migrations/0008_work_counters.sql")),
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

/// One row of `latency_histograms` (v6): the completion latency of one device's reads or
/// writes issued in one sample interval.
#[derive(Debug, Clone, PartialEq)]
pub struct HistRow {
    pub device_id: i64,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    /// 'R' or 'W'.
    pub op: char,
    /// Requests issued in the interval, completed or not.
    pub requests: u64,
    pub hist: crate::hist::Hist,
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
        // EIO from a write or an fsync (SQLITE_IOERR_WRITE, _FSYNC, …): the disk failed.
        Some(ErrorCode::SystemIoFailure) => ProbeError::DiskIo(disk_io_sentence(path)),
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

/// The sentence of an I/O error (EIO) met while a recording wrote its capture.
pub fn disk_io_sentence(path: &Path) -> String {
    format!(
        "the disk holding {p} reported an I/O error while the capture was written: recording stopped, and the samples stored before it are kept in the capture; check the disk (dmesg, smartctl -a), then continue with 'cacheproof-probe record --resume {p}', or record to another disk",
        p = path.display()
    )
}

/// Whether an error is a fault of the disk under the capture: full (ENOSPC) or an I/O error
/// (EIO), as opposed to a mistake or a bug.
pub fn is_write_fault(e: &ProbeError) -> bool {
    is_disk_full(e)
        || matches!(e, ProbeError::DiskIo(_))
        || matches!(e, ProbeError::Sqlite(s) if s.sqlite_error_code() == Some(ErrorCode::SystemIoFailure))
}

/// Whether an error is a full disk (SQLITE_FULL, which SQLite reports for ENOSPC).
pub fn is_disk_full(e: &ProbeError) -> bool {
    matches!(
        e,
        ProbeError::DiskFull { .. } | ProbeError::NothingRecorded(_)
    ) || matches!(e, ProbeError::Sqlite(s) if s.sqlite_error_code() == Some(ErrorCode::DiskFull))
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
        if let Some(page) = damage::header_page_size(path) {
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

    /// The connection's page cache, in KiB (`PRAGMA cache_size`; 512 unless set).
    pub fn set_cache_kib(&self, kib: i64) -> Result<()> {
        self.conn
            .pragma_update(None, "cache_size", -kib)
            .map_err(|e| map_err(&self.path, e, 0))
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

    /// UTC of the last sample.
    pub fn last_sample_utc_ms(&self) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row("SELECT max(utc_ms) FROM samples", [], |r| r.get(0))?)
    }

    /// Names of the devices, in the order they were added.
    pub fn device_names(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT name FROM devices ORDER BY id")?;
        let v = st
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(v)
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
}
