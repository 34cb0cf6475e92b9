//! `cacheproof-probe`: records Linux disk counters (and, with `--trace`, block requests) into a
//! CacheProof capture.
//!
//! Commands, flags and exit codes are documented in `docs/probe.md`; the command line is
//! declared in `cacheproof_probe::commands`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed stdout or stderr (`cacheproof-probe devices --json | head -1`) ends the process
    // quietly, as for other Unix tools (killed by SIGPIPE: 141 in the shell), instead of
    // Rust's default of ignoring SIGPIPE and panicking on the failed print.
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    cacheproof_probe::commands::main()
}
