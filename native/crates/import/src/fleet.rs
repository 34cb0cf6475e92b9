//! `import … --out-dir DIR`: one capture per host of a fleet (a Prometheus selector that matches
//! several hosts), each what a one-host import of that host would have written: its devices
//! named without the host prefix, its intervals, the same phases and provenance. All or
//! nothing: the captures are written to temporary files and renamed at the end, so a failed
//! import leaves no capture (docs/import.md, "prometheus").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::load::{Loaded, Options, Span};
use super::preview::{preview, Preview};
use super::prometheus::CapRow;
use super::stitch::{plan, GSample, Plan};
use super::write::{check_ready, commit, remove_all, tmp_path, write, write_fault};
use super::{Device, Parsed, Rates};
use crate::delta::Snapshot;
use crate::error::{ProbeError, Result};

/// How the note listing a file's device stack starts (linux/stack.rs's `note`): a host's
/// capture gets its own.
const STACK_NOTE: &str = "the device stack (";

/// One host's capture.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenHost {
    pub host: String,
    pub out: String,
    pub devices: usize,
    pub samples: usize,
    pub intervals: i64,
}

/// What `import --out-dir` wrote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenFleet {
    pub out_dir: String,
    pub captures: Vec<WrittenHost>,
    /// The preview of the whole fleet.
    pub preview: Preview,
}

/// The hosts of a plan, in the order their devices come.
pub fn hosts_of(p: &Plan) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for d in &p.devices {
        if let Some(h) = &d.host {
            if !v.contains(h) {
                v.push(h.clone());
            }
        }
    }
    v
}

/// A host as a file name: characters other than letters, digits, `.`, `_` and `-` become `_`
/// (`web1:9100` → `web1_9100`).
pub fn file_stem(host: &str) -> String {
    let s: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let s = s.trim_start_matches('.').to_string();
    if s.is_empty() {
        "host".into()
    } else {
        s
    }
}

/// The plan of one host: its devices (without the `HOST/` or `HOST\` prefix of a fleet), its
/// rates and snapshots. Every moment of the fleet is kept, so that each interval still spans
/// the same two moments.
pub fn host_plan(p: &Plan, host: &str) -> Plan {
    let keep: Vec<usize> = (0..p.devices.len())
        .filter(|&i| p.devices[i].host.as_deref() == Some(host))
        .collect();
    let h = Host {
        host,
        pre: [format!("{host}/"), format!("{host}\\")],
        names: keep.iter().map(|&i| p.devices[i].name.as_str()).collect(),
        keep,
        others: hosts_of(p).into_iter().filter(|h| h != host).collect(),
    };
    let devices = h
        .keep
        .iter()
        .map(|&i| {
            let mut d = p.devices[i].clone();
            d.name = h.strip(&d.name);
            d.on = d.on.as_deref().map(|n| h.strip(n));
            d.parent = d.parent.as_deref().map(|n| h.strip(n));
            d
        })
        .collect();
    let mut times: Vec<i64> = Vec::new();
    let series = p
        .series
        .iter()
        .map(|(part, s)| (*part, s.iter().map(|g| h.sample(g, &mut times)).collect()))
        .collect();
    let files = p.files.iter().map(|f| h.file(f, &times)).collect();
    Plan {
        files,
        devices,
        series,
        nominal_ms: p.nominal_ms,
        phases: p.phases.clone(),
        switch_at: p.switch_at,
        notes: p.notes.clone(),
    }
}

/// One host of a fleet's plan: what of the plan is its own.
struct Host<'a> {
    host: &'a str,
    /// The prefixes of its devices' names in the fleet (`HOST/`, `HOST\`).
    pre: [String; 2],
    /// Its devices' indexes in the fleet's plan, and their names there.
    keep: Vec<usize>,
    names: Vec<&'a str>,
    /// The other hosts.
    others: Vec<String>,
}

impl Host<'_> {
    /// A name without the host's prefix.
    fn strip(&self, n: &str) -> String {
        self.pre
            .iter()
            .find_map(|x| n.strip_prefix(x.as_str()))
            .unwrap_or(n)
            .to_string()
    }

    /// Whether a name is one of this host's.
    fn mine(&self, n: &str) -> bool {
        self.pre.iter().any(|x| n.starts_with(x.as_str()))
    }

    /// The host's part of a sample: its devices' rates and snapshot (its time into `times`
    /// when it has any).
    fn sample(&self, g: &GSample, times: &mut Vec<i64>) -> GSample {
        let rates: Vec<Option<Rates>> = if g.rates.is_empty() {
            Vec::new()
        } else {
            self.keep
                .iter()
                .map(|&i| g.rates.get(i).copied().flatten())
                .collect()
        };
        let snap = g.snap.as_ref().and_then(|sn| {
            let devices: BTreeMap<_, _> = sn
                .devices
                .iter()
                .filter(|(n, _)| self.names.contains(&n.as_str()))
                .map(|(n, d)| (self.strip(n), d.clone()))
                .collect();
            (!devices.is_empty()).then(|| Snapshot {
                mono_ns: sn.mono_ns,
                utc_ms: sn.utc_ms,
                boot_id: sn.boot_id.clone(),
                devices,
            })
        });
        if snap.is_some() || rates.iter().any(Option::is_some) {
            times.push(g.utc_ms);
        }
        GSample {
            utc_ms: g.utc_ms,
            file: g.file,
            line: g.line,
            rates,
            snap,
        }
    }

    /// The host's view of a loaded file (its span: the moments `times` the host has data at).
    fn file(&self, f: &Loaded, times: &[i64]) -> Loaded {
        Loaded {
            path: f.path.clone(),
            name: f.name.clone(),
            size: f.size,
            sha256: f.sha256.clone(),
            encoding: f.encoding.clone(),
            encoding_how: f.encoding_how.clone(),
            part: f.part,
            parsed: self.parsed(&f.parsed),
            scrape: None,
            partial: f.partial.clone(),
            // the moments this host has data at (the file's first, last and count)
            span: Span {
                first_utc_ms: times.first().copied(),
                last_utc_ms: times.last().copied(),
                samples: times.len(),
            },
        }
    }

    /// The file's facts for this host, without its samples (a fleet's are not copied once per
    /// host).
    fn parsed(&self, q: &Parsed) -> Parsed {
        let host = self.host;
        // this host's edges of the device stack, named as its devices are
        let stack: Vec<(String, String, String)> = q
            .stack
            .iter()
            .filter(|(h, s, _)| self.mine(h) && self.mine(s))
            .map(|(h, s, k)| (self.strip(h), self.strip(s), k.clone()))
            .collect();
        Parsed {
            format: q.format.clone(),
            hosts: vec![host.to_string()],
            kernel: q.kernel.clone(),
            tz_name: q.tz_name.clone(),
            utc_offset_min: q.utc_offset_min,
            tz_source: q.tz_source.clone(),
            devices: q
                .devices
                .iter()
                .filter(|d| d.host.as_deref() == Some(host))
                .map(|d| Device {
                    name: self.strip(&d.name),
                    ..d.clone()
                })
                .collect(),
            samples: Vec::new(),
            unmapped: q.unmapped.clone(),
            mapping: q.mapping.clone(),
            notes: self.notes(q, &stack),
            needs: q.needs.clone(),
            stack,
            capacity: q
                .capacity
                .iter()
                .filter(|r| r.host.as_deref() == Some(host))
                .map(|r| CapRow {
                    volume: self.strip(&r.volume),
                    device: r.device.as_deref().map(|n| self.strip(n)),
                    ..r.clone()
                })
                .collect(),
            // a work counter of this host (HOST\ prefixed in a log of several hosts)
            work: q
                .work
                .iter()
                .filter(|r| r.instance.starts_with(&format!("{host}\\")))
                .map(|r| crate::perfmon::WorkRow {
                    instance: self.strip(&r.instance),
                    ..r.clone()
                })
                .collect(),
        }
    }

    /// The file's notes but the other hosts' and the fleet's stack note, then this host's.
    fn notes(&self, q: &Parsed, stack: &[(String, String, String)]) -> Vec<String> {
        q.notes
            .iter()
            .filter(|n| {
                !self
                    .others
                    .iter()
                    .any(|o| n.starts_with(&format!("{o}/")) || n.starts_with(&format!("{o}\\")))
                    && !n.starts_with(STACK_NOTE)
            })
            .cloned()
            .chain(super::linux::stack::note(stack))
            .collect()
    }
}

/// Import into one capture per host in `opts.out_dir`.
pub fn import_per_host(opts: &Options) -> Result<WrittenFleet> {
    let dir = opts
        .out_dir
        .clone()
        .ok_or_else(|| ProbeError::Usage("import needs --out-dir DIR".into()))?;
    let p = plan(opts)?;
    let pv = preview(opts.kind, &p);
    check_ready(&p, &pv)?;
    let hosts = hosts_of(&p);
    if hosts.is_empty() {
        return Err(ProbeError::Usage(
            "--out-dir writes one capture per host, and this source names no hosts: use --out CAPTURE".into(),
        ));
    }
    std::fs::create_dir_all(&dir).map_err(|e| ProbeError::Unwritable {
        path: dir.clone(),
        reason: e.to_string(),
    })?;
    let mut targets: Vec<(String, PathBuf)> = Vec::new();
    for h in &hosts {
        let stem = file_stem(h);
        let mut out = dir.join(format!("{stem}.capture"));
        let mut n = 2;
        while targets.iter().any(|(_, o)| *o == out) {
            out = dir.join(format!("{stem}-{n}.capture"));
            n += 1;
        }
        if out.exists() {
            return Err(ProbeError::Usage(format!(
                "{} already exists: choose another --out-dir (or remove it)",
                out.display()
            )));
        }
        targets.push((h.clone(), out));
    }
    let mut moves: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut captures = Vec::new();
    for (h, out) in &targets {
        let hp = host_plan(&p, h);
        let hpv = preview(opts.kind, &hp);
        let tmp = tmp_path(out);
        remove_all(&tmp);
        moves.push((tmp.clone(), out.clone()));
        match write(&tmp, out, opts, &hp, &hpv) {
            Ok((samples, intervals)) => captures.push(WrittenHost {
                host: h.clone(),
                out: out.display().to_string(),
                devices: hp.devices.len(),
                samples,
                intervals,
            }),
            Err(e) => {
                for (t, _) in &moves {
                    remove_all(t);
                }
                return Err(e);
            }
        }
    }
    commit(&moves, "--out-dir").map_err(|e| write_fault(&dir, e))?;
    Ok(WrittenFleet {
        out_dir: dir.display().to_string(),
        captures,
        preview: pv,
    })
}

/// `Path` of a capture written for a host (for tests and the app).
pub fn capture_path(dir: &Path, host: &str) -> PathBuf {
    dir.join(format!("{}.capture", file_stem(host)))
}
