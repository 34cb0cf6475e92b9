//! 70,000-request exports (past 65,536, a u16 boundary) written in each Windows format (and both number locales for WPA),
//! imported and compared request by request; bad lines and ambiguous numbers.

use super::{err, import, ok, rows, Row};
use crate::common::{probe, TempDir};
use std::fmt::Write as _;

const N: usize = 70_000;

pub(super) struct G {
    pub disk: u32,
    pub off: u64,
    pub bytes: u64,
    /// None = flush.
    pub op: Option<&'static str>,
    pub issue_ns: i64,
    pub done_ns: i64,
}

/// Requests with strictly increasing issue times at `unit_ns` resolution.
pub(super) fn gen(unit_ns: i64) -> Vec<G> {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        s >> 33
    };
    let mut t = 1_000 * unit_ns;
    (0..N)
        .map(|_| {
            t += (1 + next() as i64 % 5_000) * unit_ns;
            let k = next() % 50;
            G {
                disk: (next() % 3) as u32,
                off: (next() % (1 << 32)) * 512,
                bytes: (1 + next() % 2048) * 512,
                op: match k {
                    0 => None,
                    1..=20 => Some("Write"),
                    _ => Some("Read"),
                },
                issue_ns: t,
                done_ns: t + (1 + next() as i64 % 2_000_000) * unit_ns,
            }
        })
        .collect()
}

pub(super) fn want(
    g: &[G],
    flush_text: &str,
    text: &dyn Fn(&str) -> String,
) -> (Vec<Row>, Vec<Row>) {
    let row = |r: &G| Row {
        issue_ns: r.issue_ns,
        complete_ns: Some(r.done_ns),
        sector: if r.op.is_some() {
            (r.off / 512) as i64
        } else {
            0
        },
        bytes: if r.op.is_some() { r.bytes as i64 } else { 0 },
        op: r.op.map_or("F".into(), |o| o[..1].to_string()),
        rwbs: r.op.map_or(flush_text.into(), text),
        device: format!("disk{}", r.disk),
    };
    (
        g.iter().filter(|r| r.op.is_some()).map(row).collect(),
        g.iter().filter(|r| r.op.is_none()).map(row).collect(),
    )
}

pub(super) fn group(v: u64, sep: &str) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out += sep;
        }
        out.push(c);
    }
    out
}

/// `ns` as a decimal of `unit_ns` with `decimals` digits, grouped and pointed per locale.
fn num(ns: i64, unit_ns: i64, decimals: usize, group_sep: &str, point: &str) -> String {
    let (i, f) = (ns / unit_ns, ns % unit_ns);
    let f = format!("{:0w$}", f, w = unit_ns.to_string().len() - 1);
    format!("{}{point}{}", group(i as u64, group_sep), &f[..decimals])
}

pub(super) fn check(
    kind: &str,
    text: String,
    g: &[G],
    flush_text: &str,
    op_text: &dyn Fn(&str) -> String,
) {
    let d = TempDir::new(&format!("etw-syn-{kind}"));
    let f = d.join("export.txt");
    std::fs::write(&f, text).unwrap();
    let out = d.join("s.capture");
    let o = import(kind, &f, &out);
    ok(&o);
    let (data, flushes): (Vec<Row>, Vec<Row>) = rows(&out).into_iter().partition(|r| r.op != "F");
    let (wd, wf) = want(g, flush_text, op_text);
    assert_eq!(data.len(), wd.len(), "{kind}");
    for (i, (a, b)) in data.iter().zip(&wd).enumerate() {
        assert_eq!(a, b, "{kind}: request {i}");
    }
    assert_eq!(flushes, wf, "{kind}");
    let o = probe(&[
        "simulate",
        out.to_str().unwrap(),
        "--sizes",
        "64MiB",
        "--json",
    ]);
    ok(&o);
}

#[test]
fn wpa_en_us_200k_round_trips() {
    let g = gen(1);
    let mut t = String::from("Disk,Process,IO Type,Init Time (s),Complete Time (s),Disk Service Time (µs),IO Time (µs),Size (B),Offset,Path Name\n");
    // WPA groups by disk: the importer puts them back in issue order.
    for disk in 0..3 {
        for r in g.iter().filter(|r| r.disk == disk) {
            let q = |s: String| {
                if s.contains(',') {
                    format!("\"{s}\"")
                } else {
                    s
                }
            };
            let lat = r.done_ns - r.issue_ns;
            let (size, off) = if r.op.is_some() {
                (r.bytes, r.off)
            } else {
                (0, 0)
            };
            writeln!(
                t,
                "{disk},\"svc, host (42)\",{},{},{},{},{},{},0x{off:012X},C:\\x.db",
                r.op.unwrap_or("Flush"),
                q(num(r.issue_ns, 1_000_000_000, 9, ",", ".")),
                q(num(r.done_ns, 1_000_000_000, 9, ",", ".")),
                q(num(lat, 1_000, 3, ",", ".")),
                q(num(lat, 1_000, 3, ",", ".")),
                q(group(size, ",")),
            )
            .unwrap();
        }
    }
    check("wpa", t, &g, "Flush", &|o| o.to_string());
}

#[test]
fn wpa_de_de_200k_round_trips() {
    let g = gen(1);
    // Decimal comma, '.' thousands, ';' separators; no Init Time: issue = Complete − IO Time.
    let mut t = String::from("Disk;IO Type;Complete Time (s);IO Time (µs);Size (B);Min Offset\n");
    for r in &g {
        let (size, off) = if r.op.is_some() {
            (r.bytes, r.off)
        } else {
            (0, 0)
        };
        writeln!(
            t,
            "{};{};{};{};{};0x{off:X}",
            r.disk,
            r.op.unwrap_or("Flush"),
            num(r.done_ns, 1_000_000_000, 9, ".", ","),
            num(r.done_ns - r.issue_ns, 1_000, 3, ".", ","),
            group(size, "."),
        )
        .unwrap();
    }
    check("wpa", t, &g, "Flush", &|o| o.to_string());
}

#[test]
fn xperf_200k_round_trips() {
    let g = gen(1_000);
    let mut t = String::from("BeginHeader\n          DiskRead,  TimeStamp,     Process Name ( PID),   ThreadID,             IrpPtr,   ByteOffset,     IOSize, ElapsedTime,  DiskNum, IrpFlags, DiskSvcTime, I/O Pri,  VolSnap,         FileObject, FileName\n         DiskWrite,  TimeStamp,     Process Name ( PID),   ThreadID,             IrpPtr,   ByteOffset,     IOSize, ElapsedTime,  DiskNum, IrpFlags, DiskSvcTime, I/O Pri,  VolSnap,         FileObject, FileName\n         DiskFlush,  TimeStamp,     Process Name ( PID),   ThreadID,             IrpPtr,                           ElapsedTime,  DiskNum, IrpFlags, DiskSvcTime, I/O Pri\nEndHeader\n        SampledProfile,  12,  System (   4),  0, 0x0\n");
    for r in &g {
        let (ts, el) = (r.done_ns / 1000, (r.done_ns - r.issue_ns) / 1000);
        match r.op {
            Some(o) => writeln!(
                t,
                "{:>18}, {ts:>10}, sqlservr.exe (1234), 88, 0xfffffa8004e7c010, 0x{:010x}, 0x{:08x}, {el:>8}, {:>8}, 0x060043, {el:>8}, Normal, , 0xfffffa8004ed5070, \"C:\\data, 1.mdf\"",
                format!("Disk{o}"),
                r.off,
                r.bytes,
                r.disk
            ),
            None => writeln!(t, "{:>18}, {ts:>10}, System (   4), 88, 0xfffffa8004e7c010, {el:>8}, {:>8}, 0x060043, {el:>8}, Normal", "DiskFlush", r.disk),
        }
        .unwrap();
    }
    check("xperf", t, &g, "DiskFlush", &|o| format!("Disk{o}"));
}

#[test]
fn traceevent_200k_round_trips() {
    let g = gen(1_000);
    let mut t =
        String::from("EventTrace/PartitionInfo/Extension PID=-1; TID=-1; NumberOfProcessors=8;\n");
    for r in &g {
        let done = num(r.done_ns, 1_000_000, 3, ",", ".");
        let el = num(r.done_ns - r.issue_ns, 1_000_000, 3, ",", ".");
        match r.op {
            Some(o) => writeln!(t, "EVENT {done}: Windows Kernel/DiskIO/{o} PID=4; TID=2104; PName=System; ProceNum=0; DataLen=52; DiskNumber={}; IrpFlags=Nocache, MountComple...; Priority=Normal; TransferSize={}; ByteOffset={}; Irp=0xfffffa8300fa2380; ElapsedTimeMSec={el}; DiskServiceTimeMSec={el}; FileKey=0x1; FileName=C:\\x; ", r.disk, group(r.bytes, ","), group(r.off, ",")),
            None => writeln!(t, "EVENT {done}: Windows Kernel/DiskIO/FlushBuffers PID=-1; TID=1; PName=; ProceNum=6; DataLen=28; DiskNumber={}; IrpFlags=None; Irp=0x1; ElapsedTimeMSec={el}; ", r.disk),
        }
        .unwrap();
    }
    check("traceevent", t, &g, "FlushBuffers", &|o| o.to_string());
}

const WPA_HEAD: &str = "Disk,IO Type,Init Time (s),Complete Time (s),Size (B),Offset\n";

#[test]
fn bad_lines_and_ambiguous_numbers_are_named() {
    let d = TempDir::new("etw-bad");
    let f = d.join("bad.csv");
    let fs = f.display().to_string();
    // Line 3: a size that is no number; the other lines are imported.
    std::fs::write(&f, format!("{WPA_HEAD}0,Read,1.5,1.6,4096,0x1000\n0,Write,1.7,1.8,4x96,0x2000\n0,Read,1.9,2.0,\"16,384\",0x3000\n")).unwrap();
    let o = import("wpa", &f, &d.join("a.capture"));
    ok(&o);
    let e = err(&o);
    assert!(
        e.contains(&format!("skipped 1 of 3 records of {fs}")),
        "{e}"
    );
    assert!(
        e.contains("line 3, column Size (B): '4x96' is not a number"),
        "{e}"
    );
    // Only 3-digit groups and nothing else to tell: refused, naming file, line and field.
    std::fs::write(
        &f,
        format!("{WPA_HEAD}0,Read,\"1,500\",\"1,600\",4096,0x1000\n"),
    )
    .unwrap();
    let o = import("wpa", &f, &d.join("b.capture"));
    assert_eq!(o.status.code(), Some(12));
    assert!(err(&o).contains(&format!("{fs}:2, field 'Init Time (s)' ('1,500'): the number reads as a decimal or as thousands")), "{}", err(&o));
    // A decimal comma on one line and a thousands comma on another.
    std::fs::write(
        &f,
        format!("{WPA_HEAD}0,Read,\"1,5\",\"1,6\",4096,0x1000\n0,Read,2,3,\"16,384\",0x1000\n"),
    )
    .unwrap();
    let o = import("wpa", &f, &d.join("c.capture"));
    assert_eq!(o.status.code(), Some(12));
    assert!(err(&o).contains("mixes number formats"), "{}", err(&o));
    assert!(err(&o).contains(&format!("{fs}:3, field 'Size (B)' ('16,384') has a decimal point but {fs}:2, field 'Init Time (s)'")), "{}", err(&o));
    // An xperf line whose IOSize is no number.
    let x = d.join("dump.txt");
    std::fs::write(&x, "DiskRead, 100, System (4), 1, 0x1, 0x1000, 0x1000, 10, 0, 0x0, 10, Normal, , 0x1, \"a\"\nDiskRead, 200, System (4), 1, 0x1, 0x2000, zz, 10, 0, 0x0, 10, Normal, , 0x1, \"a\"\n").unwrap();
    let o = import("xperf", &x, &d.join("x.capture"));
    ok(&o);
    assert!(
        err(&o).contains("line 2, column IOSize: 'zz' is not a number"),
        "{}",
        err(&o)
    );
}
