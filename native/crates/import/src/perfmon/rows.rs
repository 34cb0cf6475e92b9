//! The data rows of a log: each row's time and mapped values, on two threads for a large log.

use super::{split_ranges, Col, Field};
use crate::error::Result;
use crate::time::{self, DateOrder};
use crate::{bad, num, Rates, Sample};

/// What every data row of a log is parsed with.
pub(super) struct Rows<'a> {
    pub(super) file: &'a str,
    pub(super) delim: char,
    pub(super) ncols: usize,
    pub(super) order: DateOrder,
    /// The source's local time − UTC, minutes.
    pub(super) off: i64,
    /// Mapped columns (index, what they feed).
    pub(super) mapped: Vec<(usize, Col)>,
    pub(super) ndev: usize,
}

/// Rows from which a log is parsed on two threads (a half each).
pub(super) const PARALLEL_ROWS: usize = 20_000;

impl Rows<'_> {
    /// The samples of the data rows `(line, text)`, in order: on two threads for a large log, each
    /// half exactly as one pass would read it (the second half starts from the time of the
    /// first half's last row, so that the same row is refused with the same sentence).
    pub(super) fn parse(&self, data: &[(usize, &str)]) -> Result<Vec<Sample>> {
        if data.len() >= PARALLEL_ROWS {
            let mid = data.len() / 2;
            let (ln, l) = data[mid - 1];
            let mut rg = Vec::new();
            if let Ok(t) = self.time_of(ln, l, &mut rg) {
                let (a, b) = std::thread::scope(|sc| {
                    let second = sc.spawn(|| self.chunk(&data[mid..], Some(t)));
                    let first = self.chunk(&data[..mid], None);
                    (first, second.join())
                });
                let mut a = a?;
                // a panic of the second half is a bug: it propagates as one of this thread would
                a.extend(b.unwrap_or_else(|p| std::panic::resume_unwind(p))?);
                return Ok(a);
            }
        }
        self.chunk(data, None)
    }

    /// Split a row into `rg` and check its column count.
    fn split(&self, ln: usize, l: &str, rg: &mut Vec<(usize, usize)>) -> Result<()> {
        let nf = split_ranges(l, self.delim, rg)
            .map_err(|(c, m)| bad(self.file, Some(ln), Some(c), m))?;
        if nf != self.ncols {
            let ncols = self.ncols;
            return Err(bad(
                self.file,
                Some(ln),
                Some(nf.min(ncols) + usize::from(nf < ncols)),
                format!(
                    "{nf} columns where the header has {ncols} (the line is cut off, or the file was edited)"
                ),
            ));
        }
        Ok(())
    }

    /// A row's time (UTC ms), after [`Rows::split`] into `rg`.
    fn time_at(&self, ln: usize, l: &str, rg: &[(usize, usize)]) -> Result<i64> {
        let cell = l[rg[0].0..rg[0].1].trim();
        let (d, t) = cell.split_once(' ').unwrap_or((cell, ""));
        match (time::parse_date(d, self.order), time::parse_time(t)) {
            (Some(d), Some(t)) => Ok(time::to_utc_ms(d, t, self.off)),
            _ => Err(bad(
                self.file,
                Some(ln),
                Some(1),
                format!("'{cell}' is not a time (expected MM/DD/YYYY HH:MM:SS.mmm)"),
            )),
        }
    }

    pub(super) fn time_of(&self, ln: usize, l: &str, rg: &mut Vec<(usize, usize)>) -> Result<i64> {
        self.split(ln, l, rg)?;
        self.time_at(ln, l, rg)
    }

    /// One pass over rows; `prev`: the time of the row before the first.
    pub(super) fn chunk(
        &self,
        data: &[(usize, &str)],
        mut prev: Option<i64>,
    ) -> Result<Vec<Sample>> {
        let file = self.file;
        let mut out = Vec::with_capacity(data.len());
        // one row at a time, split into field ranges reused for every row: a log of any length is
        // read with the memory of its samples, not of its text split into strings
        let mut rg: Vec<(usize, usize)> = Vec::with_capacity(self.ncols);
        for &(ln, l) in data {
            self.split(ln, l, &mut rg)?;
            let f = |k: usize| &l[rg[k].0..rg[k].1];
            let utc = self.time_at(ln, l, &rg)?;
            if let Some(pv) = prev {
                if utc <= pv {
                    return Err(bad(
                        file,
                        Some(ln),
                        Some(1),
                        format!(
                            "the time {} is not after the row above ({}): times must increase",
                            f(0).trim(),
                            time::iso(pv)
                        ),
                    ));
                }
            }
            prev = Some(utc);
            let mut rates = vec![Rates::default(); self.ndev];
            let mut rq = vec![(None, None); self.ndev];
            let mut pct: Vec<Option<f64>> = vec![None; self.ndev];
            for (ci, c) in &self.mapped {
                let ci = *ci;
                let v = num(f(ci)).map_err(|_| {
                    bad(
                        file,
                        Some(ln),
                        Some(ci + 1),
                        format!("'{}' is not a number", f(ci).trim()),
                    )
                })?;
                let Some(v) = v.map(|v| v * c.factor) else {
                    continue;
                };
                if v < 0.0 {
                    continue; // PDH writes -1 for a counter it could not read
                }
                let r = &mut rates[c.dev];
                match c.field {
                    Field::Reads => r.reads_per_s = Some(v),
                    Field::Writes => r.writes_per_s = Some(v),
                    Field::ReadBytes => r.read_bytes_per_s = Some(v),
                    Field::WriteBytes => r.write_bytes_per_s = Some(v),
                    Field::ReadSec => r.read_ms_per_io = Some(v * 1000.0),
                    Field::WriteSec => r.write_ms_per_io = Some(v * 1000.0),
                    Field::IdlePct => r.busy_frac = Some((1.0 - v / 100.0).clamp(0.0, 1.0)),
                    Field::Queue => r.queue_avg = Some(v),
                    Field::ReadQueue => rq[c.dev].0 = Some(v),
                    Field::WriteQueue => rq[c.dev].1 = Some(v),
                    Field::QueueNow => r.in_flight = Some(v),
                    Field::DiskTimePct => pct[c.dev] = Some(v / 100.0),
                    Field::FreePct | Field::FreeMb | Field::Other => {}
                }
            }
            out.push(Sample {
                utc_ms: utc,
                line: ln,
                rates: rates
                    .into_iter()
                    .zip(rq)
                    .zip(pct)
                    .map(|((mut r, q), pct)| {
                        if r.queue_avg.is_none() {
                            if let (Some(a), Some(b)) = q {
                                r.queue_avg = Some(a + b);
                            }
                        }
                        // % Disk Time is the same queue × 100: used only when no queue counter is
                        r.queue_avg = r.queue_avg.or(pct);
                        (!r.is_empty()).then_some(r)
                    })
                    .collect(),
                snap: None,
            });
        }
        Ok(out)
    }
}
