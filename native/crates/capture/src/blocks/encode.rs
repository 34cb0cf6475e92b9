//! The block encoding (docs/capture-schema.md, "`interval_blocks`"): rows buffered per device
//! column by column, each column encoded as null, constant, offsets of 1, 2 or 4 bytes from a
//! base, or f64, and a full buffer sealed as one [`Block`].

use super::{BLOCK_FORMAT, BUFFERED_ROWS, MAX_BLOCK_ROWS, MIN_BLOCK_ROWS, NCOL};

/// Column kinds in a block.
const KIND_NULL: u8 = 0;
const KIND_CONST: u8 = 1;
const KIND_OFFSET: u8 = 2;
const KIND_F64: u8 = 3;

/// Status code of a capture's status text, as the app's engine numbers them
/// (`INTERVAL_STATUSES`: ok, wrap, reset, clock-jump; anything else is a gap).
pub(super) fn status_code(s: &str) -> f64 {
    match s {
        "ok" => 0.0,
        "wrap" => 1.0,
        "reset" => 2.0,
        "clock-jump" => 3.0,
        _ => 4.0,
    }
}

/// One device's rows waiting to be written, column by column (NaN = NULL).
struct Pending {
    seq: i64,
    cols: [Vec<f64>; NCOL],
}

impl Pending {
    fn new() -> Pending {
        Pending {
            seq: 0,
            cols: Default::default(),
        }
    }
    fn len(&self) -> usize {
        self.cols[0].len()
    }
}

/// Appends one column, encoded (a header of 8 bytes, then its payload padded to 8 bytes).
fn encode_column(out: &mut Vec<u8>, v: &[f64]) {
    let first = v[0];
    let (mut nulls, mut ints, mut same) = (0usize, true, true);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &x in v {
        if x.is_nan() {
            nulls += 1;
            continue;
        }
        if x.to_bits() != first.to_bits() {
            same = false;
        }
        if x.fract() != 0.0 || x.abs() > 9_007_199_254_740_992.0 {
            ints = false;
        }
        lo = lo.min(x);
        hi = hi.max(x);
    }
    let header = |out: &mut Vec<u8>, kind: u8, width: u8| {
        out.extend_from_slice(&[kind, width, 0, 0, 0, 0, 0, 0]);
    };
    if nulls == v.len() {
        header(out, KIND_NULL, 0);
        return;
    }
    if nulls == 0 && same {
        header(out, KIND_CONST, 0);
        out.extend_from_slice(&first.to_le_bytes());
        return;
    }
    // Offsets from the smallest value; the largest offset of the width means NULL.
    let range = hi - lo;
    let width: u8 = if !ints {
        0
    } else if range < 255.0 {
        1
    } else if range < 65_535.0 {
        2
    } else if range < 4_294_967_295.0 {
        4
    } else {
        0
    };
    if width == 0 {
        header(out, KIND_F64, 8);
        for &x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
        return;
    }
    header(out, KIND_OFFSET, width);
    out.extend_from_slice(&lo.to_le_bytes());
    for &x in v {
        let off: u32 = if x.is_nan() {
            match width {
                1 => 0xFF,
                2 => 0xFFFF,
                _ => u32::MAX,
            }
        } else {
            (x - lo) as u32
        };
        match width {
            1 => out.push(off as u8),
            2 => out.extend_from_slice(&(off as u16).to_le_bytes()),
            _ => out.extend_from_slice(&off.to_le_bytes()),
        }
    }
    while !out.len().is_multiple_of(8) {
        out.push(0);
    }
}

/// A block's bytes: format, row count, then the columns in order.
fn encode_block(p: &Pending) -> Vec<u8> {
    let n = p.len();
    let mut out = Vec::with_capacity(8 + n * NCOL * 4);
    out.extend_from_slice(&BLOCK_FORMAT.to_le_bytes());
    out.extend_from_slice(&(n as u32).to_le_bytes());
    for c in &p.cols {
        encode_column(&mut out, c);
    }
    out
}

/// One encoded block of a device's rows.
pub struct Block {
    pub(super) dev: i64,
    pub(super) seq: i64,
    pub(super) rows: usize,
    pub(super) min_start: f64,
    pub(super) max_end: f64,
    pub(super) sorted: bool,
    pub(super) first_start: f64,
    pub(super) last_start: f64,
    pub(super) data: Vec<u8>,
}

/// Builds the interval blocks of rows given in rowid order: one buffer per device, encoded as a
/// block when full ([`MAX_BLOCK_ROWS`], fewer when many devices share [`BUFFERED_ROWS`]).
pub struct BlockBuilder {
    block_rows: usize,
    pending: std::collections::BTreeMap<i64, Pending>,
    /// Rows pushed.
    pub rows: u64,
}

impl BlockBuilder {
    /// A builder for a capture of `devices` devices.
    pub fn new(devices: usize) -> BlockBuilder {
        BlockBuilder {
            block_rows: (BUFFERED_ROWS / devices.max(1)).clamp(MIN_BLOCK_ROWS, MAX_BLOCK_ROWS),
            pending: Default::default(),
            rows: 0,
        }
    }

    /// Adds a row of device `dev` (`devices.id`): start, end, interval_ms, status code
    /// ([`status_code`]), reads, writes, read_bytes, write_bytes, read_time_ms, write_time_ms,
    /// busy_ms, weighted_ms (NaN: NULL). Returns the device's block when it is full.
    pub fn push(&mut self, dev: i64, row: [f64; NCOL]) -> Option<Block> {
        self.rows += 1;
        let p = self.pending.entry(dev).or_insert_with(Pending::new);
        for (c, v) in p.cols.iter_mut().zip(row) {
            c.push(v);
        }
        (p.len() >= self.block_rows).then(|| seal(dev, p))
    }

    /// The blocks of the rows still buffered.
    pub fn finish(mut self) -> Vec<Block> {
        self.pending
            .iter_mut()
            .filter(|(_, p)| p.len() > 0)
            .map(|(d, p)| seal(*d, p))
            .collect()
    }
}

/// The capture's status code of a status text (for [`BlockBuilder::push`]).
pub fn status_code_of(s: &str) -> f64 {
    status_code(s)
}

/// Encodes a device's buffered rows as its next block and empties the buffer.
fn seal(dev: i64, p: &mut Pending) -> Block {
    let n = p.len();
    let starts = &p.cols[0];
    let b = Block {
        dev,
        seq: p.seq,
        rows: n,
        sorted: starts.windows(2).all(|w| w[0] <= w[1]),
        min_start: starts.iter().cloned().fold(f64::INFINITY, f64::min),
        max_end: p.cols[1].iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        first_start: starts[0],
        last_start: starts[n - 1],
        data: encode_block(p),
    };
    p.seq += 1;
    for c in p.cols.iter_mut() {
        c.clear();
    }
    b
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn decode(b: &[u8]) -> Vec<Vec<f64>> {
        let n = u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize;
        let mut at = 8;
        let mut cols = Vec::new();
        for _ in 0..NCOL {
            let (kind, width) = (b[at], b[at + 1]);
            at += 8;
            let f = |at: usize| f64::from_le_bytes(b[at..at + 8].try_into().unwrap());
            let col: Vec<f64> = match kind {
                KIND_NULL => vec![f64::NAN; n],
                KIND_CONST => {
                    at += 8;
                    vec![f(at - 8); n]
                }
                KIND_F64 => {
                    let v = (0..n).map(|i| f(at + 8 * i)).collect();
                    at += 8 * n;
                    v
                }
                _ => {
                    let base = f(at);
                    at += 8;
                    let w = width as usize;
                    let v = (0..n)
                        .map(|i| {
                            let s = &b[at + w * i..at + w * (i + 1)];
                            let (u, null) = match w {
                                1 => (s[0] as u32, 0xFF),
                                2 => (u16::from_le_bytes([s[0], s[1]]) as u32, 0xFFFF),
                                _ => (u32::from_le_bytes(s.try_into().unwrap()), u32::MAX),
                            };
                            if u == null {
                                f64::NAN
                            } else {
                                base + u as f64
                            }
                        })
                        .collect();
                    at += (w * n).div_ceil(8) * 8;
                    v
                }
            };
            cols.push(col);
        }
        assert_eq!(at, b.len());
        cols
    }

    fn same(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits())
    }

    #[test]
    fn every_kind_of_column_decodes_to_what_was_written() {
        let mut p = Pending::new();
        let cols: [Vec<f64>; NCOL] = [
            vec![1.7e12, 1.7e12 + 1000.0, 1.7e12 + 2000.0], // offsets of 2 bytes
            vec![1.7e12 + 1000.0, 1.7e12 + 9e6, 1.7e12 + 3000.0], // offsets of 4 bytes
            vec![1000.25, 999.5, 1000.0],                   // fractional: f64
            vec![0.0, 0.0, 0.0],                            // constant
            vec![3.0, f64::NAN, 200.0],                     // 1 byte with a NULL
            vec![f64::NAN; 3],                              // all NULL
            vec![0.0, 65_000.0, 512.0],                     // 2 bytes
            vec![0.0, 5e9, 1.0],                            // beyond 4 bytes: f64
            vec![-5.0, 7.0, 0.0],                           // negative base
            vec![4_294_967_294.0, 0.0, 1.0], // the largest 4-byte offset that is not NULL
            vec![254.0, 0.0, f64::NAN],      // 254 fits one byte beside NULL
            vec![255.0, 0.0, 1.0],           // 255 does not: 2 bytes
        ];
        p.cols = cols.clone();
        let b = encode_block(&p);
        let kinds: Vec<(u8, u8)> = {
            let mut at = 8;
            let mut k = Vec::new();
            for c in &cols {
                let (kind, width) = (b[at], b[at + 1]);
                k.push((kind, width));
                at += 8 + match kind {
                    KIND_NULL => 0,
                    KIND_CONST => 8,
                    KIND_F64 => 8 * c.len(),
                    _ => 8 + (width as usize * c.len()).div_ceil(8) * 8,
                };
            }
            k
        };
        assert_eq!(
            kinds,
            vec![
                (2, 2),
                (2, 4),
                (3, 8),
                (1, 0),
                (2, 1),
                (0, 0),
                (2, 2),
                (3, 8),
                (2, 1),
                (2, 4),
                (2, 1),
                (2, 2)
            ]
        );
        let back = decode(&b);
        for (a, c) in back.iter().zip(&cols) {
            assert!(same(a, c), "{a:?} != {c:?}");
        }
        assert_eq!(b.len() % 8, 0);
    }
}
