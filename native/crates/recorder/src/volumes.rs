//! The live probe's volume capacity (docs/capture-schema.md, `volume_capacity`, source
//! `statvfs`): the filesystems mounted on the recorded devices (/proc/self/mountinfo, matched by
//! the device's major:minor), each statvfs'd once a minute: size = f_blocks × f_frsize, free =
//! f_bavail × f_frsize (what an ordinary writer can still use, as `df` and node_exporter's
//! `avail` count it). The same filesystem types as the node_exporter import are left out
//! (`SKIPPED_FSTYPES`); a device mounted at several points (bind mounts) is one volume, at its
//! shortest mount point. A filesystem statvfs cannot read is skipped (no row, never a 0).

use std::collections::BTreeMap;
use std::ffi::CString;

use crate::capture::capacity::VolumeRow;
use crate::capture::Capture;
use crate::error::Result;
use crate::fstypes::SKIPPED_FSTYPES;

/// How often the volumes are read, ms.
pub const EVERY_MS: i64 = 60_000;

/// A filesystem mounted on a recorded device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mounted {
    pub device: String,
    pub device_id: i64,
    pub mount: String,
}

/// Undo mountinfo's octal escapes (`\040` for a space).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 < b.len() {
            if let Some(Ok(v)) = s.get(i + 1..i + 4).map(|o| u8::from_str_radix(o, 8)) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The filesystems of `mountinfo` (the text of /proc/self/mountinfo) mounted on the devices
/// `devs` (name, major, minor, capture id), one per device.
pub fn mounted(mountinfo: &str, devs: &[(String, u32, u32, i64)]) -> Vec<Mounted> {
    let mut best: BTreeMap<String, Mounted> = BTreeMap::new();
    for l in mountinfo.lines() {
        let f: Vec<&str> = l.split(' ').collect();
        let Some(sep) = f.iter().position(|x| *x == "-") else {
            continue;
        };
        let (Some(num), Some(mnt), Some(fstype)) = (f.get(2), f.get(4), f.get(sep + 1)) else {
            continue;
        };
        if SKIPPED_FSTYPES.contains(fstype) {
            continue;
        }
        let Some((ma, mi)) = num.split_once(':') else {
            continue;
        };
        let (Ok(ma), Ok(mi)) = (ma.parse::<u32>(), mi.parse::<u32>()) else {
            continue;
        };
        let Some((name, _, _, id)) = devs.iter().find(|d| d.1 == ma && d.2 == mi) else {
            continue;
        };
        let mount = unescape(mnt);
        let shorter = best
            .get(name)
            .is_none_or(|m| (mount.len(), &mount) < (m.mount.len(), &m.mount));
        if shorter {
            best.insert(
                name.clone(),
                Mounted {
                    device: name.clone(),
                    device_id: *id,
                    mount,
                },
            );
        }
    }
    best.into_values().collect()
}

/// (size, free) bytes of the filesystem mounted at `mount`, or None when statvfs fails.
pub fn statvfs(mount: &str) -> Option<(i64, i64)> {
    let c = CString::new(mount).ok()?;
    // SAFETY: `c` is a valid C string; `st` is plain data the call fills.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    if rc != 0 {
        return None;
    }
    let frsize = st.f_frsize as i64;
    Some((st.f_blocks as i64 * frsize, st.f_bavail as i64 * frsize))
}

/// Read and store the capacity of every filesystem on the recorded devices, at `utc`.
pub fn sample(cap: &Capture, utc: i64) -> Result<()> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    for m in mounted(&info, &cap.device_numbers()) {
        let Some((size, free)) = statvfs(&m.mount) else {
            continue;
        };
        cap.add_volume_capacity(&VolumeRow {
            utc_ms: utc,
            volume: &format!("/dev/{}", m.device),
            device_id: Some(m.device_id),
            mount: Some(&m.mount),
            size_bytes: Some(size),
            free_bytes: Some(free),
            source: "statvfs",
        })?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn mounts_on_recorded_devices_one_each_pseudo_filesystems_left_out() {
        let info = "\
22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
23 22 252:0 /var/lib/x /srv/bind\\040dir rw - ext4 /dev/vda rw
24 22 0:21 / /dev/shm rw - tmpfs tmpfs rw
25 22 8:1 / /data rw - xfs /dev/sda1 rw
26 22 7:0 / /snap/core rw - squashfs /dev/loop0 ro
";
        let devs = vec![
            ("vda".to_string(), 252, 0, 1),
            ("sda1".to_string(), 8, 1, 2),
            ("loop0".to_string(), 7, 0, 3),
        ];
        let m = mounted(info, &devs);
        assert_eq!(
            m,
            vec![
                Mounted {
                    device: "sda1".into(),
                    device_id: 2,
                    mount: "/data".into()
                },
                Mounted {
                    device: "vda".into(),
                    device_id: 1,
                    mount: "/".into()
                },
            ]
        );
        assert_eq!(unescape("/srv/bind\\040dir"), "/srv/bind dir");
        let (size, free) = statvfs("/").unwrap();
        assert!(size > 0 && free >= 0 && free <= size);
        assert_eq!(statvfs("/no/such/mount/point"), None);
    }
}
