//! The stop signals (SIGTERM, SIGINT, SIGHUP) of a recording: the sampler thread waits for them,
//! every other thread (the tracer's readers among them) blocks them.

/// The stop signals, for `pthread_sigmask`.
fn stop_signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise and fill the set we own.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// Block the stop signals in the calling thread (threads other than the sampler).
pub fn block_stop_signals() {
    let set = stop_signal_set();
    // SAFETY: changes this thread's signal mask only.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
}

/// Unblock the stop signals in the calling thread (the sampler, which waits for them).
pub fn unblock_stop_signals() {
    let set = stop_signal_set();
    // SAFETY: changes this thread's signal mask only.
    unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
}
