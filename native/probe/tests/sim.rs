//! Cache simulation against figures worked out by hand (docs/simulate.md): a request spanning
//! several blocks, each write policy, each policy's eviction order on a tiny cache; the exact
//! LRU curve (stack distances) and the LRU simulation against an independent ordered-map LRU
//! on the real CloudPhysics trace; SHARDS at rate 1 equal to the exact curve.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use cacheproof_probe::sim::policy::PolicyKind;
use cacheproof_probe::sim::stack::Sampling;
use cacheproof_probe::sim::{for_blocks, lru_curve, shards_curve, simulate, Op, Req, WritePolicy};
use cacheproof_probe::testenv;
use cacheproof_probe::trace::import::{self as tracein, Kind, ReadOptions};

const B: u64 = 4096;

fn rd(offset: u64, bytes: u64) -> Req {
    Req {
        t_ns: 0,
        dev: 0,
        offset,
        bytes,
        op: Op::Read,
    }
}
fn wr(offset: u64, bytes: u64) -> Req {
    Req {
        op: Op::Write,
        ..rd(offset, bytes)
    }
}
#[test]
fn a_request_covers_every_block_it_touches() {
    // r1 [2048, 10240): blocks 0 (2048 B), 1 (4096 B), 2 (2048 B); r2 block 1; r3 blocks 0-2;
    // r4 [10000, 10100): block 2.
    let reqs = vec![rd(2048, 8192), rd(4096, 4096), rd(0, 12288), rd(10000, 100)];
    let mut parts = Vec::new();
    for_blocks(&reqs[0], B, |b, n| parts.push((b, n)));
    assert_eq!(parts, vec![(0, 2048), (1, 4096), (2, 2048)]);

    // 4 blocks: everything after r1 hits.
    let big = simulate(&reqs, PolicyKind::Lru, 4, B, WritePolicy::Bypass);
    assert_eq!(big.reads.requests, 4);
    assert_eq!(big.reads.hit_requests, 3);
    assert_eq!(big.reads.bytes, 8192 + 4096 + 12288 + 100);
    assert_eq!(big.reads.hit_bytes, 4096 + 12288 + 100);
    assert_eq!((big.reads.blocks, big.reads.hit_blocks), (8, 5));

    // 2 blocks: r1 leaves [2,1]; r2 hits 1; r3 misses 0 (evicts 2), hits 1, misses 2 (evicts
    // 0): a miss with 4096 hit bytes; r4 hits block 2.
    let small = simulate(&reqs, PolicyKind::Lru, 2, B, WritePolicy::Bypass);
    assert_eq!(small.reads.hit_requests, 2);
    assert_eq!(small.reads.hit_bytes, 4096 + 4096 + 100);
    assert_eq!(small.reads.hit_blocks, 3);

    // The one-pass curve gives the same figures at both sizes.
    let c = lru_curve(&reqs, B, WritePolicy::Bypass, &mut |_| {});
    assert_eq!(c.requests.hit_ratios(&[2, 4]), vec![0.5, 0.75]);
    assert_eq!(
        c.bytes.hit_ratios(&[2, 4]),
        vec![8292.0 / 24676.0, 16484.0 / 24676.0]
    );
    assert_eq!(c.blocks.hit_ratios(&[2, 4]), vec![3.0 / 8.0, 5.0 / 8.0]);
    assert_eq!(c.footprint_blocks, 3);
}

#[test]
fn each_write_policy() {
    // R b0, W b0, R b0, W b1, R b1 on a 2-block LRU.
    let reqs = vec![rd(0, B), wr(0, B), rd(0, B), wr(B, B), rd(B, B)];
    let a = simulate(&reqs, PolicyKind::Lru, 2, B, WritePolicy::Allocate);
    assert_eq!((a.reads.requests, a.reads.hit_requests), (3, 2));
    assert_eq!((a.writes.requests, a.writes.hit_requests), (2, 1));
    assert_eq!((a.counted.requests, a.counted.hit_requests), (5, 3));

    let b = simulate(&reqs, PolicyKind::Lru, 2, B, WritePolicy::Bypass);
    assert_eq!((b.reads.requests, b.reads.hit_requests), (3, 1));
    assert_eq!((b.writes.requests, b.writes.hit_requests), (2, 0));
    assert_eq!((b.counted.requests, b.counted.hit_requests), (3, 1));

    let i = simulate(&reqs, PolicyKind::Lru, 2, B, WritePolicy::Invalidate);
    assert_eq!((i.reads.requests, i.reads.hit_requests), (3, 0));
    assert_eq!(i.counted.requests, 3);

    // The curve agrees for the policies that have one.
    for (w, hits) in [
        (WritePolicy::Allocate, 3.0 / 5.0),
        (WritePolicy::Bypass, 1.0 / 3.0),
    ] {
        let c = lru_curve(&reqs, B, w, &mut |_| {});
        assert_eq!(c.requests.hit_ratio(2), hits, "{w:?}");
    }
    // Bypass keeps a cached block in place: R b0, W b0, R b0 hits.
    let keep = simulate(&reqs[..3], PolicyKind::Fifo, 1, B, WritePolicy::Bypass);
    assert_eq!(keep.reads.hit_requests, 1);
}

fn resident(p: PolicyKind, cap: u64, seq: &[u64]) -> (Vec<u64>, u64) {
    let mut c = p.build(cap as usize);
    let mut hits = 0;
    for k in seq {
        hits += u64::from(c.access(*k));
    }
    let mut r = c.resident();
    r.sort_unstable();
    (r, hits)
}

#[test]
fn eviction_order_of_each_policy_on_a_tiny_cache() {
    let seq = [1, 2, 3, 2, 1, 4, 5];
    // LRU: 4 evicts 3 (least recent), 5 evicts 2.
    assert_eq!(resident(PolicyKind::Lru, 3, &seq), (vec![1, 4, 5], 2));
    // FIFO: 4 evicts 1 (first in), 5 evicts 2.
    assert_eq!(resident(PolicyKind::Fifo, 3, &seq), (vec![3, 4, 5], 2));
    // CLOCK: 4 finds 1 and 2 referenced (cleared, go round), evicts 3; 5 finds 1 unreferenced.
    assert_eq!(resident(PolicyKind::Clock, 3, &seq), (vec![2, 4, 5], 2));

    // ARC, c = 2: 1,2 in T1; 1 hit -> T2; 3: T1's 2 -> B1; 2: ghost hit in B1, p = 1, T2's 1 ->
    // B2, 2 -> T2; 4: |T1| = p, so T2's 2 -> B2; resident 3, 4. (LRU would keep 2, 4.)
    let seq = [1, 2, 1, 3, 2, 4];
    assert_eq!(resident(PolicyKind::Arc, 2, &seq), (vec![3, 4], 1));
    assert_eq!(resident(PolicyKind::Lru, 2, &seq), (vec![2, 4], 1));

    // 2Q, 4 blocks (Kin 1, Kout 2): 1-4 fill A1in; 5 pushes 1 to A1out; 1 comes back into Am
    // (2 -> A1out) and hits there; 6 pushes 3 out; 7 pushes 4 out (A1out drops 2); 2 is new
    // again (5 out, 3 dropped); 4 is in A1out: into Am (6 out).
    let seq = [1, 2, 3, 4, 5, 1, 1, 6];
    assert_eq!(resident(PolicyKind::TwoQ, 4, &seq), (vec![1, 4, 5, 6], 1));
    let seq = [1, 2, 3, 4, 5, 1, 1, 6, 7, 2, 4];
    assert_eq!(resident(PolicyKind::TwoQ, 4, &seq), (vec![1, 2, 4, 7], 1));

    // S3-FIFO, 3 blocks (S 1, M 2, ghost 2): 1 seen 3 times (freq 2); 4 moves 1 to M, 2 to G;
    // 2 from G into M (3 to G); 5 sends 4 to G; 1 hits in M (freq 1); 6 sends 5 to G (3 dropped);
    // 4 from G into M (6 to G), S empty; 7 evicts from M: 1 has freq 1 (goes round), 2 evicted.
    let seq = [1, 1, 1, 2, 3, 4, 2, 5, 1, 6, 4, 7];
    assert_eq!(resident(PolicyKind::S3Fifo, 3, &seq), (vec![1, 4, 7], 3));
}

#[test]
fn invalidation_leaves_room_in_every_policy() {
    for p in PolicyKind::ALL {
        let mut c = p.build(2);
        c.access(1);
        c.access(2);
        c.remove(1);
        assert!(!c.contains(1), "{p:?}");
        assert!(!c.access(3), "{p:?}");
        // 2 was not evicted to make room for 3: a hole was left by the invalidation.
        assert!(c.contains(2) && c.contains(3), "{p:?}: {:?}", c.resident());
    }
}

fn cloudphysics(test: &str) -> Option<PathBuf> {
    testenv::realdata(test, "block_traces/libcachesim_cloudPhysicsIO.csv")
}

/// An independent LRU: an ordered map from last-use time to block, and block to time.
fn reference_lru(reqs: &[Req], cap: usize) -> (u64, u64, u64) {
    let mut by_time: BTreeMap<u64, u64> = BTreeMap::new();
    let mut time_of: HashMap<u64, u64> = HashMap::new();
    let (mut hit_req, mut hit_bytes, mut hit_blocks) = (0, 0, 0);
    let mut now = 0u64;
    for r in reqs {
        let mut all = true;
        let end = r.offset + r.bytes;
        for b in r.offset / B..=(end - 1) / B {
            now += 1;
            let n = end.min((b + 1) * B) - r.offset.max(b * B);
            if let Some(t) = time_of.insert(b, now) {
                by_time.remove(&t);
                hit_blocks += 1;
                hit_bytes += n;
            } else {
                all = false;
                if by_time.len() == cap {
                    let (_, old) = by_time.pop_first().unwrap();
                    time_of.remove(&old);
                }
            }
            by_time.insert(now, b);
        }
        hit_req += u64::from(all);
    }
    (hit_req, hit_bytes, hit_blocks)
}

#[test]
fn exact_lru_on_the_real_cloudphysics_trace_matches_an_ordered_map_lru() {
    let Some(p) =
        cloudphysics("exact_lru_on_the_real_cloudphysics_trace_matches_an_ordered_map_lru")
    else {
        return;
    };
    let tr = tracein::read(&p, Kind::Cloudphysics, ReadOptions::default()).unwrap();
    assert_eq!(tr.reqs.len(), 113_872);
    let w = WritePolicy::Allocate;
    let curve = lru_curve(&tr.reqs, B, w, &mut |_| {});
    let total_bytes: u64 = tr.reqs.iter().map(|r| r.bytes).sum();
    let n = tr.reqs.len() as f64;
    for cap in [100u64, 4_096, 32_768, 100_000, 250_000] {
        let (rq, by, bl) = reference_lru(&tr.reqs, cap as usize);
        let sim = simulate(&tr.reqs, PolicyKind::Lru, cap, B, w);
        assert_eq!(sim.counted.hit_requests, rq, "requests at {cap}");
        assert_eq!(sim.counted.hit_bytes, by, "bytes at {cap}");
        assert_eq!(sim.counted.hit_blocks, bl, "blocks at {cap}");
        assert_eq!(
            curve.requests.hit_ratio(cap),
            rq as f64 / n,
            "curve requests at {cap}"
        );
        assert!(
            (curve.bytes.hit_ratio(cap) - by as f64 / total_bytes as f64).abs() < 1e-12,
            "curve bytes at {cap}"
        );
        assert_eq!(
            curve.blocks.hit_ratio(cap),
            bl as f64 / sim.counted.blocks as f64,
            "curve blocks at {cap}"
        );
        assert!(rq > 0);
    }
    // SHARDS at rate 1 samples everything: the exact block curve.
    let s = shards_curve(&tr.reqs, B, w, Sampling::FixedRate(1.0), 0, &mut |_| {});
    let sizes = [100, 4_096, 32_768, 100_000];
    assert_eq!(s.hist.hit_ratios(&sizes), curve.blocks.hit_ratios(&sizes));
    // Calibrated on the references and the footprint, every block sampled: the exact curve too.
    let fp = curve.footprint_blocks;
    let calibrated = s.calibrated_hit_ratios(fp, &sizes).unwrap();
    for (a, e) in calibrated.iter().zip(curve.blocks.hit_ratios(&sizes)) {
        assert!(
            (a - e).abs() < 1e-9,
            "calibrated at rate 1: {a} vs exact {e}"
        );
    }
    // Fixed-size sampling of 32K blocks stays close to the exact curve.
    let mut s = shards_curve(&tr.reqs, B, w, Sampling::FixedSize(32_768), 0, &mut |_| {});
    let sampled = s.finish().hit_ratios(&sizes);
    for (a, e) in sampled.iter().zip(curve.blocks.hit_ratios(&sizes)) {
        assert!((a - e).abs() < 0.01, "SHARDS {a} vs exact {e}");
    }
    assert!(s.rate() < 1.0, "the 32K-block bound lowered the rate");
    let calibrated = s.calibrated_hit_ratios(fp, &sizes).unwrap();
    assert_ne!(calibrated, sampled, "another estimator, another curve");
    for (a, e) in calibrated.iter().zip(curve.blocks.hit_ratios(&sizes)) {
        assert!((a - e).abs() < 0.01, "SHARDS calibrated {a} vs exact {e}");
    }
    // Another salt samples another set of blocks (another curve), with the same bound.
    let mut t = shards_curve(&tr.reqs, B, w, Sampling::FixedSize(32_768), 7, &mut |_| {});
    let salted = t.finish().hit_ratios(&sizes);
    assert_ne!(salted, sampled, "the salt changes which blocks are sampled");
    for (a, e) in salted.iter().zip(curve.blocks.hit_ratios(&sizes)) {
        assert!((a - e).abs() < 0.01, "SHARDS (salt 7) {a} vs exact {e}");
    }
}
