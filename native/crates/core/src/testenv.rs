//! The rule of skipped tests, shared by the unit and integration tests: a test whose
//! environment is missing (root, fio, losetup, tracefs, SCHED_FIFO, the shared real data) prints
//! `SKIP <test>: <reason>` and returns; where every test must run — CI (the `CI` variable set, as
//! CI services set `CI=true`) or `CACHEPROOF_REQUIRE_ALL=1` — the same sentence is a failure
//! instead, so a CI run that could not run a test cannot pass.
//!
//! The real data (`../shared/realdata` beside the checkout, absent from a plain clone) follows
//! the same rule through [`realdata`]: every test that reads it asks for it there.

use std::path::PathBuf;

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

/// The shared real-data folder: `CACHEPROOF_REALDATA` when set (another copy, or a path that
/// does not exist to see the rule at work), else `../shared/realdata` beside the checkout.
pub fn realdata_dir() -> PathBuf {
    match std::env::var_os("CACHEPROOF_REALDATA") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        // <repo>/native/crates/core -> <repo>/../shared/realdata
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/realdata"),
    }
}

/// `sub` (a folder or file) of [`realdata_dir`] for `test`, or None after [`skip`] when it is
/// absent (so in CI its absence fails the test).
pub fn realdata(test: &str, sub: &str) -> Option<PathBuf> {
    let p = realdata_dir().join(sub);
    if p.exists() {
        return Some(p);
    }
    skip(
        test,
        &format!(
            "{} is absent (the shared real-data folder beside the checkout, or CACHEPROOF_REALDATA)",
            p.display()
        ),
    );
    None
}
