//! `manual`: a person switches the engine and runs `mark CAPTURE switch`.

use super::super::{Adapter, Detected, Env, Stat, Step};
use crate::error::{ProbeError, Result};

pub(super) struct Manual;

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
