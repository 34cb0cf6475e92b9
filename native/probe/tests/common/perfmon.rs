//! Synthetic PerfMon logs in the real Data Collector Set header form (`"(PDH-CSV 4.0) (ZONE)(BIAS)"`,
//! `\\HOST\Object(Instance)\Counter` columns, MM/DD/YYYY times, a blank first row), for the tests
//! of what is imported from a Windows server's log.
#![allow(dead_code)]

/// One log: `rows` rows `step_s` apart from `start` (UTC epoch seconds; the zone's bias is 0).
/// The disks (`PhysicalDisk(0 C:)` and `LogicalDisk(C:)`, one layer) do `reads`/`writes` per
/// second; `Process(_Total)` does `work` I/O requests per second (a quarter of them writes) and
/// SQL Server `batches` per second.
pub struct Log {
    pub start: i64,
    pub rows: usize,
    pub step_s: i64,
    pub reads: f64,
    pub writes: f64,
    pub work: f64,
    pub batches: f64,
}

const HOST: &str = "\\\\SQL01";

fn time(epoch: i64) -> String {
    let days = epoch.div_euclid(86_400);
    let sod = epoch.rem_euclid(86_400);
    // civil from days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{m:02}/{d:02}/{y} {:02}:{:02}:{:02}.000",
        sod / 3600,
        sod % 3600 / 60,
        sod % 60
    )
}

impl Log {
    /// The log's text.
    pub fn text(&self) -> String {
        let mut cols: Vec<String> = Vec::new();
        for obj in ["PhysicalDisk(0 C:)", "LogicalDisk(C:)"] {
            for c in [
                "Disk Reads/sec",
                "Disk Writes/sec",
                "Avg. Disk sec/Read",
                "Avg. Disk sec/Write",
                "% Idle Time",
            ] {
                cols.push(format!("{HOST}\\{obj}\\{c}"));
            }
        }
        for c in [
            "IO Data Operations/sec",
            "IO Read Operations/sec",
            "IO Write Operations/sec",
            "% Processor Time",
        ] {
            cols.push(format!("{HOST}\\Process(_Total)\\{c}"));
        }
        cols.push(format!(
            "{HOST}\\SQLServer:SQL Statistics\\Batch Requests/sec"
        ));
        let mut out = format!(
            "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",{}\r\n",
            cols.iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(",")
        );
        for i in 0..self.rows {
            let t = time(self.start + i as i64 * self.step_s);
            let vals: Vec<String> = if i == 0 {
                vec![" ".to_string(); cols.len()]
            } else {
                let disk = [self.reads, self.writes, 0.004, 0.006, 60.0];
                let w = [self.work, self.work * 0.75, self.work * 0.25, 12.5];
                disk.iter()
                    .chain(disk.iter())
                    .chain(w.iter())
                    .chain([self.batches].iter())
                    .map(|v| format!("{v}"))
                    .collect()
            };
            out.push_str(&format!(
                "\"{t}\",{}\r\n",
                vals.iter()
                    .map(|v| format!("\"{v}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        out
    }
}

/// A before/after pair, each 30 minutes of 15 s rows a day apart: the disks fall from 60 + 40 to
/// 52.8 + 35.2 I/O per second (12 %), the process's I/O requests go from 200 to `200 × work_after`
/// per second and SQL Server's batches from 20 to `20 × work_after`.
pub fn pair(work_after: f64) -> (Log, Log) {
    let base = Log {
        start: 1_793_527_200, // 2026-11-01 10:00:00 UTC
        rows: 121,
        step_s: 15,
        reads: 60.0,
        writes: 40.0,
        work: 200.0,
        batches: 20.0,
    };
    let after = Log {
        start: base.start + 86_400,
        reads: 52.8,
        writes: 35.2,
        work: 200.0 * work_after,
        batches: 20.0 * work_after,
        ..base
    };
    (base, after)
}
