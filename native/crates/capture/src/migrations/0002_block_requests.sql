-- CacheProof capture schema, version 2 (docs/capture-schema.md): block-request traces
-- (`cacheproof-probe record --trace`). A v1 capture gains the empty table when it is opened
-- for writing (`record --resume`).
CREATE TABLE block_requests(
  device_id INTEGER NOT NULL,   -- devices.id
  issue_ns INTEGER NOT NULL,    -- CLOCK_MONOTONIC ns at block_rq_issue (the driver got the request)
  complete_ns INTEGER,          -- CLOCK_MONOTONIC ns at block_rq_complete; NULL when not seen
  utc_ms INTEGER NOT NULL,      -- wall-clock label of the issue: issue mono mapped through the nearest sample's (mono, utc)
  sector INTEGER NOT NULL,      -- first 512-byte sector
  bytes INTEGER NOT NULL,       -- nr_sector × 512 (the issue event's bytes when nr_sector is 0, e.g. flush)
  op TEXT NOT NULL,             -- 'R' read, 'W' write, 'D' discard, 'F' flush-only, 'N' other (from rwbs)
  rwbs TEXT NOT NULL,           -- as the kernel printed it (audit)
  error INTEGER                 -- the complete event's error, NULL when not seen
);
CREATE INDEX block_requests_by_device_time ON block_requests(device_id, issue_ns);
