//! `import` and `import-trace`: their flags (docs/import.md, docs/simulate.md). What `import`
//! does with them is in `import::cli`.

use std::path::PathBuf;

use clap::Args;

use super::sim::sim_size;
use super::{abs, usage};
use crate::trace::import as tracein;

/// `import KIND FILE... --out CAPTURE`, `import KIND --baseline FILE... --measure FILE...`,
/// `import --preview KIND FILE...`, `import prometheus --url URL --from T --to T`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats, node-exporter or prometheus
    #[arg(value_name = "KIND")]
    pub kind: Option<String>,
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
    #[arg(long, value_name = "TIME")]
    pub switch_at: Option<String>,
    /// The files' encoding: utf-8, utf-16le, utf-16be, cp1251, cp1252, cp932 (default: detected)
    #[arg(long, value_name = "E")]
    pub encoding: Option<String>,
    /// More PerfMon counter names (localized), as TSV
    #[arg(long, value_name = "FILE")]
    pub names: Option<String>,
    /// The logs' offset from UTC when they do not say it
    #[arg(long, value_name = "MINUTES|±HH:MM", allow_hyphen_values = true)]
    pub utc_offset: Option<String>,
    /// The report interval in seconds (iostat without -t)
    #[arg(long, value_name = "SECONDS")]
    pub interval: Option<String>,
    /// The first report's time (iostat without -t); for prometheus, the old name of --from
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
    /// A device's role: NAME=ROLE (repeatable)
    #[arg(long, value_name = "NAME=ROLE")]
    pub role: Vec<String>,
    /// The Prometheus server (import prometheus)
    #[arg(long, visible_alias = "prometheus", value_name = "URL")]
    pub url: Option<String>,
    /// The hosts, as a series selector: '{job="node",instance=~"db.*"}'
    #[arg(long, value_name = "SELECTOR")]
    pub hosts: Option<String>,
    /// The range's start (ISO 8601 or epoch seconds)
    #[arg(long, value_name = "TIME")]
    pub from: Option<String>,
    /// The range's end (ISO 8601 or epoch seconds)
    #[arg(long, visible_alias = "end", value_name = "TIME")]
    pub to: Option<String>,
    /// The query step: 15, 15s, 1m
    #[arg(long, value_name = "S")]
    pub step: Option<String>,
    /// One host by its instance label (repeatable)
    #[arg(long, value_name = "I")]
    pub instance: Vec<String>,
    /// The CA certificates of an https:// server (PEM)
    #[arg(long, value_name = "FILE", conflicts_with = "insecure")]
    pub ca_file: Option<PathBuf>,
    /// Skip the https certificate check
    #[arg(long)]
    pub insecure: bool,
    /// Basic auth's user (the password from --password-file or the environment)
    #[arg(long, value_name = "NAME", conflicts_with = "bearer_token_file")]
    pub user: Option<String>,
    /// The file holding --user's password
    #[arg(long, value_name = "FILE", requires = "user")]
    pub password_file: Option<PathBuf>,
    /// The file holding a bearer token
    #[arg(long, value_name = "FILE")]
    pub bearer_token_file: Option<PathBuf>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET")]
    pub password: Option<String>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET")]
    pub bearer_token: Option<String>,
    /// Refused: a secret is never given on the command line
    #[arg(long, hide = true, value_name = "SECRET")]
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
    /// msr, blkparse, cloudphysics, disksim, msn, oracle-general, wpa, xperf, traceevent or tracerpt
    #[arg(value_name = "KIND")]
    pub kind: String,
    /// The trace file
    #[arg(value_name = "FILE")]
    pub file: String,
    #[arg(hide = true)]
    pub extra: Vec<String>,
    /// The new capture file
    #[arg(long, value_name = "CAPTURE")]
    pub out: String,
    /// The device size of a trace whose format does not give it
    #[arg(long, value_name = "SIZE")]
    pub device_bytes: Option<String>,
    /// tracerpt: QueryPerformanceCounter ticks per second of the traced machine, to time requests without their init event
    #[arg(long, value_name = "HZ", value_parser = clap::value_parser!(u64).range(1..))]
    pub qpc_hz: Option<u64>,
    /// When the trace started (ISO 8601, UTC unless an offset is given, or epoch seconds), for
    /// exports whose times count from the trace's start (wpa, xperf, traceevent, blkparse, the
    /// public traces): without it their times read as 1 January 1970
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
    /// The result as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn import_trace(a: &ImportTraceArgs) -> anyhow::Result<()> {
    let (kind, file) = (&a.kind, &a.file);
    if let Some(extra) = a.extra.first() {
        return Err(usage(format!(
            "import-trace reads one FILE; '{extra}' is neither that nor an option's value here (one capture per trace file: run it once per file)"
        )));
    }
    let kind = tracein::Kind::parse(kind).ok_or_else(|| {
        usage(format!(
            "unknown trace kind '{kind}': one of {}",
            tracein::Kind::names()
        ))
    })?;
    let opts = tracein::ReadOptions {
        device_bytes: a.device_bytes.as_deref().map(sim_size).transpose()?,
        detail: true,
        qpc_hz: a.qpc_hz,
        start_utc_ms: a
            .start
            .as_deref()
            .map(|v| {
                crate::import::time::parse_user_time(v).ok_or_else(|| {
                    usage(format!(
                        "--start '{v}': not a time; give ISO 8601 (2026-11-20T08:00:00Z, or with an offset: 2026-11-20T09:00:00+01:00) or epoch seconds"
                    ))
                })
            })
            .transpose()?,
    };
    let file = abs(file)?;
    let s = tracein::import(&file, kind, &abs(&a.out)?, opts)?;
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
