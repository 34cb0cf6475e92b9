//! `lvmcache` / `dm-cache`: a cached logical volume, switched by `lvchange --cachemode`, read
//! by `dmsetup status`. The device is `VG/LV` (or, for `dm-cache`, its device-mapper name).

use std::path::PathBuf;

use super::super::{argv, parse, read_command, Adapter, Detected, Env, Stat, Step};
use super::{detect_by_command, dev_name, enable_mode_or, switch_needed};
use crate::error::{ProbeError, Result};

pub(super) struct Lvm {
    pub(super) name: &'static str,
}

const LVM_MODES: &[&str] = &["writethrough", "writeback", "passthrough"];

/// `vg/lv` → the device-mapper name (`-` doubled in each part).
fn dm_name(dev: &str) -> String {
    match dev_name(dev).split_once('/') {
        Some((vg, lv)) => format!("{}-{}", vg.replace('-', "--"), lv.replace('-', "--")),
        None => dev.trim_start_matches("/dev/mapper/").to_string(),
    }
}

/// The device-mapper name → `vg/lv` (a single `-` separates them).
fn vg_lv(dm: &str) -> Option<String> {
    let b = dm.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'-' {
            if b.get(i + 1) == Some(&b'-') {
                i += 2;
                continue;
            }
            return Some(format!(
                "{}/{}",
                dm[..i].replace("--", "-"),
                dm[i + 1..].replace("--", "-")
            ));
        }
        i += 1;
    }
    None
}

impl Lvm {
    fn status(&self, env: &Env, dev: &str) -> Result<parse::DmCache> {
        let dm = dm_name(dev);
        let out = read_command(&argv(&["dmsetup", "status", &dm]), env.timeout)?;
        let line = out.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        parse::dmsetup_cache(line).map_err(|e| ProbeError::Tool {
            tool: "dmsetup".into(),
            message: format!("'dmsetup status {dm}': {e}"),
        })
    }
    fn lv(&self, dev: &str) -> Result<String> {
        if dev.contains('/') {
            Ok(dev_name(dev).to_string())
        } else {
            vg_lv(dev.trim_start_matches("/dev/mapper/")).ok_or_else(|| {
                ProbeError::Usage(format!(
                    "{dev} names no logical volume: give VG/LV (or the device-mapper name VG-LV)"
                ))
            })
        }
    }
}

impl Adapter for Lvm {
    fn name(&self) -> &'static str {
        self.name
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        detect_by_command(
            self,
            env,
            &["dmsetup", "status", "--target", "cache"],
            |out| {
                out.lines()
                    .filter_map(|l| parse::dmsetup_cache(l).ok())
                    .map(|d| {
                        let dm = d.name.clone().unwrap_or_default();
                        let dev = if self.name == "lvmcache" {
                            vg_lv(&dm).unwrap_or(dm)
                        } else {
                            dm
                        };
                        (dev, d.mode())
                    })
                    .collect()
            },
        )
    }
    fn mode(&self, env: &Env, dev: &str) -> Result<String> {
        Ok(self.status(env, dev)?.mode())
    }
    fn explain(&self, mode: &str) -> String {
        match mode {
            "writethrough" => "cache on: writethrough".into(),
            "writeback" => "cache on: writeback".into(),
            "passthrough" => "cache off: passthrough (every request goes to the origin)".into(),
            m => format!("unknown mode {m}"),
        }
    }
    fn enabled_mode(&self, env: &Env) -> String {
        enable_mode_or(env, "writethrough")
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "passthrough".into()
    }
    fn steps(&self, _env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        if !switch_needed(self.name, from, to, LVM_MODES)? {
            return Ok(Vec::new());
        }
        let lv = self.lv(dev)?;
        Ok(vec![Step::Run(argv(&["lvchange", "--cachemode", to, &lv]))])
    }
    fn stats(&self, env: &Env, dev: &str) -> Result<Vec<Stat>> {
        Ok(self.status(env, dev)?.stats())
    }
    fn kernel_name(&self, _env: &Env, dev: &str) -> String {
        let p = PathBuf::from("/dev/mapper").join(dm_name(dev));
        std::fs::canonicalize(&p)
            .ok()
            .and_then(|c| c.file_name().map(|f| f.to_string_lossy().to_string()))
            .unwrap_or_else(|| dm_name(dev))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_mapper_names() {
        assert_eq!(dm_name("vg0/cached-lv"), "vg0-cached--lv");
        assert_eq!(vg_lv("vg0-cached--lv").as_deref(), Some("vg0/cached-lv"));
        assert_eq!(vg_lv("my--vg-lv").as_deref(), Some("my-vg/lv"));
    }
}
