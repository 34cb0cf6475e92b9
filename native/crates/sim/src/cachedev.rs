//! The cache device a prediction assumes: a preset of `samples/catalog/cache-devices.json` (RAM,
//! SATA SSD, NVMe, each read latency with its source and date; the app reads the same file) or a
//! latency the person types (`--cache-device 50us`). Its read latency is what a cache hit costs
//! in the predicted response time (docs/simulate.md § predict).

use serde::{Deserialize, Serialize};

use crate::error::{ProbeError, Result};

/// The presets file, compiled in (the one source of the figures).
const PRESETS_JSON: &str = include_str!("../../../../samples/catalog/cache-devices.json");

#[derive(Debug, Clone, Deserialize)]
struct Figure {
    value: f64,
    source: String,
    url: Option<String>,
    date: String,
    basis: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Preset {
    id: String,
    label: String,
    read_latency_us: Figure,
}

#[derive(Debug, Clone, Deserialize)]
struct Presets {
    devices: Vec<Preset>,
}

/// The cache device of a prediction, as stored (`cacheDevice`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheDevice {
    /// The preset's id (`ram`, `sata-ssd`, `nvme`), or `typed` for a latency the person gave.
    pub preset: String,
    /// The preset's label; null when typed.
    pub label: Option<String>,
    /// Read latency of a cache hit, µs.
    pub read_latency_us: f64,
    /// Where the figure comes from (null when typed).
    pub source: Option<String>,
    pub url: Option<String>,
    pub date: Option<String>,
    /// How a derived figure was worked out from its source.
    pub basis: Option<String>,
}

fn presets() -> Vec<Preset> {
    // The file is part of the source tree and checked by the tests: a broken one is a bug.
    serde_json::from_str::<Presets>(PRESETS_JSON)
        .map(|p| p.devices)
        .unwrap_or_default()
}

/// The preset ids, for messages.
pub fn preset_ids() -> Vec<String> {
    presets().into_iter().map(|p| p.id).collect()
}

/// Parse `--cache-device ID|LATENCY`: a preset id, or a latency with its unit (`ns`, `us`/`µs`,
/// `ms`), > 0 and at most 10 s.
pub fn parse(s: &str) -> Result<CacheDevice> {
    let s = s.trim();
    if let Some(p) = presets().into_iter().find(|p| p.id.eq_ignore_ascii_case(s)) {
        return Ok(CacheDevice {
            preset: p.id,
            label: Some(p.label),
            read_latency_us: p.read_latency_us.value,
            source: Some(p.read_latency_us.source),
            url: p.read_latency_us.url,
            date: Some(p.read_latency_us.date),
            basis: p.read_latency_us.basis,
        });
    }
    let bad = || {
        ProbeError::Usage(format!(
            "--cache-device '{s}': give a preset ({}) or the cache's read latency with its unit, e.g. 50us, 0.2us, 1ms",
            preset_ids().join(", ")
        ))
    };
    let i = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let (n, unit) = s.split_at(i);
    let n: f64 = n.parse().map_err(|_| bad())?;
    let us = match unit.trim() {
        "ns" => n / 1000.0,
        "us" | "µs" => n,
        "ms" => n * 1000.0,
        _ => return Err(bad()),
    };
    if !(us.is_finite() && us > 0.0 && us <= 10_000_000.0) {
        return Err(ProbeError::Usage(format!(
            "--cache-device '{s}': a read latency must be above 0 and at most 10 s"
        )));
    }
    Ok(CacheDevice {
        preset: "typed".into(),
        label: None,
        read_latency_us: us,
        source: None,
        url: None,
        date: None,
        basis: None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_preset_has_a_sourced_figure() {
        let p = presets();
        assert_eq!(
            p.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(),
            ["ram", "sata-ssd", "nvme"]
        );
        for x in &p {
            assert!(x.read_latency_us.value > 0.0, "{}", x.id);
            assert!(!x.read_latency_us.source.is_empty(), "{}", x.id);
            assert!(!x.read_latency_us.date.is_empty(), "{}", x.id);
        }
    }

    #[test]
    fn presets_and_typed_latencies() {
        let n = parse("NVMe").unwrap();
        assert_eq!((n.preset.as_str(), n.read_latency_us), ("nvme", 85.0));
        assert!(n.source.unwrap().contains("P4500"));
        assert_eq!(parse("50us").unwrap().read_latency_us, 50.0);
        assert_eq!(parse("200ns").unwrap().read_latency_us, 0.2);
        assert_eq!(parse("1.5ms").unwrap().read_latency_us, 1500.0);
        assert_eq!(parse("7µs").unwrap().preset, "typed");
        for bad in ["0us", "fast", "12", "-3us", "5 parsecs", "20s"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
