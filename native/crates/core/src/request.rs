//! One block request of a trace, as every trace importer produces it and the simulator reads it
//! (the simulator's model of a request: `sim` and `trace` share it).

/// What a request does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// Discard / trim: the data is gone; the cache drops the blocks (never a hit or a miss).
    Discard,
}

/// One block request, device-relative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Req {
    /// Issue time, ns from the trace's own origin.
    pub t_ns: i64,
    /// Device index (0-based, in the order devices were met).
    pub dev: u32,
    /// First byte.
    pub offset: u64,
    /// Length in bytes (> 0).
    pub bytes: u64,
    pub op: Op,
}

/// Key of a device's block: device in the top 20 bits.
#[inline]
pub fn block_key(dev: u32, block: u64) -> u64 {
    (u64::from(dev) << 44) | (block & ((1 << 44) - 1))
}
