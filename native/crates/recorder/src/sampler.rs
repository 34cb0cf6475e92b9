//! The sampling thread and the stop signals: /proc/diskstats read on an absolute monotonic
//! schedule and handed to the writer through a queue, with the block tracer's batches.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;

use crate::clock;
use crate::diskstats;
use crate::error::{ProbeError, Result};
use crate::trace::TraceBatch;

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// SIGTERM, SIGINT and SIGHUP ask the recorder to take a last sample and stop.
pub(super) fn install_signal_handlers() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        // SAFETY: the handler only stores into an atomic (async-signal-safe); no SA_RESTART so a
        // sleeping clock_nanosleep returns at once.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_stop_signal as *const () as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// One read of /proc/diskstats with the clocks at that moment; `last` when a stop was asked
/// before it (the recorder writes it, then ends).
pub(super) struct Sample {
    pub(super) lines: Result<Vec<diskstats::DiskLine>>,
    pub(super) mono: u64,
    pub(super) utc: i64,
    pub(super) last: bool,
}

/// What the writer (the main thread) receives: samples from the sampler, batches of block
/// requests from the tracer. Boxed: the queue's slots are allocated and written when it is made
/// (SAMPLE_QUEUE + TRACE_QUEUE of them), so a slot is two words, not a batch's size (460 KiB of
/// the recorder's resident memory at 128 B a slot).
pub(super) enum Msg {
    Sample(Box<Sample>),
    Trace(Box<TraceBatch>),
}

/// Samples the sampler may take ahead of the writer (an hour at 1 s) before it waits.
pub(super) const SAMPLE_QUEUE: usize = 3600;
/// Trace batches that may wait for the writer; the queue holds this many more slots than
/// SAMPLE_QUEUE, so trace batches never take a sample's place.
pub(super) const TRACE_QUEUE: usize = 64;

pub(crate) use crate::signals::{block_stop_signals, unblock_stop_signals};

/// Start the sampling thread: it reads /proc/diskstats on the absolute monotonic schedule
/// t0 + k × interval and hands each read to the writer (this thread) through a queue. Sampling
/// never waits for the capture's disk: a commit or a WAL checkpoint that stalls for seconds on a
/// busy file system delays the writing, not the samples, so it cannot turn into a `gap` (nor
/// stretch the intervals around it). The stop signals are delivered to the sampler only (this
/// thread blocks them), so a signal interrupts its sleep at once.
pub(super) fn spawn_sampler(nominal_ns: u64, tx: SyncSender<Msg>) -> Result<()> {
    let sampler = move || {
        // /proc/diskstats stays open: a sample is one pass of pread (diskstats::Reader).
        let mut diskstats = diskstats::Reader::new(Path::new("/"));
        let t0 = clock::mono_ns();
        let mut k: u64 = 0;
        loop {
            let last = STOP.load(Ordering::SeqCst);
            let lines = diskstats.read();
            let mono = clock::mono_ns();
            let utc = clock::utc_ms();
            let failed = lines.is_err();
            if tx
                .send(Msg::Sample(Box::new(Sample {
                    lines,
                    mono,
                    utc,
                    last,
                })))
                .is_err()
                || failed
                || last
            {
                return;
            }
            if STOP.load(Ordering::SeqCst) {
                // A stop arrived during this sample: take one more at once, then end.
                continue;
            }
            // Next tick on the absolute monotonic schedule (no drift); ticks missed (suspend,
            // overload) are skipped, not caught up in a burst.
            k += 1;
            let now = clock::mono_ns();
            if t0 + k * nominal_ns <= now {
                k = (now - t0) / nominal_ns + 1;
            }
            while !STOP.load(Ordering::SeqCst) && clock::mono_ns() < t0 + k * nominal_ns {
                clock::sleep_until_mono(t0 + k * nominal_ns);
            }
        }
    };
    match std::thread::Builder::new()
        .name("sampler".into())
        .spawn(sampler)
    {
        Ok(_) => {
            // The sampler keeps the mask it was created with (the signals unblocked).
            block_stop_signals();
            Ok(())
        }
        // No thread (out of resources).
        Err(_) => Err(sampler_ended()),
    }
}

pub(super) fn sampler_ended() -> ProbeError {
    ProbeError::io(
        "sampling /proc/diskstats",
        std::io::Error::other("the sampling thread ended"),
    )
}

/// Forget a stop asked before this recording started.
pub(super) fn reset_stop() {
    STOP.store(false, Ordering::SeqCst);
}
