//! `command`: enable / disable / status as argument vectors from the config file.

use super::super::{parse, read_command, Adapter, Detected, Env, Stat, Step};
use super::{detected_all, dev_name, enable_mode_or};
use crate::error::{ProbeError, Result};

pub(super) struct CommandAdapter;

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
        let devices = env.config.devices.clone().unwrap_or_default();
        detected_all(self, devices.into_iter().map(|d| (d, mode.clone())))
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
        enable_mode_or(env, "on")
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
        if devs.iter().any(|d| d == dev_name(dev)) {
            Ok(())
        } else {
            Err(ProbeError::Usage(format!(
                "{dev} is not one of the devices the command adapter's config serves ({}); add it to 'devices' or choose another",
                if devs.is_empty() { "none listed".to_string() } else { devs.join(", ") }
            )))
        }
    }
}
