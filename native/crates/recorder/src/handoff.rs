//! The recording in its own small executable, `cacheproof-probe-recorder`, installed beside
//! `cacheproof-probe` (docs/probe.md § record).
//!
//! `cacheproof-probe record` parses its command line (clap: the one declaration of record's
//! options), checks it, creates (or, with `--resume`, checks) the capture, and then replaces
//! itself by the recorder: `execve`, so the pid, the standard descriptors and the environment
//! stay those of the command (a detached recorder execs in its background process). The
//! recorder maps no import, simulation, TLS, HTTP or command-line code: what a recording keeps
//! in memory for hours is the sampler, the capture writer and SQLite (bench/probe-overhead).
//!
//! Its command line is internal, written and read only here: `--recording CAPTURE` with
//! `--resume` and `--detached` when they apply. When the recorder is not beside the probe (a
//! probe copied alone) or cannot be started, the command records in its own process, as the
//! recorder would.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::error::{ProbeError, Result};

/// The recorder's file name, beside `cacheproof-probe`.
pub const RECORDER_EXE: &str = "cacheproof-probe-recorder";

const RECORDING: &str = "--recording";
const RESUME: &str = "--resume";
const DETACHED: &str = "--detached";

/// What the recorder is asked to do: the capture, a resumed recording, a detached recorder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handoff {
    pub capture: PathBuf,
    pub resume: bool,
    pub detached: bool,
}

impl Handoff {
    /// The recorder's arguments (after its name).
    pub fn args(&self) -> Vec<OsString> {
        let mut a = vec![OsString::from(RECORDING), self.capture.clone().into()];
        if self.resume {
            a.push(RESUME.into());
        }
        if self.detached {
            a.push(DETACHED.into());
        }
        a
    }

    /// The arguments [`Handoff::args`] wrote, or `None` for any other command line.
    pub fn parse(args: &[OsString]) -> Option<Handoff> {
        let [flag, capture, rest @ ..] = args else {
            return None;
        };
        if flag != RECORDING || rest.len() > 2 {
            return None;
        }
        let has = |f: &str| rest.iter().any(|a| a == OsStr::new(f));
        let known = rest.iter().all(|a| a == RESUME || a == DETACHED);
        let h = Handoff {
            capture: PathBuf::from(capture),
            resume: has(RESUME),
            detached: has(DETACHED),
        };
        (known && h.capture.is_absolute() && h.args().len() == args.len()).then_some(h)
    }
}

/// The recorder beside the running executable, when it is there.
pub fn recorder_exe() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let r = exe.parent()?.join(RECORDER_EXE);
    r.is_file().then_some(r)
}

/// Record `capture`: in the recorder (this process replaced by it, which returns only if it
/// cannot be started), else here. What follows is [`super::run`]'s: its errors, its exit codes.
pub fn record(capture: &Path, resume: bool, detached: bool) -> Result<()> {
    if let Some(exe) = recorder_exe() {
        use std::os::unix::process::CommandExt;
        let h = Handoff {
            capture: capture.to_path_buf(),
            resume,
            detached,
        };
        // Returns only when the exec failed; the recording then goes on here.
        let _ = std::process::Command::new(exe).args(h.args()).exec();
    }
    super::run(capture, resume, detached)
}

/// The recording's page cache, in KiB (`PRAGMA cache_size`; the capture's connection asks for
/// 512 KiB, which a recording of hours fills with pages it seldom reads again: a sample touches
/// the last pages of a few tables). Past it SQLite recycles its least recently used clean pages.
pub const RECORDER_CACHE_KIB: i64 = 256;

/// The recorder's `main`: runs the recording its internal command line names; the exit code
/// and the last line on stderr are those `cacheproof-probe record` gives for the same error.
pub fn recorder_main() -> u8 {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some(h) = Handoff::parse(&args) else {
        eprintln!("{RECORDER_EXE} is started by 'cacheproof-probe record' (docs/probe.md); run that instead");
        return 2;
    };
    // No memory statistics: SQLite then allocates without taking its memory mutex and counting
    // every block (bench/probe-overhead). Its memory is bounded by the page cache
    // (RECORDER_CACHE_KIB) instead of a heap limit, which needs the statistics.
    // SAFETY: a process-wide setting, made before SQLite is initialised (nothing here has used
    // it yet); when it is refused the statistics stay on, and nothing else changes.
    let off: std::ffi::c_int = 0;
    unsafe { rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, off) };
    match super::run(&h.capture, h.resume, h.detached) {
        Ok(()) => 0,
        Err(e) => {
            // A detached recorder that removed its capture on a full disk already wrote its
            // sentence to the log. Not eprintln!, which panics when stderr cannot be written
            // (a log on a full disk).
            if !(h.detached && matches!(e, ProbeError::NothingRecorded(_))) {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "cacheproof-probe: {e}");
            }
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn args_read_back() {
        for (resume, detached) in [(false, false), (true, false), (false, true), (true, true)] {
            let h = Handoff {
                capture: PathBuf::from("/tmp/a b.capture"),
                resume,
                detached,
            };
            assert_eq!(Handoff::parse(&h.args()), Some(h));
        }
    }

    #[test]
    fn other_command_lines_are_refused() {
        for v in [
            &[][..],
            &["--recording"],
            &["--recording", "rel.capture"],
            &["record", "/tmp/x.capture"],
            &["--recording", "/tmp/x.capture", "--all"],
            &["--recording", "/tmp/x.capture", "--resume", "--resume"],
            &[
                "--recording",
                "/tmp/x.capture",
                "--detached",
                "--resume",
                "x",
            ],
        ] {
            assert_eq!(Handoff::parse(&os(v)), None, "{v:?}");
        }
    }
}
