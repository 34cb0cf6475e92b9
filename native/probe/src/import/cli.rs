//! `cacheproof-probe import …`: argument parsing and output (docs/import.md).

use std::path::PathBuf;

use super::promhttp::{self, Auth, HttpOpts};
use super::write::{self, Options, Part};
use super::{fleet, perfmon, promfetch, promql, time, Kind, ParseOpts};
use crate::error::{ProbeError, Result};

/// Usage of the import command.
pub const USAGE: &str = "\
  cacheproof-probe import KIND FILE... --out CAPTURE [--switch-at TIME]
  cacheproof-probe import KIND --baseline FILE... --measure FILE... --out CAPTURE
  cacheproof-probe import --preview KIND FILE... [--json]
  cacheproof-probe import prometheus --url URL [--hosts SELECTOR] --from TIME --to TIME [--step S] (--out CAPTURE | --out-dir DIR)
      KIND: perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats, node-exporter, prometheus
      prometheus: --hosts '{job=\"node\",instance=~\"db.*\"}'  --instance I (repeatable)
               --ca-file FILE  --insecure  --user NAME --password-file FILE  --bearer-token-file FILE
               (--prometheus URL, --start, --end: the same as --url, --from, --to)
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
        out_dir: None,
        command,
    };
    let (mut preview, mut json) = (false, false);
    let (mut prom_url, mut end, mut step, mut instances) = (None, None, None, Vec::new());
    let (mut from, mut hosts) = (None, None);
    let mut http = HttpOpts::default();
    let (mut user, mut password_file, mut token_file) = (None, None, None);
    let mut http_flags: Vec<&str> = Vec::new();
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
            "--out-dir" => o.out_dir = Some(PathBuf::from(val(&mut i)?)),
            "--from" => {
                let v = val(&mut i)?;
                from = Some(time::parse_user_time(&v).ok_or_else(|| {
                    usage(format!(
                        "--from '{v}' is not a time: give ISO 8601 (2024-03-14T10:00:00Z) or epoch seconds"
                    ))
                })?);
            }
            "--to" | "--end" => {
                let v = val(&mut i)?;
                end = Some(time::parse_user_time(&v).ok_or_else(|| {
                    usage(format!(
                        "{flag} '{v}' is not a time: give ISO 8601 (2024-03-14T11:00:00Z) or epoch seconds"
                    ))
                })?);
            }
            "--hosts" => {
                let v = val(&mut i)?;
                hosts =
                    Some(promql::parse_selector(&v).map_err(|e| {
                        usage(format!("--hosts '{v}' is not a host selector: {e}"))
                    })?);
            }
            "--ca-file" => {
                http.ca_file = Some(PathBuf::from(val(&mut i)?));
                http_flags.push("--ca-file");
            }
            "--insecure" => {
                http.insecure = true;
                http_flags.push("--insecure");
            }
            "--user" => {
                user = Some(val(&mut i)?);
                http_flags.push("--user");
            }
            "--password-file" => {
                password_file = Some(PathBuf::from(val(&mut i)?));
                http_flags.push("--password-file");
            }
            "--bearer-token-file" => {
                token_file = Some(PathBuf::from(val(&mut i)?));
                http_flags.push("--bearer-token-file");
            }
            "--password" | "--bearer-token" | "--token" => {
                return Err(usage(format!(
                    "{flag}: a secret is never given on the command line (other users see it in the process list, and it stays in the shell's history): use {} FILE or the environment variable {}",
                    if flag == "--password" { "--password-file" } else { "--bearer-token-file" },
                    if flag == "--password" { promhttp::PASSWORD_ENV } else { promhttp::TOKEN_ENV }
                )));
            }
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
                "import prometheus needs --url URL (or --prometheus URL: http://host:9090 or https://…). Usage:\n{USAGE}"
            ))
        })?;
        if !url.starts_with("http://") && !url.starts_with("https://") {
            return Err(usage(format!(
                "--url '{url}' must be an http:// or https:// URL of the server (http://127.0.0.1:9090)"
            )));
        }
        if !o.inputs.is_empty() {
            return Err(usage(
                "import prometheus reads the server, not files: remove the file names".to_string(),
            ));
        }
        // --start is --from's old name (for files it is the time of the first report)
        let start = from.or(o.parse.start_utc_ms).ok_or_else(|| {
            usage("import prometheus needs --from TIME (or its old name --start; ISO 8601 or epoch seconds)")
        })?;
        o.parse.start_utc_ms = None;
        let end = end.ok_or_else(|| {
            usage("import prometheus needs --to TIME (or its old name --end; ISO 8601 or epoch seconds)")
        })?;
        if end <= start {
            return Err(usage(format!(
                "--to {} is not after --from {}",
                time::iso(end),
                time::iso(start)
            )));
        }
        if step.is_some_and(|s| (end - start) / s < 1) {
            return Err(usage("--step is longer than the range from --from to --to"));
        }
        http.auth = auth(user, password_file, token_file)?;
        if http.insecure && http.ca_file.is_some() {
            return Err(usage(
                "--insecure skips the certificate check that --ca-file is for: give one of them",
            ));
        }
        if !url.starts_with("https://") && (http.insecure || http.ca_file.is_some()) {
            return Err(usage(format!(
                "--ca-file and --insecure are for an https:// URL, and {url} is http://"
            )));
        }
        o.parse.prometheus = Some(super::promfetch::PromOpts {
            url: url.clone(),
            start_ms: start,
            end_ms: end,
            step_ms: step,
            instances,
            matchers: hosts.unwrap_or_default(),
            http,
        });
        o.inputs = vec![(PathBuf::from(url), Part::All)];
    } else if prom_url.is_some()
        || end.is_some()
        || from.is_some()
        || step.is_some()
        || !instances.is_empty()
        || hosts.is_some()
        || !http_flags.is_empty()
    {
        return Err(usage(format!(
            "--url (or --prometheus), --hosts, --from, --to, --step, --instance{} are for import prometheus",
            http_flags
                .iter()
                .map(|f| format!(", {f}"))
                .collect::<String>()
        )));
    }
    if o.out.is_some() && o.out_dir.is_some() {
        return Err(usage(
            "give --out CAPTURE (one capture) or --out-dir DIR (one capture per host), not both",
        ));
    }
    Ok((o, preview, json))
}

/// The credentials: basic auth (`--user` with `--password-file` or the password's environment
/// variable) or a bearer token (`--bearer-token-file` or its environment variable); never a
/// secret from the command line.
fn auth(
    user: Option<String>,
    password_file: Option<PathBuf>,
    token_file: Option<PathBuf>,
) -> Result<Auth> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if user.is_some() && token_file.is_some() {
        return Err(usage(
            "give --user with a password, or --bearer-token-file, not both",
        ));
    }
    if let Some(user) = user {
        let (password, from) = match password_file {
            Some(f) => (
                promhttp::read_secret("--password-file", &f)?,
                format!("--password-file {}", f.display()),
            ),
            None => match env(promhttp::PASSWORD_ENV) {
                Some(p) => (p, format!("${}", promhttp::PASSWORD_ENV)),
                None => {
                    return Err(usage(format!(
                        "--user {user} needs the password from --password-file FILE or the environment variable {} (never on the command line)",
                        promhttp::PASSWORD_ENV
                    )))
                }
            },
        };
        return Ok(Auth::Basic {
            user,
            password,
            from,
        });
    }
    if password_file.is_some() {
        return Err(usage(
            "--password-file is the password of --user NAME: give --user too",
        ));
    }
    if let Some(f) = token_file {
        return Ok(Auth::Bearer {
            token: promhttp::read_secret("--bearer-token-file", &f)?,
            from: format!("--bearer-token-file {}", f.display()),
        });
    }
    Ok(match env(promhttp::TOKEN_ENV) {
        Some(token) => Auth::Bearer {
            token,
            from: format!("${}", promhttp::TOKEN_ENV),
        },
        None => Auth::None,
    })
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
    if o.out_dir.is_some() {
        let w = fleet::import_per_host(&o)?;
        if json {
            println!("{}", serde_json::to_string_pretty(&w).unwrap_or_default());
        } else {
            print!("{}", write::render(&w.preview));
            for c in &w.captures {
                println!(
                    "wrote {} ({}): {} devices, {} samples, {} intervals",
                    c.out, c.host, c.devices, c.samples, c.intervals
                );
            }
        }
        return skipped_hosts(&w.preview);
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
    skipped_hosts(&w.preview)
}

/// Exit 14 with one sentence when `import prometheus` left hosts out (their notes start with
/// [`promfetch::SKIPPED_HOST`]); what was read of the others is written.
fn skipped_hosts(pv: &super::preview::Preview) -> Result<()> {
    let skipped: Vec<&str> = pv
        .notes
        .iter()
        // the preview prefixes each file's notes with its name (here the server's URL)
        .filter_map(|n| n.split_once(promfetch::SKIPPED_HOST).map(|(_, h)| h))
        .collect();
    if skipped.is_empty() {
        return Ok(());
    }
    Err(ProbeError::Partial(format!(
        "{} of {} hosts could not be read and were left out (the other {} were imported): {}",
        skipped.len(),
        skipped.len() + pv.hosts.len(),
        pv.hosts.len(),
        skipped.join("; ")
    )))
}
