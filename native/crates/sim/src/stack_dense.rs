//! LRU stack distances (stack.rs) of block keys that come in runs — a request's blocks are
//! consecutive — with each key's last reference time in a page table (pages of 4,096 keys,
//! found through a map of pages, the last page remembered) instead of a hash map of keys: the
//! exact LRU pass of `predict` over a day's trace spends most of its time finding keys.

use super::policy::KeyMap;
use super::stack::Fenwick;

const PAGE_BITS: u32 = 12;
const NONE: u32 = u32::MAX;

/// [`super::stack::StackDist`] for keys that come in runs: same distances.
pub struct DenseStackDist {
    fen: Fenwick,
    cap: usize,
    pages: Vec<Box<[u32]>>,
    page_of: KeyMap<u32>,
    last_page: (u64, u32),
    live: u32,
    t: usize,
}

impl DenseStackDist {
    /// `expected` sizes the tree of times; it is compacted when full.
    pub fn new(expected: usize) -> DenseStackDist {
        let cap = expected.max(1024);
        DenseStackDist {
            fen: Fenwick::new(cap),
            cap,
            pages: Vec::new(),
            page_of: KeyMap::default(),
            last_page: (u64::MAX, 0),
            live: 0,
            t: 0,
        }
    }
    /// Number of distinct keys seen.
    pub fn footprint(&self) -> usize {
        self.live as usize
    }
    #[inline]
    fn slot(&mut self, key: u64) -> &mut u32 {
        let page = key >> PAGE_BITS;
        if self.last_page.0 != page {
            let n = self.pages.len() as u32;
            let p = *self.page_of.entry(page).or_insert(n);
            if p == n {
                self.pages
                    .push(vec![NONE; 1 << PAGE_BITS].into_boxed_slice());
            }
            self.last_page = (page, p);
        }
        let i = (key & ((1 << PAGE_BITS) - 1)) as usize;
        &mut self.pages[self.last_page.1 as usize][i]
    }
    /// Renumber the live times 0..n in order, in a tree of twice that room.
    fn compact(&mut self) {
        let mut v: Vec<(u32, u32, u32)> = Vec::with_capacity(self.live as usize);
        for (p, page) in self.pages.iter().enumerate() {
            for (i, t) in page.iter().enumerate() {
                if *t != NONE {
                    v.push((*t, p as u32, i as u32));
                }
            }
        }
        v.sort_unstable();
        self.cap = (2 * v.len()).max(1024).max(self.cap);
        self.fen = Fenwick::new(self.cap);
        for (n, (_, p, i)) in v.iter().enumerate() {
            self.pages[*p as usize][*i as usize] = n as u32;
            self.fen.add(n, 1);
        }
        self.t = v.len();
    }
    /// Reference `key`; its stack distance (None: a first reference).
    #[inline]
    pub fn access(&mut self, key: u64) -> Option<u64> {
        if self.t >= self.cap {
            self.compact();
        }
        let now = self.t;
        self.t += 1;
        let live = self.live;
        let s = self.slot(key);
        let prev = std::mem::replace(s, now as u32);
        if prev == NONE {
            self.live += 1;
            self.fen.add(now, 1);
            None
        } else {
            let p = prev as usize;
            let d = live - self.fen.prefix(p);
            self.fen.add(p, -1);
            self.fen.add(now, 1);
            Some(u64::from(d))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::stack::StackDist;
    use super::*;

    #[test]
    fn the_same_distances_as_the_hash_map() {
        let mut a = StackDist::new(16);
        let mut b = DenseStackDist::new(16);
        let mut x = 7u64;
        for n in 0..200_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // runs of consecutive keys over a few pages and far apart
            let key = ((x >> 33) % 20_000) + (n % 5) + if x & 1 == 0 { 0 } else { 1 << 40 };
            assert_eq!(a.access(key), b.access(key), "reference {n}");
        }
        assert_eq!(a.footprint(), b.footprint());
    }
}
