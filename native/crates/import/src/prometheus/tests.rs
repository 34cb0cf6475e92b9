use super::*;
use crate::delta::{step, Status};

fn put_all(s: &mut Series, inst: &str, dev: &str, t: i64, reads: f64) {
    for f in &FIELDS[..11] {
        let v = if f.metric == "node_disk_reads_completed_total" {
            reads
        } else {
            0.0
        };
        s.put_node(inst, dev, f.metric, t, v);
    }
}

#[test]
fn a_fleet_names_devices_by_instance_and_a_counter_reset_is_a_reset_interval() {
    let mut s = Series::default();
    for (t, r) in [(0, 100.0), (1000, 150.0), (2000, 20.0), (3000, 70.0)] {
        put_all(&mut s, "web1:9100", "sda", t, r);
        put_all(&mut s, "web2:9100", "sda", t, r * 2.0);
    }
    s.put_node("web1:9100", "sda", "node_disk_info", 0, 1.0);
    let p = to_parsed(&s, "test".into());
    let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["web1:9100/sda", "web2:9100/sda"]);
    assert_eq!(p.hosts, ["web1:9100", "web2:9100"]);
    assert!(p.unmapped.iter().any(|u| u.what.contains("node_disk_info")));
    let snaps: Vec<&Snapshot> = p.samples.iter().filter_map(|x| x.snap.as_ref()).collect();
    assert_eq!(snaps.len(), 4);
    let st: Vec<Vec<(Status, Option<u64>)>> = snaps
        .windows(2)
        .map(|w| {
            step(w[0], w[1], 1000.0)
                .intervals
                .iter()
                .filter(|i| i.device == "web1:9100/sda")
                .map(|i| (i.status, i.deltas.map(|d| d.reads)))
                .collect()
        })
        .collect();
    // 100 → 150: 50 reads; 150 → 20: the exporter restarted (no numbers); 20 → 70: 50.
    assert_eq!(
        st,
        [
            vec![(Status::Ok, Some(50))],
            vec![(Status::Reset, None)],
            vec![(Status::Ok, Some(50))]
        ]
    );
    assert!(p
        .notes
        .iter()
        .any(|n| n.contains("web1:9100/sda: 1 counter reset")));
}

#[test]
fn units_are_turned_back_into_diskstats_fields() {
    let mut s = Series::default();
    for f in &FIELDS {
        let v = match f.metric {
            "node_disk_read_bytes_total" => 1024.0 * 512.0,
            "node_disk_read_time_seconds_total" => 18492.372,
            _ => 1.0,
        };
        s.put_node("h", "sdc", f.metric, 5, v);
    }
    let p = to_parsed(&s, "t".into());
    let d = &p.samples[0].snap.as_ref().expect("a snapshot").devices["sdc"];
    assert_eq!(d.fields.len(), 17);
    assert_eq!(d.fields[2], 1024);
    assert_eq!(d.fields[3], 18_492_372);
    // Only the 4 basics: the 11-field layout with every other field absent (NULL in the capture,
    // never 0), so that a family left out does not take the others with it.
    let mut s = Series::default();
    for m in [
        "node_disk_reads_completed_total",
        "node_disk_read_bytes_total",
        "node_disk_writes_completed_total",
        "node_disk_written_bytes_total",
    ] {
        s.put_node("h", "sdd", m, 5, 512.0);
    }
    let p = to_parsed(&s, "t".into());
    let d = &p.samples[0].snap.as_ref().expect("a snapshot").devices["sdd"];
    assert_eq!(d.fields, [512, 0, 1, 0, 512, 0, 1, 0, 0, 0, 0]);
    let absent: u32 = [1, 3, 5, 7, 8, 9, 10].iter().map(|i| 1u32 << i).sum();
    assert_eq!(d.absent, absent);
    let c = d.counters();
    assert_eq!(
        (c.reads, c.read_sectors, c.writes, c.write_sectors),
        (512, 1, 512, 1)
    );
    assert_eq!(
        (c.read_ms, c.write_ms, c.read_merges, c.in_flight),
        (None, None, None, None)
    );
    // without the merged and in-flight families, the times are kept
    let mut s = Series::default();
    for m in [
        "node_disk_reads_completed_total",
        "node_disk_read_bytes_total",
        "node_disk_read_time_seconds_total",
        "node_disk_writes_completed_total",
        "node_disk_written_bytes_total",
        "node_disk_write_time_seconds_total",
    ] {
        s.put_node("h", "sdd", m, 5, 512.0);
    }
    let p = to_parsed(&s, "t".into());
    let c = p.samples[0].snap.as_ref().expect("a snapshot").devices["sdd"].counters();
    assert_eq!((c.read_ms, c.write_ms), (Some(512_000), Some(512_000)));
    assert_eq!((c.read_merges, c.in_flight), (None, None));
}

/// A windows_exporter series (synthetic values, clearly so: the real exposition is tested in
/// tests/import_windows_exporter.rs): every counter of one device at one moment.
fn put_win(s: &mut Series, inst: &str, obj: WinObj, label: &str, t: i64, v: [f64; 8]) {
    let pre = match obj {
        WinObj::Logical => "windows_logical_disk_",
        WinObj::Physical => "windows_physical_disk_",
    };
    for (f, x) in WIN_FIELDS.iter().zip(v) {
        s.put(
            inst,
            &format!("{pre}{}", f.suffix),
            |l| (l == obj.label()).then(|| label.to_string()),
            t,
            x,
        );
    }
    // busy time, not latency: must not feed anything
    s.put(
        inst,
        &format!("{pre}read_seconds_total"),
        |l| (l == obj.label()).then(|| label.to_string()),
        t,
        1e6 + t as f64,
    );
}

#[test]
#[allow(clippy::too_many_lines)] // a test: tests are exempt
fn windows_disks_backing_volumes_not_counted_latency_from_the_latency_counters() {
    use crate::counts;
    let mut s = Series::default();
    // reads, writes, read bytes, write bytes, read latency s, write latency s, idle s, queued
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Logical,
        "C:",
        0,
        [100.0, 50.0, 4096e3, 8192e3, 10.0, 2.0, 1000.0, 0.0],
    );
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Logical,
        "C:",
        15_000,
        [
            400.0,
            150.0,
            4096e3 + 1_228_800.0,
            8192e3 + 409_600.0,
            11.5,
            2.5,
            1012.0,
            3.0,
        ],
    );
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Physical,
        "0 C: D:",
        0,
        [90.0, 40.0, 0.0, 0.0, 9.0, 1.0, 1000.0, 0.0],
    );
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Physical,
        "0 C: D:",
        15_000,
        [290.0, 140.0, 0.0, 0.0, 10.0, 1.5, 1010.0, 1.0],
    );
    // a counter reset on the disk: the next interval has no numbers
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Physical,
        "0 C: D:",
        30_000,
        [5.0, 1.0, 0.0, 0.0, 0.1, 0.0, 3.0, 0.0],
    );
    put_win(
        &mut s,
        "win1:9182",
        WinObj::Logical,
        "C:",
        30_000,
        [
            500.0,
            150.0,
            4096e3 + 1_638_400.0,
            8192e3 + 409_600.0,
            11.6,
            2.5,
            1026.0,
            0.0,
        ],
    );
    let p = to_parsed(&s, "t".into());
    let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["LogicalDisk(C:)", "PhysicalDisk(0 C: D:)"]);
    assert_eq!(
        (p.devices[0].role.as_str(), p.devices[1].role.as_str()),
        ("other", "backing"),
        "one Windows layer: the disks are counted, the volumes on them are not (perfmon/roles.rs)"
    );
    assert_eq!(p.devices[0].on.as_deref(), Some("PhysicalDisk(0 C: D:)"));
    assert_eq!(p.devices[0].host.as_deref(), Some("win1:9182"));
    assert!(p.unmapped.iter().any(
        |u| u.what.contains("windows_logical_disk_read_seconds_total")
            && u.why.contains("not a latency")
    ));
    assert_eq!(p.samples.len(), 3);
    // an old exporter's _Total volume: the sum of the others, listed, not a device
    let mut t = Series::default();
    put_win(&mut t, "h", WinObj::Logical, "_Total", 0, [1.0; 8]);
    put_win(&mut t, "h", WinObj::Logical, "C:", 0, [1.0; 8]);
    put_win(&mut t, "h", WinObj::Logical, "C:", 1000, [2.0; 8]);
    let q = to_parsed(&t, "t".into());
    assert_eq!(q.devices.len(), 1);
    assert!(q
        .unmapped
        .iter()
        .any(|u| u.what == "metric windows_logical_disk{volume=\"_Total\"}"));
    assert!(
        p.samples[0].rates.iter().all(Option::is_none),
        "the first moment gives no interval"
    );
    let c = counts(&p.samples[1].rates[0].expect("C: rates"), 15_000.0);
    assert_eq!(c.reads, Some(300));
    assert_eq!(c.writes, Some(100));
    assert_eq!(c.read_bytes, Some(1_228_800));
    assert_eq!(c.write_bytes, Some(409_600));
    // Δ read latency 1.5 s over 300 reads: 1500 ms, 5 ms a read (not the busy-time counter)
    assert_eq!(c.read_time_ms, Some(1500));
    assert_eq!(c.write_time_ms, Some(500));
    // idle 12 s of 15: busy 3 s
    assert_eq!(c.busy_ms, Some(3000));
    assert_eq!(c.in_flight, Some(3));
    let r = p.samples[2].rates[1].expect("disk rates");
    assert!(r.reset, "a counter went down");
    assert!(p
        .notes
        .iter()
        .any(|n| n.contains("PhysicalDisk(0 C: D:): 1 counter reset")));
    let c = counts(&p.samples[2].rates[0].expect("C: rates"), 15_000.0);
    assert_eq!(
        (c.reads, c.read_time_ms, c.busy_ms),
        (Some(100), Some(100), Some(1000))
    );
}

#[test]
fn a_fleet_of_linux_and_windows_hosts_pairs_within_a_host() {
    let mut s = Series::default();
    for (t, r) in [(0, 10.0), (1000, 20.0)] {
        put_all(&mut s, "lin:9100", "sda", t, r);
        put_win(&mut s, "win:9182", WinObj::Logical, "C:", t, [r; 8]);
        put_win(&mut s, "win2:9182", WinObj::Physical, "0 C:", t, [r; 8]);
    }
    let p = to_parsed(&s, "t".into());
    let names: Vec<&str> = p.devices.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "lin:9100/sda",
            "win2:9182/PhysicalDisk(0 C:)",
            "win:9182/LogicalDisk(C:)"
        ]
    );
    // C: of win is not on win2's disk: another host
    assert_eq!(p.devices[2].on, None);
    assert_eq!(p.hosts, ["lin:9100", "win2:9182", "win:9182"]);
    assert!(p
        .samples
        .iter()
        .all(|x| x.snap.is_some() && x.rates.len() == 3));
    assert!(p.samples[1].rates[2].is_some() && p.samples[1].rates[0].is_none());
}

/// Two node_exporter instances, each with a disk, a partition on it and a device-mapper volume
/// whose reads track the disk's: per instance, the disk is counted, the partition and the
/// volume are listed on it (an instance name with '-' is not read as an LVM name), and nothing
/// of one instance is stacked on the other's.
#[test]
fn node_devices_are_stacked_per_instance() {
    let mut s = Series::default();
    let steps = [0.0, 1.0, 3.0, 4.0, 8.0, 9.0];
    for (k, x) in steps.iter().enumerate() {
        let t = 1_000 * 15 * k as i64;
        for inst in ["node-a:9100", "node-b:9100"] {
            for (dev, per) in [("sda", 1000.0), ("sda1", 0.0), ("dm-0", 400.0)] {
                for f in &FIELDS[..11] {
                    let v = match f.metric {
                        "node_disk_reads_completed_total" => x * per,
                        "node_disk_read_bytes_total" => x * per * 4096.0,
                        _ => 0.0,
                    };
                    s.put_node(inst, dev, f.metric, t, v);
                }
            }
        }
    }
    let p = to_parsed(&s, "t".into());
    let role = |n: &str| {
        let d = p.devices.iter().find(|d| d.name == n).expect(n);
        (d.role.clone(), d.reason.clone())
    };
    for inst in ["node-a:9100", "node-b:9100"] {
        assert_eq!(role(&format!("{inst}/sda")).0, "backing");
        assert_eq!(role(&format!("{inst}/sda1")).0, "other");
        let (r, why) = role(&format!("{inst}/dm-0"));
        assert_eq!(r, "other", "{why}");
        assert!(why.contains("device-mapper volume"), "{why}");
        assert!(
            p.stack.contains(&(
                format!("{inst}/sda1"),
                format!("{inst}/sda"),
                "partition".into()
            )),
            "{:?}",
            p.stack
        );
        assert!(
            p.stack.contains(&(
                format!("{inst}/dm-0"),
                format!("{inst}/sda"),
                "from the numbers".into()
            )),
            "{:?}",
            p.stack
        );
    }
    assert_eq!(p.stack.len(), 4, "{:?}", p.stack);
    let mut devs = p.devices.clone();
    devs.iter_mut()
        .find(|d| d.name == "node-b:9100/dm-0")
        .expect("node-b:9100/dm-0")
        .role = "backing".into();
    let why = crate::linux::stack::double_count(&devs, &p.stack).expect("refused");
    assert!(
        why.starts_with("node-b:9100/dm-0 and node-b:9100/sda would both be counted"),
        "{why}"
    );
}
