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

const NIL: u32 = u32::MAX;

/// Slots in up to four doubly linked lists (head = most recent insert), with a key index.
struct Lists {
    key: Vec<u64>,
    prev: Vec<u32>,
    next: Vec<u32>,
    list: Vec<u8>,
    flag: Vec<u8>,
    free: Vec<u32>,
    head: [u32; 4],
    tail: [u32; 4],
    len: [usize; 4],
    map: KeyMap<u32>,
}

impl Lists {
    fn new(cap: usize) -> Lists {
        Lists {
            key: Vec::with_capacity(cap),
            prev: Vec::with_capacity(cap),
            next: Vec::with_capacity(cap),
            list: Vec::with_capacity(cap),
            flag: Vec::with_capacity(cap),
            free: Vec::new(),
            head: [NIL; 4],
            tail: [NIL; 4],
            len: [0; 4],
            map: KeyMap::with_capacity_and_hasher(cap, Default::default()),
        }
    }
    #[inline]
    fn find(&self, k: u64) -> Option<u32> {
        self.map.get(&k).copied()
    }
    #[inline]
    fn unlink(&mut self, s: u32) {
        let i = s as usize;
        let l = self.list[i] as usize;
        let (p, n) = (self.prev[i], self.next[i]);
        if p == NIL {
            self.head[l] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n == NIL {
            self.tail[l] = p;
        } else {
            self.prev[n as usize] = p;
        }
        self.len[l] -= 1;
    }
    #[inline]
    fn push_head(&mut self, s: u32, l: usize) {
        let i = s as usize;
        self.list[i] = l as u8;
        self.prev[i] = NIL;
        self.next[i] = self.head[l];
        if self.head[l] == NIL {
            self.tail[l] = s;
        } else {
            self.prev[self.head[l] as usize] = s;
        }
        self.head[l] = s;
        self.len[l] += 1;
    }
    #[inline]
    fn move_head(&mut self, s: u32, l: usize) {
        self.unlink(s);
        self.push_head(s, l);
    }
    /// A new slot for `k` at the head of list `l`.
    #[inline]
    fn insert(&mut self, k: u64, l: usize) -> u32 {
        let s = match self.free.pop() {
            Some(s) => {
                self.key[s as usize] = k;
                self.flag[s as usize] = 0;
                s
            }
            None => {
                self.key.push(k);
                self.prev.push(NIL);
                self.next.push(NIL);
                self.list.push(0);
                self.flag.push(0);
                (self.key.len() - 1) as u32
            }
        };
        self.push_head(s, l);
        self.map.insert(k, s);
        s
    }
    /// Remove the slot entirely (key forgotten).
    #[inline]
    fn release(&mut self, s: u32) {
        self.unlink(s);
        self.map.remove(&self.key[s as usize]);
        self.free.push(s);
    }
    fn keys_in(&self, l: usize) -> Vec<u64> {
        let mut v = Vec::with_capacity(self.len[l]);
        let mut s = self.head[l];
        while s != NIL {
            v.push(self.key[s as usize]);
            s = self.next[s as usize];
        }
        v
    }
}

/// Least recently used: a hit moves the block to the head; a miss evicts the tail.
pub struct Lru {
    cap: usize,
    l: Lists,
}
impl Lru {
    pub fn new(cap: usize) -> Lru {
        Lru {
            cap,
            l: Lists::new(cap),
        }
    }
}
impl Policy for Lru {
    #[inline]
    fn access(&mut self, k: u64) -> bool {
        if let Some(s) = self.l.find(k) {
            self.l.move_head(s, 0);
            return true;
        }
        if self.l.len[0] >= self.cap {
            let t = self.l.tail[0];
            self.l.release(t);
        }
        self.l.insert(k, 0);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l.find(k).is_some()
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            self.l.release(s);
        }
    }
    fn resident(&self) -> Vec<u64> {
        self.l.keys_in(0)
    }
}

/// First in, first out: a hit changes nothing; a miss evicts the oldest insert.
pub struct Fifo {
    cap: usize,
    l: Lists,
}
impl Fifo {
    pub fn new(cap: usize) -> Fifo {
        Fifo {
            cap,
            l: Lists::new(cap),
        }
    }
}
impl Policy for Fifo {
    fn access(&mut self, k: u64) -> bool {
        if self.l.find(k).is_some() {
            return true;
        }
        if self.l.len[0] >= self.cap {
            let t = self.l.tail[0];
            self.l.release(t);
        }
        self.l.insert(k, 0);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l.find(k).is_some()
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            self.l.release(s);
        }
    }
    fn resident(&self) -> Vec<u64> {
        self.l.keys_in(0)
    }
}

/// CLOCK (second chance): a hit sets the block's reference bit; a new block enters with the bit
/// clear. To evict, the hand (the oldest block) is looked at: a set bit is cleared and the block
/// goes round again (to the head); a clear bit is evicted.
pub struct Clock {
    cap: usize,
    l: Lists,
}
impl Clock {
    pub fn new(cap: usize) -> Clock {
        Clock {
            cap,
            l: Lists::new(cap),
        }
    }
}
impl Policy for Clock {
    fn access(&mut self, k: u64) -> bool {
        if let Some(s) = self.l.find(k) {
            self.l.flag[s as usize] = 1;
            return true;
        }
        while self.l.len[0] >= self.cap {
            let t = self.l.tail[0];
            if self.l.flag[t as usize] != 0 {
                self.l.flag[t as usize] = 0;
                self.l.move_head(t, 0);
            } else {
                self.l.release(t);
            }
        }
        self.l.insert(k, 0);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l.find(k).is_some()
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            self.l.release(s);
        }
    }
    fn resident(&self) -> Vec<u64> {
        self.l.keys_in(0)
    }
}

const T1: usize = 0;
const T2: usize = 1;
const B1: usize = 2;
const B2: usize = 3;

/// ARC (Megiddo & Modha, FAST 2003), as in the paper's Figure 4: T1 (seen once recently),
/// T2 (seen at least twice), their ghosts B1 and B2, and the adaptive target `p` for T1.
pub struct Arc {
    c: usize,
    p: usize,
    l: Lists,
}
impl Arc {
    pub fn new(c: usize) -> Arc {
        Arc {
            c,
            p: 0,
            l: Lists::new(2 * c),
        }
    }
    /// REPLACE(x): move the LRU of T1 or T2 to its ghost list.
    fn replace(&mut self, in_b2: bool) {
        let t1 = self.l.len[T1];
        if t1 + self.l.len[T2] < self.c {
            return; // room left by invalidated blocks: nothing to move out
        }
        if t1 > 0 && (t1 > self.p || (in_b2 && t1 == self.p)) {
            let s = self.l.tail[T1];
            self.l.move_head(s, B1);
        } else if self.l.len[T2] > 0 {
            let s = self.l.tail[T2];
            self.l.move_head(s, B2);
        } else {
            let s = self.l.tail[T1];
            self.l.move_head(s, B1);
        }
    }
}
impl Policy for Arc {
    fn access(&mut self, k: u64) -> bool {
        let c = self.c;
        if let Some(s) = self.l.find(k) {
            let which = self.l.list[s as usize] as usize;
            match which {
                T1 | T2 => {
                    self.l.move_head(s, T2);
                    return true;
                }
                B1 => {
                    let d = (self.l.len[B2] / self.l.len[B1]).max(1);
                    self.p = (self.p + d).min(c);
                    self.replace(false);
                    self.l.move_head(s, T2);
                    return false;
                }
                _ => {
                    let d = (self.l.len[B1] / self.l.len[B2]).max(1);
                    self.p = self.p.saturating_sub(d);
                    self.replace(true);
                    self.l.move_head(s, T2);
                    return false;
                }
            }
        }
        let l1 = self.l.len[T1] + self.l.len[B1];
        let total = l1 + self.l.len[T2] + self.l.len[B2];
        if l1 >= c {
            if self.l.len[T1] < c {
                let s = self.l.tail[B1];
                self.l.release(s);
                self.replace(false);
            } else {
                let s = self.l.tail[T1];
                self.l.release(s);
            }
        } else if total >= c {
            if total == 2 * c {
                let s = self.l.tail[B2];
                self.l.release(s);
            }
            self.replace(false);
        }
        self.l.insert(k, T1);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l
            .find(k)
            .is_some_and(|s| (self.l.list[s as usize] as usize) < B1)
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            if (self.l.list[s as usize] as usize) < B1 {
                self.l.release(s);
            }
        }
    }
    fn resident(&self) -> Vec<u64> {
        let mut v = self.l.keys_in(T1);
        v.extend(self.l.keys_in(T2));
        v
    }
}

const A1IN: usize = 0;
const AM: usize = 1;
const A1OUT: usize = 2;

/// Full 2Q (Johnson & Shasha, VLDB 1994): A1in, a FIFO of first references (Kin = 25 % of the
/// blocks), A1out, a FIFO of the keys evicted from A1in (Kout = 50 % of the blocks, no data), and
/// Am, an LRU of blocks referenced again after leaving A1in. A hit in A1in changes nothing.
pub struct TwoQ {
    c: usize,
    kin: usize,
    kout: usize,
    l: Lists,
}
impl TwoQ {
    pub fn new(c: usize) -> TwoQ {
        TwoQ {
            c,
            kin: (c / 4).max(1),
            kout: (c / 2).max(1),
            l: Lists::new(c + c / 2 + 1),
        }
    }
    fn reclaim(&mut self) {
        if self.l.len[A1IN] + self.l.len[AM] < self.c {
            return;
        }
        if self.l.len[A1IN] > self.kin || self.l.len[AM] == 0 {
            let s = self.l.tail[A1IN];
            self.l.move_head(s, A1OUT);
            if self.l.len[A1OUT] > self.kout {
                let g = self.l.tail[A1OUT];
                self.l.release(g);
            }
        } else {
            let s = self.l.tail[AM];
            self.l.release(s);
        }
    }
}
impl Policy for TwoQ {
    fn access(&mut self, k: u64) -> bool {
        if let Some(s) = self.l.find(k) {
            match self.l.list[s as usize] as usize {
                AM => {
                    self.l.move_head(s, AM);
                    return true;
                }
                A1IN => return true,
                _ => {
                    self.l.release(s);
                    self.reclaim();
                    self.l.insert(k, AM);
                    return false;
                }
            }
        }
        self.reclaim();
        self.l.insert(k, A1IN);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l
            .find(k)
            .is_some_and(|s| (self.l.list[s as usize] as usize) != A1OUT)
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            if (self.l.list[s as usize] as usize) != A1OUT {
                self.l.release(s);
            }
        }
    }
    fn resident(&self) -> Vec<u64> {
        let mut v = self.l.keys_in(A1IN);
        v.extend(self.l.keys_in(AM));
        v
    }
}

const S: usize = 0;
const M: usize = 1;
const G: usize = 2;

/// S3-FIFO (Yang et al., SOSP 2023, Algorithm 1): a small FIFO S (10 % of the blocks), a main
/// FIFO M (the rest) and a ghost FIFO G of keys (as many as M holds). Each resident block has a
/// 2-bit frequency (0..3) raised by hits. A new block enters S, or M if its key is in G.
/// Eviction: from S when S holds at least 10 % of the blocks, else from M. S's tail moves to M if
/// its frequency is above 1 (M evicting first if full), else its key goes to G. M's tail with a
/// frequency above 0 is reinserted at M's head with its frequency lowered by one, else evicted.
pub struct S3Fifo {
    c: usize,
    small: usize,
    main: usize,
    l: Lists,
}
impl S3Fifo {
    pub fn new(c: usize) -> S3Fifo {
        let small = (c / 10).max(1);
        let main = c.saturating_sub(small).max(1);
        S3Fifo {
            c,
            small,
            main,
            l: Lists::new(c + main + 1),
        }
    }
    fn evict_m(&mut self) {
        while self.l.len[M] > 0 {
            let t = self.l.tail[M];
            let f = self.l.flag[t as usize];
            if f > 0 {
                self.l.flag[t as usize] = f - 1;
                self.l.move_head(t, M);
            } else {
                self.l.release(t);
                return;
            }
        }
    }
    fn evict_s(&mut self) {
        while self.l.len[S] > 0 {
            let t = self.l.tail[S];
            if self.l.flag[t as usize] > 1 {
                if self.l.len[M] >= self.main {
                    self.evict_m();
                }
                self.l.flag[t as usize] = 0;
                self.l.move_head(t, M);
            } else {
                self.l.flag[t as usize] = 0;
                self.l.move_head(t, G);
                if self.l.len[G] > self.main {
                    let g = self.l.tail[G];
                    self.l.release(g);
                }
                return;
            }
        }
    }
    fn evict(&mut self) {
        if self.l.len[S] >= self.small || self.l.len[M] == 0 {
            self.evict_s();
        } else {
            self.evict_m();
        }
    }
}
impl Policy for S3Fifo {
    fn access(&mut self, k: u64) -> bool {
        let ghost = match self.l.find(k) {
            Some(s) if (self.l.list[s as usize] as usize) != G => {
                let f = &mut self.l.flag[s as usize];
                *f = (*f + 1).min(3);
                return true;
            }
            Some(s) => {
                self.l.release(s);
                true
            }
            None => false,
        };
        while self.l.len[S] + self.l.len[M] >= self.c {
            self.evict();
        }
        self.l.insert(k, if ghost { M } else { S });
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l
            .find(k)
            .is_some_and(|s| (self.l.list[s as usize] as usize) != G)
    }
    fn remove(&mut self, k: u64) {
        if let Some(s) = self.l.find(k) {
            if (self.l.list[s as usize] as usize) != G {
                self.l.release(s);
            }
        }
    }
    fn resident(&self) -> Vec<u64> {
        let mut v = self.l.keys_in(S);
        v.extend(self.l.keys_in(M));
        v
    }
}
