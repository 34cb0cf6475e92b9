//! Block-device inventory and stacking graph from sysfs (`/sys/class/block`), with a guessed
//! role for cache setups.
//!
//! Kernel facts (Documentation/ABI/stable/sysfs-block): `size` is in 512-byte sectors;
//! `queue/rotational`, `queue/logical_block_size`, `queue/physical_block_size`; a partition has
//! a `partition` file and sits in its disk's directory; `slaves/` and `holders/` link stacked
//! devices; a loop device has `loop/backing_file`. In sysfs, '/' in a kernel name is written '!'.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use serde::Serialize;

/// One block device as sysfs describes it.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceInfo {
    pub name: String,
    pub major: u32,
    pub minor: u32,
    pub size_bytes: Option<i64>,
    pub rotational: Option<bool>,
    pub model: Option<String>,
    pub vendor: Option<String>,
    pub logical_block_size: Option<i64>,
    pub physical_block_size: Option<i64>,
    pub is_partition: bool,
    pub parent: Option<String>,
    pub slaves: Vec<String>,
    pub holders: Vec<String>,
    pub backing_file: Option<String>,
    /// The block device holding the file system that holds `backing_file`.
    pub backing_file_device: Option<String>,
    /// `front`, `backing`, `cache` or `other`.
    pub role: String,
    /// Why that role was guessed.
    pub role_reason: Option<String>,
    /// dm name (`/sys/block/dm-N/dm/name`), if a device-mapper device.
    pub dm_name: Option<String>,
}

fn read_trim(p: &Path) -> Option<String> {
    std::fs::read_to_string(p)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn read_num(p: &Path) -> Option<i64> {
    read_trim(p).and_then(|s| s.parse().ok())
}

fn list_names(p: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(p)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().replace('!', "/"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Read every block device under `<sys>/class/block`. `sys` is `/sys` on a live system.
pub fn list_devices(sys: &Path) -> Vec<DeviceInfo> {
    let Ok(rd) = std::fs::read_dir(sys.join("class/block")) else {
        return Vec::new();
    };
    let mut out: Vec<DeviceInfo> = rd.filter_map(|e| e.ok()).map(|e| read_device(&e)).collect();
    find_backing_file_devices(&mut out);
    // bcache: a backing device has bcache/cache_mode... no: the bcacheN device has it; a
    // cache device has bcache/set but no bcache/cache_mode (Documentation/admin-guide/bcache.rst).
    let has = |name: &str, rel: &str| {
        sys.join("class/block")
            .join(name.replace('/', "!"))
            .join(rel)
            .exists()
    };
    guess_roles(&mut out, &has);
    out.sort_by(|a, b| (a.major, a.minor, &a.name).cmp(&(b.major, b.minor, &b.name)));
    out
}

/// One device of `class/block` as its directory describes it (role `other`, no backing file
/// device yet).
fn read_device(e: &std::fs::DirEntry) -> DeviceInfo {
    let sysname = e.file_name().to_string_lossy().to_string();
    let name = sysname.replace('!', "/");
    let dir = e.path();
    let (major, minor) = read_trim(&dir.join("dev"))
        .and_then(|s| {
            let (a, b) = s.split_once(':')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((0, 0));
    let is_partition = dir.join("partition").exists();
    let real = std::fs::canonicalize(&dir).ok();
    // A partition's disk: the directory its own sits in.
    let disk_dir = || real.as_ref().and_then(|r| r.parent());
    let parent = if is_partition {
        disk_dir()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().replace('!', "/"))
    } else {
        None
    };
    // Queue attributes (and the device's model) live on the whole disk.
    let on_disk = |sub: &str| {
        if is_partition {
            disk_dir()
                .map(|p| p.join(sub))
                .unwrap_or_else(|| dir.join(sub))
        } else {
            dir.join(sub)
        }
    };
    let qdir = on_disk("queue");
    let devdir = on_disk("device");
    DeviceInfo {
        name,
        major,
        minor,
        size_bytes: read_num(&dir.join("size")).map(|s| s * 512),
        rotational: read_num(&qdir.join("rotational")).map(|r| r == 1),
        model: read_trim(&devdir.join("model")),
        vendor: read_trim(&devdir.join("vendor")),
        logical_block_size: read_num(&qdir.join("logical_block_size")),
        physical_block_size: read_num(&qdir.join("physical_block_size")),
        is_partition,
        parent,
        slaves: list_names(&dir.join("slaves")),
        holders: list_names(&dir.join("holders")),
        backing_file: read_trim(&dir.join("loop/backing_file")),
        backing_file_device: None,
        role: "other".into(),
        role_reason: None,
        dm_name: read_trim(&dir.join("dm/name")),
    }
}

/// The device a loop backing file lives on: st_dev of the file, found among `devs`.
fn find_backing_file_devices(devs: &mut [DeviceInfo]) {
    let by_devno: BTreeMap<(u32, u32), String> = devs
        .iter()
        .map(|d| ((d.major, d.minor), d.name.clone()))
        .collect();
    for d in devs {
        if let Some(f) = &d.backing_file {
            let f = f.trim_end_matches(" (deleted)");
            if let Ok(m) = std::fs::metadata(f) {
                let dev = m.dev();
                let key = (libc::major(dev), libc::minor(dev));
                d.backing_file_device = by_devno.get(&key).cloned();
            }
        }
    }
}

/// The roles guessed so far, by device name: the first guess for a device stands.
#[derive(Default)]
struct Roles(BTreeMap<String, (String, String)>);

impl Roles {
    fn set(&mut self, n: &str, role: &str, why: String) {
        self.0
            .entry(n.to_string())
            .or_insert((role.to_string(), why));
    }

    /// `role` for each of `slaves`, with `why`.
    fn set_all(&mut self, slaves: &[String], role: &str, why: &str) {
        for s in slaves {
            self.set(s, role, why.to_string());
        }
    }

    /// A loop device that holds another loop's file is that loop's backing device (the lab's
    /// nested pair); the device holding its own image counts its I/O again, with the rest of
    /// that file system's: it is not counted (the lab's system disk).
    fn loop_images(&mut self, devs: &[DeviceInfo]) {
        let holding: std::collections::BTreeSet<&str> = devs
            .iter()
            .filter_map(|d| {
                d.backing_file
                    .as_ref()
                    .and(d.backing_file_device.as_deref())
            })
            .collect();
        // every image a device holds is named (two labs' images on one system disk: both)
        let mut images: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for d in devs {
            if let Some(b) = &d.backing_file_device {
                if d.backing_file.is_some() && holding.contains(d.name.as_str()) {
                    images.entry(b.as_str()).or_default().push(d.name.as_str());
                }
            }
        }
        for (b, of) in &images {
            let what = if of.len() == 1 { "image" } else { "images" };
            let why = format!("holds the {what} of {}: not counted", of.join(", "));
            self.set(b, "other", why);
        }
        for d in devs {
            if let (Some(f), Some(b)) = (&d.backing_file, &d.backing_file_device) {
                self.set(b, "backing", format!("holds {f}, the file of {}", d.name));
            }
        }
    }

    /// bcache and Open CAS: the front device, its backing slaves, a bcache cache device.
    fn bcache_and_cas(&mut self, d: &DeviceInfo, has: &dyn Fn(&str, &str) -> bool) {
        if d.name.starts_with("bcache") && !d.is_partition {
            self.set(&d.name, "front", "bcache device".into());
            self.set_all(
                &d.slaves,
                "backing",
                &format!("backing device of {}", d.name),
            );
        }
        if has(&d.name, "bcache/set") && !has(&d.name, "bcache/cache_mode") {
            self.set(&d.name, "cache", "bcache cache device".into());
        }
        if d.name.starts_with("cas") && d.name.contains('-') {
            self.set(&d.name, "front", "Open CAS exported object".into());
            self.set_all(&d.slaves, "backing", &format!("core device of {}", d.name));
        }
    }

    /// lvmcache/dm-cache, from the dm names (`dm_name`: every dm device's, by device name).
    fn dm_cache(&mut self, d: &DeviceInfo, dm_name: &BTreeMap<String, String>) {
        let Some(n) = &d.dm_name else { return };
        if n.ends_with("_corig") {
            self.set(&d.name, "backing", format!("dm-cache origin ({n})"));
            self.set_all(&d.slaves, "backing", &format!("under dm-cache origin {n}"));
        } else if n.ends_with("_cdata") || n.ends_with("_cmeta") || n.ends_with("_cpool") {
            self.set(&d.name, "cache", format!("dm-cache cache volume ({n})"));
            let why = format!("under dm-cache cache volume {n}");
            self.set_all(&d.slaves, "cache", &why);
        } else if d
            .slaves
            .iter()
            .any(|s| dm_name.get(s).is_some_and(|x| x.ends_with("_corig")))
        {
            self.set(&d.name, "front", format!("dm-cache volume ({n})"));
        }
    }

    /// A loop device on a file is the front, the device holding the file its backing.
    fn loop_on_file(&mut self, d: &DeviceInfo) {
        if let Some(f) = &d.backing_file {
            self.set(&d.name, "front", format!("loop device on file {f}"));
            if let Some(b) = &d.backing_file_device {
                self.set(b, "backing", format!("holds {f}, the file of {}", d.name));
            }
        }
    }
}

/// Guess front/backing/cache roles from names and topology:
/// - bcache: `bcacheN` is the front, its slaves are backing, a device with `bcache/set` and no
///   `bcache/cache_mode` is the cache;
/// - lvmcache/dm-cache: a dm device whose slave's dm name ends in `_corig` is the front, the
///   `_corig` device (and what it sits on) is backing, `_cdata`/`_cmeta`/`_cpool` are cache;
/// - Open CAS: `casN-M` is the front, its slaves are backing (the core device);
/// - loop on a file: the loop device is the front, the device holding its file is backing
///   (the page cache is the cache: `losetup --direct-io=off`); when that device is itself a
///   loop on a file (the lab), the device holding its image is `other`, "holds the image of
///   loopN: not counted", as its I/O includes the backing loop's.
pub fn guess_roles(devs: &mut [DeviceInfo], has: &dyn Fn(&str, &str) -> bool) {
    let mut roles = Roles::default();
    let dm_name: BTreeMap<String, String> = devs
        .iter()
        .filter_map(|d| d.dm_name.clone().map(|n| (d.name.clone(), n)))
        .collect();
    roles.loop_images(devs);
    for d in devs.iter() {
        roles.bcache_and_cas(d, has);
        roles.dm_cache(d, &dm_name);
        roles.loop_on_file(d);
    }
    for d in devs.iter_mut() {
        if let Some((r, why)) = roles.0.get(&d.name) {
            d.role = r.clone();
            d.role_reason = Some(why.clone());
        }
    }
}

/// Stacking edges (holder, slave, kind) for the `topology` table.
pub fn topology(devs: &[DeviceInfo]) -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    for d in devs {
        for s in &d.slaves {
            let kind = if d.name.starts_with("bcache") {
                "bcache"
            } else if d.name.starts_with("cas") {
                "opencas"
            } else if d.role == "front" && d.dm_name.is_some() {
                "dm-cache"
            } else {
                "holders"
            };
            v.push((d.name.clone(), s.clone(), kind.to_string()));
        }
        if let Some(b) = &d.backing_file_device {
            v.push((d.name.clone(), b.clone(), "loop-file".to_string()));
        }
    }
    v
}

/// A minimal inventory row for a device sysfs does not describe (fixtures, vanished devices).
pub fn bare(name: &str, major: u32, minor: u32) -> DeviceInfo {
    DeviceInfo {
        name: name.to_string(),
        major,
        minor,
        role: "other".into(),
        ..DeviceInfo::default()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_disk_holding_two_labs_images_names_both() {
        let lab = |front: &str, backing: &str| {
            let mut f = dev(front);
            f.backing_file = Some(format!("/mnt/{backing}/f.img"));
            f.backing_file_device = Some(backing.into());
            let mut b = dev(backing);
            b.backing_file = Some(format!("/tmp/{backing}.img"));
            b.backing_file_device = Some("vda".into());
            [f, b]
        };
        let mut devs: Vec<DeviceInfo> = lab("loop1", "loop0")
            .into_iter()
            .chain(lab("loop3", "loop2"))
            .chain([dev("vda")])
            .collect();
        guess_roles(&mut devs, &|_, _| false);
        let vda = devs.iter().find(|d| d.name == "vda").unwrap();
        assert_eq!(vda.role, "other");
        assert_eq!(
            vda.role_reason.as_deref(),
            Some("holds the images of loop0, loop2: not counted")
        );
    }

    fn dev(name: &str) -> DeviceInfo {
        bare(name, 1, 1)
    }

    #[test]
    fn roles() {
        let mut b = dev("bcache0");
        b.slaves = vec!["sdb".into()];
        let mut lo = dev("loop1");
        lo.backing_file = Some("/mnt/f.img".into());
        lo.backing_file_device = Some("loop0".into());
        let mut lo0 = dev("loop0");
        lo0.backing_file = Some("/var/lib/lab/backing.img".into());
        lo0.backing_file_device = Some("vda".into());
        let mut corig = dev("dm-1");
        corig.dm_name = Some("vg-lv_corig".into());
        corig.slaves = vec!["sdc".into()];
        let mut cdata = dev("dm-2");
        cdata.dm_name = Some("vg-cpool_cdata".into());
        let mut front = dev("dm-3");
        front.dm_name = Some("vg-lv".into());
        front.slaves = vec!["dm-1".into(), "dm-2".into()];
        let mut cas = dev("cas1-1");
        cas.slaves = vec!["sdd".into()];
        let mut devs = vec![
            b,
            dev("sdb"),
            dev("sde"),
            lo,
            lo0,
            dev("vda"),
            corig,
            cdata,
            front,
            dev("sdc"),
            cas,
            dev("sdd"),
        ];
        guess_roles(&mut devs, &|n, rel| n == "sde" && rel == "bcache/set");
        let r: BTreeMap<_, _> = devs
            .iter()
            .map(|d| (d.name.as_str(), d.role.as_str()))
            .collect();
        assert_eq!(r["bcache0"], "front");
        assert_eq!(r["sdb"], "backing");
        assert_eq!(r["sde"], "cache");
        assert_eq!(r["loop1"], "front");
        assert_eq!(r["loop0"], "backing");
        assert_eq!(
            r["vda"], "other",
            "the disk under the lab's image is not counted"
        );
        let vda = devs.iter().find(|d| d.name == "vda").unwrap();
        assert_eq!(
            vda.role_reason.as_deref(),
            Some("holds the image of loop0: not counted")
        );
        assert_eq!(r["dm-1"], "backing");
        assert_eq!(r["sdc"], "backing");
        assert_eq!(r["dm-2"], "cache");
        assert_eq!(r["dm-3"], "front");
        assert_eq!(r["cas1-1"], "front");
        assert_eq!(r["sdd"], "backing");
        let t = topology(&devs);
        assert!(t.contains(&("loop1".into(), "loop0".into(), "loop-file".into())));
        assert!(t.contains(&("bcache0".into(), "sdb".into(), "bcache".into())));
        assert!(t.contains(&("dm-3".into(), "dm-1".into(), "dm-cache".into())));
    }

    #[test]
    fn live_sysfs_has_devices() {
        // Any Linux host has at least one block device; skip where /sys is not mounted.
        if !Path::new("/sys/class/block").exists()
            && crate::testenv::skip("live_sysfs_has_devices", "/sys/class/block is absent")
        {
            return;
        }
        let v = list_devices(Path::new("/sys"));
        assert!(!v.is_empty());
        for d in &v {
            if d.is_partition {
                assert!(d.parent.is_some(), "{} has no parent", d.name);
            }
        }
    }
}
