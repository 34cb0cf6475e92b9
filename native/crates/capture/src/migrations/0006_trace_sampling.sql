-- CacheProof capture schema, version 6 (docs/capture-schema.md, "latency_histograms" and
-- "trace_sample_rates"): the completion latency of every traced request as a histogram per sample
-- interval, device and operation, counted by the tracer before the trace's sampling keeps a share
-- of the requests; and the history of the trace's sampling rate (`record --trace-budget`), so
-- that every estimate from the stored requests is scaled by the rate they were kept at.
CREATE TABLE latency_histograms(
  device_id INTEGER NOT NULL,     -- devices.id
  start_utc_ms INTEGER NOT NULL,  -- the interval's first sample (as intervals.start_utc_ms)
  end_utc_ms INTEGER NOT NULL,    -- its last sample
  op TEXT NOT NULL,               -- 'R' read or 'W' write
  requests INTEGER NOT NULL,      -- requests issued in the interval, completed or not
  completed INTEGER NOT NULL,     -- of which completed: the histogram's count
  sum_ns INTEGER NOT NULL,        -- sum of their completion latencies (complete_ns - issue_ns)
  buckets BLOB NOT NULL,          -- (u8 bucket, LEB128 count) pairs, buckets ascending
  PRIMARY KEY (device_id, start_utc_ms, op)
) WITHOUT ROWID;
CREATE TABLE trace_sample_rates(
  id INTEGER PRIMARY KEY,
  utc_ms INTEGER NOT NULL,            -- when the rate changed
  mono_ns INTEGER NOT NULL,           -- CLOCK_MONOTONIC at the change
  threshold_before INTEGER NOT NULL,  -- hash threshold out of 2^24 (rate = threshold / 2^24)
  threshold_after INTEGER NOT NULL,
  traced_s REAL NOT NULL,             -- seconds of tracing so far (all sessions)
  seen INTEGER NOT NULL,              -- requests the tracer had handed over so far
  stored INTEGER NOT NULL,            -- requests stored so far (block_requests rows)
  reason TEXT NOT NULL                -- why, in words
);
