//! `cacheproof-probe-recorder`: the recording that `cacheproof-probe record` hands over to
//! (`cacheproof_probe::recorder::handoff`), with none of the probe's other commands mapped.

use std::process::ExitCode;

fn main() -> ExitCode {
    // As cacheproof-probe does: a closed stdout or stderr ends the process quietly.
    // SAFETY: setting a signal's disposition to the default, before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    ExitCode::from(cacheproof_probe::recorder::handoff::recorder_main())
}
