//! Typed errors of the probe library. Each maps to one documented exit code
//! (`docs/probe.md`, section "Exit codes").

use std::path::PathBuf;

/// Everything the probe can fail with, as a value.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// A command-line mistake.
    #[error("{0}")]
    Usage(String),
    /// A device named with `--devices` is not in /proc/diskstats.
    #[error("unknown device '{0}': it is not listed in /proc/diskstats (run 'cacheproof-probe devices' to see the names)")]
    UnknownDevice(String),
    /// The capture file cannot be created or written.
    #[error("cannot write the capture at {path}: {reason}")]
    Unwritable { path: PathBuf, reason: String },
    /// The file is a capture from a newer probe.
    #[error("{path} is a capture of schema version {found}, newer than this probe supports ({supported}); use a newer cacheproof-probe")]
    NewerSchema {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// The file exists but is not a CacheProof capture.
    #[error("{0} is not a CacheProof capture")]
    NotACapture(PathBuf),
    /// The capture file is damaged (cut short, overwritten, empty): SQLite cannot read it.
    /// `what` says what SQLite found, in words; `copy` where a copy of the recorded pages may be.
    #[error("{path} is damaged: {what}; {copy}")]
    Damaged {
        path: PathBuf,
        what: String,
        copy: String,
    },
    /// The capture file does not exist.
    #[error("no capture at {0}")]
    NoCapture(PathBuf),
    /// Another recorder holds the capture's lock.
    #[error("another recorder (pid {pid}) is already recording into {path}")]
    Locked { path: PathBuf, pid: String },
    /// `lab down`: a lab loop device or mount is still held by a process (exit 6, the class of
    /// "another process holds it"); the sentence names each device, its PIDs and what to do.
    #[error("{0}")]
    Held(String),
    /// Root is needed (loop devices, mounts).
    #[error("{0} needs root: run it with sudo or as root")]
    NeedsRoot(String),
    /// The file system holding the capture is full.
    #[error("the file system holding {path} is full: recording stopped after {samples} samples, which are safe in the capture; {free} is free there: free some space, then continue with 'cacheproof-probe record --resume {path}'", path = path.display())]
    DiskFull {
        path: PathBuf,
        samples: i64,
        free: String,
    },
    /// The file system was full before a first sample was stored: the capture and its sidecar
    /// files are removed (nothing to resume). The sentence says how much space the recording
    /// needs and how much is free (`recorder::nothing_recorded`).
    #[error("{0}")]
    NothingRecorded(String),
    /// The disk holding the capture reported an I/O error (EIO) while it was written: a
    /// recording stops and keeps the samples stored before it; an import or a recording that
    /// stored nothing leaves nothing. The sentence says what happened and what to do.
    #[error("{0}")]
    DiskIo(String),
    /// An external tool (fio, losetup, mkfs.ext4, mount) is missing or failed.
    #[error("{tool} failed: {message}")]
    Tool { tool: String, message: String },
    /// Block tracing (`record --trace`) cannot be set up: tracefs or the block events are
    /// missing, or the instance cannot be made.
    #[error("{0}")]
    TraceUnavailable(String),
    /// The recorder is not running for a capture (stop / mark on an idle capture).
    #[error("{0}")]
    NotRunning(String),
    /// A block trace (import-trace, simulate) that is missing or has no usable record.
    #[error("{0}")]
    BadTrace(String),
    /// /proc/diskstats text that does not follow any known layout.
    #[error("diskstats line {line}: {message}")]
    Parse { line: usize, message: String },
    /// A file given to `import` that cannot be imported (format, content or encoding): the
    /// sentence names the file and, when known, the line and column.
    #[error("{0}")]
    Import(String),
    /// A Prometheus server (`import --prometheus URL`) that cannot be reached or refuses the
    /// query: the sentence names the URL and the query.
    #[error("{0}")]
    Unreachable(String),
    /// `import prometheus`: some hosts could not be read and were left out; the capture(s) of
    /// the others were written (exit 14).
    #[error("{0}")]
    Partial(String),
    /// A SQLite error that is none of the above.
    #[error("capture database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// An I/O error that is none of the above.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl ProbeError {
    /// The process exit code documented for this error in docs/probe.md.
    pub fn exit_code(&self) -> u8 {
        match self {
            ProbeError::Usage(_) => 2,
            ProbeError::UnknownDevice(_) => 3,
            ProbeError::Unwritable { .. } | ProbeError::DiskIo(_) => 4,
            ProbeError::NewerSchema { .. } | ProbeError::NotACapture(_) => 5,
            ProbeError::NoCapture(_) | ProbeError::Damaged { .. } => 5,
            ProbeError::Locked { .. } | ProbeError::Held(_) => 6,
            ProbeError::NeedsRoot(_) => 7,
            ProbeError::DiskFull { .. } | ProbeError::NothingRecorded(_) => 8,
            ProbeError::Tool { .. } => 9,
            ProbeError::NotRunning(_) => 10,
            ProbeError::TraceUnavailable(_) => 11,
            ProbeError::Import(_) | ProbeError::BadTrace(_) => 12,
            ProbeError::Unreachable(_) => 13,
            ProbeError::Partial(_) => 14,
            ProbeError::Parse { .. } | ProbeError::Sqlite(_) | ProbeError::Io { .. } => 1,
        }
    }

    /// Wrap an I/O error with what we were doing.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        ProbeError::Io {
            context: context.into(),
            source,
        }
    }
}

/// Result alias of the library.
pub type Result<T> = std::result::Result<T, ProbeError>;
