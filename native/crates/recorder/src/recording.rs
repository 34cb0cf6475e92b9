//! A recording under way, between its start and its end: the block trace it starts, the
//! samples and trace batches it stores, and the recorder's state it leaves.

use std::sync::mpsc::{Receiver, SyncSender};

use super::sampler::{self, Msg, Sample};
use super::tracesink::{self, TraceSink};
use super::{engine, index_intervals, record_failure, Phase, Position, Settings, Start};
use crate::capture::Capture;
use crate::clock;
use crate::error::Result;

/// Block tracing, when the capture asks for it. When it cannot start (a resumed capture on a
/// kernel whose tracefs is gone, an instance that cannot be made), the counters go on without
/// the trace: said in a warning.
pub(super) fn start_trace(
    cap: &Capture,
    set: &Settings,
    tx: &SyncSender<Msg>,
    start_utc: i64,
) -> Result<Option<TraceSink>> {
    if !set.tracing {
        return Ok(None);
    }
    match TraceSink::start(cap, set.selected.is_some(), tx.clone()) {
        Ok(t) => {
            for (dev, msg) in tracesink::untraceable(set.selected.as_deref().unwrap_or(&[])) {
                cap.warn(start_utc, "trace-no-requests", Some(&dev), &msg)?;
            }
            Ok(Some(t))
        }
        Err(e) => {
            cap.warn(
                start_utc,
                "trace-error",
                None,
                &format!(
                    "block tracing could not start: {e}; the counters go on without the trace"
                ),
            )?;
            Ok(None)
        }
    }
}

/// A recording under way: its capture and settings, where its plan stands, its block trace,
/// and the monotonic time of its last stored sample.
pub(super) struct Recording {
    pub(super) cap: Capture,
    pub(super) set: Settings,
    pub(super) pos: Position,
    pub(super) tsink: Option<TraceSink>,
    pub(super) last_mono: u64,
}

impl Recording {
    /// Store the sampler's samples and the trace's batches until the plan is `done` or the
    /// recorder is `stopped`.
    pub(super) fn store_samples(&mut self, rx: &Receiver<Msg>, boot: &str) -> Result<&'static str> {
        loop {
            let Sample {
                lines,
                mono,
                utc,
                last: stopping,
            } = match rx.recv() {
                Ok(Msg::Sample(s)) => *s,
                Ok(Msg::Trace(b)) => {
                    if let Some(t) = self.tsink.as_mut() {
                        t.on_batch(&mut self.cap, *b)?;
                    }
                    continue;
                }
                Err(_) => return Err(sampler::sampler_ended()),
            };
            let phase = self
                .pos
                .write(&mut self.cap, &self.set, lines?, mono, utc, boot)?;
            self.last_mono = mono;
            if let Some(t) = self.tsink.as_mut() {
                t.on_sample(&mut self.cap, mono, utc)?;
            }
            if phase == Phase::Done {
                return Ok("done");
            }
            if stopping {
                return Ok("stopped");
            }
        }
    }

    /// Block tracing ends with the last sample: its last requests are written (or, after an
    /// error, given up), the events disabled and the instance removed.
    pub(super) fn end_trace(&mut self, result: &mut Result<&'static str>, rx: &Receiver<Msg>) {
        if let Some(t) = self.tsink.as_mut() {
            if result.is_ok() {
                if let Err(e) = t.finish(&mut self.cap, rx, self.last_mono) {
                    *result = Err(e);
                }
            } else {
                let _ = t.tracer.close();
            }
        }
        self.tsink = None;
    }

    /// The recorder's state as the recording ends (`done`, `stopped` or `failed`).
    pub(super) fn conclude(
        mut self,
        result: Result<&'static str>,
        unrecorded: &mut Start,
    ) -> Result<()> {
        let cap = &mut self.cap;
        match result {
            Ok(end) => {
                index_intervals(cap);
                let now = clock::utc_ms();
                if end == "done" {
                    cap.set_recorder("phase", Phase::Done.as_str())?;
                    if let Some(e) = &self.set.engine {
                        engine::restore(cap, e)?;
                    }
                }
                cap.set_recorder("state", end)?;
                cap.set_recorder("heartbeat_utc_ms", &now.to_string())?;
                Ok(())
            }
            Err(e) => {
                if self.pos.prev.is_some() {
                    // a sample is stored (`prev` is set once its transaction commits): the
                    // capture stays, to be resumed
                    *unrecorded = Start::Stored;
                }
                let e = cap.classify(e);
                record_failure(cap, &e);
                Err(e)
            }
        }
    }
}
