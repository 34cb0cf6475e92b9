//! The adapters.

use std::path::PathBuf;

use super::parse;
use super::{argv, read_attr, read_command, Adapter, Detected, Env, Stat, Step};
use crate::error::{ProbeError, Result};

/// The adapter called `name`.
pub fn by_name(name: &str) -> Result<Box<dyn Adapter>> {
    Ok(match name {
        "manual" => Box::new(Manual),
        "command" => Box::new(CommandAdapter),
        "loop-dio" => Box::new(LoopDio),
        "bcache" => Box::new(Bcache),
        "lvmcache" => Box::new(Lvm { name: "lvmcache" }),
        "dm-cache" => Box::new(Lvm { name: "dm-cache" }),
        "opencas" => Box::new(OpenCas),
        other => {
            return Err(ProbeError::Usage(format!(
                "unknown adapter '{other}' (known: {})",
                super::NAMES.join(", ")
            )))
        }
    })
}

fn detected(a: &dyn Adapter, device: String, mode: String) -> Detected {
    Detected {
        adapter: a.name().into(),
        description: a.explain(&mode),
        device,
        mode,
    }
}

fn refuse_mode(adapter: &str, mode: &str, known: &[&str]) -> Result<()> {
    if known.contains(&mode) {
        Ok(())
    } else {
        Err(ProbeError::Usage(format!(
            "{adapter} has no mode '{mode}' (its modes: {})",
            known.join(", ")
        )))
    }
}

/// `manual`: a person switches the engine and runs `mark CAPTURE switch`.
struct Manual;

impl Adapter for Manual {
    fn name(&self) -> &'static str {
        "manual"
    }
    fn detect(&self, _env: &Env) -> Vec<Detected> {
        Vec::new()
    }
    fn mode(&self, _env: &Env, _dev: &str) -> Result<String> {
        Ok("manual".into())
    }
    fn explain(&self, _mode: &str) -> String {
        "switched by hand: switch the cache yourself, then run 'cacheproof-probe mark CAPTURE switch'".into()
    }
    fn enabled_mode(&self, _env: &Env) -> String {
        "manual".into()
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "manual".into()
    }
    fn steps(&self, _env: &Env, _dev: &str, _from: &str, _to: &str) -> Result<Vec<Step>> {
        Err(ProbeError::Usage(
            "the manual adapter switches nothing: switch the cache yourself and run 'cacheproof-probe mark CAPTURE switch'".into(),
        ))
    }
    fn stats(&self, _env: &Env, _dev: &str) -> Result<Vec<Stat>> {
        Ok(Vec::new())
    }
    fn check_device(&self, _env: &Env, _dev: &str) -> Result<()> {
        Ok(())
    }
}

/// `loop-dio`: the lab's engine, the page cache in front of a loop device's file, switched by
/// `losetup --direct-io`.
struct LoopDio;

impl LoopDio {
    fn dio(env: &Env, dev: &str) -> PathBuf {
        env.sysfs
            .join("block")
            .join(dev.trim_start_matches("/dev/"))
            .join("loop/dio")
    }
}

impl Adapter for LoopDio {
    fn name(&self) -> &'static str {
        "loop-dio"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        let mut out = Vec::new();
        let Ok(rd) = std::fs::read_dir(env.sysfs.join("block")) else {
            return out;
        };
        let mut names: Vec<String> = rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("loop"))
            .collect();
        names.sort();
        for n in names {
            if let Ok(m) = self.mode(env, &n) {
                out.push(detected(self, n, m));
            }
        }
        out
    }
    fn mode(&self, env: &Env, dev: &str) -> Result<String> {
        let p = Self::dio(env, dev);
        match read_attr(&p)?.as_str() {
            "1" => Ok("direct-io".into()),
            "0" => Ok("page-cache".into()),
            other => Err(ProbeError::Usage(format!(
                "{} holds '{other}', not 0 or 1",
                p.display()
            ))),
        }
    }
    fn explain(&self, mode: &str) -> String {
        match mode {
            "direct-io" => "cache off: the loop device reads its file with direct I/O".into(),
            "page-cache" => {
                "cache on: the loop device reads its file through the page cache".into()
            }
            m => format!("unknown mode {m}"),
        }
    }
    fn enabled_mode(&self, _env: &Env) -> String {
        "page-cache".into()
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "direct-io".into()
    }
    fn steps(&self, _env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        refuse_mode(self.name(), to, &["page-cache", "direct-io"])?;
        if from == to {
            return Ok(Vec::new());
        }
        let flag = if to == "direct-io" {
            "--direct-io=on"
        } else {
            "--direct-io=off"
        };
        let path = format!("/dev/{}", dev.trim_start_matches("/dev/"));
        Ok(vec![Step::Run(argv(&["losetup", flag, &path]))])
    }
    fn stats(&self, _env: &Env, _dev: &str) -> Result<Vec<Stat>> {
        // The page cache keeps no counters of one loop device.
        Ok(Vec::new())
    }
}

/// `bcache`: `cache_mode` of /sys/block/bcacheN/bcache.
struct Bcache;

const BCACHE_MODES: &[&str] = &["writethrough", "writeback", "writearound", "none"];

impl Bcache {
    fn dir(env: &Env, dev: &str) -> PathBuf {
        env.sysfs
            .join("block")
            .join(dev.trim_start_matches("/dev/"))
            .join("bcache")
    }
}

impl Adapter for Bcache {
    fn name(&self) -> &'static str {
        "bcache"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        let mut out = Vec::new();
        let Ok(rd) = std::fs::read_dir(env.sysfs.join("block")) else {
            return out;
        };
        let mut names: Vec<String> = rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("bcache"))
            .collect();
        names.sort();
        for n in names {
            if let Ok(m) = self.mode(env, &n) {
                out.push(detected(self, n, m));
            }
        }
        out
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
        env.config
            .enable_mode
            .clone()
            .unwrap_or_else(|| "writethrough".into())
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "none".into()
    }
    fn steps(&self, env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        refuse_mode(self.name(), to, BCACHE_MODES)?;
        if from == to {
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
            for f in [
                "cache_hits",
                "cache_misses",
                "cache_bypass_hits",
                "cache_bypass_misses",
                "cache_miss_collisions",
                "cache_readaheads",
            ] {
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

/// `lvmcache` / `dm-cache`: a cached logical volume, switched by `lvchange --cachemode`, read
/// by `dmsetup status`. The device is `VG/LV` (or, for `dm-cache`, its device-mapper name).
struct Lvm {
    name: &'static str,
}

const LVM_MODES: &[&str] = &["writethrough", "writeback", "passthrough"];

/// `vg/lv` → the device-mapper name (`-` doubled in each part).
fn dm_name(dev: &str) -> String {
    match dev.trim_start_matches("/dev/").split_once('/') {
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
            Ok(dev.trim_start_matches("/dev/").to_string())
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
        let Ok(out) = read_command(
            &argv(&["dmsetup", "status", "--target", "cache"]),
            env.timeout,
        ) else {
            return Vec::new();
        };
        let mut v = Vec::new();
        for l in out.lines() {
            if let Ok(d) = parse::dmsetup_cache(l) {
                let dm = d.name.clone().unwrap_or_default();
                let dev = if self.name == "lvmcache" {
                    vg_lv(&dm).unwrap_or(dm)
                } else {
                    dm
                };
                v.push(detected(self, dev, d.mode()));
            }
        }
        v
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
        env.config
            .enable_mode
            .clone()
            .unwrap_or_else(|| "writethrough".into())
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "passthrough".into()
    }
    fn steps(&self, _env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        refuse_mode(self.name, to, LVM_MODES)?;
        if from == to {
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

/// `opencas`: `casadm --set-cache-mode`; statistics from `casadm -P -o csv`. The device is a
/// core's exported object, `casC-K` (cache C, core K).
struct OpenCas;

const CAS_MODES: &[&str] = &["wt", "wb", "wa", "pt", "wo"];

fn cas_ids(dev: &str) -> Result<(String, String)> {
    let n = dev.trim_start_matches("/dev/");
    n.strip_prefix("cas")
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
        // `casadm -L -o csv`: type,id,disk,status,write policy,device.
        let Ok(out) = read_command(&argv(&["casadm", "-L", "-o", "csv"]), env.timeout) else {
            return Vec::new();
        };
        let mut modes = std::collections::HashMap::new();
        let mut v = Vec::new();
        for l in out.lines() {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            match f.as_slice() {
                ["cache", id, _, _, mode, ..] => {
                    modes.insert(id.to_string(), mode.to_string());
                }
                ["core", _, _, _, _, dev, ..] => {
                    let dev = dev.trim_start_matches("/dev/").to_string();
                    if let Ok((c, _)) = cas_ids(&dev) {
                        let m = modes.get(&c).cloned().unwrap_or_else(|| "unknown".into());
                        v.push(detected(self, dev, m));
                    }
                }
                _ => {}
            }
        }
        v
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
        env.config
            .enable_mode
            .clone()
            .unwrap_or_else(|| "wt".into())
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "pt".into()
    }
    fn steps(&self, _env: &Env, dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        refuse_mode(self.name(), to, CAS_MODES)?;
        if from == to {
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

/// `command`: enable / disable / status as argument vectors from the config file.
struct CommandAdapter;

impl CommandAdapter {
    fn status(&self, env: &Env) -> Result<Option<(Option<String>, Vec<Stat>)>> {
        let Some(st) = &env.config.status else {
            return Ok(None);
        };
        let out = read_command(st, env.timeout)?;
        let parser = env.config.parser.as_deref().unwrap_or("key-value");
        let bad = |e: String| ProbeError::Tool {
            tool: st[0].clone(),
            message: format!("its status output is not {parser} output: {e}"),
        };
        Ok(Some(match parser {
            "dmsetup-cache" => {
                let line = out.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                let d = parse::dmsetup_cache(line).map_err(bad)?;
                (Some(d.mode()), d.stats())
            }
            "casadm" => {
                let c = parse::casadm(&out).map_err(bad)?;
                (c.mode(), c.stats())
            }
            _ => parse::key_value(&out),
        }))
    }
}

impl Adapter for CommandAdapter {
    fn name(&self) -> &'static str {
        "command"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        let mode = self.mode(env, "").unwrap_or_else(|_| "unknown".into());
        env.config
            .devices
            .clone()
            .unwrap_or_default()
            .into_iter()
            .map(|d| detected(self, d, mode.clone()))
            .collect()
    }
    fn mode(&self, env: &Env, _dev: &str) -> Result<String> {
        Ok(self
            .status(env)?
            .and_then(|(m, _)| m)
            .unwrap_or_else(|| "unknown".into()))
    }
    fn explain(&self, mode: &str) -> String {
        format!("mode {mode}, as the status command says")
    }
    fn enabled_mode(&self, env: &Env) -> String {
        env.config
            .enable_mode
            .clone()
            .unwrap_or_else(|| "on".into())
    }
    fn disabled_mode(&self, _env: &Env) -> String {
        "off".into()
    }
    fn steps(&self, env: &Env, _dev: &str, from: &str, to: &str) -> Result<Vec<Step>> {
        if from == to {
            return Ok(Vec::new());
        }
        let (v, field) = if to == self.disabled_mode(env) {
            (&env.config.disable, "disable")
        } else if to == self.enabled_mode(env) {
            (&env.config.enable, "enable")
        } else {
            return Err(ProbeError::Usage(format!(
                "the command adapter knows the modes {} and off, not '{to}'",
                self.enabled_mode(env)
            )));
        };
        let v = v.as_ref().ok_or_else(|| {
            ProbeError::Usage(format!(
                "the adapter config has no '{field}' argument vector"
            ))
        })?;
        Ok(vec![Step::Run(v.clone())])
    }
    fn stats(&self, env: &Env, _dev: &str) -> Result<Vec<Stat>> {
        Ok(self.status(env)?.map(|(_, s)| s).unwrap_or_default())
    }
    fn check_device(&self, env: &Env, dev: &str) -> Result<()> {
        let devs = env.config.devices.clone().unwrap_or_default();
        if devs.iter().any(|d| d == dev.trim_start_matches("/dev/")) {
            Ok(())
        } else {
            Err(ProbeError::Usage(format!(
                "{dev} is not one of the devices the command adapter's config serves ({}); add it to 'devices' or choose another",
                if devs.is_empty() { "none listed".to_string() } else { devs.join(", ") }
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn device_mapper_names() {
        assert_eq!(dm_name("vg0/cached-lv"), "vg0-cached--lv");
        assert_eq!(vg_lv("vg0-cached--lv").as_deref(), Some("vg0/cached-lv"));
        assert_eq!(vg_lv("my--vg-lv").as_deref(), Some("my-vg/lv"));
        assert_eq!(cas_ids("/dev/cas1-2").unwrap(), ("1".into(), "2".into()));
        assert!(cas_ids("sdb").is_err());
    }
}
