//! `cacheproof-probe import …`: argument parsing and output (docs/import.md).

use std::path::PathBuf;

use super::import::ImportArgs;
use crate::error::{ProbeError, Result};
use crate::import::promhttp::{self, Auth, HttpOpts};
use crate::import::write::{self, Options, Part};
use crate::import::{fleet, perfmon, promfetch, time, Kind, ParseOpts};

fn usage(m: impl Into<String>) -> ProbeError {
    ProbeError::Usage(m.into())
}

/// The options of `import` from its flags (clap's [`ImportArgs`]: the values are typed and the
/// rules between flags declared there), and the output choices (preview, json). What is left
/// here depends on the values: the kind (prometheus or files) and the range.
pub fn parse_args(a: &ImportArgs, command: String) -> Result<(Options, bool, bool)> {
    // with --url and no KIND the kind is prometheus (clap requires one of them)
    let kind = match (a.kind, &a.url) {
        (Some(k), _) => k,
        (None, Some(_)) => Kind::Prometheus,
        (None, None) => return Err(usage("import needs a KIND and files")),
    };
    let mut o = Options {
        kind,
        inputs: inputs_in_order(a),
        out: a.out.clone(),
        switch_at: a.switch_at,
        encoding: a.encoding.clone(),
        parse: file_opts(a)?,
        roles: a.role.clone(),
        out_dir: a.out_dir.clone(),
        command,
    };
    match (kind, &a.url) {
        (Kind::Prometheus, Some(url)) => {
            // --start is --from's old name (for files it is the time of the first report)
            o.parse.start_utc_ms = None;
            o.parse.prometheus = Some(prometheus_opts(a, url)?);
            o.inputs = vec![(PathBuf::from(url), Part::All)];
        }
        (Kind::Prometheus, None) => {
            return Err(usage(
                "import prometheus needs --url URL (http://host:9090 or https://…)",
            ))
        }
        (k, Some(_)) => {
            return Err(usage(format!(
                "--url (or --prometheus) is for import prometheus, not import {}",
                k.as_str()
            )))
        }
        (_, None) => {}
    }
    Ok((o, a.preview, a.json))
}

/// The options of a file import: the times, interval and offset the files may not say, and
/// the localized PerfMon counter names.
fn file_opts(a: &ImportArgs) -> Result<ParseOpts> {
    let mut p = ParseOpts {
        utc_offset_min: a.utc_offset,
        interval_s: a.interval,
        start_utc_ms: a.start,
        ..ParseOpts::default()
    };
    if let Some(v) = &a.names {
        let text = std::fs::read(v)
            .map_err(|e| usage(format!("--names {}: cannot be read: {e}", v.display())))?;
        let dec = crate::import::decode::decode(&text, None).map_err(usage)?;
        let mut n = perfmon::Names::default();
        n.add(&v.to_string_lossy(), &dec.text)?;
        p.names = Some(n);
    }
    Ok(p)
}

/// FILE, --baseline and --measure files in command-line order (the capture's import_files
/// keeps it).
fn inputs_in_order(a: &ImportArgs) -> Vec<(PathBuf, Part)> {
    let part = |id: &str| match id {
        "baseline" => Part::Baseline,
        "measure" => Part::Measure,
        _ => Part::All,
    };
    if a.in_order.is_empty() {
        let all = a.files.iter().map(|f| (f.clone(), Part::All));
        let baseline = a.baseline.iter().map(|f| (f.clone(), Part::Baseline));
        let measure = a.measure.iter().map(|f| (f.clone(), Part::Measure));
        all.chain(baseline).chain(measure).collect()
    } else {
        a.in_order
            .iter()
            .map(|(id, f)| (f.clone(), part(id)))
            .collect()
    }
}

/// What `import prometheus --url URL` reads: the range (--to after --from, at least one
/// --step), the hosts, TLS and the credentials.
fn prometheus_opts(a: &ImportArgs, url: &str) -> Result<promfetch::PromOpts> {
    let start = a
        .from
        .or(a.start)
        .ok_or_else(|| usage("import prometheus needs --from TIME (or its old name --start)"))?;
    let end =
        a.to.ok_or_else(|| usage("import prometheus needs --to TIME (or its old name --end)"))?;
    if end <= start {
        return Err(usage(format!(
            "--to {} is not after --from {}",
            time::iso(end),
            time::iso(start)
        )));
    }
    if a.step.is_some_and(|s| (end - start) / s < 1) {
        return Err(usage("--step is longer than the range from --from to --to"));
    }
    if !url.starts_with("https://") && (a.insecure || a.ca_file.is_some()) {
        return Err(usage(format!(
            "--ca-file and --insecure are for an https:// URL, and {url} is http://"
        )));
    }
    let http = HttpOpts {
        ca_file: a.ca_file.clone(),
        insecure: a.insecure,
        auth: auth(
            a.user.clone(),
            a.password_file.clone(),
            a.bearer_token_file.clone(),
        )?,
    };
    Ok(promfetch::PromOpts {
        url: url.to_string(),
        start_ms: start,
        end_ms: end,
        step_ms: a.step,
        instances: a.instance.clone(),
        matchers: a.hosts.clone().map(|h| h.0).unwrap_or_default(),
        http,
    })
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
        return crate::import::promsum::write(&o, file, json);
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
fn skipped_hosts(pv: &crate::import::preview::Preview) -> Result<()> {
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
