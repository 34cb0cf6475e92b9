//! S3-FIFO: a small and a main FIFO, and a ghost FIFO of keys.

use super::lists::Lists;
use super::Policy;

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
