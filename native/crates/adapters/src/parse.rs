//! Parsers of what engines print: bcache's sysfs values, the `dmsetup status` line of a
//! dm-cache target, `casadm -P` (its box-drawn tables and `-o csv`) and `key: value` lines.

use super::Stat;

/// A bcache size as sysfs prints it (`bch_hprint`: `512`, `1.5k`, `12.3M`, `2.0G`, binary
/// multiples), in bytes.
pub fn hprint(s: &str) -> Option<f64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        c if c.is_ascii_digit() => (s, 1.0),
        c => {
            let p = "kMGTPEZY".find(c)? as i32 + 1;
            (&s[..s.len() - c.len_utf8()], 1024f64.powi(p))
        }
    };
    let v: f64 = num.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v * mult)
}

/// The selected item of a bcache list attribute: `writethrough [writeback] writearound none`.
pub fn bracketed(s: &str) -> Option<String> {
    s.split_whitespace()
        .find(|w| w.starts_with('[') && w.ends_with(']'))
        .map(|w| w.trim_matches(|c| c == '[' || c == ']').to_string())
}

/// The status line of a dm-cache target (kernel Documentation/admin-guide/device-mapper/cache.rst):
/// `<start> <len> cache <metadata block size> <used>/<total metadata blocks> <cache block size>
/// <used>/<total cache blocks> <read hits> <read misses> <write hits> <write misses>
/// <demotions> <promotions> <dirty> <#features> <features>* <#core args> <core args>*
/// <policy> <#policy args> <policy args>* [<metadata mode> <needs_check>]`, optionally after
/// `name: ` as `dmsetup status` prints it for every device.
#[derive(Debug, Clone, PartialEq)]
pub struct DmCache {
    pub name: Option<String>,
    /// Sectors (512 bytes).
    pub metadata_block_sectors: u64,
    pub metadata_used: u64,
    pub metadata_total: u64,
    /// Sectors (512 bytes).
    pub cache_block_sectors: u64,
    pub cache_used: u64,
    pub cache_total: u64,
    pub read_hits: u64,
    pub read_misses: u64,
    pub write_hits: u64,
    pub write_misses: u64,
    pub demotions: u64,
    pub promotions: u64,
    /// Cache blocks.
    pub dirty: u64,
    pub features: Vec<String>,
    pub policy: Option<String>,
}

impl DmCache {
    /// The cache mode its features say (`writethrough` when none is given).
    pub fn mode(&self) -> String {
        for m in ["writeback", "writethrough", "passthrough"] {
            if self.features.iter().any(|f| f == m) {
                return m.to_string();
            }
        }
        "writethrough".into()
    }

    /// Its counters (dm-cache counts bios; promotions and demotions in cache blocks).
    pub fn stats(&self) -> Vec<Stat> {
        let block = self.cache_block_sectors as f64 * 512.0;
        let c = "cumulative";
        vec![
            Stat::new("read_hits", self.read_hits as f64, "bios", c),
            Stat::new("read_misses", self.read_misses as f64, "bios", c),
            Stat::new("write_hits", self.write_hits as f64, "bios", c),
            Stat::new("write_misses", self.write_misses as f64, "bios", c),
            Stat::new("promotions", self.promotions as f64, "cache-blocks", c),
            Stat::new("demotions", self.demotions as f64, "cache-blocks", c),
            Stat::new("promoted_bytes", self.promotions as f64 * block, "bytes", c),
            Stat::new("dirty_bytes", self.dirty as f64 * block, "bytes", "current"),
            Stat::new(
                "cache_used_bytes",
                self.cache_used as f64 * block,
                "bytes",
                "current",
            ),
            Stat::new(
                "cache_total_bytes",
                self.cache_total as f64 * block,
                "bytes",
                "current",
            ),
            Stat::new("cache_block_bytes", block, "bytes", "current"),
        ]
    }
}

/// Parse one `dmsetup status` line of a cache target.
pub fn dmsetup_cache(line: &str) -> Result<DmCache, String> {
    let line = line.trim();
    let (name, rest) = match line.split_once(": ") {
        Some((n, r)) if !n.contains(' ') => (Some(n.to_string()), r),
        _ => (None, line),
    };
    let w: Vec<&str> = rest.split_whitespace().collect();
    if w.get(2) != Some(&"cache") {
        return Err(format!(
            "not a dm-cache status line (its target is '{}', not 'cache')",
            w.get(2).unwrap_or(&"")
        ));
    }
    let num = |i: usize, what: &str| -> Result<u64, String> {
        w.get(i)
            .ok_or_else(|| format!("the line ends before field {} ({what})", i + 1))?
            .parse::<u64>()
            .map_err(|_| format!("field {} ({what}) is '{}', not a number", i + 1, w[i]))
    };
    let pair = |i: usize, what: &str| -> Result<(u64, u64), String> {
        let s = w
            .get(i)
            .ok_or_else(|| format!("the line ends before field {} ({what})", i + 1))?;
        let (a, b) = s
            .split_once('/')
            .ok_or_else(|| format!("field {} ({what}) is '{s}', not used/total", i + 1))?;
        Ok((
            a.parse()
                .map_err(|_| format!("field {} ({what}) is '{s}'", i + 1))?,
            b.parse()
                .map_err(|_| format!("field {} ({what}) is '{s}'", i + 1))?,
        ))
    };
    // In the kernel's field order, so an error names the first bad field.
    let metadata_block_sectors = num(3, "metadata block size")?;
    let (metadata_used, metadata_total) = pair(4, "metadata blocks used/total")?;
    let cache_block_sectors = num(5, "cache block size")?;
    let (cache_used, cache_total) = pair(6, "cache blocks used/total")?;
    let read_hits = num(7, "read hits")?;
    let read_misses = num(8, "read misses")?;
    let write_hits = num(9, "write hits")?;
    let write_misses = num(10, "write misses")?;
    let demotions = num(11, "demotions")?;
    let promotions = num(12, "promotions")?;
    let dirty = num(13, "dirty blocks")?;
    let nfeat = num(14, "number of features")? as usize;
    let features: Vec<String> = w
        .iter()
        .skip(15)
        .take(nfeat)
        .map(|s| s.to_string())
        .collect();
    if features.len() < nfeat {
        return Err(format!("the line ends inside its {nfeat} features"));
    }
    let core_at = 15 + nfeat;
    let policy = num(core_at, "number of core arguments")
        .ok()
        .and_then(|n| w.get(core_at + 1 + n as usize))
        .map(|s| s.to_string());
    Ok(DmCache {
        name,
        metadata_block_sectors,
        metadata_used,
        metadata_total,
        cache_block_sectors,
        cache_used,
        cache_total,
        read_hits,
        read_misses,
        write_hits,
        write_misses,
        demotions,
        promotions,
        dirty,
        features,
        policy,
    })
}

/// `casadm -P` output, either format: its rows as (name, count, unit) and its settings (the
/// key/value lines before the tables, or the CSV's text columns).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Casadm {
    pub rows: Vec<(String, f64, String)>,
    pub settings: Vec<(String, String)>,
}

impl Casadm {
    /// The count of row `name` (as printed, case-insensitive).
    pub fn get(&self, name: &str) -> Option<f64> {
        self.rows
            .iter()
            .find(|r| r.0.eq_ignore_ascii_case(name))
            .map(|r| r.1)
    }

    /// A setting (`Write Policy`, `Cache Mode`, …).
    pub fn setting(&self, name: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|r| r.0.eq_ignore_ascii_case(name))
            .map(|r| r.1.as_str())
    }

    /// The cache mode (`wt`, `wb`, `wa`, `pt`, `wo`).
    pub fn mode(&self) -> Option<String> {
        self.setting("Cache Mode")
            .or_else(|| self.setting("Write Policy"))
            .map(|s| s.split_whitespace().next().unwrap_or("").to_lowercase())
    }

    /// Every counter, named in snake case; 4 KiB block counts become bytes (`…_bytes`).
    pub fn stats(&self) -> Vec<Stat> {
        let mut out = Vec::new();
        for (name, v, unit) in &self.rows {
            let slug = slug(name);
            let u = unit.to_lowercase();
            let window = if ["occupancy", "free", "clean", "dirty"].contains(&slug.as_str()) {
                "current"
            } else {
                "cumulative"
            };
            if u.contains("4kib block") {
                out.push(Stat::new(
                    &format!("{slug}_bytes"),
                    v * 4096.0,
                    "bytes",
                    window,
                ));
            } else if u == "requests" {
                out.push(Stat::new(&slug, *v, "requests", window));
            } else if u != "%" {
                out.push(Stat::new(&slug, *v, &u, window));
            }
        }
        out
    }
}

/// `Read partial misses` → `read_partial_misses`.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// Parse `casadm -P` in its table or CSV form.
pub fn casadm(text: &str) -> Result<Casadm, String> {
    let text = text.trim_start_matches('\u{feff}');
    if text.contains('║') {
        return Ok(casadm_table(text));
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().ok_or("empty output")?;
    let row = lines.next().ok_or("a CSV header without a row of values")?;
    let h: Vec<&str> = header.split(',').collect();
    let v: Vec<&str> = row.split(',').collect();
    if h.len() != v.len() || h.len() < 2 {
        return Err(format!(
            "the CSV header has {} columns and its first row {}",
            h.len(),
            v.len()
        ));
    }
    let mut c = Casadm::default();
    for (k, val) in h.iter().zip(&v) {
        let k = k.trim();
        let val = val.trim();
        let (name, unit) = match k.rsplit_once('[') {
            Some((n, u)) if u.ends_with(']') => (n.trim(), u.trim_end_matches(']').trim()),
            _ => (k, ""),
        };
        match val.parse::<f64>() {
            Ok(x) if !unit.is_empty() => c.rows.push((name.to_string(), x, unit.to_string())),
            _ => c.settings.push((name.to_string(), val.to_string())),
        }
    }
    Ok(c)
}

fn casadm_table(text: &str) -> Casadm {
    let mut c = Casadm::default();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('║') {
            let cells: Vec<&str> = t.trim_matches('║').split('│').map(|x| x.trim()).collect();
            if cells.len() == 4 {
                if let Ok(x) = cells[1].parse::<f64>() {
                    c.rows.push((cells[0].to_string(), x, cells[3].to_string()));
                }
            }
        } else if !t.is_empty() && !t.starts_with(['╔', '╚', '╟', '╠']) {
            // Preamble: a name, then spaces or tabs, then the value.
            let t = t.replace('\t', "  ");
            if let Some(i) = t.find("  ") {
                c.settings
                    .push((t[..i].trim().to_string(), t[i..].trim().to_string()));
            }
        }
    }
    c
}

/// `name value [unit]` or `name=value` or `name: value` lines: numbers become counters
/// (`count`, or the unit given), the `mode` line the engine's mode.
pub fn key_value(text: &str) -> (Option<String>, Vec<Stat>) {
    let mut mode = None;
    let mut stats = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (k, rest) = match l.find(['=', ':']) {
            Some(i) => (&l[..i], l[i + 1..].trim()),
            None => match l.split_once(char::is_whitespace) {
                Some((k, r)) => (k, r.trim()),
                None => continue,
            },
        };
        let k = slug(k);
        if k == "mode" {
            mode = Some(rest.to_string());
            continue;
        }
        let mut w = rest.split_whitespace();
        if let Some(Ok(v)) = w.next().map(str::parse::<f64>) {
            let unit = w.next().unwrap_or("count");
            stats.push(Stat::new(&k, v, unit, "cumulative"));
        }
    }
    (mode, stats)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn bcache_sizes() {
        assert_eq!(hprint("512"), Some(512.0));
        assert_eq!(hprint("1.5k"), Some(1536.0));
        assert_eq!(hprint("2.0G"), Some(2.0 * 1024f64.powi(3)));
        assert_eq!(hprint("12x"), None);
        assert_eq!(
            bracketed("writethrough [writeback] writearound none").as_deref(),
            Some("writeback")
        );
    }

    #[test]
    fn dmsetup_fields_in_their_order() {
        let l = "vg-lv: 0 2048 cache 8 27/2048 128 3/16 5 6 7 8 1 2 3 2 metadata2 writeback 2 migration_threshold 2048 smq 0 rw -";
        let d = dmsetup_cache(l).unwrap();
        assert_eq!(d.name.as_deref(), Some("vg-lv"));
        assert_eq!(
            (d.read_hits, d.read_misses, d.write_hits, d.write_misses),
            (5, 6, 7, 8)
        );
        assert_eq!((d.demotions, d.promotions, d.dirty), (1, 2, 3));
        assert_eq!(d.mode(), "writeback");
        assert_eq!(d.policy.as_deref(), Some("smq"));
        let e = dmsetup_cache("vg-lv: 0 2048 linear 8:1 0").unwrap_err();
        assert!(e.contains("not 'cache'"), "{e}");
        let e = dmsetup_cache("0 2048 cache 8 27/2048 128 3/16 5 x").unwrap_err();
        assert!(e.contains("field 9 (read misses)"), "{e}");
    }

    #[test]
    fn key_value_lines() {
        let (m, s) = key_value("mode: on\nread_hits 10\nread misses=4\ndirty 4096 bytes\n");
        assert_eq!(m.as_deref(), Some("on"));
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].name, "read_misses");
        assert_eq!((s[2].value, s[2].unit.as_str()), (4096.0, "bytes"));
    }
}
