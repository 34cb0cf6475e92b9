//! Count every I/O once (issue 26) on real files. An esxtop batch capture written by a real ESXi
//! host (`../shared/realdata/esxtop/`, its `.source.txt` says where it comes from; it has no
//! licence, so it is read there and not shipped, under the skip rule of `testenv::realdata`): its adapter row
//! and its adapter panel's per-path rows (`Physical Disk(vmhba0:vmhba0:C0:T4:L0)`) carry the
//! same commands as its SCSI device rows; only the device rows are counted, and the imported
//! totals are the device rows' alone. The real PerfMon logs of ../shared/realdata/perfmon_csv
//! (skip rule of `testenv::realdata`): a host's PhysicalDisk and LogicalDisk, or `_Total` and its
//! members, are never both counted.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use cacheproof_probe::testenv;
use common::views::{counted_names, io_where, preview_json, role_of, stack_edges};
use common::{probe, TempDir};

/// The real batch file in the shared real-data folder, or None after `testenv::skip` (a failure in CI).
fn fixture(test: &str) -> Option<PathBuf> {
    testenv::realdata(test, "esxtop/rach-sharp_esxtopd_small-esxtop-data.csv")
}

/// The file's columns (`\\host\Object(instance)\Counter`) and rows, read here apart from the probe.
struct Esx {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Esx {
    fn read(p: &Path) -> Esx {
        let text = std::fs::read_to_string(p).unwrap();
        let mut lines = text.lines().map(|l| {
            l.split(',')
                .map(|c| c.trim_matches('"').to_string())
                .collect::<Vec<_>>()
        });
        let head = lines.next().unwrap();
        Esx {
            head,
            rows: lines.collect(),
        }
    }

    /// Per row, the values of `counter` for each instance of `object` (exactly that object).
    fn per_row(&self, object: &str, counter: &str) -> Vec<Vec<(String, f64)>> {
        let cols: Vec<(usize, String)> = self
            .head
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                let rest = h.strip_prefix("\\\\")?.split_once('\\')?.1;
                let (obj, c) = rest.rsplit_once('\\')?;
                let inst = obj
                    .strip_prefix(object)?
                    .strip_prefix('(')?
                    .strip_suffix(')')?;
                (c == counter).then(|| (i, inst.to_string()))
            })
            .collect();
        self.rows
            .iter()
            .map(|r| {
                cols.iter()
                    .map(|(i, n)| (n.clone(), r[*i].parse::<f64>().unwrap_or(0.0)))
                    .collect()
            })
            .collect()
    }

    /// Per row, Σ of `counter` over the instances of `object`.
    fn sum(&self, object: &str, counter: &str) -> Vec<f64> {
        self.per_row(object, counter)
            .iter()
            .map(|r| r.iter().map(|x| x.1).sum())
            .collect()
    }
}

/// The texts of the `as-written` sentences in a preview's `said` (docs/import.md, Preview JSON).
fn as_written(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            if m.get("code").and_then(|c| c.as_str()) == Some("as-written") {
                out.push(m["values"]["text"].to_string());
            }
            m.values().for_each(|x| as_written(x, out));
        }
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| as_written(x, out)),
        _ => {}
    }
}

#[test]
fn real_esxtop_adapter_and_path_rows_are_not_added_to_its_device_rows() {
    let Some(f) = fixture("real_esxtop_adapter_and_path_rows_are_not_added_to_its_device_rows")
    else {
        return;
    };
    let esx = Esx::read(&f);
    assert_eq!(esx.rows.len(), 3);
    // what the file says: the adapter's rates, and the adapter panel's per-path rows, are the
    // sum of the SCSI devices' (the same commands seen three ways), and the host did some I/O
    for c in ["Reads/sec", "Writes/sec", "Commands/sec"] {
        let dev = esx.sum("Physical Disk SCSI Device", c);
        for view in ["Physical Disk Adapter", "Physical Disk"] {
            let v = esx.sum(view, c);
            for (a, b) in dev.iter().zip(&v) {
                assert!(
                    (a - b).abs() < 0.011,
                    "{view} {c}: {v:?} vs devices {dev:?}"
                );
            }
        }
    }
    assert!(esx.sum("Physical Disk SCSI Device", "Writes/sec")[1] > 10.0);

    let fs = f.to_str().unwrap();
    let pv = preview_json("esxtop", &[fs], &[]);
    let devices: Vec<String> = esx.per_row("Physical Disk SCSI Device", "Reads/sec")[0]
        .iter()
        .map(|(n, _)| format!("EsxDisk({n})"))
        .collect();
    assert_eq!(devices.len(), 4);
    let mut counted = counted_names(&pv);
    counted.sort();
    let mut want = devices.clone();
    want.sort();
    assert_eq!(counted, want, "the SCSI devices alone are counted");
    assert_eq!(role_of(&pv, "EsxAdapter(vmhba0)"), "other");
    for t in 2..=5 {
        let p = format!("EsxPath(vmhba0:vmhba0:C0:T{t}:L0)");
        assert_eq!(role_of(&pv, &p), "other", "{p}");
    }
    let st = stack_edges(&pv);
    for d in &devices {
        assert!(
            st.iter().any(|e| e.0 == "EsxAdapter(vmhba0)" && &e.1 == d),
            "the adapter over {d}: {st:?}"
        );
    }
    // every sentence of the preview has its code (said.rs), which the app writes in the
    // person's language: none is left as the English it was written in
    let mut left = Vec::new();
    as_written(&pv["said"], &mut left);
    assert!(left.is_empty(), "sentences without a code: {left:?}");
    // counting the adapter with its devices is refused, naming the pair
    let o = probe(&[
        "import",
        "esxtop",
        fs,
        "--role",
        "EsxAdapter(vmhba0)=backing",
        "--preview",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("EsxAdapter(vmhba0) and EsxDisk("), "{err}");
    assert!(
        err.contains("two views of the same commands (adapter over device)"),
        "{err}"
    );

    // the capture: the counted totals are the device rows' alone, each within half an I/O of
    // the file's rates × the 5 s interval (the first row is all zeros: kept or not, the same)
    let d = TempDir::new("esx-real");
    let out = d.join("esx.capture");
    let o = probe(&["import", "esxtop", fs, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (mut want_r, mut want_w) = (0i64, 0i64);
    let reads = esx.per_row("Physical Disk SCSI Device", "Reads/sec");
    let writes = esx.per_row("Physical Disk SCSI Device", "Writes/sec");
    for (k, dev) in devices.iter().enumerate() {
        let file_r: f64 = reads.iter().map(|r| r[k].1 * 5.0).sum();
        let file_w: f64 = writes.iter().map(|r| r[k].1 * 5.0).sum();
        let (r, w) = io_where(&out, &format!("d.name = '{dev}'"));
        assert!(
            (r as f64 - file_r).abs() <= 0.5,
            "{dev} reads {r} vs {file_r}"
        );
        assert!(
            (w as f64 - file_w).abs() <= 0.5,
            "{dev} writes {w} vs {file_w}"
        );
        want_r += r;
        want_w += w;
    }
    assert!(want_w > 100, "the devices wrote {want_w}");
    assert_eq!(
        io_where(&out, "d.role IN ('backing', 'front')"),
        (want_r, want_w)
    );
    // the adapter's own totals are the devices': adding them would count each I/O twice
    assert_eq!(
        io_where(&out, "d.name = 'EsxAdapter(vmhba0)'"),
        (want_r, want_w)
    );
    assert_eq!(
        io_where(&out, "d.name LIKE 'EsxPath(vmhba0:vmhba0:%'"),
        (want_r, want_w)
    );
}

/// `\\HOST\Object(instance)\…` columns of a PDH-CSV header: (host, object, instance) once each.
fn disk_instances(header: &str) -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for c in header.split("\",\"") {
        let c = c.trim_matches('"');
        let Some((host, rest)) = c.strip_prefix("\\\\").and_then(|r| r.split_once('\\')) else {
            continue;
        };
        let Some((obj, inst)) = rest.split_once('(') else {
            continue;
        };
        let Some(inst) = inst.split_once(")\\").map(|x| x.0) else {
            continue;
        };
        let t = (host.to_string(), obj.to_string(), inst.to_string());
        if ["PhysicalDisk", "LogicalDisk"].contains(&obj) && !v.contains(&t) {
            v.push(t);
        }
    }
    v
}

#[test]
fn real_perfmon_physicaldisk_and_logicaldisk_of_one_host_are_never_both_counted() {
    let Some(dir) = testenv::realdata(
        "real_perfmon_physicaldisk_and_logicaldisk_of_one_host_are_never_both_counted",
        "perfmon_csv",
    ) else {
        return;
    };
    let mut both = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let head = String::from_utf8_lossy(&bytes);
        let inst = disk_instances(head.lines().next().unwrap_or(""));
        if inst.is_empty() {
            continue;
        }
        let pv = preview_json("perfmon", &[f.to_str().unwrap()], &[]);
        let counted = counted_names(&pv);
        let has = |o: &str| counted.iter().any(|n| n.starts_with(&format!("{o}(")));
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        assert!(!counted.is_empty(), "{name}: nothing counted");
        // one layer of the host: never a disk and a volume, never _Total with its members
        assert!(
            !(has("PhysicalDisk") && has("LogicalDisk")),
            "{name}: {counted:?}"
        );
        let total = counted
            .iter()
            .any(|n| n.to_lowercase().contains("(_total)"));
        assert!(
            !total || counted.len() == 1,
            "{name}: _Total with its members: {counted:?}"
        );
        if inst.iter().any(|i| i.1 == "PhysicalDisk") && inst.iter().any(|i| i.1 == "LogicalDisk") {
            both += 1;
            assert!(
                has("PhysicalDisk"),
                "{name}: the disks are the layer counted: {counted:?}"
            );
        }
    }
    assert!(both > 0, "a real file with both objects was checked");
}
