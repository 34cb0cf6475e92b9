//! Filesystem types that hold no disk's data or are always full: the Prometheus import skips
//! them (node_exporter's filesystems) and so does the recorder's volume list.

/// Filesystem types never imported: memory, overlays of other filesystems, read-only images
/// (always 100 % full), kernel pseudo-filesystems.
pub const SKIPPED_FSTYPES: &[&str] = &[
    "tmpfs", "devtmpfs", "ramfs", "overlay", "aufs", "squashfs", "iso9660", "nsfs", "autofs",
    "proc", "sysfs", "cgroup", "cgroup2",
];
