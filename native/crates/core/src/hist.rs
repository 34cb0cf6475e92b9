//! The log-scale latency histogram: 4 buckets per octave of microseconds, nearest-rank
//! percentiles, and the compact encoding of the `latency_histograms` table (schema v6).
//!
//! Buckets: bucket 0 holds [0, 1 µs); bucket k ≥ 1 holds [2^((k−1)/4), 2^(k/4)) µs, so each
//! bucket is 18.9 % wider than the one before. A percentile is the bucket holding the request of
//! rank ⌈p × n⌉ (nearest rank) among the n completed requests: it is given as that bucket's edges.

use std::collections::BTreeMap;

/// Buckets per doubling of the latency.
pub const BUCKETS_PER_OCTAVE: u32 = 4;
/// The percentiles reported.
pub const PERCENTILES: [f64; 4] = [50.0, 95.0, 99.0, 99.9];
/// The largest bucket the table's encoding holds (2^(254/4) µs: no real latency comes near).
pub const MAX_BUCKET: u32 = 255;

/// Bucket index of a latency in ns (see the module doc).
pub fn bucket_of_ns(ns: u64) -> u32 {
    let us = ns as f64 / 1000.0;
    if us < 1.0 {
        return 0;
    }
    let k = (us.log2() * f64::from(BUCKETS_PER_OCTAVE)).floor() as u32 + 1;
    // Guard the float at the exact edges: the bucket's low edge must be ≤ us.
    if low_us(k) > us {
        k - 1
    } else if high_us(k) <= us {
        k + 1
    } else {
        k
    }
}

/// Low edge of bucket k in µs.
pub fn low_us(k: u32) -> f64 {
    if k == 0 {
        0.0
    } else {
        2f64.powf(f64::from(k - 1) / f64::from(BUCKETS_PER_OCTAVE))
    }
}

/// High edge (exclusive) of bucket k in µs.
pub fn high_us(k: u32) -> f64 {
    2f64.powf(f64::from(k) / f64::from(BUCKETS_PER_OCTAVE))
}

/// Bucket index of a latency given in µs (e.g. fio's `clat_ns` percentiles / 1000).
pub fn bucket_of_us(us: f64) -> u32 {
    bucket_of_ns((us * 1000.0).round().max(0.0) as u64)
}

/// A latency histogram.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hist {
    pub counts: BTreeMap<u32, u64>,
    pub n: u64,
    pub sum_ns: u128,
}

impl Hist {
    pub fn add(&mut self, ns: u64) {
        *self
            .counts
            .entry(bucket_of_ns(ns).min(MAX_BUCKET))
            .or_default() += 1;
        self.n += 1;
        self.sum_ns += u128::from(ns);
    }
    /// Add another histogram's counts.
    pub fn merge(&mut self, o: &Hist) {
        for (k, c) in &o.counts {
            *self.counts.entry(*k).or_default() += c;
        }
        self.n += o.n;
        self.sum_ns += o.sum_ns;
    }
    /// Bucket of the nearest-rank percentile p (0 < p ≤ 100); None when empty.
    pub fn percentile_bucket(&self, p: f64) -> Option<u32> {
        if self.n == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.n as f64).ceil().max(1.0) as u64;
        let mut cum = 0;
        for (k, c) in &self.counts {
            cum += c;
            if cum >= rank {
                return Some(*k);
            }
        }
        self.counts.keys().next_back().copied()
    }
    /// The buckets as the table stores them: (u8 bucket, LEB128 count) pairs, buckets ascending.
    pub fn encode_buckets(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.counts.len() * 3);
        for (k, c) in &self.counts {
            out.push((*k).min(MAX_BUCKET) as u8);
            let mut v = *c;
            loop {
                let b = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    out.push(b);
                    break;
                }
                out.push(b | 0x80);
            }
        }
        out
    }
    /// A histogram from the table's columns; None when the buckets do not decode or do not add
    /// up to `completed` (a damaged or edited row).
    pub fn decode(buckets: &[u8], completed: u64, sum_ns: u128) -> Option<Hist> {
        let mut counts = BTreeMap::new();
        let mut i = 0;
        let mut n = 0u64;
        let mut prev: Option<u32> = None;
        while i < buckets.len() {
            let k = u32::from(buckets[i]);
            if prev.is_some_and(|p| p >= k) {
                return None;
            }
            prev = Some(k);
            i += 1;
            let mut v = 0u64;
            let mut shift = 0;
            loop {
                let b = *buckets.get(i)?;
                i += 1;
                if shift > 63 {
                    return None;
                }
                v |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            counts.insert(k, v);
            n = n.checked_add(v)?;
        }
        (n == completed).then_some(Hist { counts, n, sum_ns })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn buckets_have_the_stated_edges() {
        assert_eq!(bucket_of_ns(0), 0);
        assert_eq!(bucket_of_ns(999), 0);
        assert_eq!(bucket_of_ns(1000), 1);
        assert_eq!(bucket_of_ns(2000), 5);
        assert_eq!(bucket_of_ns(1999), 4);
        assert_eq!(bucket_of_ns(1_024_000), 41);
        for k in 1..200 {
            let lo = low_us(k);
            let hi = high_us(k);
            assert!((hi / lo - 2f64.powf(0.25)).abs() < 1e-9);
            assert_eq!(bucket_of_us(lo * 1.001), k, "bucket {k}");
            assert_eq!(bucket_of_us(hi * 0.999), k, "bucket {k}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut h = Hist::default();
        for us in 1..=100u64 {
            h.add(us * 1000);
        }
        // rank 50 is 50 µs, rank 99 is 99 µs, rank 100 (p99.9) is 100 µs
        assert_eq!(h.percentile_bucket(50.0), Some(bucket_of_ns(50_000)));
        assert_eq!(h.percentile_bucket(99.0), Some(bucket_of_ns(99_000)));
        assert_eq!(h.percentile_bucket(99.9), Some(bucket_of_ns(100_000)));
        assert_eq!(Hist::default().percentile_bucket(50.0), None);
    }

    #[test]
    fn the_table_encoding_round_trips_and_refuses_damage() {
        let mut h = Hist::default();
        for us in [1u64, 3, 3, 250, 251, 7000] {
            h.add(us * 1000);
        }
        for _ in 0..300 {
            h.add(90_000); // a count above 127 takes two bytes
        }
        let b = h.encode_buckets();
        assert_eq!(b.len(), 2 * 5 + 1);
        let back = Hist::decode(&b, h.n, h.sum_ns).unwrap();
        assert_eq!(back, h);
        // two histograms of the same interval (a late completion) merge into their sum
        let mut a = Hist::default();
        a.add(5_000);
        let mut m = back.clone();
        m.merge(&a);
        assert_eq!(m.n, h.n + 1);
        assert_eq!(m.counts[&bucket_of_ns(5_000)], 1);
        // counts that do not add up, a cut-off count, buckets out of order: refused
        assert_eq!(Hist::decode(&b, h.n + 1, 0), None);
        assert_eq!(Hist::decode(&[3, 0x81], 1, 0), None);
        assert_eq!(Hist::decode(&[5, 1, 3, 1], 2, 0), None);
        assert_eq!(Hist::decode(&[], 0, 0), Some(Hist::default()));
    }
}
