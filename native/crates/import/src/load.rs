//! Reading one file of an import: read, hash (beside the decoding), decode and parse it with
//! the parser of the import's kind.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{
    bad, decode, linux, perfmon, prometheus, promfetch, scrapes, time, Kind, ParseOpts, Parsed,
};
use crate::error::{ProbeError, Result};

/// Which part of a before/after import a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    All,
    Baseline,
    Measure,
}

impl Part {
    fn as_str(self) -> &'static str {
        match self {
            Part::All => "all",
            Part::Baseline => "baseline",
            Part::Measure => "measure",
        }
    }
}

impl Part {
    /// The name used in the preview and the `import_files.part` column.
    pub fn as_str_pub(self) -> &'static str {
        self.as_str()
    }
}

/// What `import` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    pub kind: Kind,
    pub inputs: Vec<(PathBuf, Part)>,
    pub out: Option<PathBuf>,
    /// `--switch-at`, UTC ms.
    pub switch_at: Option<i64>,
    pub encoding: Option<String>,
    pub parse: ParseOpts,
    /// `--role NAME=ROLE` overrides.
    pub roles: Vec<(String, String)>,
    /// `--out-dir DIR`: one capture per host in DIR (instead of `--out`).
    pub out_dir: Option<PathBuf>,
    /// The command line, for `meta.command`.
    pub command: String,
}

/// A file's first and last sample and how many it has (kept when the samples are stitched).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
    pub samples: usize,
}

impl Span {
    /// The span of a file's samples.
    pub fn of(s: &[super::Sample]) -> Span {
        Span {
            first_utc_ms: s.first().map(|x| x.utc_ms),
            last_utc_ms: s.last().map(|x| x.utc_ms),
            samples: s.len(),
        }
    }
}

/// One file as read.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    pub name: String,
    pub size: u64,
    pub sha256: String,
    pub encoding: String,
    pub encoding_how: String,
    pub part: Part,
    /// The file's samples as parsed; [`plan`] takes them over into its series.
    pub parsed: Parsed,
    pub span: Span,
    /// node-exporter: the file's scrape, joined with the others by `scrapes::merge`.
    pub scrape: Option<scrapes::ScrapeAt>,
    /// A partial log (queue length or busy time only), read before [`plan`] takes the samples.
    pub partial: Option<super::partial::PartialLog>,
}

pub(super) fn sha256_hex(b: &[u8]) -> String {
    let d = Sha256::digest(b);
    d.iter().map(|x| format!("{x:02x}")).collect()
}

pub(super) fn display(p: &Path) -> String {
    p.display().to_string()
}

/// Read, decode and parse one file.
pub fn load_one(path: &Path, part: Part, opts: &Options) -> Result<Loaded> {
    load_nth(path, part, opts, 0)
}

/// [`load_one`] for the `index`-th file given (node_exporter scrapes without timestamps are
/// placed at `--start` + index × `--interval`).
pub fn load_nth(path: &Path, part: Part, opts: &Options, index: usize) -> Result<Loaded> {
    let file = display(path);
    if opts.kind == Kind::Prometheus {
        return load_prometheus(path, part, opts);
    }
    let t = std::time::Instant::now();
    let bytes =
        std::fs::read(path).map_err(|e| bad(&file, None, None, format!("cannot be read: {e}")))?;
    super::phase("read", t);
    refuse_binary(path, &file, &bytes, opts)?;
    // the hash on another thread while this one decodes (plain UTF-8: no copy) and parses
    let size = bytes.len() as u64;
    let (sha256, res) = std::thread::scope(|sc| {
        let hashing = sc.spawn(|| {
            let t = std::time::Instant::now();
            let h = sha256_hex(&bytes);
            super::phase("sha256 (beside decode and parse)", t);
            h
        });
        let res = decode_and_parse(path, &file, index, &bytes, opts);
        (hashing.join().unwrap_or_default(), res)
    });
    let (parsed, scrape, encoding, encoding_how) = res?;
    let partial = super::partial::status(&parsed, opts.kind);
    Ok(Loaded {
        partial,
        path: path.to_path_buf(),
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| file.clone()),
        size,
        sha256,
        encoding: encoding.to_string(),
        encoding_how: encoding_how.to_string(),
        part,
        span: Span::of(&parsed.samples),
        parsed,
        scrape,
    })
}

/// `import prometheus`: the range read from the server (named by its URL, hashed over its
/// queries).
fn load_prometheus(path: &Path, part: Part, opts: &Options) -> Result<Loaded> {
    let po = opts.parse.prometheus.clone().ok_or_else(|| {
        ProbeError::Usage("import prometheus needs --url URL, --from and --to".into())
    })?;
    let f = promfetch::fetch(&po)?;
    let digest = sha256_hex(f.queries.join("\n").as_bytes());
    Ok(Loaded {
        path: path.to_path_buf(),
        name: po.url.clone(),
        size: f.bytes as u64,
        sha256: digest,
        encoding: "utf-8".into(),
        encoding_how: "HTTP API (JSON)".into(),
        part,
        span: Span::of(&f.parsed.samples),
        parsed: f.parsed,
        scrape: None,
        partial: None,
    })
}

/// Refuse a binary file: a BLG (with the relog line that converts it), a sysstat data file,
/// any other.
fn refuse_binary(path: &Path, file: &str, bytes: &[u8], opts: &Options) -> Result<()> {
    let is_blg = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("blg"));
    let stem = path.with_extension("csv");
    if is_blg || (matches!(opts.kind, Kind::Perfmon | Kind::Esxtop) && decode::looks_binary(bytes))
    {
        return Err(bad(file, None, None, format!(
            "is a binary Performance Monitor log (BLG), which cannot be read here: convert it on Windows with: relog \"{}\" -f csv -o \"{}\"",
            path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default(),
            stem.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
        )));
    }
    if decode::looks_binary(bytes) {
        let hint = match opts.kind {
            Kind::Sar | Kind::Sadf => "a binary sysstat data file (saDD): convert it with: sadf -d FILE -- -d -p > FILE.csv, then import it as sadf",
            _ => "a binary file, not text",
        };
        return Err(bad(file, None, None, format!("is {hint}")));
    }
    Ok(())
}

/// A file decoded and parsed: the parse, a node_exporter scrape's moment, the encoding and how
/// it was found.
type Decoded = (
    Parsed,
    Option<scrapes::ScrapeAt>,
    &'static str,
    &'static str,
);

/// Decode a file's bytes and parse the text with the import's parser.
fn decode_and_parse(
    path: &Path,
    file: &str,
    index: usize,
    bytes: &[u8],
    opts: &Options,
) -> Result<Decoded> {
    let t = std::time::Instant::now();
    let dec = decode::decode_cow(bytes, opts.encoding.as_deref()).map_err(ProbeError::Usage)?;
    super::phase("decode", t);
    let t = std::time::Instant::now();
    let (parsed, scrape) = if opts.kind == Kind::NodeExporter {
        let (p, s) = node_exporter_file(path, file, index, &dec.text, opts)?;
        (p, Some(s))
    } else {
        (parse_text(opts, path, file, &dec.text)?, None)
    };
    super::phase("parse", t);
    Ok((parsed, scrape, dec.encoding, dec.how))
}

/// The parser of the import's kind over one file's text.
fn parse_text(opts: &Options, path: &Path, file: &str, text: &str) -> Result<Parsed> {
    let mut p = parse_kind(opts, path, file, text)?;
    if let Some(n) = super::partial::note(&p, opts.kind) {
        p.notes.push(n);
    }
    Ok(p)
}

fn parse_kind(opts: &Options, path: &Path, file: &str, text: &str) -> Result<Parsed> {
    Ok(match opts.kind {
        Kind::Perfmon => perfmon::parse(file, text, &opts.parse, false)?,
        Kind::Esxtop => perfmon::parse(file, text, &opts.parse, true)?,
        Kind::Iostat => linux::parse_iostat(file, text, &opts.parse)?,
        Kind::IostatJson => linux::parse_iostat_json(file, text, &opts.parse)?,
        Kind::Sar => linux::parse_sar(file, text, &opts.parse)?,
        Kind::Sadf => linux::parse_sadf(file, text, &opts.parse)?,
        Kind::Diskstats => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let up = name
                .contains("diskstats")
                .then(|| path.with_file_name(name.replace("diskstats", "uptime")))
                .and_then(|u| std::fs::read_to_string(u).ok());
            linux::parse_diskstats(file, text, up.as_deref(), &opts.parse)?
        }
        Kind::NodeExporter | Kind::Prometheus => {
            return Err(ProbeError::Usage(
                "import prometheus reads a server, not a file (and node-exporter files are read by node_exporter_file)".into(),
            ))
        }
    })
}

/// One node_exporter or windows_exporter text scrape: one moment, at the time of
/// `scrapes::scrape_time`; `scrapes::merge` joins it with the others of its part.
fn node_exporter_file(
    path: &Path,
    file: &str,
    idx: usize,
    text: &str,
    opts: &Options,
) -> Result<(Parsed, scrapes::ScrapeAt)> {
    let sc = prometheus::parse_text(file, text, "")?;
    let (t, when) = scrapes::scrape_time(path, sc.utc_ms, idx, &opts.parse)?;
    let series = scrapes::at(sc.series, t);
    let what = match (series.by_dev.is_empty(), series.win.is_empty()) {
        (false, true) => "node_exporter",
        (true, false) => "windows_exporter",
        _ => "node_exporter and windows_exporter",
    };
    let mut p = prometheus::to_parsed(
        &series,
        format!("Prometheus text exposition ({what} /metrics scrape)"),
    );
    p.hosts.clear();
    p.tz_source = format!("{} (UTC)", when.words());
    p.notes = vec![format!(
        "one scrape of {} disk samples ({} devices) at {}, from {}",
        sc.samples,
        p.devices.len(),
        time::iso(t),
        when.words()
    )];
    Ok((
        p,
        scrapes::ScrapeAt {
            utc_ms: t,
            when,
            series,
        },
    ))
}
