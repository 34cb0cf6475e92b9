-- CacheProof capture schema, version 1 (docs/capture-schema.md).
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE devices (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  major INTEGER,
  minor INTEGER,
  size_bytes INTEGER,
  rotational INTEGER,
  model TEXT,
  vendor TEXT,
  logical_block_size INTEGER,
  physical_block_size INTEGER,
  is_partition INTEGER NOT NULL,
  parent TEXT,
  backing_file TEXT,
  role TEXT NOT NULL,
  first_seen_utc_ms INTEGER,
  last_seen_utc_ms INTEGER
);
CREATE TABLE topology (holder TEXT, slave TEXT, kind TEXT);
CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  mono_ns INTEGER NOT NULL,
  utc_ms INTEGER NOT NULL,
  boot_id TEXT NOT NULL
);
CREATE TABLE raw_counters (
  sample_id INTEGER NOT NULL,
  device_id INTEGER NOT NULL,
  field_count INTEGER NOT NULL,
  f1 INTEGER, f2 INTEGER, f3 INTEGER, f4 INTEGER, f5 INTEGER, f6 INTEGER, f7 INTEGER,
  f8 INTEGER, f9 INTEGER, f10 INTEGER, f11 INTEGER, f12 INTEGER, f13 INTEGER, f14 INTEGER,
  f15 INTEGER, f16 INTEGER, f17 INTEGER,
  PRIMARY KEY (sample_id, device_id)
) WITHOUT ROWID;
CREATE TABLE intervals (
  device_id INTEGER NOT NULL,
  start_utc_ms INTEGER NOT NULL,
  end_utc_ms INTEGER NOT NULL,
  interval_ms REAL NOT NULL,
  status TEXT NOT NULL,
  reads INTEGER, writes INTEGER,
  read_merges INTEGER, write_merges INTEGER,
  read_bytes INTEGER, write_bytes INTEGER,
  read_time_ms INTEGER, write_time_ms INTEGER,
  busy_ms INTEGER, weighted_ms INTEGER, in_flight INTEGER,
  discards INTEGER, discard_bytes INTEGER, discard_time_ms INTEGER,
  flushes INTEGER, flush_time_ms INTEGER,
  PRIMARY KEY (device_id, start_utc_ms)
);
CREATE TABLE phases (name TEXT, start_utc_ms INTEGER, end_utc_ms INTEGER, planned_s REAL);
CREATE TABLE marks (id INTEGER PRIMARY KEY, utc_ms INTEGER, mono_ns INTEGER, kind TEXT, note TEXT);
CREATE TABLE warnings (id INTEGER PRIMARY KEY, utc_ms INTEGER, code TEXT, device TEXT, message TEXT);
CREATE TABLE recorder (key TEXT PRIMARY KEY, value TEXT);
