//! `opencas`: `casadm --set-cache-mode`; statistics from `casadm -P -o csv`. The device is a
//! core's exported object, `casC-K` (cache C, core K).

use super::super::{argv, parse, read_command, Adapter, Detected, Env, Stat, Step};
use super::{detect_by_command, dev_name, enable_mode_or, switch_needed};
use crate::error::{ProbeError, Result};

pub(super) struct OpenCas;

const CAS_MODES: &[&str] = &["wt", "wb", "wa", "pt", "wo"];

fn cas_ids(dev: &str) -> Result<(String, String)> {
    dev_name(dev)
        .strip_prefix("cas")
        .and_then(|r| r.split_once('-'))
        .filter(|(c, k)| {
            !c.is_empty()
                && !k.is_empty()
                && c.chars().all(|x| x.is_ascii_digit())
                && k.chars().all(|x| x.is_ascii_digit())
        })
        .map(|(c, k)| (c.to_string(), k.to_string()))
        .ok_or_else(|| {
            ProbeError::Usage(format!(
                "{dev} is not an Open CAS exported object (casC-K, for example cas1-1)"
            ))
        })
}

/// The exported objects of `casadm -L -o csv` (type,id,disk,status,write policy,device), each
/// with its cache's mode.
fn listed(out: &str) -> Vec<(String, String)> {
    let mut modes = std::collections::HashMap::new();
    let mut v = Vec::new();
    for l in out.lines() {
        let f: Vec<&str> = l.split(',').map(str::trim).collect();
        match f.as_slice() {
            ["cache", id, _, _, mode, ..] => {
                modes.insert(id.to_string(), mode.to_string());
            }
            ["core", _, _, _, _, dev, ..] => {
                let dev = dev_name(dev).to_string();
                if let Ok((c, _)) = cas_ids(&dev) {
                    let m = modes.get(&c).cloned().unwrap_or_else(|| "unknown".into());
                    v.push((dev, m));
                }
            }
            _ => {}
        }
    }
    v
}

impl OpenCas {
    fn stats_of(&self, env: &Env, dev: &str) -> Result<parse::Casadm> {
        let (c, k) = cas_ids(dev)?;
        let out = read_command(
            &argv(&["casadm", "-P", "-i", &c, "-j", &k, "-o", "csv"]),
            env.timeout,
        )?;
        parse::casadm(&out).map_err(|e| ProbeError::Tool {
            tool: "casadm".into(),
            message: format!("'casadm -P -i {c} -j {k} -o csv': {e}"),
        })
    }
}

impl Adapter for OpenCas {
    fn name(&self) -> &'static str {
        "opencas"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        detect_by_command(self, env, &["casadm", "-L", "-o", "csv"], listed)
    }
    fn mode(&self, env: &Env, dev: &str) -> Result<String> {
        let (c, _) = cas_ids(dev)?;
        let out = read_command(&argv(&["casadm", "-P", "-i", &c, "-o", "csv"]), env.timeout)?;
        parse::casadm(&out)
            .ok()
            .and_then(|p| p.mode())
            .ok_or_else(|| ProbeError::Tool {
                tool: "casadm".into(),
                message: format!("'casadm -P -i {c} -o csv' shows no Cache Mode or Write Policy"),
            })
    }
    fn explain(&self, mode: &str) -> String {
        match mode {
            "wt" => "cache on: write-through".into(),
            "wb" => "cache on: write-back".into(),
            "wa" => "cache on for reads: write-around".into(),
            "wo" => "cache on for writes: write-only".into(),
            "pt" => "cache off: pass-through".into(),
            m => format!("unknown mode {m}"),
        }
    }
    fn enabled_mode(&self, env: &Env) -> String {
        enable_mode_or(env, "wt")
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "pt".into()
    }
    fn steps(&self, _env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        if !switch_needed(self.name(), from, to, CAS_MODES)? {
            return Ok(Vec::new());
        }
        let (c, _) = cas_ids(dev)?;
        let mut a = argv(&[
            "casadm",
            "--set-cache-mode",
            "--cache-mode",
            to,
            "--cache-id",
            &c,
        ]);
        // Leaving a mode that holds dirty data: flush it first, so nothing is lost.
        if matches!(from, "wb" | "wo") {
            a.extend(argv(&["--flush-cache", "yes"]));
        }
        Ok(vec![Step::Run(a)])
    }
    fn stats(&self, env: &Env, dev: &str) -> Result<Vec<Stat>> {
        Ok(self.stats_of(env, dev)?.stats())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn exported_object_names() {
        assert_eq!(cas_ids("/dev/cas1-2").unwrap(), ("1".into(), "2".into()));
        assert!(cas_ids("sdb").is_err());
    }
}
