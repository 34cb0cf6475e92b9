//! An adapter's config file (JSON, docs/adapters.md): the engine device, the mode `enable`
//! switches to, the timeout, and for the `command` adapter its argument vectors and the parser
//! of its status output. Argument vectors are arrays of strings, passed as they are: no shell,
//! no `{device}` or `$VAR` substitution; a single string is refused as a shell string.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{ProbeError, Result};

/// Parsers of a `command` adapter's status output.
pub const PARSERS: &[&str] = &["key-value", "dmsetup-cache", "casadm"];

/// The config of an adapter (every field optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineConfig {
    pub device: Option<String>,
    pub enable_mode: Option<String>,
    pub timeout_s: Option<f64>,
    pub enable: Option<Vec<String>>,
    pub disable: Option<Vec<String>>,
    pub status: Option<Vec<String>>,
    pub parser: Option<String>,
    /// `command`: the devices this engine serves (the adapter refuses any other).
    pub devices: Option<Vec<String>>,
}

const FIELDS: &[&str] = &[
    "device",
    "enableMode",
    "timeoutS",
    "enable",
    "disable",
    "status",
    "parser",
    "devices",
];

impl EngineConfig {
    /// Read a config file; every error names the file and the field.
    pub fn load(path: &Path) -> Result<EngineConfig> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ProbeError::io(format!("reading the adapter config {}", path.display()), e)
        })?;
        Self::parse(&text)
            .map_err(|m| ProbeError::Usage(format!("adapter config {}: {m}", path.display())))
    }

    /// Parse the JSON text of a config.
    pub fn parse(text: &str) -> std::result::Result<EngineConfig, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            format!(
                "not valid JSON at line {} column {} ({e})",
                e.line(),
                e.column()
            )
        })?;
        let Value::Object(m) = v else {
            return Err("the file must hold one JSON object".into());
        };
        for k in m.keys() {
            if !FIELDS.contains(&k.as_str()) {
                return Err(format!(
                    "unknown field '{k}' (known: {})",
                    FIELDS.join(", ")
                ));
            }
        }
        let string = |k: &str| string_field(&m, k);
        let vector = |k: &str| vector_field(&m, k);
        let timeout_s = timeout_field(&m)?;
        let parser = string("parser")?;
        if let Some(p) = &parser {
            if !PARSERS.contains(&p.as_str()) {
                return Err(format!(
                    "field 'parser' is '{p}'; known parsers: {}",
                    PARSERS.join(", ")
                ));
            }
        }
        let devices = devices_field(&m)?;
        Ok(EngineConfig {
            device: string("device")?,
            enable_mode: string("enableMode")?,
            timeout_s,
            enable: vector("enable")?,
            disable: vector("disable")?,
            status: vector("status")?,
            parser,
            devices,
        })
    }
}

type Fields = serde_json::Map<String, Value>;

/// Field `k`: absent, or a non-empty string.
fn string_field(m: &Fields, k: &str) -> std::result::Result<Option<String>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
        Some(_) => Err(format!("field '{k}' must be a non-empty string")),
    }
}

/// Field `k`: absent, or an argument vector (never a shell string, nor one in an array).
fn vector_field(m: &Fields, k: &str) -> std::result::Result<Option<Vec<String>>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Err(format!(
            "field '{k}' is a shell string (\"{s}\"); give an argument vector such as [\"/usr/sbin/tool\", \"--on\"]: no shell runs it and nothing is substituted"
        )),
        Some(Value::Array(a)) => {
            let mut out = Vec::new();
            for (i, x) in a.iter().enumerate() {
                match x {
                    Value::String(s) => out.push(s.clone()),
                    _ => return Err(format!("field '{k}' item {i} must be a string")),
                }
            }
            if out.is_empty() || out[0].trim().is_empty() {
                return Err(format!("field '{k}' needs at least the program"));
            }
            if out.len() == 1 && out[0].contains(char::is_whitespace) {
                return Err(format!(
                    "field '{k}' is a shell string in an array (\"{}\"); split it into one item per argument: no shell runs it",
                    out[0]
                ));
            }
            Ok(Some(out))
        }
        Some(_) => Err(format!("field '{k}' must be an array of strings")),
    }
}

/// Field `timeoutS`: absent, or seconds in (0, 3600].
fn timeout_field(m: &Fields) -> std::result::Result<Option<f64>, String> {
    match m.get("timeoutS") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(t) if t > 0.0 && t <= 3600.0 => Ok(Some(t)),
            _ => Err("field 'timeoutS' must be between 0 and 3600 seconds".into()),
        },
        Some(_) => Err("field 'timeoutS' must be a number of seconds".into()),
    }
}

/// Field `devices`: absent, or device names (`/dev/` dropped).
fn devices_field(m: &Fields) -> std::result::Result<Option<Vec<String>>, String> {
    match m.get("devices") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(|s| s.trim_start_matches("/dev/").to_string())
                    .ok_or_else(|| "field 'devices' must be an array of strings".to_string())
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err("field 'devices' must be an array of strings".into()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn argument_vectors_are_read_as_they_are() {
        let c = EngineConfig::parse(
            r#"{"enable":["/bin/tool","--on","{device}"],"disable":["/bin/tool","--off"],"timeoutS":5,"parser":"key-value","devices":["/dev/sdb"]}"#,
        )
        .unwrap();
        assert_eq!(c.enable.unwrap(), vec!["/bin/tool", "--on", "{device}"]);
        assert_eq!(c.devices.unwrap(), vec!["sdb"]);
        assert_eq!(c.timeout_s, Some(5.0));
    }

    #[test]
    fn a_shell_string_is_refused_in_one_sentence() {
        let e = EngineConfig::parse(r#"{"enable":"tool --on && echo done"}"#).unwrap_err();
        assert!(e.contains("field 'enable' is a shell string"), "{e}");
        let e = EngineConfig::parse(r#"{"disable":["tool --off"]}"#).unwrap_err();
        assert!(
            e.contains("field 'disable' is a shell string in an array"),
            "{e}"
        );
        let e = EngineConfig::parse(r#"{"parser":"regex"}"#).unwrap_err();
        assert!(e.contains("known parsers"), "{e}");
        let e = EngineConfig::parse(r#"{"enabel":["x"]}"#).unwrap_err();
        assert!(e.contains("unknown field 'enabel'"), "{e}");
    }
}
