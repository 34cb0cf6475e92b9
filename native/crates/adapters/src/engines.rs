//! The adapters, one file each, and what they share: the device name, the sysfs directory of a
//! block device, detection (over sysfs or over a command's output) and the mode checks.

use std::path::PathBuf;

use super::{argv, read_command, Adapter, Detected, Env};
use crate::error::{ProbeError, Result};

mod bcache;
mod command;
mod loop_dio;
mod lvm;
mod manual;
mod opencas;

/// The adapter called `name`.
pub fn by_name(name: &str) -> Result<Box<dyn Adapter>> {
    Ok(match name {
        "manual" => Box::new(manual::Manual),
        "command" => Box::new(command::CommandAdapter),
        "loop-dio" => Box::new(loop_dio::LoopDio),
        "bcache" => Box::new(bcache::Bcache),
        "lvmcache" => Box::new(lvm::Lvm { name: "lvmcache" }),
        "dm-cache" => Box::new(lvm::Lvm { name: "dm-cache" }),
        "opencas" => Box::new(opencas::OpenCas),
        other => {
            return Err(ProbeError::Usage(format!(
                "unknown adapter '{other}' (known: {})",
                super::NAMES.join(", ")
            )))
        }
    })
}

/// A device as given (`/dev/loop0` or `loop0`) without its `/dev/`.
fn dev_name(dev: &str) -> &str {
    dev.trim_start_matches("/dev/")
}

/// The sysfs directory of block device `dev`: `<sysfs>/block/<name>`.
fn block_dir(env: &Env, dev: &str) -> PathBuf {
    env.sysfs.join("block").join(dev_name(dev))
}

/// What `detect` reports of each device found, in the order found.
fn detected_all(
    a: &dyn Adapter,
    found: impl IntoIterator<Item = (String, String)>,
) -> Vec<Detected> {
    found
        .into_iter()
        .map(|(device, mode)| Detected {
            adapter: a.name().into(),
            description: a.explain(&mode),
            device,
            mode,
        })
        .collect()
}

/// Detection over sysfs: the block devices whose name starts with `prefix`, in name order, whose
/// mode `a` can read.
fn detect_in_sysfs(a: &dyn Adapter, env: &Env, prefix: &str) -> Vec<Detected> {
    let Ok(rd) = std::fs::read_dir(env.sysfs.join("block")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = rd
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    let found = names
        .into_iter()
        .filter_map(|n| a.mode(env, &n).ok().map(|m| (n, m)));
    detected_all(a, found)
}

/// Detection over a command's output (`words`, run without a shell): `found` reads the devices
/// and their modes from it; nothing when the command fails.
fn detect_by_command(
    a: &dyn Adapter,
    env: &Env,
    words: &[&str],
    found: impl FnOnce(&str) -> Vec<(String, String)>,
) -> Vec<Detected> {
    match read_command(&argv(words), env.timeout) {
        Ok(out) => detected_all(a, found(&out)),
        Err(_) => Vec::new(),
    }
}

/// The mode `enable` switches to: the config's `enableMode`, else `default`.
fn enable_mode_or(env: &Env, default: &str) -> String {
    env.config
        .enable_mode
        .clone()
        .unwrap_or_else(|| default.into())
}

/// Whether bringing a device from `from` to `to` takes any step; an error when `to` is not one
/// of the adapter's modes (`known`).
fn switch_needed(adapter: &str, from: &str, to: &str, known: &[&str]) -> Result<bool> {
    if known.contains(&to) {
        Ok(from != to)
    } else {
        Err(ProbeError::Usage(format!(
            "{adapter} has no mode '{to}' (its modes: {})",
            known.join(", ")
        )))
    }
}
