-- CacheProof capture schema, version 5 (docs/capture-schema.md, "interval_blocks"): the interval
-- table again as per-device columnar blocks, written by the probe when a recording or an import
-- ends (and by `cacheproof-probe index`), so that a reader opens a closed capture without reading
-- every interval row. The rows stay the source of truth: `meta.interval_blocks` says which rows the
-- blocks hold, and a recording that resumes deletes them.
CREATE TABLE interval_blocks(
  device_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,                 -- the block's number among its device's blocks, in rowid order
  rows INTEGER NOT NULL,                -- intervals in the block
  min_start_utc_ms INTEGER NOT NULL,
  max_end_utc_ms INTEGER NOT NULL,
  sorted INTEGER NOT NULL,              -- 1: its rows are in ascending start_utc_ms
  first_start_utc_ms INTEGER NOT NULL,  -- start of its first row
  last_start_utc_ms INTEGER NOT NULL,   -- start of its last row
  data BLOB NOT NULL,                   -- the columns, encoded as docs/capture-schema.md says
  PRIMARY KEY (device_id, seq)
);
