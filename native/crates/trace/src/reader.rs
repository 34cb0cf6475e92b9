//! The tracer thread: reads the instance's `trace_pipe`, pairs the events and hands batches to
//! the writer through a [`Sink`].

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::pair::{Feeder, TraceBatch};
use super::tracefs::Instance;
use super::{FINISH_GRACE_NS, UNPAIRED_TIMEOUT_NS};
use crate::clock;
use crate::error::{ProbeError, Result};

/// Requests the tracer keeps while the writer is busy; beyond that it stops reading, the
/// kernel's buffer fills and the overflow is counted as lost events.
const MAX_LOCAL: usize = 65_536;
/// Batches are handed to the writer at most this often.
const SEND_EVERY_NS: u64 = 200_000_000;
/// Bytes read from `trace_pipe` before the loop does its housekeeping.
const READ_ROUND: usize = 4 << 20;

/// What handing a batch to the writer gave.
pub enum Sent {
    Yes,
    /// The writer's queue is full: keep it and try again later.
    Busy(TraceBatch),
    /// The writer is gone.
    Gone,
}

/// How the tracer hands batches over.
pub type Sink = Box<dyn FnMut(TraceBatch) -> Sent + Send>;

/// The reading thread and its instance.
pub struct Tracer {
    end: Arc<AtomicU64>,
    handle: Option<std::thread::JoinHandle<()>>,
    instance: Option<Instance>,
}

impl Tracer {
    /// Start reading the instance's `trace_pipe` on a thread named `tracer`.
    pub fn start(instance: Instance, sink: Sink) -> Result<Tracer> {
        let end = Arc::new(AtomicU64::new(0));
        let pipe = instance.dir().join("trace_pipe");
        let e2 = end.clone();
        let handle = std::thread::Builder::new()
            .name("tracer".into())
            .spawn(move || {
                crate::signals::block_stop_signals();
                read_loop(&pipe, &e2, sink);
            })
            .map_err(|e| ProbeError::io("starting the tracer thread", e))?;
        Ok(Tracer {
            end,
            handle: Some(handle),
            instance: Some(instance),
        })
    }

    /// Ask the tracer to end: it keeps requests issued up to `end_mono_ns` (waiting up to
    /// FINISH_GRACE_NS for those still in flight), sends its last batch and ends.
    pub fn finish(&self, end_mono_ns: u64) {
        let _ =
            self.end
                .compare_exchange(0, end_mono_ns.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// End the thread (waiting up to 3 s), disable the events and remove the instance. The
    /// error says why the instance could not be removed.
    pub fn close(&mut self) -> std::result::Result<(), String> {
        self.finish(clock::mono_ns());
        if let Some(h) = self.handle.take() {
            let t0 = clock::mono_ns();
            while !h.is_finished() && clock::mono_ns() - t0 < 3_000_000_000 {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
        match self.instance.as_mut() {
            Some(i) => i.remove().map_err(|e| {
                format!(
                    "could not remove the tracefs instance {}: {e}; the next 'record' removes it",
                    i.dir().display()
                )
            }),
            None => Ok(()),
        }
    }
}

impl Drop for Tracer {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

fn poll_in(fd: i32, timeout_ms: i32) {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll on one descriptor we own, with a timeout.
    unsafe { libc::poll(&mut p, 1, timeout_ms) };
}

/// Send `batch`, retrying while the writer's queue is full, for up to 5 s.
fn send_last(sink: &mut Sink, mut batch: TraceBatch) {
    let t0 = clock::mono_ns();
    loop {
        match sink(batch) {
            Sent::Yes | Sent::Gone => return,
            Sent::Busy(b) => batch = b,
        }
        if clock::mono_ns() - t0 > 5_000_000_000 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The trace pipe being read, and the batch of paired requests it fills.
struct PipeRead {
    file: std::fs::File,
    buf: Vec<u8>,
    feeder: Feeder,
    batch: TraceBatch,
}

impl PipeRead {
    /// Open `pipe` without blocking; the error is the last batch's.
    fn open(pipe: &Path) -> std::result::Result<PipeRead, String> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(pipe)
            .map_err(|e| format!("cannot open {}: {e}", pipe.display()))?;
        Ok(PipeRead {
            file,
            buf: vec![0u8; 64 * 1024],
            feeder: Feeder::default(),
            batch: TraceBatch::default(),
        })
    }

    /// Read up to READ_ROUND bytes into the batch: whether the pipe is drained.
    fn round(&mut self) -> std::io::Result<bool> {
        let mut got = 0;
        while got < READ_ROUND {
            match self.file.read(&mut self.buf) {
                Ok(0) => return Ok(true),
                Ok(n) => {
                    got += n;
                    self.feeder.feed(&self.buf[..n], &mut self.batch);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(true),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }
}

fn read_loop(pipe: &Path, end: &AtomicU64, mut sink: Sink) {
    use std::os::unix::io::AsRawFd;
    let mut rd = match PipeRead::open(pipe) {
        Ok(r) => r,
        Err(error) => {
            let b = TraceBatch {
                last: true,
                error: Some(error),
                ..TraceBatch::default()
            };
            send_last(&mut sink, b);
            return;
        }
    };
    let fd = rd.file.as_raw_fd();
    let mut last_send = clock::mono_ns();
    let mut last_expire = last_send;
    let mut finish_since: Option<u64> = None;
    loop {
        let end_ns = end.load(Ordering::SeqCst);
        let now = clock::mono_ns();
        let mut drained = false;
        if rd.batch.requests.len() < MAX_LOCAL {
            // trace_pipe's poll may wait for its buffer_percent: read after the timeout anyway.
            poll_in(fd, if end_ns != 0 { 20 } else { 100 });
            match rd.round() {
                Ok(d) => drained = d,
                Err(e) => {
                    rd.batch.requests.extend(rd.feeder.pairer.drain());
                    rd.batch.last = true;
                    rd.batch.error = Some(format!("reading {}: {e}", pipe.display()));
                    send_last(&mut sink, rd.batch);
                    return;
                }
            }
        } else {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        if now - last_expire >= 1_000_000_000 {
            rd.batch.requests.extend(
                rd.feeder
                    .pairer
                    .expire(now.saturating_sub(UNPAIRED_TIMEOUT_NS)),
            );
            last_expire = now;
        }
        if end_ns != 0 {
            let since = *finish_since.get_or_insert(now);
            let settled = drained && now >= end_ns && !rd.feeder.pairer.pending_until(end_ns);
            if settled || now - since >= FINISH_GRACE_NS {
                rd.batch.requests.extend(rd.feeder.pairer.drain());
                rd.batch.requests.retain(|r| r.issue_ns <= end_ns);
                rd.batch.last = true;
                send_last(&mut sink, rd.batch);
                return;
            }
        }
        if rd.batch.has_news() && now - last_send >= SEND_EVERY_NS {
            if end_ns != 0 {
                rd.batch.requests.retain(|r| r.issue_ns <= end_ns);
            }
            match sink(std::mem::take(&mut rd.batch)) {
                Sent::Yes => last_send = now,
                Sent::Busy(b) => rd.batch = b,
                Sent::Gone => return,
            }
        }
    }
}
