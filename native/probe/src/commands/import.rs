//! `import` and `import-trace`: their flags (docs/import.md, docs/simulate.md). What `import`
//! does with them is in `import_run`.

use std::path::PathBuf;

use clap::Args;

use super::{abs, values};
use crate::import::Kind;
use crate::trace::import as tracein;

/// `import KIND FILE... --out CAPTURE`, `import KIND --baseline FILE... --measure FILE...`,
/// `import --preview KIND FILE...`, `import prometheus --url URL --from T --to T`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("range_start").args(["from", "start"]).multiple(true)))]
pub struct ImportArgs {
    /// What wrote the files (prometheus: a server, with --url)
    #[arg(value_name = "KIND", value_parser = values::import_kind(), required_unless_present = "url")]
    pub kind: Option<Kind>,
    /// The files to import (one host's logs, in any order)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The files before the switch (with --measure)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub baseline: Vec<PathBuf>,
    /// The files after the switch (with --baseline)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub measure: Vec<PathBuf>,
    /// The new capture file
    #[arg(long, value_name = "CAPTURE", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// One capture per host in DIR (import prometheus)
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// The fleet's figures computed by the server, as JSON in FILE (import prometheus)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "out_dir", "preview"])]
    pub fleet_summary: Option<PathBuf>,
    /// What would be imported, without writing (with --json: docs/import.md § Preview JSON)
    #[arg(long)]
    pub preview: bool,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
    /// When the cache was switched (ISO 8601 or epoch seconds)
    #[arg(long, value_name = "TIME", value_parser = values::time)]
    pub switch_at: Option<i64>,
    /// The files' encoding (default: detected)
    #[arg(long, value_name = "E", value_parser = values::encoding())]
    pub encoding: Option<String>,
    /// More PerfMon counter names (localized), as TSV
    #[arg(long, value_name = "FILE")]
    pub names: Option<PathBuf>,
    /// The logs' offset from UTC when they do not say it
    #[arg(long, value_name = "MINUTES|±HH:MM", allow_hyphen_values = true, value_parser = values::utc_offset)]
    pub utc_offset: Option<i64>,
    /// The report interval in seconds (iostat without -t)
    #[arg(long, value_name = "SECONDS", value_parser = values::seconds)]
    pub interval: Option<f64>,
    /// The first report's time (iostat without -t); for prometheus, the old name of --from
    #[arg(long, value_name = "TIME", value_parser = values::time)]
    pub start: Option<i64>,
    /// A device's role: NAME=ROLE (repeatable)
    #[arg(long, value_name = "NAME=ROLE", value_parser = values::name_role)]
    pub role: Vec<(String, String)>,
    /// The Prometheus server, http:// or https:// (import prometheus)
    #[arg(
        long,
        visible_alias = "prometheus",
        value_name = "URL",
        value_parser = values::server_url,
        required_if_eq("kind", "prometheus"),
        requires_all = ["range_start", "to"],
        conflicts_with_all = ["files", "baseline", "measure"]
    )]
    pub url: Option<String>,
    /// The hosts, as a series selector: '{job="node",instance=~"db.*"}'
    #[arg(long, value_name = "SELECTOR", value_parser = values::selector, requires = "url")]
    pub hosts: Option<values::Selector>,
    /// The range's start (ISO 8601 or epoch seconds)
    #[arg(long, value_name = "TIME", value_parser = values::time, requires = "url")]
    pub from: Option<i64>,
    /// The range's end (ISO 8601 or epoch seconds)
    #[arg(long, visible_alias = "end", value_name = "TIME", value_parser = values::time, requires = "url")]
    pub to: Option<i64>,
    /// The query step: 15, 15s, 1m
    #[arg(long, value_name = "S", value_parser = values::step_ms, requires = "url")]
    pub step: Option<i64>,
    /// One host by its instance label (repeatable)
    #[arg(long, value_name = "I", requires = "url")]
    pub instance: Vec<String>,
    /// The CA certificates of an https:// server (PEM)
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "insecure",
        requires = "url"
    )]
    pub ca_file: Option<PathBuf>,
    /// Skip the https certificate check
    #[arg(long, requires = "url")]
    pub insecure: bool,
    /// Basic auth's user (the password from --password-file or the environment)
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with = "bearer_token_file",
        requires = "url"
    )]
    pub user: Option<String>,
    /// The file holding --user's password
    #[arg(long, value_name = "FILE", requires = "user")]
    pub password_file: Option<PathBuf>,
    /// The file holding a bearer token
    #[arg(long, value_name = "FILE", requires = "url")]
    pub bearer_token_file: Option<PathBuf>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET", value_parser = values::refused_password())]
    pub password: Option<String>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET", value_parser = values::refused_token())]
    pub bearer_token: Option<String>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET", value_parser = values::refused_token())]
    pub token: Option<String>,
    /// FILE, --baseline and --measure files in command-line order, by their clap id (`files`,
    /// `baseline`, `measure`): the capture lists its files in that order (`import_files`).
    #[arg(skip)]
    pub in_order: Vec<(&'static str, PathBuf)>,
}

impl ImportArgs {
    /// Fill [`ImportArgs::in_order`] from clap's indices of the values.
    pub fn order_files(&mut self, m: &clap::ArgMatches) {
        let mut v: Vec<(usize, &'static str, PathBuf)> = Vec::new();
        for id in ["files", "baseline", "measure"] {
            if let (Some(ix), Some(vals)) = (m.indices_of(id), m.get_many::<PathBuf>(id)) {
                v.extend(ix.zip(vals).map(|(i, p)| (i, id, p.clone())));
            }
        }
        v.sort_by_key(|(i, _, _)| *i);
        self.in_order = v.into_iter().map(|(_, id, p)| (id, p)).collect();
    }
}

/// `import-trace KIND FILE --out CAPTURE [--device-bytes SIZE] [--start TIME] [--json]`.
#[derive(Debug, Args)]
pub struct ImportTraceArgs {
    /// The trace file's format
    #[arg(value_name = "KIND", value_parser = values::trace_kind())]
    pub kind: tracein::Kind,
    /// The trace file (one capture per trace file: run it once per file)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The new capture file
    #[arg(long, value_name = "CAPTURE")]
    pub out: PathBuf,
    /// The device size of a trace whose format does not give it
    #[arg(long, value_name = "SIZE", value_parser = values::size)]
    pub device_bytes: Option<u64>,
    /// tracerpt: QueryPerformanceCounter ticks per second of the traced machine, to time requests without their init event
    #[arg(long, value_name = "HZ", value_parser = clap::value_parser!(u64).range(1..))]
    pub qpc_hz: Option<u64>,
    /// When the trace started (ISO 8601, UTC unless an offset is given, or epoch seconds), for
    /// exports whose times count from the trace's start (wpa, xperf, traceevent, blkparse, the
    /// public traces): without it their times read as 1 January 1970
    #[arg(long, value_name = "TIME", value_parser = values::time)]
    pub start: Option<i64>,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn import_trace(a: &ImportTraceArgs) -> anyhow::Result<()> {
    let opts = tracein::ReadOptions {
        device_bytes: a.device_bytes,
        detail: true,
        qpc_hz: a.qpc_hz,
        start_utc_ms: a.start,
    };
    let file = abs(&a.file)?;
    let s = tracein::import(&file, a.kind, &abs(&a.out)?, opts)?;
    if s.skipped > 0 {
        let mut m = format!(
            "import-trace: skipped {} of {} records of {}",
            s.skipped,
            s.records,
            file.display()
        );
        for (k, v) in &s.skipped_by_reason {
            m += &format!("; {v} {k}");
        }
        eprintln!("{m}");
        for b in s.skipped_examples.iter().take(10) {
            eprintln!("  line {}, column {}: {}", b.line, b.column, b.reason);
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        println!(
            "imported {} requests of {} ({} devices) into {}",
            s.imported,
            file.display(),
            s.devices.len(),
            s.out
        );
        if s.flushes > 0 {
            println!("{} flushes kept, not simulated", s.flushes);
        }
    }
    Ok(())
}
