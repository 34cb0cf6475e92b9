//! Parser of `/proc/diskstats`.
//!
//! Kernel facts (Documentation/admin-guide/iostats.rst and Documentation/block/stat.rst):
//! each line is `major minor name` followed by the statistics fields. The number of fields
//! depends on the kernel: 11 fields up to 4.17; 15 since 4.18 (discards, fields 12–15);
//! 17 since 5.5 (flushes, fields 16–17). Kernels 2.6.0–2.6.24 printed only 4 fields for
//! partitions (reads issued, sectors read, writes issued, sectors written). Field 9 (I/Os
//! currently in progress) is a gauge, every other field a cumulative counter that restarts
//! when the device is created and wraps at the width of the kernel type. Sectors are always
//! 512 bytes here, whatever the device's sector size (block/stat.rst: "standard UNIX 512-byte
//! sectors"). Names may contain '/' (e.g. `cciss/c0d0`).

use crate::error::{ProbeError, Result};

/// One device line as read, before any interpretation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskLine {
    /// Major device number.
    pub major: u32,
    /// Minor device number.
    pub minor: u32,
    /// Kernel name as printed (may contain '/').
    pub name: String,
    /// The statistics fields after the name, as read.
    pub fields: Vec<u64>,
}

/// Canonical counters of one device at one moment. Absent fields are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    pub reads: u64,
    pub read_merges: Option<u64>,
    pub read_sectors: u64,
    pub read_ms: Option<u64>,
    pub writes: u64,
    pub write_merges: Option<u64>,
    pub write_sectors: u64,
    pub write_ms: Option<u64>,
    /// Field 9: a gauge, not a counter.
    pub in_flight: Option<u64>,
    pub io_ticks_ms: Option<u64>,
    pub weighted_ms: Option<u64>,
    pub discards: Option<u64>,
    pub discard_merges: Option<u64>,
    pub discard_sectors: Option<u64>,
    pub discard_ms: Option<u64>,
    pub flushes: Option<u64>,
    pub flush_ms: Option<u64>,
}

impl DiskLine {
    /// Interpret the fields by layout. 4 fields: the old partition layout. 11 or more: the
    /// 11-field layout, plus discards when at least 15 are present and flushes when at least 17
    /// are present (like sysstat, a count between the known layouts uses the largest layout that
    /// fits; the raw fields are kept as read).
    pub fn counters(&self) -> Counters {
        counters_from_fields(&self.fields)
    }
}

/// See [`DiskLine::counters`]. `f` must hold 4 or at least 11 values (the parser ensures it).
pub fn counters_from_fields(f: &[u64]) -> Counters {
    let g = |i: usize| f.get(i).copied();
    if f.len() < 11 {
        // 2.6.0–2.6.24 partition layout: reads, sectors read, writes, sectors written.
        return Counters {
            reads: g(0).unwrap_or(0),
            read_sectors: g(1).unwrap_or(0),
            writes: g(2).unwrap_or(0),
            write_sectors: g(3).unwrap_or(0),
            ..Counters::default()
        };
    }
    let has_discard = f.len() >= 15;
    let has_flush = f.len() >= 17;
    Counters {
        reads: f[0],
        read_merges: Some(f[1]),
        read_sectors: f[2],
        read_ms: Some(f[3]),
        writes: f[4],
        write_merges: Some(f[5]),
        write_sectors: f[6],
        write_ms: Some(f[7]),
        in_flight: Some(f[8]),
        io_ticks_ms: Some(f[9]),
        weighted_ms: Some(f[10]),
        discards: if has_discard { g(11) } else { None },
        discard_merges: if has_discard { g(12) } else { None },
        discard_sectors: if has_discard { g(13) } else { None },
        discard_ms: if has_discard { g(14) } else { None },
        flushes: if has_flush { g(15) } else { None },
        flush_ms: if has_flush { g(16) } else { None },
    }
}

/// Parse the whole text of /proc/diskstats. Blank lines are skipped; any other line that does
/// not parse is an error naming the line (never silently dropped).
pub fn parse(text: &str) -> Result<Vec<DiskLine>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let mut tok = line.split_ascii_whitespace();
        let Some(major) = tok.next() else { continue };
        let err = |m: String| ProbeError::Parse {
            line: lineno,
            message: m,
        };
        let major: u32 = major
            .parse()
            .map_err(|_| err(format!("major number '{major}' is not a number")))?;
        let minor_s = tok.next().ok_or_else(|| err("no minor number".into()))?;
        let minor: u32 = minor_s
            .parse()
            .map_err(|_| err(format!("minor number '{minor_s}' is not a number")))?;
        let name = tok.next().ok_or_else(|| err("no device name".into()))?;
        let mut fields = Vec::with_capacity(17);
        for t in tok {
            fields.push(
                t.parse::<u64>()
                    .map_err(|_| err(format!("field '{t}' of {name} is not a number")))?,
            );
        }
        let n = fields.len();
        if n != 4 && n < 11 {
            return Err(err(format!(
                "{name} has {n} fields; known layouts have 4, 11, 15 or 17"
            )));
        }
        out.push(DiskLine {
            major,
            minor,
            name: name.to_string(),
            fields,
        });
    }
    Ok(out)
}

/// Read and parse `<root>/proc/diskstats` (root is `/` on a live system, a fixture root in tests).
pub fn read_root(root: &std::path::Path) -> Result<Vec<DiskLine>> {
    let p = root.join("proc/diskstats");
    let text = std::fs::read_to_string(&p)
        .map_err(|e| ProbeError::io(format!("reading {}", p.display()), e))?;
    parse(&text)
}

/// `<root>/proc/diskstats` kept open for a recording: each read takes the whole file from offset
/// 0 with `pread` into a buffer kept between reads, so a sample opens no file and allocates no
/// text. The file is a seq_file: a read at offset 0 starts a new pass over the devices, and each
/// read from where the last one ended continues that pass line by line, as `read` would.
pub struct Reader {
    path: std::path::PathBuf,
    file: Option<std::fs::File>,
    buf: Vec<u8>,
}

impl Reader {
    /// A reader of `<root>/proc/diskstats`; the file is opened at the first read.
    pub fn new(root: &std::path::Path) -> Reader {
        Reader {
            path: root.join("proc/diskstats"),
            file: None,
            buf: vec![0; 8192],
        }
    }

    /// Read and parse the file, as [`read_root`] does.
    pub fn read(&mut self) -> Result<Vec<DiskLine>> {
        let n = self.read_text().map_err(|e| {
            self.file = None;
            ProbeError::io(format!("reading {}", self.path.display()), e)
        })?;
        let text = std::str::from_utf8(&self.buf[..n]).map_err(|e| {
            ProbeError::io(
                format!("reading {}", self.path.display()),
                std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            )
        })?;
        parse(text)
    }

    /// The whole file into `buf` (grown when it is full); returns its length.
    fn read_text(&mut self) -> std::io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let file = match &self.file {
            Some(f) => f,
            None => self.file.insert(std::fs::File::open(&self.path)?),
        };
        let mut n = 0;
        loop {
            if n == self.buf.len() {
                self.buf.resize(n * 2, 0);
            }
            match file.read_at(&mut self.buf[n..], n as u64) {
                Ok(0) => return Ok(n),
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn layouts_and_slash_names() {
        let text = "   8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n\
                    8 1 sda1 10 20 30 40\n\
                    104 0 cciss/c0d0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
                    259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n\n";
        let v = parse(text).unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(v[1].counters().write_sectors, 40);
        assert_eq!(v[1].counters().read_ms, None);
        assert_eq!(v[2].name, "cciss/c0d0");
        assert_eq!(v[2].counters().discard_ms, Some(15));
        assert_eq!(v[2].counters().flushes, None);
        assert_eq!(v[3].counters().flush_ms, Some(17));
        assert_eq!(v[0].counters().in_flight, Some(9));
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(parse("8 0 sda 1 2 3\n").is_err());
        assert!(parse("8 0 sda 1 2 x 4\n").is_err());
        assert!(parse("x 0 sda 1 2 3 4\n").is_err());
    }

    #[test]
    fn the_reader_reads_what_read_root_reads_again_and_again() {
        let root = std::env::temp_dir().join(format!("diskstats-reader-{}", std::process::id()));
        std::fs::create_dir_all(root.join("proc")).unwrap();
        // Longer than the reader's first buffer: it grows, and every pass starts again at 0.
        let line = "259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n";
        std::fs::write(root.join("proc/diskstats"), line.repeat(400)).unwrap();
        let mut r = Reader::new(&root);
        for _ in 0..3 {
            assert_eq!(r.read().unwrap(), read_root(&root).unwrap());
        }
        assert_eq!(r.read().unwrap().len(), 400);
        std::fs::remove_dir_all(&root).unwrap();
        assert!(Reader::new(&root).read().is_err());
    }
}
