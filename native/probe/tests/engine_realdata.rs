//! The adapters' parsers on real engine output from ../shared/realdata/cache_stats (each file's
//! `.source.txt` says where it comes from): a `dmsetup status` line of a dm-cache target (PCP's
//! QA) and `casadm -P` console tables of a cache and of a core (the Open CAS admin guide). The
//! parsed numbers are checked against the file's own values, and the totals the files print
//! against the parts. Without ../shared (a plain clone) it skips with a message, and fails in CI (`testenv::realdata`).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use cacheproof_probe::adapters::parse;
use cacheproof_probe::testenv;

fn cache_stats(test: &str, file: &str) -> Option<PathBuf> {
    let p = testenv::realdata(test, &format!("cache_stats/{file}"))?;
    assert!(
        p.with_file_name(format!("{file}.source.txt")).exists(),
        "{file} has no .source.txt"
    );
    Some(p)
}

fn stat(s: &[cacheproof_probe::adapters::Stat], name: &str) -> f64 {
    s.iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("{name} missing"))
        .value
}

#[test]
fn dmsetup_status_cache_line_of_pcp_qa() {
    let Some(p) = cache_stats(
        "dmsetup_status_cache_line_of_pcp_qa",
        "pcp_qa657_dmsetup_status_cache_line.txt",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&p).unwrap();
    let d = parse::dmsetup_cache(text.lines().next().unwrap()).unwrap();
    // zz_cache: 0 1677721600 cache 8 10162/262144 128 39839/3276800 1087840 821795 116320
    // 2057235 0 39835 0 1 writeback 2 migration_threshold 2048 mq 10 …
    let w: Vec<&str> = text.split_whitespace().collect();
    let n = |i: usize| w[i + 1].parse::<u64>().unwrap(); // +1: the "zz_cache:" name
    assert_eq!(d.name.as_deref(), Some("zz_cache"));
    assert_eq!(d.metadata_block_sectors, n(3));
    assert_eq!((d.metadata_used, d.metadata_total), (10162, 262144));
    assert_eq!(d.cache_block_sectors, 128);
    assert_eq!((d.cache_used, d.cache_total), (39839, 3276800));
    assert_eq!(
        (d.read_hits, d.read_misses, d.write_hits, d.write_misses),
        (n(7), n(8), n(9), n(10))
    );
    assert_eq!(
        (d.read_hits, d.read_misses, d.write_hits, d.write_misses),
        (1087840, 821795, 116320, 2057235)
    );
    assert_eq!((d.demotions, d.promotions, d.dirty), (0, 39835, 0));
    assert_eq!(d.features, vec!["writeback"]);
    assert_eq!(d.mode(), "writeback");
    assert_eq!(d.policy.as_deref(), Some("mq"));
    let s = d.stats();
    assert_eq!(stat(&s, "cache_block_bytes"), 65536.0);
    assert_eq!(stat(&s, "promoted_bytes"), 39835.0 * 65536.0);
    assert_eq!(stat(&s, "cache_used_bytes"), 39839.0 * 65536.0);
}

fn check_requests(c: &parse::Casadm) {
    // The file's own totals equal the parts it prints.
    let g = |n: &str| c.get(n).unwrap_or_else(|| panic!("{n} missing"));
    assert_eq!(
        g("Read hits") + g("Read partial misses") + g("Read full misses"),
        g("Read total")
    );
    assert_eq!(
        g("Write hits") + g("Write partial misses") + g("Write full misses"),
        g("Write total")
    );
    assert_eq!(
        g("Read total") + g("Write total") + g("Pass-Through reads") + g("Pass-Through writes"),
        g("Total requests")
    );
}

#[test]
fn casadm_cache_level_tables_of_the_admin_guide() {
    let Some(p) = cache_stats(
        "casadm_cache_level_tables_of_the_admin_guide",
        "opencas_cache-level_casadm-P-i1.txt",
    ) else {
        return;
    };
    let c = parse::casadm(&std::fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(c.mode().as_deref(), Some("wt"));
    assert_eq!(c.setting("Cache Device"), Some("/dev/nvme0n1p1"));
    check_requests(&c);
    let s = c.stats();
    assert_eq!(stat(&s, "read_hits"), 50532296.0);
    assert_eq!(stat(&s, "read_partial_misses"), 202850.0);
    assert_eq!(stat(&s, "read_full_misses"), 48537517.0);
    assert_eq!(stat(&s, "write_hits"), 31762847.0);
    assert_eq!(stat(&s, "write_partial_misses"), 436.0);
    assert_eq!(stat(&s, "write_full_misses"), 16197432.0);
    assert_eq!(stat(&s, "pass_through_reads"), 2779876.0);
    assert_eq!(stat(&s, "pass_through_writes"), 4027209.0);
    assert_eq!(stat(&s, "occupancy_bytes"), 12055001.0 * 4096.0);
    assert_eq!(stat(&s, "dirty_bytes"), 0.0);
    assert_eq!(stat(&s, "writes_to_cache_bytes"), 713000302.0 * 4096.0);
    assert_eq!(stat(&s, "cache_read_errors"), 0.0);
    assert!(s.iter().all(|x| x.unit != "%"));
}

#[test]
fn casadm_core_level_tables_with_a_tab_separated_preamble() {
    let Some(p) = cache_stats(
        "casadm_core_level_tables_with_a_tab_separated_preamble",
        "opencas_core-level_casadm-P-i1-j1.txt",
    ) else {
        return;
    };
    let c = parse::casadm(&std::fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(c.setting("Core Device"), Some("/dev/sdd1"));
    assert_eq!(c.setting("Exported Object"), Some("/dev/cas1-1"));
    check_requests(&c);
    let s = c.stats();
    assert_eq!(stat(&s, "read_hits"), 21075939.0);
    assert_eq!(stat(&s, "read_partial_misses"), 77109.0);
    assert_eq!(stat(&s, "read_full_misses"), 18448305.0);
    assert_eq!(stat(&s, "write_hits"), 17240919.0);
    assert_eq!(stat(&s, "pass_through_reads"), 983305.0);
    assert_eq!(stat(&s, "pass_through_writes"), 3053282.0);
    assert_eq!(stat(&s, "occupancy_bytes"), 4363950.0 * 4096.0);
}
