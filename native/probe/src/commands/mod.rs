//! The command line of `cacheproof-probe` (docs/probe.md): one clap declaration per command,
//! the rules between flags (conflicts, requirements) declared there, and the commands' runs.
//!
//! The binary (`src/main.rs`) only calls [`main`]. [`Cli`] is public so that tests can read
//! the declared flags (`clap::CommandFactory::command`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use crate::ProbeError;

pub mod engine;
pub mod import;
pub mod import_run;
pub mod lab;
pub mod record;
pub mod sim;
pub mod values;

const EXIT_CODES: &str = "\
Exit codes: 0 ok, 1 internal error, 2 usage, 3 unknown device, 4 output not writable,
5 not a capture / newer schema / no capture, 6 capture locked by another recorder,
7 needs root, 8 disk full, 9 external tool failed, 10 no recorder running / lab not up,
11 block tracing unavailable (tracefs or the block events missing), 12 a file given to
import, import-trace or simulate cannot be imported (the message names the file, line and
column) or holds no usable record, 13 a Prometheus server cannot be reached or refuses the query.
See docs/probe.md, docs/import.md and docs/simulate.md.";

/// `cacheproof-probe`: records Linux disk counters into a CacheProof capture.
#[derive(Debug, Parser)]
#[command(
    name = "cacheproof-probe",
    version,
    about = "cacheproof-probe — records Linux disk counters into a CacheProof capture",
    after_help = EXIT_CODES,
    args_override_self = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// List the block devices (name, size, role, stack)
    Devices(record::DevicesArgs),
    /// Record disk counters (and with --trace, block requests) into a capture
    Record(record::RecordArgs),
    /// A capture's state, phases and counts
    Status(record::CaptureArgs),
    /// Stop the recorder of a capture
    Stop(record::StopArgs),
    /// Mark the switch (or a note) in a recording capture
    Mark(record::MarkArgs),
    /// Cache engine adapters: detect, describe, plan, stats, enable, disable
    Engine(engine::EngineArgs),
    /// The loop-device lab (docs/probe.md § lab)
    Lab(lab::LabArgs),
    /// Import other tools' disk statistics into a capture (docs/import.md)
    Import(Box<import::ImportArgs>),
    /// Import a block trace file into a capture (docs/simulate.md)
    ImportTrace(import::ImportTraceArgs),
    /// Simulate cache policies on a capture's trace or a trace file
    Simulate(sim::SimulateArgs),
    /// Per-request latencies of a traced capture
    Latency(sim::LatencyArgs),
    /// Predict a cache's effect on a traced capture
    Predict(sim::PredictArgs),
    /// (Re)write the columnar interval blocks of a closed capture
    Index(record::IndexArgs),
}

pub(crate) fn usage(msg: impl Into<String>) -> anyhow::Error {
    ProbeError::Usage(msg.into()).into()
}

/// `p` made absolute against the current directory.
pub(crate) fn abs(p: impl AsRef<Path>) -> anyhow::Result<PathBuf> {
    let p = p.as_ref();
    if p.is_absolute() {
        Ok(p.to_path_buf())
    } else {
        Ok(std::env::current_dir()
            .context("reading the current directory")?
            .join(p))
    }
}

/// A clap error in one sentence (the probe's errors are one line on stderr; the app shows it):
/// clap's message without its usage block, its lines joined, and where to find the options.
fn clap_sentence(e: &clap::Error, raw: &[String]) -> String {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        // `lab`, `engine` without their verb: name the verbs (clap would print the whole help).
        let root = <Cli as clap::CommandFactory>::command();
        if let Some(c) = raw.first().and_then(|w| root.find_subcommand(w)) {
            let verbs: Vec<&str> = c.get_subcommands().map(|s| s.get_name()).collect();
            return format!(
                "{} needs one of {} (cacheproof-probe {} --help lists them)",
                c.get_name(),
                verbs.join(", "),
                c.get_name()
            );
        }
    }
    let text = e.render().to_string();
    let body = text
        .split("\n\nUsage:")
        .next()
        .unwrap_or_default()
        .split("\n\nFor more information")
        .next()
        .unwrap_or_default();
    let body = body.trim().trim_start_matches("error:").trim();
    let mut s = String::new();
    for part in body.split("\n\n") {
        let line = part.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.is_empty() {
            continue;
        }
        if !s.is_empty() {
            s += "; ";
        }
        s += &line;
    }
    let cmd = Cli::command_names()
        .into_iter()
        .find(|c| raw.first().map(String::as_str) == Some(c.as_str()));
    match cmd {
        Some(c) => format!("{s} (cacheproof-probe {c} --help lists the options)"),
        None => format!("{s} (cacheproof-probe --help lists the commands)"),
    }
}

impl Cli {
    /// The names of the commands.
    pub fn command_names() -> Vec<String> {
        <Cli as clap::CommandFactory>::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect()
    }
}

fn run(cmd: Cmd, raw: &[String]) -> anyhow::Result<()> {
    match cmd {
        Cmd::Devices(a) => record::devices(&a),
        Cmd::Record(a) => record::record(&a, raw),
        Cmd::Status(a) => record::status(&a),
        Cmd::Stop(a) => record::stop(&a),
        Cmd::Mark(a) => record::mark(&a),
        Cmd::Engine(a) => engine::run(&a),
        Cmd::Lab(a) => lab::run(&a),
        Cmd::Import(a) => Ok(import_run::run(&a, raw.join(" "))?),
        Cmd::ImportTrace(a) => import::import_trace(&a),
        Cmd::Simulate(a) => sim::simulate(&a),
        Cmd::Latency(a) => sim::latency(&a),
        Cmd::Predict(a) => sim::predict(&a),
        Cmd::Index(a) => record::index(&a),
    }
}

/// Parse the command line and run the command; the exit code of docs/probe.md.
pub fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let parsed = <Cli as clap::CommandFactory>::command()
        .try_get_matches()
        .and_then(|m| {
            let mut c = <Cli as clap::FromArgMatches>::from_arg_matches(&m)?;
            if let (Some(Cmd::Import(a)), Some(im)) =
                (&mut c.command, m.subcommand_matches("import"))
            {
                a.order_files(im);
            }
            Ok(c)
        });
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            // --help and --version print to stdout and exit 0.
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("cacheproof-probe: {}", clap_sentence(&e, &raw));
            return ExitCode::from(2);
        }
    };
    let Some(cmd) = cli.command else {
        let _ = <Cli as clap::CommandFactory>::command().print_help();
        return ExitCode::SUCCESS;
    };
    match run(cmd, &raw) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = e
                .downcast_ref::<ProbeError>()
                .map(ProbeError::exit_code)
                .unwrap_or(1);
            // (not eprintln!: a stderr that cannot be written must not turn the code into a panic's 101)
            use std::io::Write;
            // A ProbeError's sentence already holds its cause (an I/O or SQLite error): printed
            // once, not again as the chain's next link.
            let text = match e.downcast_ref::<ProbeError>() {
                Some(p) if p.to_string() == e.to_string() => p.to_string(),
                _ => format!("{e:#}"),
            };
            let _ = writeln!(std::io::stderr(), "cacheproof-probe: {text}");
            ExitCode::from(code)
        }
    }
}
