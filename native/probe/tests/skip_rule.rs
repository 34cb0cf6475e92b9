//! The rule of skipped tests (`cacheproof_probe::testenv`): a test that cannot run here prints
//! `SKIP …` and passes, except in CI (`CI` set) and with `CACHEPROOF_REQUIRE_ALL=1`, where the
//! same sentence fails it. Checked by running this test binary again with a test that skips.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

const CHILD: &str = "CACHEPROOF_SKIP_RULE_CHILD";

#[test]
fn a_skip_passes_here_and_fails_in_ci() {
    let exe = std::env::current_exe().unwrap();
    for (env, passes) in [
        (vec![], true),
        (vec![("CI", "false")], true),
        (vec![("CACHEPROOF_REQUIRE_ALL", "0")], true),
        (vec![("CI", "true")], false),
        (vec![("CI", "1")], false),
        (vec![("CACHEPROOF_REQUIRE_ALL", "1")], false),
    ] {
        let o = Command::new(&exe)
            .args([
                "--exact",
                "skipping_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env_remove("CI")
            .env_remove("CACHEPROOF_REQUIRE_ALL")
            .env(CHILD, "1")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let out = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.success(), passes, "{env:?}: {out}");
        assert!(
            out.contains("SKIP skipping_child: what it needs is missing"),
            "{env:?}: {out}"
        );
        assert!(out.contains("1 passed") == passes, "{env:?}: {out}");
    }
}

/// Skips when run by the test above; does nothing otherwise.
#[test]
fn skipping_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    if common::skip("skipping_child", "what it needs is missing") {
        return;
    }
    unreachable!("skip returned false");
}
