//! `cacheproof-probe import …`: argument parsing and output (docs/import.md).

use std::path::PathBuf;

use super::write::{self, Options, Part};
use super::{perfmon, time, Kind, ParseOpts};
use crate::error::{ProbeError, Result};

/// Usage of the import command.
pub const USAGE: &str = "\
  cacheproof-probe import KIND FILE... --out CAPTURE [--switch-at TIME]
  cacheproof-probe import KIND --baseline FILE... --measure FILE... --out CAPTURE
  cacheproof-probe import --preview KIND FILE... [--json]
  cacheproof-probe import --prometheus URL --start TIME --end TIME [--step SECONDS] [--instance I]... --out CAPTURE
      KIND: perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats, node-exporter
      options: --encoding E (utf-8, utf-16le, utf-16be, cp1251, cp1252, cp932)
               --names FILE (more PerfMon names)  --utc-offset MINUTES|±HH:MM
               --interval SECONDS and --start TIME (for iostat without -t)
               --role NAME=ROLE  --json";

fn usage(m: impl Into<String>) -> ProbeError {
    ProbeError::Usage(m.into())
}

fn offset(s: &str) -> Option<i64> {
    let t = s.trim();
    if let Ok(m) = t.parse::<i64>() {
        return Some(m);
    }
    let (sign, rest) = match t.as_bytes().first()? {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => (1, t),
    };
    let (h, m) = rest.split_once(':')?;
    Some(sign * (h.parse::<i64>().ok()? * 60 + m.parse::<i64>().ok()?))
}

/// Parse the words after `import` into options and the output choices (preview, json).
pub fn parse_args(args: &[String], command: String) -> Result<(Options, bool, bool)> {
    let mut kind = None;
    let mut inputs = Vec::new();
    let mut part = Part::All;
    let mut o = Options {
        kind: Kind::Perfmon,
        inputs: Vec::new(),
        out: None,
        switch_at: None,
        encoding: None,
        parse: ParseOpts::default(),
        roles: Vec::new(),
        command,
    };
    let (mut preview, mut json) = (false, false);
    let (mut prom_url, mut end, mut step, mut instances) = (None, None, None, Vec::new());
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if a.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let val = |i: &mut usize| -> Result<String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| usage(format!("{flag} needs a value")))
        };
        match flag {
            "--preview" => preview = true,
            "--json" => json = true,
            "--baseline" => part = Part::Baseline,
            "--measure" => part = Part::Measure,
            "--out" => o.out = Some(PathBuf::from(val(&mut i)?)),
            "--encoding" => {
                let e = val(&mut i)?;
                if super::decode::by_name(&e).is_none() {
                    return Err(usage(format!("unknown --encoding '{e}': use utf-8, utf-16le, utf-16be, cp1251, cp1252 or cp932")));
                }
                o.encoding = Some(e);
            }
            "--switch-at" => {
                let v = val(&mut i)?;
                o.switch_at = Some(time::parse_user_time(&v).ok_or_else(|| usage(format!("--switch-at '{v}' is not a time: give ISO 8601 (2024-03-14T17:53:14Z, or with an offset) or epoch seconds")))?);
            }
            "--start" => {
                let v = val(&mut i)?;
                o.parse.start_utc_ms = Some(time::parse_user_time(&v).ok_or_else(|| {
                    usage(format!(
                        "--start '{v}' is not a time: give ISO 8601 or epoch seconds"
                    ))
                })?);
            }
            "--interval" => {
                let v = val(&mut i)?;
                let s: f64 = v
                    .trim_end_matches('s')
                    .parse()
                    .ok()
                    .filter(|x: &f64| *x > 0.0)
                    .ok_or_else(|| {
                        usage(format!(
                            "--interval '{v}' must be a positive number of seconds"
                        ))
                    })?;
                o.parse.interval_s = Some(s);
            }
            "--utc-offset" => {
                let v = val(&mut i)?;
                o.parse.utc_offset_min =
                    Some(offset(&v).filter(|m| m.abs() <= 14 * 60).ok_or_else(|| {
                        usage(format!(
                            "--utc-offset '{v}' must be minutes (-300) or ±HH:MM"
                        ))
                    })?);
            }
            "--names" => {
                let v = val(&mut i)?;
                let text = std::fs::read(&v)
                    .map_err(|e| usage(format!("--names {v}: cannot be read: {e}")))?;
                let dec = super::decode::decode(&text, None).map_err(usage)?;
                let mut n = perfmon::Names::default();
                n.add(&v, &dec.text)?;
                o.parse.names = Some(n);
            }
            "--prometheus" | "--url" => {
                prom_url = Some(val(&mut i)?);
                if kind.is_none() {
                    kind = Some(Kind::Prometheus);
                }
            }
            "--end" => {
                let v = val(&mut i)?;
                end = Some(time::parse_user_time(&v).ok_or_else(|| {
                    usage(format!(
                        "--end '{v}' is not a time: give ISO 8601 or epoch seconds"
                    ))
                })?);
            }
            "--step" => {
                let v = val(&mut i)?;
                let (num, mul) = match v.strip_suffix('m') {
                    Some(n) => (n, 60.0),
                    None => (v.trim_end_matches('s'), 1.0),
                };
                let s: f64 = num.parse().ok().filter(|x: &f64| *x > 0.0).ok_or_else(|| {
                    usage(format!(
                        "--step '{v}' must be a positive number of seconds (15, 15s, 1m)"
                    ))
                })?;
                step = Some((s * mul * 1000.0).round() as i64);
            }
            "--instance" => instances.push(val(&mut i)?),
            "--role" => {
                let v = val(&mut i)?;
                let (n, r) = v
                    .split_once('=')
                    .ok_or_else(|| usage(format!("--role '{v}' must be NAME=ROLE")))?;
                o.roles.push((n.to_string(), r.to_string()));
            }
            f if f.starts_with("--") => {
                return Err(usage(format!(
                    "unknown flag '{f}' for import. Usage:\n{USAGE}"
                )));
            }
            _ => {
                if kind.is_none() {
                    kind = Some(Kind::parse(a).ok_or_else(|| usage(format!(
                        "unknown import kind '{a}': use perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats, node-exporter or prometheus (with --url)"
                    )))?);
                } else {
                    inputs.push((PathBuf::from(a), part));
                }
            }
        }
        i += 1;
    }
    o.kind =
        kind.ok_or_else(|| usage(format!("import needs a KIND and files. Usage:\n{USAGE}")))?;
    o.inputs = inputs;
    if o.kind == Kind::Prometheus {
        let url = prom_url.ok_or_else(|| {
            usage(format!(
                "import prometheus needs --prometheus URL (http://host:9090). Usage:\n{USAGE}"
            ))
        })?;
        if !url.starts_with("http://") && !url.starts_with("https://") {
            return Err(usage(format!(
                "--prometheus '{url}' must be an http:// URL of the server (http://127.0.0.1:9090)"
            )));
        }
        if url.starts_with("https://") {
            return Err(usage(format!("--prometheus '{url}': https is not supported by this probe; use the server's http:// address (or a local reverse proxy)")));
        }
        if !o.inputs.is_empty() {
            return Err(usage(
                "import --prometheus reads the server, not files: remove the file names"
                    .to_string(),
            ));
        }
        let start = o.parse.start_utc_ms.ok_or_else(|| {
            usage("import --prometheus needs --start TIME (ISO 8601 or epoch seconds)")
        })?;
        let end = end.ok_or_else(|| {
            usage("import --prometheus needs --end TIME (ISO 8601 or epoch seconds)")
        })?;
        if step.is_some_and(|s| (end - start) / s < 1) {
            return Err(usage(
                "--step is longer than the range from --start to --end",
            ));
        }
        o.parse.prometheus = Some(super::prometheus::PromOpts {
            url: url.clone(),
            start_ms: start,
            end_ms: end,
            step_ms: step,
            instances,
        });
        o.inputs = vec![(PathBuf::from(url), Part::All)];
    } else if prom_url.is_some() || end.is_some() || step.is_some() || !instances.is_empty() {
        return Err(usage(
            "--prometheus/--url, --end, --step and --instance are for import --prometheus",
        ));
    }
    Ok((o, preview, json))
}

/// Run `import` with the words after it; prints the result.
pub fn run(args: &[String], command: String) -> Result<()> {
    let (o, preview, json) = parse_args(args, command)?;
    if preview {
        let p = write::plan(&o)?;
        let pv = write::preview(o.kind, &p);
        if json {
            println!("{}", serde_json::to_string_pretty(&pv).unwrap_or_default());
        } else {
            print!("{}", write::render(&pv));
        }
        return Ok(());
    }
    let w = write::import(&o)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&w).unwrap_or_default());
    } else {
        print!("{}", write::render(&w.preview));
        println!(
            "wrote {}: {} devices, {} samples, {} intervals",
            w.out, w.devices, w.samples, w.intervals
        );
    }
    Ok(())
}
