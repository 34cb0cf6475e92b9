//! A volume's capacity from a PerfMon log: `LogicalDisk(X:)\% Free Space` and
//! `\Free Megabytes` (docs/import.md, "Capacity"). Free = Free Megabytes × 1,048,576 bytes (a
//! PerfMon megabyte is 2^20 bytes); size = free ÷ (% Free Space ÷ 100), as precise as the two
//! counters are (Free Megabytes is whole MiB: the size is within 1 MiB ÷ the free share, plus
//! the rounding of % Free Space as written). A volume with 0 % free has no size (NULL: a size
//! cannot be divided out of nothing); a blank or negative cell (PDH's -1) is absent. `_Total`
//! (the sum of the volumes) is not a volume and is left out.

use super::rows::Rows;
use crate::error::Result;
use crate::prometheus::CapRow;
use crate::{bad, num, Parsed};

/// Bytes in a PerfMon megabyte.
pub const MIB: f64 = 1_048_576.0;

#[derive(Debug, Clone)]
struct Vol {
    /// Device name the volume would have in the capture (`LogicalDisk(C:)`, `HOST\LogicalDisk(C:)`).
    device: String,
    volume: String,
    mount: Option<String>,
    host: String,
    pct_col: Option<usize>,
    mb_col: Option<usize>,
}

/// The capacity columns of a log, by volume.
#[derive(Debug, Default)]
pub(super) struct Cols {
    vols: Vec<Vol>,
}

impl Cols {
    /// Column `col` (0-based in the row) is the `% Free Space` (`pct`) or `Free Megabytes` of
    /// volume `inst` of `host`.
    pub(super) fn add(
        &mut self,
        col: usize,
        pct: bool,
        device: &str,
        inst: &str,
        host: &str,
        multi: bool,
    ) {
        // the sum of the other volumes (a log of one volume names it _Total too): not a volume
        if inst.eq_ignore_ascii_case("_Total") {
            return;
        }
        let i = match self.vols.iter().position(|v| v.device == device) {
            Some(i) => i,
            None => {
                self.vols.push(Vol {
                    device: device.to_string(),
                    volume: if multi {
                        format!("{host}\\{inst}")
                    } else {
                        inst.to_string()
                    },
                    // a drive letter is where the volume is mounted; HarddiskVolumeN is not
                    mount: (inst.len() == 2 && inst.ends_with(':')).then(|| format!("{inst}\\")),
                    host: host.to_string(),
                    pct_col: None,
                    mb_col: None,
                });
                self.vols.len() - 1
            }
        };
        if pct {
            self.vols[i].pct_col = Some(col);
        } else {
            self.vols[i].mb_col = Some(col);
        }
    }

    /// One row per volume per data row with a figure, into `p.capacity` (the device named when
    /// the log has the volume's I/O counters too), and the mapping.
    pub(super) fn rows(&self, ctx: &Rows, data: &[(usize, &str)], p: &mut Parsed) -> Result<()> {
        if self.vols.is_empty() {
            return Ok(());
        }
        let mut rg = Vec::new();
        for &(ln, l) in data {
            let t = ctx.time_of(ln, l, &mut rg)?;
            let cell = |c: Option<usize>| -> Result<Option<f64>> {
                let Some(c) = c else { return Ok(None) };
                let s = &l[rg[c].0..rg[c].1];
                let v = num(s).map_err(|_| {
                    bad(
                        ctx.file,
                        Some(ln),
                        Some(c + 1),
                        format!("'{}' is not a number", s.trim()),
                    )
                })?;
                Ok(v.filter(|x| *x >= 0.0))
            };
            for v in &self.vols {
                let (pct, mb) = (cell(v.pct_col)?, cell(v.mb_col)?);
                // % Free Space alone is a share of an unknown size: nothing to store
                if mb.is_none() {
                    continue;
                }
                let free = mb.map(|m| m * MIB);
                let size = match (free, pct) {
                    (Some(f), Some(q)) if q > 0.0 => Some((f / (q / 100.0)).round() as i64),
                    _ => None,
                };
                p.capacity.push(CapRow {
                    utc_ms: t,
                    volume: v.volume.clone(),
                    device: p
                        .devices
                        .iter()
                        .any(|d| d.name == v.device)
                        .then(|| v.device.clone()),
                    mount: v.mount.clone(),
                    size_bytes: size,
                    free_bytes: free.map(|f| f.round() as i64),
                    source: "perfmon".into(),
                    host: Some(v.host.clone()),
                });
            }
        }
        if self.vols.iter().any(|v| v.pct_col.is_some()) {
            p.mapping.push((
                "% Free Space".into(),
                "volume_capacity.size_bytes = Free Megabytes × 1048576 ÷ (% Free Space ÷ 100)"
                    .into(),
            ));
        }
        if self.vols.iter().any(|v| v.mb_col.is_some()) {
            p.mapping.push((
                "Free Megabytes".into(),
                "volume_capacity.free_bytes × 1048576".into(),
            ));
        }
        Ok(())
    }
}
