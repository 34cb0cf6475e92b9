//! `loop-dio`: the lab's engine, the page cache in front of a loop device's file, switched by
//! `losetup --direct-io`.

use super::super::{argv, read_attr, Adapter, Detected, Env, Stat, Step};
use super::{block_dir, detect_in_sysfs, dev_name, switch_needed};
use crate::error::{ProbeError, Result};

pub(super) struct LoopDio;

impl Adapter for LoopDio {
    fn name(&self) -> &'static str {
        "loop-dio"
    }
    fn detect(&self, env: &Env) -> Vec<Detected> {
        detect_in_sysfs(self, env, "loop")
    }
    fn mode(&self, env: &Env, dev: &str) -> Result<String> {
        let p = block_dir(env, dev).join("loop/dio");
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
        if !switch_needed(self.name(), from, to, &["page-cache", "direct-io"])? {
            return Ok(Vec::new());
        }
        let flag = if to == "direct-io" {
            "--direct-io=on"
        } else {
            "--direct-io=off"
        };
        let path = format!("/dev/{}", dev_name(dev));
        Ok(vec![Step::Run(argv(&["losetup", flag, &path]))])
    }
    fn stats(&self, _env: &Env, _dev: &str) -> Result<Vec<Stat>> {
        // The page cache keeps no counters of one loop device.
        Ok(Vec::new())
    }
}
