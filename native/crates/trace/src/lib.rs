//! Block tracing (`record --trace`): the kernel's `block:block_rq_issue` and
//! `block:block_rq_complete` events, read from a private tracefs instance on a thread of their
//! own and paired into one record per request (offset, size, operation, issue and completion
//! times) for the `block_requests` table.
//!
//! Kernel facts used:
//! - tracefs lives at `/sys/kernel/tracing` (Documentation/trace/ftrace.rst, "The File System";
//!   not mounted by itself on every system: `mount -t tracefs nodev /sys/kernel/tracing`).
//!   `mkdir instances/NAME` creates a private trace buffer with its own events, filters, clock and
//!   buffer size; `rmdir` removes it, and fails with EBUSY while its `trace_pipe` is open
//!   (ftrace.rst, "Instances").
//! - `trace_clock` `mono` is `ktime_get_mono_fast_ns()`: CLOCK_MONOTONIC, the clock of the
//!   samples' `mono_ns` (ftrace.rst, "trace_clock"). Timestamps print as seconds with 6 decimals.
//! - `buffer_size_kb` is the ring buffer of each CPU (ftrace.rst, "buffer_size_kb").
//! - `trace_pipe` is a consuming reader; events overwritten before they were read show up as a
//!   line `CPU:N [LOST M EVENTS]` (kernel/trace/trace.c, `print_trace_line`).
//! - The events' text (include/trace/events/block.h, `block_rq_issue` through the `block_rq`
//!   class, `block_rq_complete`): `MAJ,MIN RWBS BYTES (CMD) SECTOR + NR_SECTOR [IOPRIO] [COMM]`
//!   and `MAJ,MIN RWBS (CMD) SECTOR + NR_SECTOR [IOPRIO] [ERROR]`; the ioprio part
//!   (`none,0,0`) arrived in 6.10, older kernels print without it. `dev` in a filter is the
//!   kernel's dev_t, `major << 20 | minor` (include/linux/kdev_t.h, MINORBITS = 20).
//! - `rwbs` (kernel/trace/blktrace.c, `blk_fill_rwbs`): `F` first for a pre-flush, then the
//!   operation (`W` write, `D` discard, `DE` secure erase, `F` flush, `R` read, `Z?` zone
//!   commands, `N` other), then `F` FUA, `A` read-ahead, `S` sync, `M` metadata, `U` atomic.
//! - The events are emitted for request-based (blk-mq) devices: a request on a partition is
//!   traced on its whole disk, and bio-based devices (device-mapper, md, zram, bcache's front)
//!   issue no requests at all.
//! - A flush request (`FF`) is issued at sector 0 and completes at sector 2^64−1 on 6.18 (seen
//!   here), and requests the flush machinery ends without issuing them complete without an
//!   issue; pairing therefore keys requests of 0 sectors by device and operation only.
//!
//! The parts: [`parse`] (a line of `trace_pipe` → an event), [`pair`] (issues and completions →
//! requests, batches for the writer), [`tracefs`] (availability, instances, filters) and
//! [`reader`] (the tracer thread); [`import`] reads the block traces of other tools
//! (`import-trace`, `simulate`), and [`latency`] turns a capture's requests into response-time
//! percentiles.

// The rooms this crate uses (native/README.md), under the names the probe always gave them.
use cacheproof_capture as capture;
use cacheproof_core::{clock, error, request, shards, signals, sysfs};

use std::path::PathBuf;

pub mod import;
pub mod latency;
pub mod pair;
pub mod parse;
pub mod reader;
pub mod sampling;
pub mod tracefs;

pub use pair::{Feeder, Pairer, Request, TraceBatch};
pub use parse::{op_of, parse_line, Event, Line};
pub use reader::{Sent, Sink, Tracer};
pub use tracefs::{dev_t, ensure_available, filter_for, remove_stale_instances, Instance};

/// Where tracefs is mounted (`CACHEPROOF_TRACEFS` overrides it, for tests).
pub const DEFAULT_TRACEFS: &str = "/sys/kernel/tracing";
/// Name prefix of the probe's tracefs instances: `cacheproof-<pid>`.
pub const INSTANCE_PREFIX: &str = "cacheproof-";
/// Ring buffer per CPU, KiB.
pub const BUFFER_SIZE_KB: u32 = 8192;
/// `meta.trace` of a capture recorded with `--trace`.
pub const META_BLOCK: &str = "block";
/// A request issued this long ago without a completion is written with `complete_ns` NULL.
pub const UNPAIRED_TIMEOUT_NS: u64 = 60_000_000_000;
/// At the end, how long the tracer waits for the completion of requests still in flight.
pub const FINISH_GRACE_NS: u64 = 2_000_000_000;
/// The two events, under `events/block/`.
pub const EVENTS: [&str; 2] = ["block_rq_issue", "block_rq_complete"];

/// The tracefs mount point.
pub fn tracefs_root() -> PathBuf {
    std::env::var_os("CACHEPROOF_TRACEFS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_TRACEFS))
}
