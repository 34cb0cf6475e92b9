//! The policies of one list: LRU, FIFO and CLOCK.

use super::lists::Lists;
use super::Policy;

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
        self.l.insert_evicting_tail(k, self.cap);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l.find(k).is_some()
    }
    fn remove(&mut self, k: u64) {
        self.l.release_key(k);
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
        self.l.insert_evicting_tail(k, self.cap);
        false
    }
    fn contains(&self, k: u64) -> bool {
        self.l.find(k).is_some()
    }
    fn remove(&mut self, k: u64) {
        self.l.release_key(k);
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
        self.l.release_key(k);
    }
    fn resident(&self) -> Vec<u64> {
        self.l.keys_in(0)
    }
}
