//! Cache replacement policies over fixed-size blocks: LRU, FIFO, CLOCK, ARC, 2Q and S3-FIFO.
//! Every policy counts capacity in blocks, inserts a missed block (the caller decides whether a
//! write allocates), and can drop a block (write invalidation). Their eviction rules are written
//! out in `docs/simulate.md`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast multiplicative hasher for block keys (block numbers are not adversarial input).
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Map from block key, with [`KeyHasher`].
pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Which replacement policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyKind {
    Lru,
    Fifo,
    Clock,
    Arc,
    TwoQ,
    S3Fifo,
}

impl PolicyKind {
    /// Every policy, in the documented order.
    pub const ALL: [PolicyKind; 6] = [
        PolicyKind::Lru,
        PolicyKind::Fifo,
        PolicyKind::Clock,
        PolicyKind::Arc,
        PolicyKind::TwoQ,
        PolicyKind::S3Fifo,
    ];
    /// The name used on the command line and in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Lru => "lru",
            PolicyKind::Fifo => "fifo",
            PolicyKind::Clock => "clock",
            PolicyKind::Arc => "arc",
            PolicyKind::TwoQ => "2q",
            PolicyKind::S3Fifo => "s3fifo",
        }
    }
    /// Parse a command-line name.
    pub fn parse(s: &str) -> Option<PolicyKind> {
        PolicyKind::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
    }
    /// A new, empty cache of `capacity` blocks (at least 1).
    pub fn build(self, capacity: usize) -> Box<dyn Policy> {
        let c = capacity.max(1);
        match self {
            PolicyKind::Lru => Box::new(Lru::new(c)),
            PolicyKind::Fifo => Box::new(Fifo::new(c)),
            PolicyKind::Clock => Box::new(Clock::new(c)),
            PolicyKind::Arc => Box::new(Arc::new(c)),
            PolicyKind::TwoQ => Box::new(TwoQ::new(c)),
            PolicyKind::S3Fifo => Box::new(S3Fifo::new(c)),
        }
    }
}

/// A block cache under one replacement policy.
pub trait Policy {
    /// Reference `key`: true on a hit. A miss inserts the block (evicting as the policy says).
    fn access(&mut self, key: u64) -> bool;
    /// Whether the block is resident, without touching the policy's state.
    fn contains(&self, key: u64) -> bool;
    /// Drop the block if resident (a write with `--writes invalidate`). Ghost entries stay.
    fn remove(&mut self, key: u64);
    /// The resident blocks (for tests), in no particular order.
    fn resident(&self) -> Vec<u64>;
}

mod ghosts;
mod lists;
mod queues;
mod s3fifo;

pub use ghosts::{Arc, TwoQ};
pub use queues::{Clock, Fifo, Lru};
pub use s3fifo::S3Fifo;
