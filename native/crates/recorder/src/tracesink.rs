//! The writer's side of block tracing: the tracer thread's batches → `block_requests` rows
//! (sampled by the SHARDS hash, under the size budget: `trace::sampling`), the latency histograms
//! of every request per interval (`intervalhist`), with the warnings of lost and unparsed events.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::Arc;

use super::intervalhist::IntervalHists;
use super::sampler::{Msg, TRACE_QUEUE};
use crate::capture::{BlockRow, Capture, HistRow};
use crate::clock;
use crate::error::Result;
use crate::trace::sampling::{self, Controller, RateChange};
use crate::trace::{self, TraceBatch};

/// Warnings about tracing kept per session, at most.
const MAX_UNPARSED_WARNINGS: u32 = 10;
/// Samples kept to label requests with the wall clock.
const LABEL_SAMPLES: usize = 4;

/// The writer's side of block tracing: the tracer thread, and what turns its batches into
/// `block_requests` rows.
pub(super) struct TraceSink {
    pub(super) tracer: trace::Tracer,
    /// Trace batches in the queue (the tracer sends no more than TRACE_QUEUE).
    in_flight: Arc<AtomicUsize>,
    /// (major, minor) → devices.id.
    dev_map: HashMap<(u32, u32), i64>,
    dev_count: usize,
    /// This session's latest samples (mono_ns, utc_ms).
    samples: VecDeque<(u64, i64)>,
    /// The session's first sample: requests issued before it are not kept.
    first_mono: Option<u64>,
    /// Batches that arrived before the first sample.
    waiting: Vec<TraceBatch>,
    requests: i64,
    lost: i64,
    unparsed: i64,
    unparsed_warnings: u32,
    max_issue: u64,
    /// `block_requests` rowid before this session.
    start_rowid: i64,
    /// Which requests are kept: a request is kept when the hash of its device and first 4 KiB
    /// block is below the threshold in force, which a budget lowers (trace::sampling).
    sampler: Controller,
    /// Seconds traced by earlier sessions (recorder `trace_traced_ms`).
    traced_before_s: f64,
    /// The recording has taken its last sample: the threshold no longer changes (a change now
    /// would keep no later request and only leave earlier rows out of the final sample).
    finishing: bool,
    /// Requests seen before sampling (recorder `trace_seen`).
    seen: i64,
    /// The latency histograms of this session's intervals, and the rows ready to be written
    /// (with the next batch of requests, or at the next sample a second after the last write).
    hists: IntervalHists,
    ready_hists: Vec<HistRow>,
    hists_written_mono: u64,
    /// The tracer's last batch arrived.
    done: bool,
}

impl TraceSink {
    /// Set up the instance (filtered to the capture's devices when `filter`) and start the
    /// tracer thread, which sends through `tx`.
    pub(super) fn start(cap: &Capture, filter: bool, tx: SyncSender<Msg>) -> Result<TraceSink> {
        let root = trace::tracefs_root();
        trace::ensure_available(&root)?;
        let devs = cap.device_numbers();
        let nums: Vec<(u32, u32)> = devs.iter().map(|d| (d.1, d.2)).collect();
        let instance = trace::Instance::create(&root, filter.then_some(nums.as_slice()))?;
        let in_flight = Arc::new(AtomicUsize::new(0));
        let inf = in_flight.clone();
        let sink: trace::Sink = Box::new(move |b| {
            if inf.load(Ordering::SeqCst) >= TRACE_QUEUE {
                return trace::Sent::Busy(b);
            }
            inf.fetch_add(1, Ordering::SeqCst);
            match tx.try_send(Msg::Trace(Box::new(b))) {
                Ok(()) => trace::Sent::Yes,
                Err(TrySendError::Full(Msg::Trace(b))) => {
                    inf.fetch_sub(1, Ordering::SeqCst);
                    trace::Sent::Busy(*b)
                }
                Err(_) => {
                    inf.fetch_sub(1, Ordering::SeqCst);
                    trace::Sent::Gone
                }
            }
        });
        let tracer = trace::Tracer::start(instance, sink)?;
        let num = |k: &str| -> i64 {
            cap.recorder(k)
                .ok()
                .flatten()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0)
        };
        Ok(TraceSink {
            tracer,
            in_flight,
            dev_map: devs.iter().map(|d| ((d.1, d.2), d.3)).collect(),
            dev_count: devs.len(),
            samples: VecDeque::new(),
            first_mono: None,
            waiting: Vec::new(),
            requests: num("trace_requests"),
            lost: num("trace_lost"),
            unparsed: num("trace_unparsed"),
            unparsed_warnings: 0,
            max_issue: 0,
            start_rowid: cap.last_request_rowid()?,
            sampler: Controller::new(
                sampling::StoredSampling::read(cap)
                    .map(|s| {
                        s.threshold
                            .unwrap_or_else(|| sampling::threshold_of(s.rate))
                    })
                    .unwrap_or(crate::sim::stack::SHARDS_P),
                cap.meta("trace_budget_bytes")?
                    .and_then(|s| s.parse::<u64>().ok()),
            ),
            traced_before_s: num("trace_traced_ms") as f64 / 1000.0,
            finishing: false,
            seen: num("trace_seen"),
            hists: IntervalHists::with_late(num("trace_hist_late").max(0) as u64),
            ready_hists: Vec::new(),
            hists_written_mono: 0,
            done: false,
        })
    }

    /// Seconds of tracing so far, every session, at monotonic time `mono`.
    fn traced_s(&self, mono: u64) -> f64 {
        let this = self
            .first_mono
            .map_or(0.0, |f| mono.saturating_sub(f) as f64 / 1e9);
        self.traced_before_s + this
    }

    /// Under a budget: lower the threshold when the trace would not fit (trace::sampling, for
    /// the rule and when decisions come), and record the change.
    fn steer(&mut self, cap: &mut Capture, stored: i64) -> Result<()> {
        if self.finishing {
            return Ok(());
        }
        let mono = clock::mono_ns();
        let t = self.traced_s(mono);
        let before = self.sampler.threshold();
        let seen = self.seen.max(0) as u64;
        let stored = stored.max(0) as u64;
        let Some(d) = self.sampler.steer(t, seen, stored) else {
            return Ok(());
        };
        let change = RateChange {
            utc_ms: clock::utc_ms(),
            rate_before: sampling::rate_of(before),
            rate_after: sampling::rate_of(d.threshold),
            threshold_before: before,
            threshold_after: d.threshold,
            traced_s: t,
            seen,
            stored,
            reason: d.reason,
        };
        cap.record_rate_change(&change, mono)
    }

    /// A sample was written.
    pub(super) fn on_sample(&mut self, cap: &mut Capture, mono: u64, utc: i64) -> Result<()> {
        self.samples.push_back((mono, utc));
        if self.samples.len() > LABEL_SAMPLES {
            self.samples.pop_front();
        }
        self.hists.on_sample(mono, utc);
        if self.first_mono.is_none() {
            self.first_mono = Some(mono);
            for b in std::mem::take(&mut self.waiting) {
                self.write(cap, b)?;
            }
        }
        self.ready_hists.extend(self.hists.take_ready());
        if !self.ready_hists.is_empty()
            && mono.saturating_sub(self.hists_written_mono) >= 1_000_000_000
        {
            let ready = std::mem::take(&mut self.ready_hists);
            cap.write_requests(&[], &ready, &[], &[])?;
            self.hists_written_mono = mono;
        }
        Ok(())
    }

    /// A batch arrived from the tracer.
    pub(super) fn on_batch(&mut self, cap: &mut Capture, b: TraceBatch) -> Result<()> {
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        if b.last {
            self.done = true;
        }
        let failed = b.error.is_some();
        if self.first_mono.is_none() {
            self.waiting.push(b);
        } else {
            self.write(cap, b)?;
        }
        if failed {
            // The tracer ended early: remove its instance now, the counters go on.
            if let Err(e) = self.tracer.close() {
                cap.warn(clock::utc_ms(), "trace-cleanup", None, &e)?;
            }
        }
        Ok(())
    }

    /// The capture's id of a device number (devices added with `--all` are looked up again).
    fn device(&mut self, cap: &Capture, dev: (u32, u32)) -> Option<i64> {
        if let Some(&id) = self.dev_map.get(&dev) {
            return Some(id);
        }
        if cap.device_count() != self.dev_count {
            let devs = cap.device_numbers();
            self.dev_count = devs.len();
            self.dev_map = devs.iter().map(|d| ((d.1, d.2), d.3)).collect();
        }
        self.dev_map.get(&dev).copied()
    }

    /// Wall-clock label of a monotonic time: through the nearest of the latest samples.
    fn label(&self, mono: u64) -> i64 {
        let Some(&(m, u)) = self.samples.iter().min_by_key(|(m, _)| m.abs_diff(mono)) else {
            return clock::utc_ms();
        };
        u + ((mono as f64 - m as f64) / 1e6).round() as i64
    }

    /// The rows of a batch's requests that are kept: issued after the session's first sample,
    /// on a known device, and kept by the sampling. Every read and write counts in the latency
    /// histograms, sampled or not.
    fn kept_rows(&mut self, cap: &mut Capture, requests: Vec<trace::Request>) -> Vec<BlockRow> {
        let first = self.first_mono.unwrap_or(0);
        let mut rows = Vec::with_capacity(requests.len());
        for r in requests {
            if r.issue_ns < first {
                continue;
            }
            let Some(id) = self.device(cap, r.dev) else {
                continue;
            };
            self.hists.add(
                id,
                r.op,
                r.issue_ns,
                r.complete_ns.map(|c| c.saturating_sub(r.issue_ns)),
            );
            self.seen += 1;
            if !self.sampler.keep(sampling::hash_of(id, r.sector)) {
                continue;
            }
            self.max_issue = self.max_issue.max(r.issue_ns);
            rows.push(BlockRow {
                device_id: id,
                issue_ns: r.issue_ns as i64,
                complete_ns: r.complete_ns.map(|c| c as i64),
                utc_ms: self.label(r.issue_ns),
                sector: r.sector as i64,
                bytes: r.bytes as i64,
                op: r.op,
                rwbs: r.rwbs,
                error: r.error,
            });
        }
        rows
    }

    /// The warnings a batch brings: lost events, lines not understood (the first
    /// MAX_UNPARSED_WARNINGS times), the tracer's error.
    fn warnings(
        &mut self,
        b: &TraceBatch,
        now: i64,
    ) -> Vec<(i64, &'static str, Option<&'static str>, String)> {
        let mut warns = Vec::new();
        if b.lost > 0 {
            let cpus = b
                .lost_cpus
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            warns.push((
                now,
                "trace-lost",
                None,
                format!(
                    "the kernel's trace buffer overflowed (CPU {cpus}): {} block events were lost; a request whose issue was lost is missing, one whose completion was lost has none",
                    b.lost
                ),
            ));
        }
        if b.unparsed > 0 && self.unparsed_warnings < MAX_UNPARSED_WARNINGS {
            self.unparsed_warnings += 1;
            warns.push((
                now,
                "trace-unparsed",
                None,
                format!(
                    "{} trace line(s) not understood and skipped, e.g. '{}'",
                    b.unparsed,
                    b.unparsed_example.as_deref().unwrap_or("")
                ),
            ));
        }
        if let Some(e) = &b.error {
            warns.push((
                now,
                "trace-error",
                None,
                format!("block tracing stopped: {e}; the counters go on"),
            ));
        }
        warns
    }

    fn write(&mut self, cap: &mut Capture, mut b: TraceBatch) -> Result<()> {
        let rows = self.kept_rows(cap, std::mem::take(&mut b.requests));
        let now = clock::utc_ms();
        let warns = self.warnings(&b, now);
        let sampled = self.sampler.samples();
        if rows.is_empty() && warns.is_empty() && b.unparsed == 0 && !sampled {
            return Ok(());
        }
        self.requests += rows.len() as i64;
        self.lost += b.lost as i64;
        self.unparsed += b.unparsed as i64;
        let traced_ms = (self.traced_s(clock::mono_ns()) * 1000.0).round() as i64;
        let kv = [
            ("trace_requests", self.requests.to_string()),
            ("trace_lost", self.lost.to_string()),
            ("trace_unparsed", self.unparsed.to_string()),
            ("trace_seen", self.seen.to_string()),
            ("trace_traced_ms", traced_ms.to_string()),
            ("trace_hist_late", self.hists.late.to_string()),
        ];
        let hists = std::mem::take(&mut self.ready_hists);
        cap.write_requests(&rows, &hists, &warns, &kv)?;
        if !hists.is_empty() {
            self.hists_written_mono = clock::mono_ns();
        }
        self.steer(cap, self.requests)
    }

    /// After the last sample (at `end_mono`): let the tracer finish, write its last batches,
    /// drop requests issued after the last sample, remove the instance.
    pub(super) fn finish(
        &mut self,
        cap: &mut Capture,
        rx: &Receiver<Msg>,
        end_mono: u64,
    ) -> Result<()> {
        self.finishing = true;
        self.tracer.finish(end_mono);
        let t0 = clock::mono_ns();
        let limit = trace::FINISH_GRACE_NS + 8_000_000_000;
        while !self.done {
            let spent = clock::mono_ns() - t0;
            if spent >= limit {
                cap.warn(
                    clock::utc_ms(),
                    "trace-error",
                    None,
                    "the tracer did not hand over its last requests within 10 s; they are missing",
                )?;
                break;
            }
            match rx.recv_timeout(std::time::Duration::from_nanos(limit - spent)) {
                Ok(Msg::Trace(b)) => self.on_batch(cap, *b)?,
                // The sampler runs on after a completed plan until it sees nobody receiving.
                Ok(Msg::Sample(_)) => {}
                Err(_) => break,
            }
        }
        if self.max_issue > end_mono {
            // Issued in the moment between the last sample and the tracer hearing of it.
            let n = cap.trim_requests_after(self.start_rowid, end_mono as i64)?;
            if n > 0 {
                self.requests -= n as i64;
                cap.set_recorder("trace_requests", &self.requests.to_string())?;
            }
        }
        let mut last: Vec<HistRow> = std::mem::take(&mut self.ready_hists);
        last.extend(self.hists.finish());
        let traced_ms = (self.traced_s(end_mono) * 1000.0).round() as i64;
        cap.write_requests(
            &[],
            &last,
            &[],
            &[
                ("trace_traced_ms", traced_ms.to_string()),
                ("trace_hist_late", self.hists.late.to_string()),
            ],
        )?;
        if let Err(e) = self.tracer.close() {
            cap.warn(clock::utc_ms(), "trace-cleanup", None, &e)?;
        }
        // The completion latency of the requests (meta `trace_latency`): a capture that holds
        // no read or write yet has none, which is not an error of the recording.
        if let Ok(j) = crate::trace::latency::of_capture(cap) {
            crate::trace::latency::store(cap, &j)?;
        }
        Ok(())
    }
}

/// Selected devices whose requests the block events cannot show: a partition's requests are
/// traced on its disk, a bio-based device (device-mapper, md, zram, bcache) has none.
pub(super) fn untraceable(names: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for n in names {
        let sys = n.replace('/', "!");
        let class = Path::new("/sys/class/block").join(&sys);
        if class.join("partition").exists() {
            let disk = std::fs::canonicalize(&class)
                .ok()
                .and_then(|p| {
                    p.parent()
                        .map(|d| d.file_name().map(|f| f.to_string_lossy().replace('!', "/")))
                })
                .flatten()
                .unwrap_or_else(|| "its disk".into());
            out.push((
                n.clone(),
                format!("{n} is a partition: the kernel traces its requests on {disk}; record {disk} with --trace to see them"),
            ));
        } else if class.exists() && !Path::new("/sys/block").join(&sys).join("mq").exists() {
            out.push((
                n.clone(),
                format!("{n} is not request-based (device-mapper, md, zram or bcache): the kernel issues no block requests for it; trace the devices beneath it, if any"),
            ));
        }
    }
    out
}
