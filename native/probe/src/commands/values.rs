//! The typed values of the probe's flags, as clap value parsers: clap names the flag and the
//! value in its error, and `--help` lists the allowed values of every enumerated flag
//! (`[possible values: …]`, from [`OneOf`]).

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};

use crate::import::{decode, promql, time};
use crate::sim::policy::PolicyKind;
use crate::trace::import as tracein;
use crate::{plan, sim};

/// A value that is one of a set of names: `--help` lists the names, and `parse` (which may
/// accept more spellings, as `utf8` for `utf-8`) turns a word into the value or says why not.
#[derive(Clone)]
pub struct OneOf<T> {
    names: Vec<&'static str>,
    parse: fn(&str) -> Result<T, String>,
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for OneOf<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // (a plain fn is clap's own parser of a word: its error names the flag and the value)
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(*n))))
    }
}

fn not_one_of(names: &[&str], what: &str, v: &str) -> String {
    format!("unknown {what} '{v}': one of {}", names.join(", "))
}

/// `import KIND`: perfmon, esxtop, iostat, … prometheus.
pub fn import_kind() -> OneOf<crate::import::Kind> {
    use crate::import::Kind;
    OneOf {
        names: Kind::ALL.iter().map(|k| k.as_str()).collect(),
        parse: |v| {
            Kind::parse(v).ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
                not_one_of(&names, "import kind", v)
            })
        },
    }
}

/// `import-trace KIND`, `simulate --kind KIND`: a trace file's format.
pub fn trace_kind() -> OneOf<tracein::Kind> {
    OneOf {
        names: tracein::Kind::ALL.iter().map(|k| k.name()).collect(),
        parse: |v| {
            tracein::Kind::parse(v).ok_or_else(|| {
                format!(
                    "unknown trace kind '{v}': one of {}",
                    tracein::Kind::names()
                )
            })
        },
    }
}

/// `--policy`: one policy of a comma-separated list.
pub fn policy() -> OneOf<PolicyKind> {
    OneOf {
        names: PolicyKind::ALL.iter().map(|p| p.name()).collect(),
        parse: |v| {
            PolicyKind::parse(v).ok_or_else(|| {
                let names: Vec<&str> = PolicyKind::ALL.iter().map(|p| p.name()).collect();
                not_one_of(&names, "policy", v)
            })
        },
    }
}

/// `simulate --writes`: what a write does to the cache.
pub fn writes() -> OneOf<sim::WritePolicy> {
    const NAMES: [&str; 3] = ["bypass", "invalidate", "allocate"];
    OneOf {
        names: NAMES.to_vec(),
        parse: |v| sim::WritePolicy::parse(v).ok_or_else(|| not_one_of(&NAMES, "write mode", v)),
    }
}

/// The canonical names of `import --encoding` (other spellings are accepted: docs/import.md).
const ENCODINGS: [&str; 6] = ["utf-8", "utf-16le", "utf-16be", "cp1251", "cp1252", "cp932"];

/// `import --encoding`: a text encoding, by its canonical name.
pub fn encoding() -> OneOf<String> {
    OneOf {
        names: ENCODINGS.to_vec(),
        parse: |v| {
            decode::by_name(v)
                .map(|(_, name)| name.to_string())
                .ok_or_else(|| not_one_of(&ENCODINGS, "encoding", v))
        },
    }
}

/// `mark CAPTURE switch|note`.
pub fn mark_kind() -> OneOf<String> {
    const NAMES: [&str; 2] = ["switch", "note"];
    OneOf {
        names: NAMES.to_vec(),
        parse: |v| {
            NAMES
                .contains(&v)
                .then(|| v.to_string())
                .ok_or_else(|| not_one_of(&NAMES, "mark", v))
        },
    }
}

/// A size in bytes: a whole number with an optional unit B, KiB, MiB, GiB, TiB (powers of
/// 1024) or KB, MB, GB, TB (powers of 1000).
pub fn size(v: &str) -> Result<u64, String> {
    super::sim::parse_size(v).ok_or_else(|| {
        format!("'{v}' is not a size: a whole number with B, KiB, MiB, GiB, TiB, KB, MB, GB or TB")
    })
}

/// A duration (`500ms`, `1s`, `15m`, `24h`, `2d`, or seconds), in seconds.
pub fn duration(v: &str) -> Result<f64, String> {
    plan::parse_duration(v).map_err(|e| e.to_string())
}

/// `record --interval`: a duration from 10 ms to 1 h, in seconds.
pub fn interval(v: &str) -> Result<f64, String> {
    let s = duration(v)?;
    if (0.01..=3600.0).contains(&s) {
        Ok(s)
    } else {
        Err("the sampling interval must be between 10ms and 1h".into())
    }
}

/// `record --plan`: the phases.
pub fn plan(v: &str) -> Result<plan::Plan, String> {
    plan::parse_plan(v).map_err(|e| e.to_string())
}

/// A share from 0 (left out) to 1 (all): `0 < R ≤ 1`.
pub fn share(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(r) if r > 0.0 && r <= 1.0 => Ok(r),
        _ => Err(format!(
            "give a share with 0 < R ≤ 1 (e.g. 0.1, or 1 for all), not '{v}'"
        )),
    }
}

/// `record --trace-budget`: the trace's size per 24 h of recording, at least one request.
pub fn trace_budget(v: &str) -> Result<u64, String> {
    let min = crate::trace::sampling::ROW_BYTES;
    match super::sim::parse_size(v) {
        Some(b) if b >= min => Ok(b),
        _ => Err(format!(
            "give the trace's size per 24 h of recording, e.g. 300MB or 2GiB (at least {min} B, one request), not '{v}'"
        )),
    }
}

/// `engine … ADAPTER`: an adapter's name (docs/adapters.md).
pub fn adapter() -> OneOf<String> {
    OneOf {
        names: crate::adapters::NAMES.to_vec(),
        parse: |v| {
            let names = crate::adapters::NAMES;
            names
                .contains(&v)
                .then(|| v.to_string())
                .ok_or_else(|| not_one_of(names, "adapter", v))
        },
    }
}

/// A time: ISO 8601 (UTC unless an offset is given) or epoch seconds; in epoch milliseconds.
pub fn time(v: &str) -> Result<i64, String> {
    time::parse_user_time(v).ok_or_else(|| {
        format!(
            "'{v}' is not a time: give ISO 8601 (2024-03-14T10:00:00Z, or with an offset: 2024-03-14T11:00:00+01:00) or epoch seconds"
        )
    })
}

/// `import --utc-offset`: minutes (`-300`) or `±HH:MM`, at most 14 h; in minutes.
pub fn utc_offset(v: &str) -> Result<i64, String> {
    let t = v.trim();
    let minutes = t.parse::<i64>().ok().or_else(|| {
        let (sign, rest) = match t.as_bytes().first()? {
            b'+' => (1, &t[1..]),
            b'-' => (-1, &t[1..]),
            _ => (1, t),
        };
        let (h, m) = rest.split_once(':')?;
        Some(sign * (h.parse::<i64>().ok()? * 60 + m.parse::<i64>().ok()?))
    });
    minutes
        .filter(|m| m.abs() <= 14 * 60)
        .ok_or_else(|| format!("'{v}' must be minutes (-300) or ±HH:MM, at most 14 h from UTC"))
}

/// `import --interval`: a positive number of seconds (`10` or `10s`).
pub fn seconds(v: &str) -> Result<f64, String> {
    v.trim_end_matches('s')
        .parse::<f64>()
        .ok()
        .filter(|x| *x > 0.0 && x.is_finite())
        .ok_or_else(|| format!("'{v}' must be a positive number of seconds"))
}

/// `import --step`: a positive number of seconds or minutes (`15`, `15s`, `1m`); in ms.
pub fn step_ms(v: &str) -> Result<i64, String> {
    let (num, mul) = match v.strip_suffix('m') {
        Some(n) => (n, 60.0),
        None => (v.trim_end_matches('s'), 1.0),
    };
    num.parse::<f64>()
        .ok()
        .filter(|x| *x > 0.0 && x.is_finite())
        .map(|s| (s * mul * 1000.0).round() as i64)
        .ok_or_else(|| format!("'{v}' must be a positive number of seconds (15, 15s, 1m)"))
}

/// `NAME=ROLE` of `import --role`: the name and the role.
pub fn name_role(v: &str) -> Result<(String, String), String> {
    v.split_once('=')
        .map(|(n, r)| (n.to_string(), r.to_string()))
        .ok_or_else(|| format!("'{v}' must be NAME=ROLE"))
}

/// `import --url`: the Prometheus server, http:// or https://.
pub fn server_url(v: &str) -> Result<String, String> {
    if v.starts_with("http://") || v.starts_with("https://") {
        Ok(v.to_string())
    } else {
        Err(format!(
            "'{v}' must be an http:// or https:// URL of the server (http://127.0.0.1:9090)"
        ))
    }
}

/// `import --hosts`: the label matchers of a series selector.
#[derive(Debug, Clone, Default)]
pub struct Selector(pub Vec<promql::Matcher>);

/// `import --hosts`: a series selector.
pub fn selector(v: &str) -> Result<Selector, String> {
    promql::parse_selector(v)
        .map(Selector)
        .map_err(|e| format!("'{v}' is not a host selector: {e}"))
}

/// `predict --threads`: 1 or more.
pub fn threads(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("give a whole number of threads, 1 or more (default: one per core)".into()),
    }
}

/// `predict --cache-device`: a preset or a latency.
pub fn cache_device(v: &str) -> Result<sim::cachedev::CacheDevice, String> {
    // (clap names the flag and the value before the sentence)
    sim::cachedev::parse(v).map_err(|e| {
        let e = e.to_string();
        let named = format!("--cache-device '{}': ", v.trim());
        e.strip_prefix(&named).map(str::to_string).unwrap_or(e)
    })
}

/// `--password`, `--bearer-token`, `--token`: refused, with where the secret goes instead
/// (the refusal does not repeat the value: it is a secret).
#[derive(Clone)]
pub struct Refused {
    /// The flag that takes the secret from a file.
    pub file_flag: &'static str,
    /// The environment variable that holds it.
    pub env: &'static str,
}

impl TypedValueParser for Refused {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        _: &OsStr,
    ) -> Result<String, clap::Error> {
        let flag = arg.and_then(clap::Arg::get_long).unwrap_or("password");
        Err(clap::Error::raw(
            clap::error::ErrorKind::ValueValidation,
            format!(
                "--{flag}: a secret is never given on the command line (other users see it in the process list, and it stays in the shell's history): use {} FILE or the environment variable {}",
                self.file_flag, self.env
            ),
        )
        .with_cmd(cmd))
    }
}

/// `--password`'s refusal.
pub fn refused_password() -> Refused {
    Refused {
        file_flag: "--password-file",
        env: crate::import::promhttp::PASSWORD_ENV,
    }
}

/// `--bearer-token`'s and `--token`'s refusal.
pub fn refused_token() -> Refused {
    Refused {
        file_flag: "--bearer-token-file",
        env: crate::import::promhttp::TOKEN_ENV,
    }
}

/// `record --switch manual|ADAPTER[:CONFIG]`: who switches the cache at the baseline's end, and
/// the adapter's configuration file (docs/adapters.md).
#[derive(Debug, Clone, PartialEq)]
pub struct Switch {
    pub adapter: String,
    pub config: Option<String>,
}

/// `record --switch`: `--help` lists the adapters; the config after `:` is a file's path.
pub fn switch() -> OneOf<Switch> {
    OneOf {
        names: crate::adapters::NAMES.to_vec(),
        parse: |v| {
            let (name, config) = match v.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (v, None),
            };
            if !crate::adapters::NAMES.contains(&name) {
                return Err(not_one_of(crate::adapters::NAMES, "adapter", name));
            }
            if config.is_some_and(str::is_empty) {
                return Err(format!("'{v}' has no configuration file after ':'"));
            }
            if name == "manual" && config.is_some() {
                return Err("manual takes no configuration file".into());
            }
            Ok(Switch {
                adapter: name.to_string(),
                config: config.map(str::to_string),
            })
        },
    }
}

/// `record --devices a,b`: device names without `/dev/`, at least one (one value to clap, which
/// would take a `Vec` for a repeated flag).
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceList(pub Vec<String>);

/// `record --devices a,b`: device names, `/dev/` or not, at least one.
pub fn device_list(v: &str) -> Result<DeviceList, String> {
    let names: Vec<String> = v
        .split(',')
        .map(|x| x.trim().trim_start_matches("/dev/").to_string())
        .filter(|x| !x.is_empty())
        .collect();
    if names.is_empty() {
        return Err("no device name in it: name at least one, e.g. sda or sda,sdb".into());
    }
    Ok(DeviceList(names))
}
