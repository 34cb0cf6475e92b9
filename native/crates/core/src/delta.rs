//! Turning two successive diskstats snapshots into canonical per-interval records.
//!
//! Rules (docs/capture-schema.md, table `intervals`): Δt is always the monotonic clock; the
//! first sample of a device gives no interval; a counter that went backwards is `reset` when
//! the boot id changed or the device was re-created (its major:minor changed), otherwise
//! `wrap`; an interval longer than 3 × the nominal interval is `gap`; a wall-clock step that
//! differs from the monotonic step by more than 2 s is `clock-jump`. Only `ok` intervals
//! carry numbers. When several apply, the first in this order wins:
//! `reset`, `wrap`, `gap`, `clock-jump`.
//!
//! Kernel facts (Documentation/admin-guide/iostats.rst): all fields but field 9 are
//! cumulative counters since the device appeared; field 9 (in flight) is a gauge; sectors are
//! 512 bytes.

use std::collections::BTreeMap;

use crate::diskstats::{counters_from_fields, Counters, DiskLine};

/// Bytes per diskstats sector (block/stat.rst: "standard UNIX 512-byte sectors").
pub const SECTOR_BYTES: u64 = 512;
/// A wall-clock step that differs from the monotonic step by more than this is a clock jump.
pub const CLOCK_JUMP_MS: f64 = 2000.0;
/// An interval longer than this many nominal intervals is a gap.
pub const GAP_FACTOR: f64 = 3.0;

/// One device in a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevSample {
    pub major: u32,
    pub minor: u32,
    /// Fields as read (for audit).
    pub fields: Vec<u64>,
    /// Bit `i` set: the source did not report field `i` (kept as 0 in `fields`, absent in the
    /// counters and the raw record). A Prometheus series family an exporter left out (merges,
    /// in flight) must not take the fields it did report (read and write time) with it.
    pub absent: u32,
}

impl DevSample {
    /// Canonical counters of the fields; a field marked absent is `None` (absent is not zero).
    pub fn counters(&self) -> Counters {
        let mut c = counters_from_fields(&self.fields);
        let gone = |i: u32| self.absent & (1 << i) != 0;
        let slots: [(u32, &mut Option<u64>); 13] = [
            (1, &mut c.read_merges),
            (3, &mut c.read_ms),
            (5, &mut c.write_merges),
            (7, &mut c.write_ms),
            (8, &mut c.in_flight),
            (9, &mut c.io_ticks_ms),
            (10, &mut c.weighted_ms),
            (11, &mut c.discards),
            (12, &mut c.discard_merges),
            (13, &mut c.discard_sectors),
            (14, &mut c.discard_ms),
            (15, &mut c.flushes),
            (16, &mut c.flush_ms),
        ];
        for (i, slot) in slots {
            if gone(i) {
                *slot = None;
            }
        }
        c
    }
}

/// One read of /proc/diskstats with the clocks at that moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// CLOCK_MONOTONIC in ns (the only clock for Δt).
    pub mono_ns: u64,
    /// Wall clock, UTC epoch ms (labels only).
    pub utc_ms: i64,
    /// /proc/sys/kernel/random/boot_id at the read.
    pub boot_id: String,
    /// Devices by kernel name.
    pub devices: BTreeMap<String, DevSample>,
}

impl Snapshot {
    /// Build from parsed lines, keeping only the names `keep` accepts.
    pub fn from_lines(
        mono_ns: u64,
        utc_ms: i64,
        boot_id: &str,
        lines: Vec<DiskLine>,
        keep: impl Fn(&str) -> bool,
    ) -> Self {
        let devices = lines
            .into_iter()
            .filter(|l| keep(&l.name))
            .map(|l| {
                (
                    l.name,
                    DevSample {
                        major: l.major,
                        minor: l.minor,
                        fields: l.fields,
                        absent: 0,
                    },
                )
            })
            .collect();
        Snapshot {
            mono_ns,
            utc_ms,
            boot_id: boot_id.to_string(),
            devices,
        }
    }
}

/// Interval status, as stored in `intervals.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Reset,
    Wrap,
    ClockJump,
    Gap,
}

impl Status {
    /// The text stored in the capture.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Reset => "reset",
            Status::Wrap => "wrap",
            Status::ClockJump => "clock-jump",
            Status::Gap => "gap",
        }
    }
}

/// The numbers of an `ok` interval. Absent kernel fields stay `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deltas {
    pub reads: u64,
    pub writes: u64,
    pub read_merges: Option<u64>,
    pub write_merges: Option<u64>,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub read_time_ms: Option<u64>,
    pub write_time_ms: Option<u64>,
    pub busy_ms: Option<u64>,
    pub weighted_ms: Option<u64>,
    /// Field 9 at the end sample (a gauge).
    pub in_flight: Option<u64>,
    pub discards: Option<u64>,
    pub discard_bytes: Option<u64>,
    pub discard_time_ms: Option<u64>,
    pub flushes: Option<u64>,
    pub flush_time_ms: Option<u64>,
}

/// One canonical interval of one device.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub device: String,
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    /// Δ monotonic clock in ms (Δ wall clock when the boot changed: the monotonic clocks of
    /// two boots cannot be compared).
    pub interval_ms: f64,
    pub status: Status,
    /// `Some` only when `status == Ok`.
    pub deltas: Option<Deltas>,
}

/// Something worth a row in `warnings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// `reset`, `wrap`, `clock-jump`, `gap`, `device-appeared`, `device-vanished`.
    pub code: &'static str,
    pub device: Option<String>,
    pub message: String,
}

/// Result of comparing two snapshots.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub intervals: Vec<Interval>,
    pub events: Vec<Event>,
}

/// `cur - prev` when no counter went backwards; `None` when one did.
fn sub(prev: Option<u64>, cur: Option<u64>, backwards: &mut bool) -> Option<u64> {
    match (prev, cur) {
        (Some(p), Some(c)) => {
            if c < p {
                *backwards = true;
                None
            } else {
                Some(c - p)
            }
        }
        _ => None,
    }
}

fn deltas(p: &Counters, c: &Counters) -> Option<Deltas> {
    let mut back = false;
    let mut s = |a: u64, b: u64| sub(Some(a), Some(b), &mut back).unwrap_or(0);
    let reads = s(p.reads, c.reads);
    let writes = s(p.writes, c.writes);
    let rs = s(p.read_sectors, c.read_sectors);
    let ws = s(p.write_sectors, c.write_sectors);
    let mut o = |a: Option<u64>, b: Option<u64>| sub(a, b, &mut back);
    let d = Deltas {
        reads,
        writes,
        read_merges: o(p.read_merges, c.read_merges),
        write_merges: o(p.write_merges, c.write_merges),
        read_bytes: rs * SECTOR_BYTES,
        write_bytes: ws * SECTOR_BYTES,
        read_time_ms: o(p.read_ms, c.read_ms),
        write_time_ms: o(p.write_ms, c.write_ms),
        busy_ms: o(p.io_ticks_ms, c.io_ticks_ms),
        weighted_ms: o(p.weighted_ms, c.weighted_ms),
        in_flight: c.in_flight,
        discards: o(p.discards, c.discards),
        discard_bytes: o(p.discard_sectors, c.discard_sectors).map(|x| x * SECTOR_BYTES),
        discard_time_ms: o(p.discard_ms, c.discard_ms),
        flushes: o(p.flushes, c.flushes),
        flush_time_ms: o(p.flush_ms, c.flush_ms),
    };
    if back {
        None
    } else {
        Some(d)
    }
}

/// How the time between two snapshots went: a reboot, a gap in the recording, a wall-clock
/// jump, and the interval's length (monotonic, or wall-clock across a reboot).
struct Elapsed {
    boot_changed: bool,
    wall_ms: f64,
    mono_ms: f64,
    gap: bool,
    jump: bool,
}

impl Elapsed {
    fn between(prev: &Snapshot, cur: &Snapshot, nominal_ms: f64) -> Elapsed {
        let boot_changed = prev.boot_id != cur.boot_id;
        let wall_ms = (cur.utc_ms - prev.utc_ms) as f64;
        let mono_ms = if boot_changed {
            wall_ms
        } else {
            cur.mono_ns.saturating_sub(prev.mono_ns) as f64 / 1e6
        };
        Elapsed {
            boot_changed,
            wall_ms,
            mono_ms,
            gap: !boot_changed && mono_ms > GAP_FACTOR * nominal_ms,
            jump: !boot_changed && (wall_ms - mono_ms).abs() > CLOCK_JUMP_MS,
        }
    }

    /// The events of the whole interval: a reboot or a gap, a clock jump.
    fn events(&self, prev: &Snapshot, cur: &Snapshot, nominal_ms: f64) -> Vec<Event> {
        let (wall_ms, mono_ms) = (self.wall_ms, self.mono_ms);
        let mut events = Vec::new();
        if self.boot_changed {
            events.push(Event {
                code: "reset",
                device: None,
                message: format!(
                    "boot id changed ({} -> {}): counters restarted, no rates for this interval",
                    prev.boot_id, cur.boot_id
                ),
            });
        } else if self.gap {
            events.push(Event {
                code: "gap",
                device: None,
                message: format!(
                    "{:.0} ms between samples, more than {GAP_FACTOR} x the {nominal_ms:.0} ms interval: the recorder was not running",
                    mono_ms
                ),
            });
        }
        if self.jump {
            events.push(Event {
                code: "clock-jump",
                device: None,
                message: format!(
                    "wall clock moved {wall_ms:.0} ms while the monotonic clock moved {mono_ms:.0} ms"
                ),
            });
        }
        events
    }

    /// A device's interval status: a reset (reboot or re-created device) first, then a wrap,
    /// a gap, a clock jump.
    fn status(&self, recreated: bool, wrapped: bool) -> Status {
        if self.boot_changed || recreated {
            Status::Reset
        } else if wrapped {
            Status::Wrap
        } else if self.gap {
            Status::Gap
        } else if self.jump {
            Status::ClockJump
        } else {
            Status::Ok
        }
    }
}

/// Compare two successive snapshots. `nominal_ms` is the planned sample interval.
pub fn step(prev: &Snapshot, cur: &Snapshot, nominal_ms: f64) -> Step {
    let el = Elapsed::between(prev, cur, nominal_ms);
    let mut out = Step {
        intervals: Vec::new(),
        events: el.events(prev, cur, nominal_ms),
    };
    for (name, c) in &cur.devices {
        let Some(p) = prev.devices.get(name) else {
            out.events.push(Event {
                code: "device-appeared",
                device: Some(name.clone()),
                message: format!("{name} ({}:{}) appeared", c.major, c.minor),
            });
            continue;
        };
        let recreated = (p.major, p.minor) != (c.major, c.minor);
        let d = deltas(&p.counters(), &c.counters());
        let status = el.status(recreated, d.is_none());
        if recreated && !el.boot_changed {
            out.events.push(Event {
                code: "reset",
                device: Some(name.clone()),
                message: format!(
                    "{name} was re-created ({}:{} -> {}:{}): counters restarted",
                    p.major, p.minor, c.major, c.minor
                ),
            });
        } else if status == Status::Wrap {
            out.events.push(Event {
                code: "wrap",
                device: Some(name.clone()),
                message: format!("a counter of {name} went backwards without a reboot: counter wrap, no rates for this interval"),
            });
        }
        out.intervals.push(Interval {
            device: name.clone(),
            start_utc_ms: prev.utc_ms,
            end_utc_ms: cur.utc_ms,
            interval_ms: el.mono_ms,
            status,
            deltas: if status == Status::Ok { d } else { None },
        });
    }
    for name in prev.devices.keys() {
        if !cur.devices.contains_key(name) {
            out.events.push(Event {
                code: "device-vanished",
                device: Some(name.clone()),
                message: format!("{name} vanished from /proc/diskstats"),
            });
        }
    }
    out
}

/// iostat-style rates of an ok interval (sysstat `iostat -x` definitions), for checks and display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    pub r_s: f64,
    pub w_s: f64,
    pub rkb_s: f64,
    pub wkb_s: f64,
    pub rrqm_s: f64,
    pub wrqm_s: f64,
    pub r_await: f64,
    pub w_await: f64,
    pub rareq_sz_kb: f64,
    pub wareq_sz_kb: f64,
    pub d_s: f64,
    pub dkb_s: f64,
    pub d_await: f64,
    pub f_s: f64,
    pub f_await: f64,
    pub aqu_sz: f64,
    pub util_pct: f64,
}

/// Rates over `interval_ms` (iostat: r/s = Δreads/Δt, r_await = Δms_reading/Δreads,
/// aqu-sz = Δweighted_ms/Δt_ms, %util = Δio_ticks/Δt_ms × 100). Absent fields count as 0.
pub fn rates(d: &Deltas, interval_ms: f64) -> Rates {
    let s = interval_ms / 1000.0;
    let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    let z = |x: Option<u64>| x.unwrap_or(0);
    Rates {
        r_s: d.reads as f64 / s,
        w_s: d.writes as f64 / s,
        rkb_s: d.read_bytes as f64 / 1024.0 / s,
        wkb_s: d.write_bytes as f64 / 1024.0 / s,
        rrqm_s: z(d.read_merges) as f64 / s,
        wrqm_s: z(d.write_merges) as f64 / s,
        r_await: per(z(d.read_time_ms), d.reads),
        w_await: per(z(d.write_time_ms), d.writes),
        rareq_sz_kb: per(d.read_bytes, d.reads) / 1024.0,
        wareq_sz_kb: per(d.write_bytes, d.writes) / 1024.0,
        d_s: z(d.discards) as f64 / s,
        dkb_s: z(d.discard_bytes) as f64 / 1024.0 / s,
        d_await: per(z(d.discard_time_ms), z(d.discards)),
        f_s: z(d.flushes) as f64 / s,
        f_await: per(z(d.flush_time_ms), z(d.flushes)),
        aqu_sz: z(d.weighted_ms) as f64 / interval_ms,
        util_pct: z(d.busy_ms) as f64 / interval_ms * 100.0,
    }
}
