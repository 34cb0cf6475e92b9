//! `import-trace tracerpt`: no real `tracerpt -of CSV` export of DiskIo events was found in
//! public repositories, so these files are synthetic, written in the layout Microsoft documents
//! (the CSV header of `tracerpt`, the DiskIo_TypeGroup1/2/3 MOF field order). 70,000 requests
//! with their Init events round-trip exactly, with `,` separators and hex offsets and with `;`
//! separators and `.`-grouped decimal integers; request counts, bytes and mean service time per
//! type equal what this test computes from the file's own lines; bad lines are named.

use super::synthetic::{check, gen, group, want, G};
use super::{err, import, ok, rows, Row};
use crate::common::{probe, TempDir};
use rusqlite::Connection;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

const HEAD: &str = "Event Name, Type, Event ID, Version, Channel, Level, Opcode, Task, Keyword, PID, TID, Processor Number, Instance ID, Parent Instance ID, Activity ID, Related Activity ID, Clock-Time, Kernel(ms), User(ms), User Data";
/// 2024-01-01T00:00:00Z as a FILETIME (100 ns since 1601).
const ORIGIN: i64 = 133_485_408_000_000_000;

/// One tracerpt line: the fixed columns then `user` (User Data), joined by `sep`.
fn line(sep: &str, kind: &str, id: u32, clock: i64, user: &[String]) -> String {
    let fixed = [
        format!("{:>18}", "DiskIo"),
        format!("{kind:>14}"),
        id.to_string(),
        "2".into(),
        "0".into(),
        "0".into(),
        id.to_string(),
        "0".into(),
        "0x0000000000000000".into(),
        "0x00000004".into(),
        "0x00000088".into(),
        "3".into(),
        String::new(),
        String::new(),
        "{00000000-0000-0000-0000-000000000000}".into(),
        String::new(),
        clock.to_string(),
        "0".into(),
        "0".into(),
    ];
    let mut v: Vec<String> = fixed.to_vec();
    v.extend(user.iter().cloned());
    v.join(&format!("{sep} "))
}

/// The export of `g` (times in 100 ns): each request's Init event at its issue (if `init`), its
/// completion event at its end, all in time order as tracerpt dumps them; HighResResponseTime
/// in the ticks of a 10 MHz QueryPerformanceCounter.
fn export(
    g: &[G],
    sep: &str,
    num: &dyn Fn(u64) -> String,
    off: &dyn Fn(u64) -> String,
    init: bool,
) -> String {
    let mut ev: Vec<(i64, usize, bool)> = Vec::new();
    for (i, r) in g.iter().enumerate() {
        if init {
            ev.push((r.issue_ns, i, true));
        }
        ev.push((r.done_ns, i, false));
    }
    ev.sort();
    let mut t = HEAD.replace(", ", &format!("{sep} ")) + "\n";
    let header = format!("{:>18}{sep} {:>14}{sep} 0{sep} 2{sep} 0{sep} 0{sep} 0{sep} 0{sep} 0x0{sep} 0x4{sep} 0x8{sep} 0{sep} {sep} {sep} {{0}}{sep} {sep} {ORIGIN}{sep} 0{sep} 0{sep} 65536{sep} 1{sep} 2{sep} 8", "EventTrace", "Header");
    writeln!(t, "{header}").unwrap();
    for (ns, i, init) in ev {
        let r = &g[i];
        let clock = ORIGIN + ns / 100;
        let ticks = num(((r.done_ns - r.issue_ns) / 100) as u64);
        let irp = format!("0xFFFFFA80{:08X}", i * 16);
        let l = match (init, r.op) {
            (true, Some(o)) => line(
                sep,
                &format!("{o}Init"),
                if o == "Read" { 12 } else { 13 },
                clock,
                &[irp, "2104".into()],
            ),
            (true, None) => line(sep, "FlushInit", 15, clock, &[irp, "2104".into()]),
            (false, Some(o)) => line(
                sep,
                o,
                if o == "Read" { 10 } else { 11 },
                clock,
                &[
                    num(r.disk.into()),
                    "0x00060043".into(),
                    num(r.bytes),
                    "0".into(),
                    off(r.off),
                    "0xFFFFFA8004ED5070".into(),
                    irp,
                    ticks.clone(),
                    "2104".into(),
                ],
            ),
            (false, None) => line(
                sep,
                "FlushBuffers",
                14,
                clock,
                &[
                    num(r.disk.into()),
                    "0x00000000".into(),
                    ticks.clone(),
                    irp,
                    "1".into(),
                ],
            ),
        };
        writeln!(t, "{l}").unwrap();
    }
    t
}

#[test]
fn tracerpt_comma_hex_70k_round_trips() {
    let g = gen(100);
    let t = export(
        &g,
        ",",
        &|v| v.to_string(),
        &|o| format!("0x{o:016X}"),
        true,
    );
    check("tracerpt", t, &g, "FlushBuffers", &|o| o.to_string());
}

#[test]
fn tracerpt_semicolon_grouped_70k_round_trips() {
    let g = gen(100);
    let t = export(&g, ";", &|v| group(v, "."), &|o| group(o, "."), true);
    check("tracerpt", t, &g, "FlushBuffers", &|o| o.to_string());
}

/// Per type: (count, bytes, mean service time ns), from the export's own lines.
fn from_file(text: &str) -> BTreeMap<String, (u64, i128, f64)> {
    let mut init: HashMap<String, i128> = HashMap::new();
    let mut acc: BTreeMap<String, (u64, i128, i128)> = BTreeMap::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').map(str::trim).collect();
        if f[0] != "DiskIo" {
            continue;
        }
        let clock: i128 = f[16].parse().unwrap();
        let u = &f[19..];
        match f[1] {
            k if k.ends_with("Init") => {
                init.insert(u[0].to_string(), clock);
            }
            k => {
                let (irp, bytes) = if k == "FlushBuffers" {
                    (u[3], 0)
                } else {
                    (u[6], u[2].parse().unwrap())
                };
                let op = if k == "FlushBuffers" { "F" } else { &k[..1] };
                let e = acc.entry(op.into()).or_default();
                e.0 += 1;
                e.1 += bytes;
                e.2 += (clock - init[irp]) * 100;
            }
        }
    }
    acc.into_iter()
        .map(|(k, (n, b, s))| (k, (n, b, s as f64 / n as f64)))
        .collect()
}

#[test]
fn tracerpt_counts_bytes_and_service_time_per_type_are_the_files() {
    let g: Vec<G> = gen(100).into_iter().take(5_000).collect();
    let t = export(&g, ",", &|v| v.to_string(), &|o| format!("0x{o:X}"), true);
    let d = TempDir::new("tracerpt-agg");
    let (f, out) = (d.join("out.csv"), d.join("t.capture"));
    std::fs::write(&f, &t).unwrap();
    ok(&import("tracerpt", &f, &out));
    let c = Connection::open(&out).unwrap();
    let mut q = c.prepare("SELECT op, COUNT(*), SUM(bytes), AVG(complete_ns - issue_ns) FROM block_requests GROUP BY op ORDER BY op").unwrap();
    let got: BTreeMap<String, (u64, i128, f64)> = q
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (
                    r.get::<_, i64>(1)? as u64,
                    i128::from(r.get::<_, i64>(2)?),
                    r.get::<_, f64>(3)?,
                ),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let want = from_file(&t);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (k, (n, b, mean)) in &want {
        let (gn, gb, gm) = got[k];
        assert_eq!((gn, gb), (*n, *b), "{k}");
        assert!(
            (gm - mean).abs() < 1e-3,
            "{k}: mean {gm} vs the file's {mean}"
        );
    }
}

#[test]
fn tracerpt_bad_lines_are_named() {
    let d = TempDir::new("tracerpt-bad");
    let f = d.join("bad.csv");
    let fs = f.display().to_string();
    let rw = |kind: &str, clock: i64, size: &str, irp: &str| {
        line(
            ",",
            kind,
            10,
            clock,
            &[
                "0".into(),
                "0x0".into(),
                size.into(),
                "0".into(),
                "0x1000".into(),
                "0x0".into(),
                irp.into(),
                "9".into(),
                "1".into(),
            ],
        )
    };
    let init = |clock: i64, irp: &str| line(",", "ReadInit", 12, clock, &[irp.into(), "1".into()]);
    // Line 3: a size that is no number; line 4: a completion without its Init event.
    let text = [
        HEAD.to_string(),
        init(ORIGIN, "0xA"),
        rw("Read", ORIGIN + 10, "4x96", "0xA"),
        rw("Read", ORIGIN + 20, "4096", "0xB"),
        init(ORIGIN + 30, "0xC"),
        rw("Read", ORIGIN + 40, "4096", "0xC"),
    ]
    .join("\n");
    std::fs::write(&f, text).unwrap();
    let o = import("tracerpt", &f, &d.join("a.capture"));
    ok(&o);
    let e = err(&o);
    assert!(
        e.contains(&format!("skipped 2 of 3 records of {fs}")),
        "{e}"
    );
    assert!(
        e.contains("line 3, column TransferSize: '4x96' is not a number"),
        "{e}"
    );
    assert!(e.contains("line 4, column Irp: no DiskIo ReadInit/WriteInit/FlushInit event before it with Irp 0xB"), "{e}");
    // No header line: refused, naming the file.
    std::fs::write(&f, "DiskIo, Read, 10\n").unwrap();
    let o = import("tracerpt", &f, &d.join("b.capture"));
    assert_eq!(o.status.code(), Some(12));
    assert!(
        err(&o).contains(&format!("{fs}:1: no tracerpt header line")),
        "{}",
        err(&o)
    );
}

#[test]
fn tracerpt_without_init_events_needs_the_qpc_frequency() {
    let g: Vec<G> = gen(100).into_iter().take(3_000).collect();
    let t = export(&g, ",", &|v| v.to_string(), &|o| format!("0x{o:X}"), false);
    let d = TempDir::new("tracerpt-qpc");
    let f = d.join("out.csv");
    std::fs::write(&f, &t).unwrap();
    // No init event and no frequency: nothing to time the requests by, refused and said why.
    let o = import("tracerpt", &f, &d.join("a.capture"));
    assert_eq!(o.status.code(), Some(12));
    let e = err(&o);
    assert!(e.contains("has no usable tracerpt record"), "{e}");
    assert!(e.contains("3000 no init event"), "{e}");
    assert!(
        e.contains("give the traced machine's QueryPerformanceCounter frequency (--qpc-hz)"),
        "{e}"
    );
    // With it: issue = Clock-Time − HighResResponseTime / frequency, the requests exactly.
    let out = d.join("b.capture");
    let f = f.to_str().unwrap();
    ok(&probe(&[
        "import-trace",
        "tracerpt",
        f,
        "--out",
        out.to_str().unwrap(),
        "--qpc-hz",
        "10000000",
    ]));
    let (data, flushes): (Vec<Row>, Vec<Row>) = rows(&out).into_iter().partition(|r| r.op != "F");
    let (wd, wf) = want(&g, "FlushBuffers", &|o| o.to_string());
    assert_eq!(data, wd);
    assert_eq!(flushes, wf);
}
