//! The tables of an import's capture besides its samples and intervals: meta, devices,
//! topology and fleet, phases and plan, the imported files, volume capacity and work.

use super::{display, Options, Plan, Preview};
use crate::capture::capacity::VolumeRow;
use crate::capture::imported::ImportFileRow;
use crate::capture::Capture;
use crate::error::Result;
use crate::sysfs::DeviceInfo;

/// The capture's meta: version, creation time, hosts, zone, command, step, source, files.
pub(super) fn set_meta(cap: &mut Capture, opts: &Options, p: &Plan, pv: &Preview) -> Result<()> {
    let now = crate::clock::utc_ms();
    let first = &p.files[0];
    let hosts = pv.hosts.join(", ");
    let kv: Vec<(&str, String)> = vec![
        ("probe_version", env!("CARGO_PKG_VERSION").to_string()),
        ("created_utc_ms", now.to_string()),
        (
            "hostname",
            if hosts.is_empty() {
                "unknown".into()
            } else {
                hosts
            },
        ),
        (
            "utc_offset_min",
            first.parsed.utc_offset_min.unwrap_or(0).to_string(),
        ),
        ("command", opts.command.clone()),
        ("interval_ms", format!("{}", p.nominal_ms.round() as i64)),
        ("source", format!("import:{}", opts.kind.as_str())),
        ("import_file", first.name.clone()),
        ("import_sha256", first.sha256.clone()),
        ("import_files", p.files.len().to_string()),
        (
            "devices",
            serde_json::to_string(&p.devices.iter().map(|d| d.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default(),
        ),
    ];
    for (k, v) in &kv {
        cap.set_meta(k, v)?;
    }
    if let Some(k) = p.files.iter().find_map(|f| f.parsed.kernel.clone()) {
        cap.set_meta("kernel", &k)?;
    }
    Ok(())
}

/// Every device of the plan (first seen at `t0`); their ids, in the plan's order.
pub(super) fn add_devices(cap: &mut Capture, p: &Plan, t0: i64) -> Result<Vec<i64>> {
    let mut ids = Vec::new();
    for d in &p.devices {
        let info = DeviceInfo {
            name: d.name.clone(),
            is_partition: d.is_partition,
            parent: d.parent.clone(),
            role: d.role.clone(),
            role_reason: Some(d.reason.clone()),
            ..Default::default()
        };
        ids.push(cap.upsert_device(&info, t0)?);
    }
    Ok(ids)
}

/// What sits on what, and which device is whose in a capture of several hosts.
pub(super) fn set_topology(cap: &mut Capture, p: &Plan) -> Result<()> {
    let mut edges: Vec<(String, String, String)> = p
        .devices
        .iter()
        .filter_map(|d| {
            d.on.as_ref()
                .map(|b| (d.name.clone(), b.clone(), "perfmon-volume".to_string()))
        })
        .collect();
    edges.extend(crate::preview::stack_of(p));
    cap.set_topology(&edges)?;
    // a capture of several hosts (a Prometheus fleet, a PerfMon log of several computers): which
    // device is whose (docs/capture-schema.md, meta `fleet`)
    let mut fleet: Vec<(String, Vec<String>)> = Vec::new();
    for d in &p.devices {
        let Some(h) = &d.host else { continue };
        match fleet.iter_mut().find(|(x, _)| x == h) {
            Some((_, v)) => v.push(d.name.clone()),
            None => fleet.push((h.clone(), vec![d.name.clone()])),
        }
    }
    if fleet.len() > 1 {
        let v: Vec<serde_json::Value> = fleet
            .iter()
            .map(|(h, ds)| serde_json::json!({ "host": h, "devices": ds }))
            .collect();
        cap.set_meta("fleet", &serde_json::Value::Array(v).to_string())?;
    }
    Ok(())
}

/// The phases, the switch mark and the plan of an import with a switch.
pub(super) fn add_phases(cap: &mut Capture, p: &Plan, t0: i64) -> Result<()> {
    for ph in &p.phases {
        cap.add_phase(&ph.name, ph.start_utc_ms, ph.end_utc_ms)?;
    }
    if let Some(t) = p.switch_at {
        cap.add_mark(
            t,
            ((t - t0).max(0) as u64) * 1_000_000,
            "switch",
            Some("from the import (--switch-at or the start of the --measure files)"),
        )?;
    }
    let plan_len = |n: &str| {
        p.phases
            .iter()
            .find(|x| x.name == n)
            .map(|x| (x.end_utc_ms - x.start_utc_ms) as f64 / 1000.0)
    };
    if p.switch_at.is_some() {
        let pm = serde_json::json!({
            "baselineS": plan_len("baseline"),
            "warmupS": plan_len("warmup"),
            "measureS": plan_len("measure"),
            "switch": "import",
        });
        cap.set_meta("plan", &pm.to_string())?;
    }
    Ok(())
}

/// One row per imported file: what it was, how it was read, what was mapped.
pub(super) fn add_import_files(cap: &mut Capture, opts: &Options, p: &Plan) -> Result<()> {
    for f in &p.files {
        let mapping = serde_json::json!({
            "mapped": f.parsed.mapping.iter().map(|(s, d)| serde_json::json!({"source": s, "field": d})).collect::<Vec<_>>(),
            "unmapped": f.parsed.unmapped,
            "notes": f.parsed.notes,
            "devices": f.parsed.devices.iter().map(|d| serde_json::json!({"name": d.name, "source": d.source, "role": d.role})).collect::<Vec<_>>(),
        });
        cap.add_import_file(&ImportFileRow {
            name: &f.name,
            path: display(&f.path),
            size_bytes: f.size as i64,
            sha256: &f.sha256,
            kind: opts.kind.as_str(),
            format: &f.parsed.format,
            encoding: &f.encoding,
            encoding_how: &f.encoding_how,
            time_zone: f.parsed.tz_name.as_deref(),
            utc_offset_min: f.parsed.utc_offset_min,
            time_zone_source: &f.parsed.tz_source,
            part: f.part.as_str_pub(),
            hosts: serde_json::to_string(&f.parsed.hosts).unwrap_or_default(),
            first_utc_ms: f.span.first_utc_ms,
            last_utc_ms: f.span.last_utc_ms,
            samples: f.span.samples as i64,
            mapping: mapping.to_string(),
        })?;
    }
    Ok(())
}

/// How full the volumes were (docs/capture-schema.md, `volume_capacity`) and the work the
/// server did (`work_counters`).
pub(super) fn add_capacity_and_work(cap: &mut Capture, p: &Plan) -> Result<()> {
    for f in &p.files {
        for r in &f.parsed.capacity {
            cap.add_volume_capacity(&VolumeRow {
                utc_ms: r.utc_ms,
                volume: &r.volume,
                device_id: r.device.as_deref().and_then(|n| cap.device_id(n)),
                mount: r.mount.as_deref(),
                size_bytes: r.size_bytes,
                free_bytes: r.free_bytes,
                source: &r.source,
            })?;
        }
    }
    for f in &p.files {
        for r in &f.parsed.work {
            cap.add_work_counter(r)?;
        }
    }
    Ok(())
}
