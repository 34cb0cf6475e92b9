-- CacheProof capture schema, version 7 (docs/capture-schema.md, "volume_capacity"): how full the
-- volumes are, over time. One row per volume per moment a source stated its size or free space
-- (PerfMon LogicalDisk % Free Space / Free Megabytes, windows_exporter
-- windows_logical_disk_size_bytes / _free_bytes, node_exporter node_filesystem_size_bytes /
-- _avail_bytes). Absent is NULL, never 0; empty when the source carries no capacity.
CREATE TABLE volume_capacity(
  volume TEXT NOT NULL,           -- the volume as the source names it (C:, /dev/sda1), HOST/ prefixed in a fleet capture
  utc_ms INTEGER NOT NULL,        -- the moment the source stated it
  device_id INTEGER NULL REFERENCES devices(id), -- the capture's device of that volume, NULL when none
  mount TEXT NULL,                -- where it is mounted (node_exporter mountpoint, a Windows drive), NULL when not stated
  size_bytes INTEGER NULL,        -- its size
  free_bytes INTEGER NULL,        -- free space an ordinary writer can still use (node_exporter: avail, not free)
  source TEXT NOT NULL,           -- which counters: perfmon, windows_exporter, node_exporter, statvfs
  PRIMARY KEY (volume, utc_ms)
) WITHOUT ROWID;
CREATE INDEX volume_capacity_by_time ON volume_capacity(utc_ms);
