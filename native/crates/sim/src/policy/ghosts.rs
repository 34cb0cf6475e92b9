//! The policies with ghost lists of recently evicted keys: ARC and 2Q.

use super::lists::Lists;
use super::Policy;

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
