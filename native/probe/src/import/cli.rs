//! `cacheproof-probe import …`: argument parsing and output (docs/import.md).

use std::path::PathBuf;

use super::promhttp::{self, Auth, HttpOpts};
use super::write::{self, Options, Part};
use super::{fleet, perfmon, promfetch, promql, time, Kind, ParseOpts};
use crate::commands::import::ImportArgs;
use crate::error::{ProbeError, Result};

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

fn time_of(flag: &str, v: &Option<String>, example: &str) -> Result<Option<i64>> {
    v.as_deref()
        .map(|v| {
            time::parse_user_time(v).ok_or_else(|| {
                usage(format!(
                    "{flag} '{v}' is not a time: give ISO 8601 ({example}) or epoch seconds"
                ))
            })
        })
        .transpose()
}

/// The options of `import` from its flags (clap's [`ImportArgs`]), and the output choices
/// (preview, json). The rules that depend on the KIND (prometheus or files) are checked here.
#[allow(clippy::too_many_lines)] // issue 38: to split into parts of at most 80 lines
pub fn parse_args(a: &ImportArgs, command: String) -> Result<(Options, bool, bool)> {
    let mut o = Options {
        kind: Kind::Perfmon,
        inputs: Vec::new(),
        out: a.out.clone(),
        switch_at: time_of(
            "--switch-at",
            &a.switch_at,
            "2024-03-14T17:53:14Z, or with an offset",
        )?,
        encoding: None,
        parse: ParseOpts::default(),
        roles: Vec::new(),
        out_dir: a.out_dir.clone(),
        command,
    };
    for (flag, v) in [
        ("--password", &a.password),
        ("--bearer-token", &a.bearer_token),
        ("--token", &a.token),
    ] {
        if v.is_some() {
            return Err(usage(format!(
                "{flag}: a secret is never given on the command line (other users see it in the process list, and it stays in the shell's history): use {} FILE or the environment variable {}",
                if flag == "--password" { "--password-file" } else { "--bearer-token-file" },
                if flag == "--password" { promhttp::PASSWORD_ENV } else { promhttp::TOKEN_ENV }
            )));
        }
    }
    let from = time_of("--from", &a.from, "2024-03-14T10:00:00Z")?;
    let end = time_of("--to", &a.to, "2024-03-14T11:00:00Z")?;
    o.parse.start_utc_ms = time_of("--start", &a.start, "2024-03-14T10:00:00Z")?;
    let hosts = match &a.hosts {
        Some(v) => Some(
            promql::parse_selector(v)
                .map_err(|e| usage(format!("--hosts '{v}' is not a host selector: {e}")))?,
        ),
        None => None,
    };
    let http = HttpOpts {
        ca_file: a.ca_file.clone(),
        insecure: a.insecure,
        ..HttpOpts::default()
    };
    let http_flags: Vec<&str> = [
        ("--ca-file", a.ca_file.is_some()),
        ("--insecure", a.insecure),
        ("--user", a.user.is_some()),
        ("--password-file", a.password_file.is_some()),
        ("--bearer-token-file", a.bearer_token_file.is_some()),
    ]
    .iter()
    .filter(|(_, given)| *given)
    .map(|(f, _)| *f)
    .collect();
    if let Some(e) = &a.encoding {
        if super::decode::by_name(e).is_none() {
            return Err(usage(format!(
                "unknown --encoding '{e}': use utf-8, utf-16le, utf-16be, cp1251, cp1252 or cp932"
            )));
        }
        o.encoding = Some(e.clone());
    }
    if let Some(v) = &a.interval {
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
    if let Some(v) = &a.utc_offset {
        o.parse.utc_offset_min =
            Some(offset(v).filter(|m| m.abs() <= 14 * 60).ok_or_else(|| {
                usage(format!(
                    "--utc-offset '{v}' must be minutes (-300) or ±HH:MM"
                ))
            })?);
    }
    if let Some(v) = &a.names {
        let text =
            std::fs::read(v).map_err(|e| usage(format!("--names {v}: cannot be read: {e}")))?;
        let dec = super::decode::decode(&text, None).map_err(usage)?;
        let mut n = perfmon::Names::default();
        n.add(v, &dec.text)?;
        o.parse.names = Some(n);
    }
    let step = match &a.step {
        Some(v) => {
            let (num, mul) = match v.strip_suffix('m') {
                Some(n) => (n, 60.0),
                None => (v.trim_end_matches('s'), 1.0),
            };
            let s: f64 = num.parse().ok().filter(|x: &f64| *x > 0.0).ok_or_else(|| {
                usage(format!(
                    "--step '{v}' must be a positive number of seconds (15, 15s, 1m)"
                ))
            })?;
            Some((s * mul * 1000.0).round() as i64)
        }
        None => None,
    };
    for v in &a.role {
        let (n, r) = v
            .split_once('=')
            .ok_or_else(|| usage(format!("--role '{v}' must be NAME=ROLE")))?;
        o.roles.push((n.to_string(), r.to_string()));
    }
    let prom_url = a.url.clone();
    // KIND is the first word; with --url and no KIND, the kind is prometheus (and a word is a file).
    let (kind, kind_word_is_file) = match a.kind.as_deref() {
        Some(k) => match Kind::parse(k) {
            Some(kind) => (Some(kind), false),
            None if prom_url.is_some() => (Some(Kind::Prometheus), true),
            None => return Err(usage(format!(
                "unknown import kind '{k}': use perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats, node-exporter or prometheus (with --url)"
            ))),
        },
        None => (prom_url.as_ref().map(|_| Kind::Prometheus), false),
    };
    // the files in command-line order (the capture's import_files keeps it)
    let mut inputs: Vec<(PathBuf, Part)> = Vec::new();
    if kind_word_is_file {
        inputs.extend(a.kind.iter().map(|k| (PathBuf::from(k), Part::All)));
    }
    let part = |id: &str| match id {
        "baseline" => Part::Baseline,
        "measure" => Part::Measure,
        _ => Part::All,
    };
    if a.in_order.is_empty() {
        inputs.extend(a.files.iter().map(|f| (f.clone(), Part::All)));
        inputs.extend(a.baseline.iter().map(|f| (f.clone(), Part::Baseline)));
        inputs.extend(a.measure.iter().map(|f| (f.clone(), Part::Measure)));
    } else {
        inputs.extend(a.in_order.iter().map(|(id, f)| (f.clone(), part(id))));
    }
    let (user, password_file, token_file) = (
        a.user.clone(),
        a.password_file.clone(),
        a.bearer_token_file.clone(),
    );
    let instances = a.instance.clone();
    let mut http = http;
    o.kind = kind.ok_or_else(|| {
        usage("import needs a KIND and files (cacheproof-probe import --help lists the options)")
    })?;
    o.inputs = inputs;
    if o.kind == Kind::Prometheus {
        let url = prom_url.ok_or_else(|| {
            usage(
                "import prometheus needs --url URL (or --prometheus URL: http://host:9090 or https://…; cacheproof-probe import --help lists the options)",
            )
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
    Ok((o, a.preview, a.json))
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
pub fn run(args: &ImportArgs, command: String) -> Result<()> {
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
    if let Some(file) = &args.fleet_summary {
        return super::promsum::write(&o, file, json);
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
    let text = if json {
        format!("{}\n", serde_json::to_string_pretty(&w).unwrap_or_default())
    } else {
        format!(
            "{}wrote {}: {} devices, {} samples, {} intervals\n",
            write::render(&w.preview),
            w.out,
            w.devices,
            w.samples,
            w.intervals
        )
    };
    print_result(&text, &w.out)?;
    skipped_hosts(&w.preview)
}

/// Prints an import's result; a stdout that cannot be written (a full disk under a redirect)
/// is one sentence and exit 1, not a panic: the capture itself is complete.
fn print_result(text: &str, out: &str) -> Result<()> {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    so.write_all(text.as_bytes())
        .and_then(|()| so.flush())
        .map_err(|e| {
            ProbeError::io(
                format!("the capture {out} was written, but its summary could not be printed on standard output (check where standard output goes)"),
                e,
            )
        })
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
