//! Issues and completions → one [`Request`] each, first in first out; the byte stream of
//! `trace_pipe` → lines → a [`TraceBatch`] for the writer.

use std::collections::{HashMap, VecDeque};

use super::parse::{op_of, parse_line, Event, Line};

/// A line longer than this is not a trace line.
const MAX_LINE: usize = 64 * 1024;

/// One block request: what the `block_requests` table stores (before the device id and the
/// wall-clock label, which the writer adds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub dev: (u32, u32),
    pub issue_ns: u64,
    pub complete_ns: Option<u64>,
    pub sector: u64,
    pub bytes: u64,
    pub op: char,
    pub rwbs: String,
    pub error: Option<i32>,
}

/// (device, operation, sector, sectors); the sector is 0 for requests of 0 sectors, whose
/// issue and completion print different sectors.
type Key = ((u32, u32), char, u64, u32);

fn key(e: &Event) -> Key {
    let op = op_of(&e.rwbs, e.nr_sector);
    let sector = if e.nr_sector == 0 { 0 } else { e.sector };
    (e.dev, op, sector, e.nr_sector)
}

/// Pairs issues with completions by (device, operation, sector, sectors), first in first out.
#[derive(Debug, Default)]
pub struct Pairer {
    pending: HashMap<Key, VecDeque<Request>>,
    len: usize,
    /// Completions without an issue (issued before tracing started, or ended by the kernel
    /// without being issued, as the flush machinery does).
    pub unmatched_completions: u64,
}

impl Pairer {
    /// A request reached the driver.
    pub fn issue(&mut self, e: Event) {
        let k = key(&e);
        let bytes = if e.nr_sector == 0 {
            e.bytes.unwrap_or(0)
        } else {
            u64::from(e.nr_sector) * 512
        };
        self.pending.entry(k).or_default().push_back(Request {
            dev: e.dev,
            issue_ns: e.ts_ns,
            complete_ns: None,
            sector: e.sector,
            bytes,
            op: k.1,
            rwbs: e.rwbs,
            error: None,
        });
        self.len += 1;
    }

    /// A request completed: the oldest pending issue of its key, completed.
    pub fn complete(&mut self, e: &Event) -> Option<Request> {
        let k = key(e);
        let q = self.pending.get_mut(&k);
        let r = q.and_then(|q| q.pop_front());
        if self.pending.get(&k).is_some_and(|q| q.is_empty()) {
            self.pending.remove(&k);
        }
        match r {
            Some(mut r) => {
                self.len -= 1;
                r.complete_ns = Some(e.ts_ns);
                r.error = e.error;
                Some(r)
            }
            None => {
                self.unmatched_completions += 1;
                None
            }
        }
    }

    /// Requests issued before `cutoff_ns` and still not completed, removed (complete NULL).
    pub fn expire(&mut self, cutoff_ns: u64) -> Vec<Request> {
        let mut out = Vec::new();
        self.pending.retain(|_, q| {
            while q.front().is_some_and(|r| r.issue_ns < cutoff_ns) {
                if let Some(r) = q.pop_front() {
                    out.push(r);
                }
            }
            !q.is_empty()
        });
        self.len -= out.len();
        out
    }

    /// Every pending request (complete NULL), oldest first.
    pub fn drain(&mut self) -> Vec<Request> {
        let mut out: Vec<Request> = self.pending.drain().flat_map(|(_, q)| q).collect();
        out.sort_by_key(|r| r.issue_ns);
        self.len = 0;
        out
    }

    /// Whether a request issued at or before `t_ns` still waits for its completion.
    pub fn pending_until(&self, t_ns: u64) -> bool {
        self.pending
            .values()
            .any(|q| q.front().is_some_and(|r| r.issue_ns <= t_ns))
    }

    /// Requests waiting for their completion.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No request waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Splits a byte stream into lines and parses them into a pairer and a batch.
#[derive(Debug, Default)]
pub struct Feeder {
    carry: Vec<u8>,
    pub pairer: Pairer,
}

impl Feeder {
    /// Feed bytes read from `trace_pipe`; finished requests, losses and unparsed lines go into
    /// `batch`.
    pub fn feed(&mut self, bytes: &[u8], batch: &mut TraceBatch) {
        self.carry.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(n) = self.carry[start..].iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.carry[start..start + n]).into_owned();
            start += n + 1;
            self.line(&line, batch);
        }
        self.carry.drain(..start);
        if self.carry.len() > MAX_LINE {
            let line = String::from_utf8_lossy(&self.carry[..80]).into_owned();
            self.carry.clear();
            batch.unparsed(&line);
        }
    }

    fn line(&mut self, line: &str, batch: &mut TraceBatch) {
        match parse_line(line) {
            None => {}
            Some(Line::Issue(e)) => self.pairer.issue(e),
            Some(Line::Complete(e)) => {
                if let Some(r) = self.pairer.complete(&e) {
                    batch.requests.push(r);
                }
            }
            Some(Line::Lost { cpu, events }) => {
                batch.lost += events;
                if !batch.lost_cpus.contains(&cpu) {
                    batch.lost_cpus.push(cpu);
                }
            }
            Some(Line::Garbage) => batch.unparsed(line),
        }
    }
}

/// What the tracer hands to the writer.
#[derive(Debug, Default)]
pub struct TraceBatch {
    /// Finished requests (completed, or given up on: `complete_ns` None).
    pub requests: Vec<Request>,
    /// Events the kernel reported lost.
    pub lost: u64,
    pub lost_cpus: Vec<u32>,
    /// Lines not understood, and the first of them.
    pub unparsed: u64,
    pub unparsed_example: Option<String>,
    /// Set on the tracer's last batch.
    pub last: bool,
    /// Why the tracer stopped early (its last batch).
    pub error: Option<String>,
}

impl TraceBatch {
    fn unparsed(&mut self, line: &str) {
        self.unparsed += 1;
        if self.unparsed_example.is_none() {
            self.unparsed_example = Some(line.chars().take(200).collect());
        }
    }

    pub(crate) fn has_news(&self) -> bool {
        !self.requests.is_empty() || self.lost > 0 || self.unparsed > 0
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::parse::tests::{COMPLETE, ISSUE};

    fn feed(f: &mut Feeder, lines: &[&str]) -> TraceBatch {
        let mut b = TraceBatch::default();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // Split mid-line to exercise the carry.
        let (a, c) = text.as_bytes().split_at(text.len() / 2);
        f.feed(a, &mut b);
        f.feed(c, &mut b);
        b
    }

    #[test]
    fn pairs_fifo_flushes_and_losses() {
        let mut f = Feeder::default();
        let b = feed(
            &mut f,
            &[
                "a-1 [0] ..... 1.000000: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [a]",
                "a-1 [0] ..... 1.000010: block_rq_issue: 7,0 W 4096 () 8 + 8 none,0,0 [a]",
                "a-1 [0] ..... 1.000020: block_rq_issue: 7,0 R 4096 () 8 + 8 none,0,0 [a]",
                "k-2 [1] ..... 1.000030: block_rq_issue: 7,0 FF 0 () 0 + 0 none,0,0 [k]",
                "i-0 [1] ..s1. 1.000100: block_rq_complete: 7,0 R () 8 + 8 none,0,0 [0]",
                "i-0 [1] ..s1. 1.000200: block_rq_complete: 7,0 W () 8 + 8 none,0,0 [0]",
                "i-0 [1] ..s.. 1.000300: block_rq_complete: 7,0 FF () 18446744073709551615 + 0 none,0,0 [0]",
                // Ended by the flush machinery without an issue: not a request.
                "i-0 [1] d.s1. 1.000310: block_rq_complete: 7,0 WS () 0 + 0 be,0,4 [0]",
                "CPU:0 [LOST 7 EVENTS]",
                "garbage here",
                "i-0 [1] ..s1. 1.000400: block_rq_complete: 7,0 W () 8 + 8 none,0,0 [-5]",
                "a-1 [0] ..... 1.000500: block_rq_issue: 7,0 W 4096 () 64 + 8 none,0,0 [a]",
            ],
        );
        type Row = (char, u64, Option<u64>, u64, Option<i32>);
        let got: Vec<Row> = b
            .requests
            .iter()
            .map(|r| (r.op, r.issue_ns, r.complete_ns, r.bytes, r.error))
            .collect();
        assert_eq!(
            got,
            vec![
                ('R', 1_000_020_000, Some(1_000_100_000), 4096, Some(0)),
                ('W', 1_000_000_000, Some(1_000_200_000), 4096, Some(0)),
                ('F', 1_000_030_000, Some(1_000_300_000), 0, Some(0)),
                ('W', 1_000_010_000, Some(1_000_400_000), 4096, Some(-5)),
            ]
        );
        assert_eq!((b.lost, b.lost_cpus.clone()), (7, vec![0]));
        assert_eq!(
            (b.unparsed, b.unparsed_example.as_deref()),
            (1, Some("garbage here"))
        );
        assert_eq!(f.pairer.unmatched_completions, 1);
        assert_eq!(f.pairer.len(), 1);
        assert!(f.pairer.pending_until(1_000_500_000));
        assert!(!f.pairer.pending_until(1_000_499_999));
        assert!(f.pairer.expire(1_000_500_000).is_empty());
        let left = f.pairer.expire(1_000_500_001);
        assert_eq!(left.len(), 1);
        assert_eq!((left[0].sector, left[0].complete_ns), (64, None));
        assert!(f.pairer.is_empty());
    }

    #[test]
    fn long_lines_without_newline_are_dropped_and_counted() {
        let mut f = Feeder::default();
        let mut b = TraceBatch::default();
        f.feed(&vec![b'x'; MAX_LINE + 10], &mut b);
        assert_eq!(b.unparsed, 1);
        f.feed(format!("{ISSUE}\n{COMPLETE}\n").as_bytes(), &mut b);
        assert_eq!(b.requests.len(), 1);
    }

    #[test]
    fn keys_separate_devices_and_sizes_and_drain_is_oldest_first() {
        let mut f = Feeder::default();
        let b = feed(
            &mut f,
            &[
                "a-1 [0] ..... 2.000000: block_rq_issue: 8,16 R 4096 () 8 + 8 none,0,0 [a]",
                "a-1 [0] ..... 2.000001: block_rq_issue: 7,0 R 8192 () 8 + 16 none,0,0 [a]",
                "a-1 [0] ..... 2.000002: block_rq_issue: 7,0 R 4096 () 8 + 8 none,0,0 [a]",
                // Same sector on another device, and another size: each its own request.
                "i-0 [1] ..s1. 2.000100: block_rq_complete: 7,0 R () 8 + 8 none,0,0 [0]",
                "a-1 [0] ..... 2.000003: block_rq_issue: 7,0 D 0 () 2048 + 2048 none,0,0 [a]",
            ],
        );
        assert_eq!(b.requests.len(), 1);
        let r = &b.requests[0];
        assert_eq!((r.dev, r.issue_ns, r.bytes), ((7, 0), 2_000_002_000, 4096));
        assert_eq!(f.pairer.len(), 3);
        let left = f.pairer.drain();
        let got: Vec<((u32, u32), u64, char, u64)> = left
            .iter()
            .map(|r| (r.dev, r.issue_ns, r.op, r.bytes))
            .collect();
        assert_eq!(
            got,
            vec![
                ((8, 16), 2_000_000_000, 'R', 4096),
                ((7, 0), 2_000_001_000, 'R', 8192),
                // A discard's size comes from its sectors (the byte field is 0).
                ((7, 0), 2_000_003_000, 'D', 2048 * 512),
            ]
        );
        assert!(left.iter().all(|r| r.complete_ns.is_none()));
        assert!(f.pairer.is_empty());
    }
}
