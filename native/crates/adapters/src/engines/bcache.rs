//! `bcache`: `cache_mode` of /sys/block/bcacheN/bcache.

use std::path::PathBuf;

use super::super::{parse, read_attr, Adapter, Detected, Env, Stat, Step};
use super::{block_dir, detect_in_sysfs, enable_mode_or, switch_needed};
use crate::error::{ProbeError, Result};

pub(super) struct Bcache;

const BCACHE_MODES: &[&str] = &["writethrough", "writeback", "writearound", "none"];

/// The counters of each of bcache's windows (`stats_total`, `stats_hour`, …), in requests.
const REQUEST_COUNTERS: [&str; 6] = [
    "cache_hits",
    "cache_misses",
    "cache_bypass_hits",
    "cache_bypass_misses",
    "cache_miss_collisions",
    "cache_readaheads",
];

impl Bcache {
    fn dir(env: &Env, dev: &str) -> PathBuf {
        block_dir(env, dev).join("bcache")
    }
}

impl Adapter for Bcache {
    fn name(&self) -> &'static str {
        "bcache"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        detect_in_sysfs(self, env, "bcache")
    }
    fn mode(&self, env: &Env, dev: &str) -> Result<String> {
        let p = Self::dir(env, dev).join("cache_mode");
        let s = read_attr(&p)?;
        // The kernel shows every mode with the selected one in brackets; a single mode word
        // (what a fake tree holds after a write) is that mode.
        let single = Some(s.as_str()).filter(|w| BCACHE_MODES.contains(w));
        parse::bracketed(&s)
            .or_else(|| single.map(String::from))
            .ok_or_else(|| {
                ProbeError::Usage(format!(
                    "{} holds '{s}', with no [selected] mode",
                    p.display()
                ))
            })
    }
    fn explain(&self, mode: &str) -> String {
        match mode {
            "writethrough" => "cache on: writethrough (reads cached, writes go to both)".into(),
            "writeback" => "cache on: writeback (writes cached, written back later)".into(),
            "writearound" => {
                "cache on for reads only: writearound (writes bypass the cache)".into()
            }
            "none" => "cache off: mode none (every request goes to the backing device)".into(),
            m => format!("unknown mode {m}"),
        }
    }
    fn enabled_mode(&self, env: &Env) -> String {
        enable_mode_or(env, "writethrough")
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "none".into()
    }
    fn steps(&self, env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        if !switch_needed(self.name(), from, to, BCACHE_MODES)? {
            return Ok(Vec::new());
        }
        Ok(vec![Step::Write {
            path: Self::dir(env, dev).join("cache_mode"),
            value: to.to_string(),
        }])
    }
    fn stats(&self, env: &Env, dev: &str) -> Result<Vec<Stat>> {
        let dir = Self::dir(env, dev);
        if !dir.is_dir() {
            return Err(ProbeError::Usage(format!(
                "{} is missing: {dev} is not a bcache device",
                dir.display()
            )));
        }
        let mut out = Vec::new();
        for (sub, window) in [
            ("stats_total", "cumulative"),
            ("stats_five_minute", "decaying-5min"),
            ("stats_hour", "decaying-1h"),
            ("stats_day", "decaying-1d"),
        ] {
            let d = dir.join(sub);
            for f in REQUEST_COUNTERS {
                if let Ok(s) = read_attr(&d.join(f)) {
                    let v: f64 = s.parse().map_err(|_| {
                        ProbeError::Usage(format!(
                            "{} holds '{s}', not a number",
                            d.join(f).display()
                        ))
                    })?;
                    out.push(Stat::new(f, v, "requests", window));
                }
            }
            if let Ok(s) = read_attr(&d.join("bypassed")) {
                let v = parse::hprint(&s).ok_or_else(|| {
                    ProbeError::Usage(format!(
                        "{} holds '{s}', not a size",
                        d.join("bypassed").display()
                    ))
                })?;
                out.push(Stat::new("bypassed_bytes", v, "bytes", window));
            }
        }
        if let Some(v) = read_attr(&dir.join("dirty_data"))
            .ok()
            .and_then(|s| parse::hprint(&s))
        {
            out.push(Stat::new("dirty_bytes", v, "bytes", "current"));
        }
        // The cache set's device: bytes written to it (`cache/cache0/written`).
        if let Some(v) = read_attr(&dir.join("cache/cache0/written"))
            .ok()
            .and_then(|s| parse::hprint(&s))
        {
            out.push(Stat::new(
                "cache_device_written_bytes",
                v,
                "bytes",
                "cumulative",
            ));
        }
        Ok(out)
    }
}
