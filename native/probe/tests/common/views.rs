//! The preview JSON of `cacheproof-probe import … --preview --json` and the capture an import
//! writes, as the "count every I/O once" tests (issue 26) read them: roles, counted devices,
//! stack edges, and I/O totals per device.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

/// `import KIND FILES… EXTRA… --preview --json`, parsed (the probe must accept it).
pub fn preview_json(kind: &str, files: &[&str], extra: &[&str]) -> serde_json::Value {
    let mut a = vec!["import", kind];
    a.extend_from_slice(files);
    a.extend_from_slice(extra);
    a.extend(["--preview", "--json"]);
    let o = super::probe(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The devices of a preview whose role counts their I/O (front or backing), in its order.
pub fn counted_names(pv: &serde_json::Value) -> Vec<String> {
    pv["devices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["role"] == "front" || d["role"] == "backing")
        .map(|d| d["name"].as_str().unwrap().to_string())
        .collect()
}

/// The role of a device in a preview.
pub fn role_of(pv: &serde_json::Value, dev: &str) -> String {
    pv["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == dev)
        .unwrap_or_else(|| panic!("no device {dev}"))["role"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The stack edges of a preview: (holder, on, kind).
pub fn stack_edges(pv: &serde_json::Value) -> Vec<(String, String, String)> {
    pv["stack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            (s("holder"), s("on"), s("kind"))
        })
        .collect()
}

/// Σ reads and Σ writes over the intervals of the capture's devices that `filter` (SQL on `d`,
/// the devices table) selects.
pub fn io_where(cap: &Path, filter: &str) -> (i64, i64) {
    Connection::open_with_flags(cap, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap()
        .query_row(
            &format!(
                "SELECT COALESCE(SUM(reads),0), COALESCE(SUM(writes),0) FROM intervals i
                 JOIN devices d ON d.id = i.device_id WHERE {filter}"
            ),
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}
