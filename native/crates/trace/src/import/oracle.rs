//! libCacheSim oracleGeneral binary: 24-byte records (u32 time s, u64 id, u32 size, i64 next).

use std::io::Read;
use std::path::Path;

use super::{ReadOptions, Rec, State, Trace};
use crate::error::{ProbeError, Result};
use crate::request::Op;

pub(super) fn read_oracle(
    mut f: std::fs::File,
    tr: &mut Trace,
    opts: ReadOptions,
    path: &Path,
) -> Result<()> {
    let mut st = State {
        last_t_ns: None,
        origin: None,
        origin_int: None,
        unit_ns: 1e9,
        opts,
    };
    let mut buf = Vec::new();
    f.read_to_end(&mut buf)
        .map_err(|e| ProbeError::io(format!("reading {}", path.display()), e))?;
    if buf.len() % 24 != 0 {
        tr.skip(
            (buf.len() / 24 + 1) as u64,
            "record",
            format!(
                "the file ends with {} bytes, not a whole 24-byte record",
                buf.len() % 24
            ),
            "truncated record",
        );
    }
    tr.reqs.reserve(buf.len() / 24);
    for (i, r) in buf.chunks_exact(24).enumerate() {
        tr.records += 1;
        let le4 = |a: &[u8]| u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
        let t = le4(&r[0..4]);
        let mut id = [0u8; 8];
        id.copy_from_slice(&r[4..12]);
        let id = u64::from_le_bytes(id);
        let size = le4(&r[12..16]);
        st.push(
            tr,
            Rec {
                line: i as u64 + 1,
                t: f64::from(t),
                t_int: Some(i128::from(t)),
                dev: "obj",
                offset: i128::from(id) * i128::from(size),
                bytes: i128::from(size),
                op: Op::Read,
                op_text: "R",
                complete_ns: None,
            },
        );
    }
    Ok(())
}
