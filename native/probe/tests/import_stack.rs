//! Count every I/O once (issue 26): synthetic sysstat logs in the real formats (the header forms
//! of ../shared/realdata/linux_iostat_sar_diskstats) with partitions on their disks and LVM
//! volumes on a disk the file does not name. The import shows the stack (`import --preview
//! --json`'s `stack`, the capture's `topology`) and counts one layer: the whole disks, never a
//! disk and a partition or volume on it.
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::{probe, TempDir};
use rusqlite::{Connection, OpenFlags};

fn preview(kind: &str, f: &Path) -> serde_json::Value {
    let o = probe(&["import", kind, f.to_str().unwrap(), "--preview", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn import(kind: &str, f: &Path, out: &Path) {
    let o = probe(&[
        "import",
        kind,
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn role<'a>(pv: &'a serde_json::Value, dev: &str) -> (&'a str, &'a str) {
    let d = pv["devices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == dev)
        .unwrap_or_else(|| panic!("no device {dev}"));
    (d["role"].as_str().unwrap(), d["reason"].as_str().unwrap())
}

fn edges(pv: &serde_json::Value) -> Vec<(String, String, String)> {
    pv["stack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["holder"].as_str().unwrap().to_string(),
                e["on"].as_str().unwrap().to_string(),
                e["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn e(h: &str, s: &str, k: &str) -> (String, String, String) {
    (h.into(), s.into(), k.into())
}

/// (topology edges, Σ write bytes of the counted devices (role backing), of every device).
fn capture(out: &Path) -> (Vec<(String, String, String)>, i64, i64) {
    let c = Connection::open_with_flags(out, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let topo = c
        .prepare("SELECT holder, slave, kind FROM topology ORDER BY 1")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let sum = |w: &str| -> i64 {
        c.query_row(
            &format!("SELECT CAST(TOTAL(write_bytes) AS INTEGER) FROM intervals i JOIN devices d ON d.id = i.device_id WHERE {w}"),
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    (topo, sum("d.role = 'backing'"), sum("1"))
}

/// The PostgreSQL server of the issue: `sadf -d` of `dasda`, `dasdb`, `sda` and the LVM volumes
/// `vgsys-swap` (idle) and `vgsys-postgreSQL` (on sda: sda's writes are the volume's plus a
/// little of its own, interval by interval).
#[test]
fn sadf_lvm_volume_on_a_disk_is_counted_once() {
    let mut t = String::from(
        "# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util\n",
    );
    let mut disk_kb = 0.0;
    for i in 0..10u32 {
        let ts = format!("2023-01-12 08:{:02}:00 UTC", 10 + i);
        let pg_w = 8000.0 + f64::from((i * 7919) % 13) * 900.0; // the database's writes, kB/s
        let sda_w = pg_w + 12.5 + f64::from(i % 3);
        disk_kb += (sda_w + 3.0) * 60.0; // sda and dasda (dasda writes 3 kB/s)
        for (dev, tps, rk, wk) in [
            ("dasda", 4.0, 40.0, 3.0),
            ("dasdb", 0.0, 0.0, 0.0),
            ("sda", sda_w / 8.0 + 1.0, 8.0, sda_w),
            ("vgsys-swap", 0.0, 0.0, 0.0),
            ("vgsys-postgreSQL", pg_w / 8.0 + 1.0, 8.0, pg_w),
        ] {
            t.push_str(&format!(
                "pgsrv;60;{ts};{dev};{tps:.2};{rk:.2};{wk:.2};0.00;8.00;0.50;1.20;12.00\n"
            ));
        }
    }
    let d = TempDir::new("imp-stack-sadf");
    let f = d.join("pg.sadf.csv");
    std::fs::write(&f, &t).unwrap();
    let pv = preview("sadf", &f);
    assert_eq!(role(&pv, "sda").0, "backing");
    assert_eq!(role(&pv, "dasda").0, "backing");
    let (r, why) = role(&pv, "vgsys-postgreSQL");
    assert_eq!(r, "other", "{why}");
    assert!(
        why.contains("LVM volume") && why.contains("proposed on sda from the numbers"),
        "{why}"
    );
    let (r, why) = role(&pv, "vgsys-swap");
    assert_eq!(r, "other", "{why}");
    assert!(why.contains("no disk's numbers track it"), "{why}");
    assert_eq!(
        edges(&pv),
        vec![e("vgsys-postgreSQL", "sda", "from the numbers")]
    );
    // the role set that counts the volume and its disk is refused, naming the pair
    let o = probe(&[
        "import",
        "sadf",
        f.to_str().unwrap(),
        "--role",
        "vgsys-postgreSQL=backing",
        "--preview",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(
            "vgsys-postgreSQL and sda would both be counted, but vgsys-postgreSQL sits on sda"
        ),
        "{err}"
    );
    // counting the volume instead of its disk is a role set that counts once
    let o = probe(&[
        "import",
        "sadf",
        f.to_str().unwrap(),
        "--role",
        "vgsys-postgreSQL=backing",
        "--role",
        "sda=other",
        "--preview",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = d.join("pg.capture");
    import("sadf", &f, &out);
    let (topo, counted, all) = capture(&out);
    assert_eq!(topo, vec![e("vgsys-postgreSQL", "sda", "from the numbers")]);
    // counted once: the disks' writes (10 lines of 60 s each), not the volume's on top
    assert!(
        (counted as f64 - disk_kb * 1024.0).abs() <= 1.0,
        "{counted} vs {}",
        disk_kb * 1024.0
    );
    assert!(
        all as f64 > 1.9 * counted as f64,
        "the volume's writes are in the capture, listed"
    );
}

/// `sar -d -p --pretty` with partitions (sda1, sda2 on sda; nvme0n1p1 on nvme0n1) and
/// `iostat -x -N` with an LVM volume on nvme0n1p2.
#[test]
fn partitions_and_a_volume_sit_on_their_disks() {
    let mut sar = String::from(
        "Linux 5.14.0-362.el9.x86_64 (db01) \t01/12/23 \t_x86_64_\t(8 CPU)\n\n08:00:00          tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util DEV\n",
    );
    for i in 0..6u32 {
        let ts = format!("08:{:02}:00", i + 1);
        let a = f64::from(i * 37 % 11) * 100.0;
        for (dev, wk) in [
            ("sda", a + 300.0),
            ("sda1", a),
            ("sda2", 300.0),
            ("nvme0n1", 2.0 * a + 50.0),
            ("nvme0n1p1", 2.0 * a + 50.0),
        ] {
            sar.push_str(&format!(
                "{ts}      {:.2}      1.00   {wk:.2}      0.00     8.00      0.10      1.00      2.00 {dev}\n",
                wk / 8.0 + 1.0
            ));
        }
    }
    let d = TempDir::new("imp-stack-sar");
    let f = d.join("sar.txt");
    std::fs::write(&f, &sar).unwrap();
    let pv = preview("sar", &f);
    for p in ["sda1", "sda2", "nvme0n1p1"] {
        assert_eq!(role(&pv, p).0, "other", "{p}");
    }
    assert_eq!(
        edges(&pv),
        vec![
            e("sda1", "sda", "partition"),
            e("sda2", "sda", "partition"),
            e("nvme0n1p1", "nvme0n1", "partition"),
        ]
    );
    let out = d.join("sar.capture");
    import("sar", &f, &out);
    let (topo, counted, _) = capture(&out);
    assert_eq!(topo.len(), 3);
    let want: f64 = (0..6u32)
        .map(|i| {
            let a = f64::from(i * 37 % 11) * 100.0;
            (a + 300.0 + 2.0 * a + 50.0) * 1024.0 * 60.0
        })
        .sum();
    assert!((counted as f64 - want).abs() <= 1.0, "{counted} vs {want}");

    // iostat -x -N -t: the volume `rhel-root` on the partition nvme0n1p2 (its writes are the
    // partition's), the partition on its disk
    let head = "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util";
    let mut io =
        String::from("Linux 5.14.0-362.el9.x86_64 (db01) \t01/12/2023 \t_x86_64_\t(8 CPU)\n\n");
    for k in 0..6u32 {
        io.push_str(&format!("01/12/2023 08:00:{:02} AM\n{head}\n", k * 5));
        let w = f64::from(k * 13 % 7) * 40.0 + 5.0;
        for (dev, ws) in [("nvme0n1", w + 3.0), ("nvme0n1p2", w), ("rhel-root", w)] {
            io.push_str(&format!(
                "{dev:<10} 1.00 4.00 0.00 0.00 0.10 4.00 {ws:.2} {:.2} 0.00 0.00 0.20 4.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.01 1.00\n",
                ws * 4.0
            ));
        }
        io.push('\n');
    }
    let f = d.join("iostat.txt");
    std::fs::write(&f, &io).unwrap();
    let pv = preview("iostat", &f);
    assert_eq!(role(&pv, "nvme0n1").0, "backing");
    let (r, why) = role(&pv, "rhel-root");
    assert_eq!(r, "other", "{why}");
    assert_eq!(
        edges(&pv),
        vec![
            e("nvme0n1p2", "nvme0n1", "partition"),
            e("rhel-root", "nvme0n1p2", "from the numbers"),
        ],
        "{why}"
    );
    // the volume counted with the disk under its partition: its I/O twice, refused, naming both
    let o = probe(&[
        "import",
        "iostat",
        f.to_str().unwrap(),
        "--role",
        "rhel-root=backing",
        "--preview",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("rhel-root and nvme0n1 would both be counted, but rhel-root sits on nvme0n1 (through nvme0n1p2)"),
        "{err}"
    );
}
