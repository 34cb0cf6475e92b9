//! The slots every policy keeps its blocks in: up to four doubly linked lists with a key index.

use super::KeyMap;

const NIL: u32 = u32::MAX;

/// Slots in up to four doubly linked lists (head = most recent insert), with a key index.
pub(super) struct Lists {
    key: Vec<u64>,
    prev: Vec<u32>,
    next: Vec<u32>,
    pub(super) list: Vec<u8>,
    pub(super) flag: Vec<u8>,
    free: Vec<u32>,
    head: [u32; 4],
    pub(super) tail: [u32; 4],
    pub(super) len: [usize; 4],
    map: KeyMap<u32>,
}

impl Lists {
    pub(super) fn new(cap: usize) -> Lists {
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
    pub(super) fn find(&self, k: u64) -> Option<u32> {
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
    pub(super) fn move_head(&mut self, s: u32, l: usize) {
        self.unlink(s);
        self.push_head(s, l);
    }
    /// A new slot for `k` at the head of list `l`.
    #[inline]
    pub(super) fn insert(&mut self, k: u64, l: usize) -> u32 {
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
    pub(super) fn release(&mut self, s: u32) {
        self.unlink(s);
        self.map.remove(&self.key[s as usize]);
        self.free.push(s);
    }
    /// Inserts `k` at the head of list 0, first evicting list 0's tail when it holds `cap`
    /// blocks (LRU's and FIFO's miss).
    #[inline]
    pub(super) fn insert_evicting_tail(&mut self, k: u64, cap: usize) {
        if self.len[0] >= cap {
            let t = self.tail[0];
            self.release(t);
        }
        self.insert(k, 0);
    }
    /// Drops the block `k` if it is in any list.
    pub(super) fn release_key(&mut self, k: u64) {
        if let Some(s) = self.find(k) {
            self.release(s);
        }
    }
    pub(super) fn keys_in(&self, l: usize) -> Vec<u64> {
        let mut v = Vec::with_capacity(self.len[l]);
        let mut s = self.head[l];
        while s != NIL {
            v.push(self.key[s as usize]);
            s = self.next[s as usize];
        }
        v
    }
}
