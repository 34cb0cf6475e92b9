//! The preview of an import (`import --preview`, docs/import.md "Preview JSON") and its
//! rendering for a person.

use serde::Serialize;

use super::load::{display, Loaded, Part};
use super::said::{recognize, Said};
use super::stitch::{rate_row_count, PhasePlan, Plan};
use super::{time, Device, Kind, Unmapped};
use crate::delta::Snapshot;

/// A source column and the capture figure it feeds.
#[derive(Debug, Clone, Serialize)]
pub struct MapRow {
    pub source: String,
    pub field: String,
}

/// The preview of one file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilePreview {
    pub name: String,
    pub path: String,
    pub size_bytes: u64,
    pub sha256: String,
    pub format: String,
    pub encoding: String,
    pub encoding_how: String,
    pub time_zone: Option<String>,
    pub utc_offset_min: Option<i64>,
    pub time_zone_source: String,
    pub part: Part,
    pub hosts: Vec<String>,
    pub first_utc_ms: Option<i64>,
    pub last_utc_ms: Option<i64>,
    pub samples: usize,
    pub devices: Vec<String>,
    pub mapping: Vec<MapRow>,
    pub unmapped: Vec<Unmapped>,
    pub notes: Vec<String>,
    pub needs: Vec<String>,
}

/// A front volume and the backing device beneath it.
#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub front: String,
    pub backing: String,
}

/// Start and end of the imported data.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    pub start_utc_ms: i64,
    pub end_utc_ms: i64,
    pub start: String,
    pub end: String,
}

/// What `import --preview` prints (docs/import.md, "Preview JSON").
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    pub kind: Kind,
    pub files: Vec<FilePreview>,
    pub hosts: Vec<String>,
    pub devices: Vec<Device>,
    pub pairs: Vec<Pair>,
    pub time_range: Option<Range>,
    /// Median step between samples, ms.
    pub interval_ms: Option<f64>,
    /// Device-intervals the capture would hold.
    pub intervals: usize,
    pub phases: Vec<PhasePlan>,
    pub unmapped: Vec<Unmapped>,
    pub notes: Vec<String>,
    pub needs: Vec<String>,
    /// True when nothing is missing to import.
    pub ready: bool,
    /// A partial log (`import/partial.rs`): what its first such file has and lacks, in codes;
    /// null when the log can be analysed.
    pub partial: Option<super::partial::PartialLog>,
    /// False for a partial log: it imports (the capture keeps what it has), but no profile or
    /// before/after can be computed from it, so the app refuses it in the preview.
    pub analysable: bool,
    /// What sits on what (the capture's `topology`, from the names or the numbers).
    pub stack: Vec<StackEdge>,
    /// Every sentence above as a code with values (import/said.rs), for the app to translate.
    pub said: PreviewSaid,
}

/// The preview's sentences as codes with values, each list in the order of the English one it
/// stands for (`said.devices[i]` is `devices[i].reason`, `said.files[i]` is `files[i]`'s).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewSaid {
    pub files: Vec<FileSaid>,
    pub devices: Vec<Said>,
    pub phases: Vec<Said>,
    pub stack: Vec<Said>,
    pub unmapped: Vec<UnmappedSaid>,
    pub notes: Vec<Said>,
    pub needs: Vec<Said>,
}

/// A file's sentences: where its time zone came from, how its encoding was found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileSaid {
    pub time_zone_source: Said,
    pub encoding_how: Said,
}

/// What was not imported, and why.
#[derive(Debug, Clone, Serialize)]
pub struct UnmappedSaid {
    pub what: Said,
    pub why: Said,
}

/// The sentences of a preview, read back into codes (a file's note is `in-file`).
fn said_of(pv: &Preview, file_notes: &[(String, String)]) -> PreviewSaid {
    let mut notes: Vec<Said> = Vec::new();
    for n in &pv.notes {
        let s = match file_notes.iter().find(|(whole, _)| whole == n) {
            Some((_, own)) => {
                let file = n
                    .strip_suffix(own.as_str())
                    .and_then(|f| f.strip_suffix(": "));
                Said::in_file(file.unwrap_or(""), recognize(own))
            }
            None => recognize(n),
        };
        notes.push(s);
    }
    PreviewSaid {
        files: pv
            .files
            .iter()
            .map(|f| FileSaid {
                time_zone_source: recognize(&f.time_zone_source),
                encoding_how: recognize(&f.encoding_how),
            })
            .collect(),
        devices: pv.devices.iter().map(|d| recognize(&d.reason)).collect(),
        phases: pv.phases.iter().map(|p| recognize(&p.name)).collect(),
        stack: pv.stack.iter().map(|e| recognize(&e.kind)).collect(),
        unmapped: pv
            .unmapped
            .iter()
            .map(|u| UnmappedSaid {
                what: recognize(&u.what),
                why: recognize(&u.why),
            })
            .collect(),
        notes,
        needs: pv.needs.iter().map(|n| recognize(n)).collect(),
    }
}

/// One edge of the device stack: `holder` sits on `on`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StackEdge {
    pub holder: String,
    pub on: String,
    pub kind: String,
}

/// The stack edges of every file, once each.
pub(super) fn stack_of(p: &Plan) -> Vec<(String, String, String)> {
    let mut v: Vec<(String, String, String)> = Vec::new();
    for e in p.files.iter().flat_map(|f| &f.parsed.stack) {
        if !v.contains(e) {
            v.push(e.clone());
        }
    }
    v
}

/// Push `x` into `v` unless it is there already.
fn push_new<T: PartialEq + Clone>(v: &mut Vec<T>, x: &T) {
    if !v.contains(x) {
        v.push(x.clone());
    }
}

/// What the files say, gathered once each: unmapped, notes (each `FILE: note`), needs, hosts,
/// and the files' previews.
#[derive(Default)]
struct Gathered {
    unmapped: Vec<Unmapped>,
    notes: Vec<String>,
    needs: Vec<String>,
    hosts: Vec<String>,
    files: Vec<FilePreview>,
    /// (the preview's note, the file's own sentence) of each file's note
    file_notes: Vec<(String, String)>,
}

impl Gathered {
    fn of(p: &Plan) -> Gathered {
        let mut g = Gathered {
            notes: p.notes.clone(),
            ..Gathered::default()
        };
        for f in &p.files {
            for u in &f.parsed.unmapped {
                push_new(&mut g.unmapped, u);
            }
            for n in &f.parsed.notes {
                let whole = format!("{}: {n}", f.name);
                g.file_notes.push((whole.clone(), n.clone()));
                push_new(&mut g.notes, &whole);
            }
            for n in &f.parsed.needs {
                push_new(&mut g.needs, n);
            }
            for h in &f.parsed.hosts {
                push_new(&mut g.hosts, h);
            }
            g.files.push(file_preview(f));
        }
        g
    }
}

/// The preview of one loaded file.
fn file_preview(f: &Loaded) -> FilePreview {
    FilePreview {
        name: f.name.clone(),
        path: display(&f.path),
        size_bytes: f.size,
        sha256: f.sha256.clone(),
        format: f.parsed.format.clone(),
        encoding: f.encoding.clone(),
        encoding_how: f.encoding_how.clone(),
        time_zone: f.parsed.tz_name.clone(),
        utc_offset_min: f.parsed.utc_offset_min,
        time_zone_source: f.parsed.tz_source.clone(),
        part: f.part,
        hosts: f.parsed.hosts.clone(),
        first_utc_ms: f.span.first_utc_ms,
        last_utc_ms: f.span.last_utc_ms,
        samples: f.span.samples,
        devices: f.parsed.devices.iter().map(|d| d.name.clone()).collect(),
        mapping: f
            .parsed
            .mapping
            .iter()
            .map(|(s, d)| MapRow {
                source: s.clone(),
                field: d.clone(),
            })
            .collect(),
        unmapped: f.parsed.unmapped.clone(),
        notes: f.parsed.notes.clone(),
        needs: f.parsed.needs.clone(),
    }
}

/// The device-intervals a plan will write.
fn interval_count(p: &Plan) -> usize {
    p.series
        .iter()
        .map(|(_, s)| {
            // snapshots (diskstats, node_exporter) pair with the previous snapshot; rates
            // (every other source, windows_exporter) are intervals of their own
            let snaps: Vec<&Snapshot> = s.iter().filter_map(|x| x.snap.as_ref()).collect();
            snaps.windows(2).map(|w| w[1].devices.len()).sum::<usize>() + rate_row_count(s)
        })
        .sum()
}

/// From the first sample to the last.
fn time_range(p: &Plan) -> Option<Range> {
    let first = p.series.first().and_then(|s| s.1.first()).map(|s| s.utc_ms);
    let last = p.series.last().and_then(|s| s.1.last()).map(|s| s.utc_ms);
    match (first, last) {
        (Some(a), Some(b)) => Some(Range {
            start_utc_ms: a,
            end_utc_ms: b,
            start: time::iso(a),
            end: time::iso(b),
        }),
        _ => None,
    }
}

/// Build the preview of a plan.
pub fn preview(kind: Kind, p: &Plan) -> Preview {
    let g = Gathered::of(p);
    let partial = p.files.iter().find_map(|f| f.partial.clone());
    let intervals = interval_count(p);
    let mut pv = Preview {
        kind,
        files: g.files,
        hosts: g.hosts,
        devices: p.devices.clone(),
        pairs: p
            .devices
            .iter()
            .filter_map(|d| {
                d.on.as_ref().map(|b| Pair {
                    front: d.name.clone(),
                    backing: b.clone(),
                })
            })
            .collect(),
        time_range: time_range(p),
        interval_ms: (p.series.iter().map(|s| s.1.len()).sum::<usize>() > 1)
            .then_some(p.nominal_ms),
        intervals,
        phases: p.phases.clone(),
        unmapped: g.unmapped,
        notes: g.notes,
        ready: g.needs.is_empty() && intervals > 0,
        analysable: partial.is_none(),
        partial,
        stack: stack_of(p)
            .into_iter()
            .map(|(holder, on, kind)| StackEdge { holder, on, kind })
            .collect(),
        needs: g.needs,
        said: PreviewSaid {
            files: Vec::new(),
            devices: Vec::new(),
            phases: Vec::new(),
            stack: Vec::new(),
            unmapped: Vec::new(),
            notes: Vec::new(),
            needs: Vec::new(),
        },
    };
    pv.said = said_of(&pv, &g.file_notes);
    pv
}

/// Render a preview for a person.
pub fn render(pv: &Preview) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "import {} — {} file(s)",
        pv.kind.as_str(),
        pv.files.len()
    );
    for f in &pv.files {
        render_file(&mut s, f);
    }
    render_devices_and_times(&mut s, pv);
    if !pv.unmapped.is_empty() {
        let _ = writeln!(s, "not imported:");
        for u in &pv.unmapped {
            let _ = writeln!(s, "  {}: {}", u.what, u.why);
        }
    }
    for n in &pv.notes {
        let _ = writeln!(s, "note: {n}");
    }
    for n in &pv.needs {
        let _ = writeln!(s, "needed: {n}");
    }
    s
}

/// A file's lines of the rendered preview.
fn render_file(s: &mut String, f: &FilePreview) {
    use std::fmt::Write;
    let _ = writeln!(
        s,
        "  {} ({} bytes, sha256 {}…)",
        f.name,
        f.size_bytes,
        &f.sha256[..12]
    );
    let _ = writeln!(
        s,
        "    format: {}; encoding: {} ({})",
        f.format, f.encoding, f.encoding_how
    );
    let _ = writeln!(
        s,
        "    time zone: {}{}; source: {}",
        f.time_zone.clone().unwrap_or_else(|| "-".into()),
        f.utc_offset_min
            .map(|o| format!(" (UTC{:+}:{:02})", o / 60, (o % 60).abs()))
            .unwrap_or_default(),
        f.time_zone_source
    );
    let _ = writeln!(
        s,
        "    part: {}; hosts: {}; samples: {}",
        f.part.as_str_pub(),
        f.hosts.join(", "),
        f.samples
    );
}

/// The devices and pairings, the time range, the interval and the phases.
fn render_devices_and_times(s: &mut String, pv: &Preview) {
    use std::fmt::Write;
    let _ = writeln!(s, "devices:");
    for d in &pv.devices {
        let _ = writeln!(s, "  {:<28} {:<8} {}", d.name, d.role, d.reason);
    }
    for p in &pv.pairs {
        // what sits on what, whatever the roles (a PerfMon volume on its disk is one layer)
        let _ = writeln!(s, "  pairing: {} sits on {}", p.front, p.backing);
    }
    match &pv.time_range {
        Some(r) => {
            let _ = writeln!(s, "time range: {} – {} (UTC)", r.start, r.end);
        }
        None => {
            let _ = writeln!(s, "time range: none");
        }
    }
    if let Some(i) = pv.interval_ms {
        let _ = writeln!(
            s,
            "interval: {:.0} ms (median step); {} device-intervals",
            i, pv.intervals
        );
    }
    for ph in &pv.phases {
        let _ = writeln!(
            s,
            "phase {}: {} – {}",
            ph.name,
            time::iso(ph.start_utc_ms),
            time::iso(ph.end_utc_ms)
        );
    }
}
