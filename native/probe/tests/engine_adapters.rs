//! The bcache, lvmcache / dm-cache, Open CAS and command adapters against fixture roots: a fake
//! sysfs tree under a temp dir (`--sysfs-root`) and fake `lvchange`, `dmsetup`, `casadm`
//! executables first on PATH that log their argument vectors and keep the engine's mode in a
//! file (this kernel has none of those modules). Checked: the exact argument vectors and sysfs
//! writes, the dry-run text, the counters, and the failure paths (engine busy, command missing,
//! timeout, non-zero exit, wrong device, a shell string in a config).
#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// A fake engine: its bin directory (first on PATH), its log and state files.
struct Fake {
    dir: TempDir,
}

impl Fake {
    fn new(tag: &str) -> Fake {
        let dir = TempDir::new(tag);
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        Fake { dir }
    }
    fn path(&self, p: &str) -> PathBuf {
        self.dir.join(p)
    }
    fn tool(&self, name: &str, body: &str) {
        let p = self.path("bin").join(name);
        let script = format!(
            "#!/bin/sh\nD='{}'\necho \"{name} $*\" >> \"$D/log\"\n[ -f \"$D/slow\" ] && /bin/sleep 10\n{body}\n",
            self.dir.0.display()
        );
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    fn set(&self, file: &str, v: &str) {
        std::fs::write(self.path(file), v).unwrap();
    }
    fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.path("log"))
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect()
    }
    fn clear_log(&self) {
        let _ = std::fs::remove_file(self.path("log"));
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", self.path("bin").display()),
            )
            .env_remove("CACHEPROOF_SYSFS_ROOT")
            .output()
            .unwrap()
    }
}

fn out(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn write(p: &Path, v: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, v).unwrap();
}

// ---------------------------------------------------------------------------------------------
// bcache: a fake /sys tree.

fn bcache_tree(root: &Path) -> PathBuf {
    let b = root.join("block/bcache0/bcache");
    write(
        &b.join("cache_mode"),
        "writethrough writeback writearound [none]\n",
    );
    for (sub, hits, misses) in [
        ("stats_total", "1000", "250"),
        ("stats_five_minute", "12", "3"),
        ("stats_hour", "120", "30"),
        ("stats_day", "900", "200"),
    ] {
        write(&b.join(sub).join("cache_hits"), hits);
        write(&b.join(sub).join("cache_misses"), misses);
        write(&b.join(sub).join("cache_bypass_hits"), "7");
        write(&b.join(sub).join("cache_bypass_misses"), "9");
        write(&b.join(sub).join("cache_miss_collisions"), "1");
        write(&b.join(sub).join("cache_readaheads"), "0");
        write(&b.join(sub).join("bypassed"), "1.5M");
    }
    write(&b.join("dirty_data"), "512k");
    write(&b.join("cache/cache0/written"), "2.0G");
    b
}

#[test]
fn bcache_writes_cache_mode_and_reads_its_labelled_statistics() {
    let f = Fake::new("bcache");
    let root = f.path("sys");
    let b = bcache_tree(&root);
    let r = root.to_str().unwrap();
    let det = out(&f.run(&["engine", "detect", "--sysfs-root", r, "--json"]));
    let det: serde_json::Value = serde_json::from_str(&det).unwrap();
    assert_eq!(det[0]["adapter"], "bcache");
    assert_eq!(det[0]["device"], "bcache0");
    assert_eq!(det[0]["mode"], "none");

    let plan = out(&f.run(&["engine", "plan", "bcache", "--sysfs-root", r]));
    let cm = b.join("cache_mode");
    assert_eq!(
        plan,
        format!(
            "bcache bcache0 is in mode none (dry run: nothing is changed)\nenable (to writethrough): write 'writethrough' to {}\ndisable (to none): nothing to do, already in that mode\n",
            cm.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(&cm).unwrap(),
        "writethrough writeback writearound [none]\n",
        "the dry run writes nothing"
    );
    // Without --yes nothing is written.
    let o = f.run(&["engine", "enable", "bcache", "--sysfs-root", r]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("add --yes"));
    out(&f.run(&["engine", "enable", "bcache", "--sysfs-root", r, "--yes"]));
    assert_eq!(std::fs::read_to_string(&cm).unwrap(), "writethrough");
    out(&f.run(&["engine", "disable", "bcache", "--sysfs-root", r, "--yes"]));
    assert_eq!(std::fs::read_to_string(&cm).unwrap(), "none");

    let st = out(&f.run(&["engine", "stats", "bcache", "--sysfs-root", r, "--json"]));
    let st: serde_json::Value = serde_json::from_str(&st).unwrap();
    let get = |name: &str, window: &str| -> f64 {
        st["stats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name && s["window"] == window)
            .unwrap_or_else(|| panic!("{name} {window} missing: {st}"))["value"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(get("cache_hits", "cumulative"), 1000.0);
    assert_eq!(get("cache_misses", "cumulative"), 250.0);
    assert_eq!(get("cache_hits", "decaying-5min"), 12.0);
    assert_eq!(get("cache_hits", "decaying-1h"), 120.0);
    assert_eq!(get("cache_misses", "decaying-1d"), 200.0);
    assert_eq!(get("bypassed_bytes", "cumulative"), 1.5 * 1024.0 * 1024.0);
    assert_eq!(get("dirty_bytes", "current"), 512.0 * 1024.0);
    assert_eq!(
        get("cache_device_written_bytes", "cumulative"),
        2.0 * 1024f64.powi(3)
    );
}

#[test]
fn bcache_refuses_a_wrong_device_and_an_unknown_mode_without_writing() {
    let f = Fake::new("bcachebad");
    let root = f.path("sys");
    let b = bcache_tree(&root);
    let r = root.to_str().unwrap();
    let o = f.run(&[
        "engine",
        "enable",
        "bcache",
        "--sysfs-root",
        r,
        "--device",
        "sda",
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        one_sentence(&o),
        "cacheproof-probe: sda is not a bcache device here (found: bcache0); give --device one of those"
    );
    let cfg = f.path("fast.json");
    std::fs::write(&cfg, r#"{"enableMode":"fast"}"#).unwrap();
    let o = f.run(&[
        "engine",
        "enable",
        "bcache",
        "--sysfs-root",
        r,
        "--config",
        cfg.to_str().unwrap(),
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(9));
    let e = one_sentence(&o);
    assert!(e.contains("bcache has no mode 'fast'"), "{e}");
    assert!(e.contains("not attempted"), "{e}");
    assert_eq!(
        std::fs::read_to_string(b.join("cache_mode")).unwrap(),
        "writethrough writeback writearound [none]\n"
    );
    // The attribute is gone (the device went away): the write fails, the error says so.
    std::fs::remove_file(b.join("cache_mode")).unwrap();
    let o = f.run(&[
        "engine",
        "describe",
        "bcache",
        "--sysfs-root",
        r,
        "--device",
        "bcache0",
    ]);
    assert_ne!(o.status.code(), Some(0));
    assert!(!b.join("cache_mode").exists(), "nothing created");
}

// ---------------------------------------------------------------------------------------------
// lvmcache / dm-cache: fake dmsetup and lvchange.

fn lvm_fake(tag: &str) -> Fake {
    let f = Fake::new(tag);
    f.set("mode", "passthrough");
    f.tool(
        "dmsetup",
        r#"m=$(/bin/cat "$D/mode")
line="0 2097152 cache 8 1063/8192 128 4096/16384 4000 1000 3000 2000 7 4096 12 1 $m 2 migration_threshold 2048 smq 0 rw -"
case "$*" in
  "status --target cache") echo "vg0-data: $line" ;;
  "status vg0-data") echo "$line" ;;
  *) echo "device-mapper: no such device" >&2; exit 1 ;;
esac"#,
    );
    f.tool(
        "lvchange",
        r#"[ -f "$D/busy" ] && { echo "  Logical volume vg0/data in use." >&2; exit 5; }
[ "$1" = "--cachemode" ] || { echo "unexpected arguments" >&2; exit 3; }
echo "$2" > "$D/mode"
echo "  Logical volume vg0/data changed.""#,
    );
    f
}

#[test]
fn lvmcache_runs_lvchange_with_the_exact_arguments_and_reads_dmsetup() {
    let f = lvm_fake("lvm");
    let det: serde_json::Value =
        serde_json::from_str(&out(&f.run(&["engine", "detect", "--json"]))).unwrap();
    let lvm = det
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["adapter"] == "lvmcache")
        .unwrap();
    assert_eq!(
        (lvm["device"].as_str(), lvm["mode"].as_str()),
        (Some("vg0/data"), Some("passthrough"))
    );
    let plan = out(&f.run(&["engine", "plan", "lvmcache", "--device", "vg0/data"]));
    assert!(
        plan.contains("enable (to writethrough): run lvchange --cachemode writethrough vg0/data"),
        "{plan}"
    );
    assert!(
        plan.contains("disable (to passthrough): nothing to do"),
        "{plan}"
    );
    f.clear_log();
    let o = out(&f.run(&[
        "engine", "enable", "lvmcache", "--device", "vg0/data", "--yes",
    ]));
    assert!(o.contains("now writethrough"), "{o}");
    let log = f.log();
    assert_eq!(
        log.iter()
            .filter(|l| l.starts_with("lvchange"))
            .collect::<Vec<_>>(),
        vec!["lvchange --cachemode writethrough vg0/data"]
    );
    assert!(log.contains(&"dmsetup status vg0-data".to_string()));
    // writeback through the config; dm-cache takes the device-mapper name.
    let cfg = f.path("wb.json");
    std::fs::write(&cfg, r#"{"enableMode":"writeback","device":"vg0-data"}"#).unwrap();
    f.clear_log();
    out(&f.run(&[
        "engine",
        "enable",
        "dm-cache",
        "--config",
        cfg.to_str().unwrap(),
        "--yes",
    ]));
    assert_eq!(
        f.log()
            .iter()
            .filter(|l| l.starts_with("lvchange"))
            .collect::<Vec<_>>(),
        vec!["lvchange --cachemode writeback vg0/data"]
    );
    let st: serde_json::Value = serde_json::from_str(&out(&f.run(&[
        "engine", "stats", "lvmcache", "--device", "vg0/data", "--json",
    ])))
    .unwrap();
    let v = |n: &str| {
        st["stats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap()["value"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(
        (
            v("read_hits"),
            v("read_misses"),
            v("write_hits"),
            v("write_misses")
        ),
        (4000.0, 1000.0, 3000.0, 2000.0)
    );
    assert_eq!((v("demotions"), v("promotions")), (7.0, 4096.0));
    assert_eq!(v("dirty_bytes"), 12.0 * 128.0 * 512.0);
    assert_eq!(v("promoted_bytes"), 4096.0 * 128.0 * 512.0);
}

#[test]
fn lvmcache_failures_say_the_state_the_engine_is_in() {
    let f = lvm_fake("lvmfail");
    // Engine busy: lvchange exits 5; the mode is unchanged and the sentence says so.
    f.set("busy", "");
    let o = f.run(&[
        "engine", "enable", "lvmcache", "--device", "vg0/data", "--yes",
    ]);
    assert_eq!(o.status.code(), Some(9));
    let e = one_sentence(&o);
    assert!(e.contains("'run lvchange --cachemode writethrough vg0/data' failed: Logical volume vg0/data in use."), "{e}");
    assert!(
        e.contains("the engine is still in mode passthrough (unchanged)"),
        "{e}"
    );
    std::fs::remove_file(f.path("busy")).unwrap();
    // Timeout: the config's 1 s; lvchange is killed.
    let cfg = f.path("t.json");
    std::fs::write(&cfg, r#"{"timeoutS":1}"#).unwrap();
    let slow = f.path("bin/lvchange");
    let body = std::fs::read_to_string(&slow)
        .unwrap()
        .replace("[ -f \"$D/slow\" ] && /bin/sleep 10", "/bin/sleep 10");
    std::fs::write(&slow, body).unwrap();
    let t0 = std::time::Instant::now();
    let o = f.run(&[
        "engine",
        "enable",
        "lvmcache",
        "--device",
        "vg0/data",
        "--config",
        cfg.to_str().unwrap(),
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(9));
    assert!(t0.elapsed().as_secs_f64() < 8.0);
    let e = one_sentence(&o);
    assert!(
        e.contains("did not finish within 1 s and was killed (timeout)"),
        "{e}"
    );
    assert!(e.contains("still in mode passthrough"), "{e}");
    // Command missing.
    std::fs::remove_file(&slow).unwrap();
    let o = f.run(&[
        "engine", "enable", "lvmcache", "--device", "vg0/data", "--yes",
    ]);
    assert_eq!(o.status.code(), Some(9));
    let e = one_sentence(&o);
    assert!(
        e.contains("cannot run 'lvchange': it is not installed (not found on PATH)"),
        "{e}"
    );
    // The wrong device.
    let o = f.run(&[
        "engine",
        "enable",
        "lvmcache",
        "--device",
        "vg0/other",
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("vg0/other is not a lvmcache device here (found: vg0/data)"));
}

// ---------------------------------------------------------------------------------------------
// Open CAS: a fake casadm.

fn cas_fake(tag: &str) -> Fake {
    let f = Fake::new(tag);
    f.set("mode", "wb");
    f.tool(
        "casadm",
        r#"m=$(/bin/cat "$D/mode")
case "$*" in
  "-L -o csv") echo "type,id,disk,status,write policy,device"
               echo "cache,1,/dev/nvme0n1p1,Running,$m,-"
               echo "core,1,/dev/sdd1,Active,-,/dev/cas1-1" ;;
  "-P -i 1 -o csv") echo "Cache Id,Cache Size [4KiB Blocks],Cache Device,Write Policy,Status"
                    echo "1,12055031,/dev/nvme0n1p1,$m,Running" ;;
  "-P -i 1 -j 1 -o csv") echo "Core Id,Core Device,Exported Object,Occupancy [4KiB blocks],Occupancy [%],Dirty [4KiB blocks],Dirty [%],Read hits [Requests],Read hits [%],Read partial misses [Requests],Read partial misses [%],Read full misses [Requests],Read full misses [%],Write hits [Requests],Write hits [%],Pass-Through reads [Requests],Pass-Through reads [%],Writes to cache [4KiB blocks],Writes to cache [%]"
                         echo "1,/dev/sdd1,/dev/cas1-1,4363950,36.2,10,0.0,21075939,29.7,77109,0.1,18448305,26.0,17240919,24.3,983305,1.4,5000,1.0" ;;
  --set-cache-mode*) [ -f "$D/busy" ] && { echo "Error: cache 1 is busy" >&2; exit 1; }
                     echo "$3" > "$D/mode" ;;
  *) echo "casadm: unexpected $*" >&2; exit 2 ;;
esac"#,
    );
    f
}

#[test]
fn opencas_sets_the_cache_mode_flushing_dirty_data_and_reads_csv_statistics() {
    let f = cas_fake("cas");
    let plan = out(&f.run(&["engine", "plan", "opencas"]));
    assert!(plan.starts_with("opencas cas1-1 is in mode wb"), "{plan}");
    assert!(plan.contains("enable (to wt): run casadm --set-cache-mode --cache-mode wt --cache-id 1 --flush-cache yes"), "{plan}");
    assert!(plan.contains("disable (to pt): run casadm --set-cache-mode --cache-mode pt --cache-id 1 --flush-cache yes"), "{plan}");
    f.clear_log();
    out(&f.run(&[
        "engine", "disable", "opencas", "--device", "cas1-1", "--yes",
    ]));
    out(&f.run(&["engine", "enable", "opencas", "--device", "cas1-1", "--yes"]));
    let sets: Vec<String> = f
        .log()
        .into_iter()
        .filter(|l| l.contains("--set-cache-mode"))
        .collect();
    assert_eq!(
        sets,
        vec![
            "casadm --set-cache-mode --cache-mode pt --cache-id 1 --flush-cache yes",
            "casadm --set-cache-mode --cache-mode wt --cache-id 1",
        ]
    );
    let st: serde_json::Value =
        serde_json::from_str(&out(&f.run(&["engine", "stats", "opencas", "--json"]))).unwrap();
    let v = |n: &str| {
        st["stats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap_or_else(|| panic!("{n}: {st}"))["value"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(v("read_hits"), 21075939.0);
    assert_eq!(v("read_partial_misses"), 77109.0);
    assert_eq!(v("read_full_misses"), 18448305.0);
    assert_eq!(v("pass_through_reads"), 983305.0);
    assert_eq!(v("dirty_bytes"), 10.0 * 4096.0);
    assert_eq!(v("writes_to_cache_bytes"), 5000.0 * 4096.0);
    assert!(!st["stats"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["unit"] == "%"));
    // Busy: casadm exits 1; still wt.
    f.set("busy", "");
    let o = f.run(&["engine", "disable", "opencas", "--yes"]);
    assert_eq!(o.status.code(), Some(9));
    let e = one_sentence(&o);
    assert!(e.contains("Error: cache 1 is busy"), "{e}");
    assert!(e.contains("still in mode wt (unchanged)"), "{e}");
    let o = f.run(&["engine", "describe", "opencas", "--device", "sdd1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o).contains("sdd1 is not a opencas device here (found: cas1-1)"));
}

// ---------------------------------------------------------------------------------------------
// The command adapter and its config.

#[test]
fn command_config_refuses_shell_strings_and_runs_vectors_verbatim() {
    let f = Fake::new("cmd");
    f.set("mode", "off");
    f.tool(
        "cachectl",
        r#"case "$1" in
  on|off) echo "$1" > "$D/mode" ;;
  status) echo "mode: $(/bin/cat "$D/mode")"; echo "read_hits 42 requests" ;;
esac"#,
    );
    let bad = f.path("bad.json");
    std::fs::write(
        &bad,
        r#"{"devices":["sdz"],"enable":"cachectl on && reboot","disable":["cachectl","off"]}"#,
    )
    .unwrap();
    let o = f.run(&[
        "engine",
        "enable",
        "command",
        "--config",
        bad.to_str().unwrap(),
        "--device",
        "sdz",
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = one_sentence(&o);
    assert!(
        e.contains(&format!(
            "adapter config {}: field 'enable' is a shell string",
            bad.display()
        )),
        "{e}"
    );
    assert!(f.log().is_empty(), "nothing ran");
    let good = f.path("good.json");
    std::fs::write(
        &good,
        r#"{"devices":["sdz"],"enable":["cachectl","on","$HOME","{device}"],"disable":["cachectl","off"],"status":["cachectl","status"],"parser":"key-value"}"#,
    )
    .unwrap();
    let g = good.to_str().unwrap();
    let o = f.run(&[
        "engine", "enable", "command", "--config", g, "--device", "sdy", "--yes",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_sentence(&o)
        .contains("sdy is not one of the devices the command adapter's config serves (sdz)"));
    out(&f.run(&[
        "engine", "enable", "command", "--config", g, "--device", "sdz", "--yes",
    ]));
    assert!(
        f.log().contains(&"cachectl on $HOME {device}".to_string()),
        "arguments passed verbatim: {:?}",
        f.log()
    );
    let st = out(&f.run(&[
        "engine", "stats", "command", "--config", g, "--device", "sdz",
    ]));
    assert!(st.contains("read_hits") && st.contains("42"), "{st}");
    // A missing executable: one sentence, nothing changed.
    let missing = f.path("missing.json");
    std::fs::write(&missing, r#"{"devices":["sdz"],"enable":["/nonexistent/cachectl","on"],"disable":["/nonexistent/cachectl","off"]}"#).unwrap();
    let o = f.run(&[
        "engine",
        "disable",
        "command",
        "--config",
        missing.to_str().unwrap(),
        "--device",
        "sdz",
        "--yes",
    ]);
    assert_eq!(o.status.code(), Some(9));
    assert!(one_sentence(&o).contains("cannot run '/nonexistent/cachectl': it is not installed"));
}
