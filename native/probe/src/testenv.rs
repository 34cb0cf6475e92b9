//! The rule of skipped tests, shared by the unit and integration tests: a test whose
//! environment is missing (root, fio, losetup, tracefs, SCHED_FIFO) prints `SKIP <test>:
//! <reason>` and returns; where every test must run — CI (the `CI` variable set, as CI services
//! set `CI=true`) or `CACHEPROOF_REQUIRE_ALL=1` — the same sentence is a failure instead, so a CI
//! run that could not run a test cannot pass. Tests of `../shared/realdata` do not use this:
//! that folder is absent from a plain clone, and they skip everywhere.

/// Whether every test must run here.
pub fn require_all() -> bool {
    let ci = std::env::var("CI")
        .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
        .unwrap_or(false);
    ci || std::env::var("CACHEPROOF_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Skip `test` because of `reason`: prints `SKIP test: reason` and returns true, or panics with
/// that sentence where every test must run ([`require_all`]).
pub fn skip(test: &str, reason: &str) -> bool {
    let sentence = format!("SKIP {test}: {reason}");
    if require_all() {
        panic!("{sentence} (CI or CACHEPROOF_REQUIRE_ALL=1: this test must run here, so a skip is a failure)");
    }
    println!("{sentence}");
    true
}
