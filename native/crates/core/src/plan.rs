//! Durations and the recording plan (`--interval`, `--plan`).

use serde::{Deserialize, Serialize};

use crate::error::{ProbeError, Result};

/// Parse `500ms`, `1s`, `90s`, `15m`, `24h`, `2d` or a bare number of seconds, into seconds.
pub fn parse_duration(s: &str) -> Result<f64> {
    let s = s.trim();
    let bad = || {
        ProbeError::Usage(format!(
            "'{s}' is not a duration (examples: 500ms, 1s, 15m, 24h)"
        ))
    };
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num.parse().map_err(|_| bad())?;
    let mult = match unit {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => return Err(bad()),
    };
    let v = n * mult;
    if !v.is_finite() || v < 0.0 {
        return Err(bad());
    }
    Ok(v)
}

/// The phases a recording runs through. Stored as JSON in `meta.plan`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub baseline_s: f64,
    pub warmup_s: f64,
    pub measure_s: f64,
}

/// Stored form of `meta.plan` (docs/capture-schema.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanMeta {
    pub baseline_s: f64,
    pub warmup_s: f64,
    pub measure_s: f64,
    pub switch: String,
}

/// Parse `baseline=24h,warmup=1h,measure=24h` (missing parts are 0).
pub fn parse_plan(s: &str) -> Result<Plan> {
    let mut p = Plan {
        baseline_s: 0.0,
        warmup_s: 0.0,
        measure_s: 0.0,
    };
    for part in s.split(',').filter(|x| !x.trim().is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| {
            ProbeError::Usage(format!(
                "--plan part '{part}' is not name=duration (example: baseline=24h,warmup=1h,measure=24h)"
            ))
        })?;
        let d = parse_duration(v)?;
        match k.trim() {
            "baseline" => p.baseline_s = d,
            "warmup" => p.warmup_s = d,
            "measure" => p.measure_s = d,
            other => {
                return Err(ProbeError::Usage(format!(
                    "--plan has an unknown phase '{other}' (known: baseline, warmup, measure)"
                )))
            }
        }
    }
    if p.baseline_s <= 0.0 {
        return Err(ProbeError::Usage(
            "--plan needs a baseline longer than 0".into(),
        ));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms").unwrap(), 0.5);
        assert_eq!(parse_duration("24h").unwrap(), 86400.0);
        assert_eq!(parse_duration("90").unwrap(), 90.0);
        assert!(parse_duration("1 fortnight").is_err());
        let p = parse_plan("baseline=24h,warmup=1h,measure=24h").unwrap();
        assert_eq!(p.warmup_s, 3600.0);
        assert!(parse_plan("baseline=1h,cooldown=1h").is_err());
    }
}
