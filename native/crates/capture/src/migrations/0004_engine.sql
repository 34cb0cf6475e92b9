-- CacheProof capture schema, version 4 (docs/capture-schema.md, docs/adapters.md): what a cache
-- engine adapter did and what the engine says about itself. Both tables stay empty in captures
-- recorded without an adapter (--switch manual) and in imports.
CREATE TABLE engine_actions(
  id INTEGER PRIMARY KEY,
  start_utc_ms INTEGER NOT NULL,  -- when the step started
  end_utc_ms INTEGER NOT NULL,    -- when it ended (or was given up at its timeout)
  adapter TEXT NOT NULL,          -- loop-dio, bcache, lvmcache, opencas, command
  device TEXT NOT NULL,           -- the engine's device as given to the adapter
  action TEXT NOT NULL,           -- enable, disable, restore
  step TEXT NOT NULL,             -- the argument vector or sysfs write, in words
  output TEXT NOT NULL,           -- stdout and stderr of a command, or the write's error
  exit_status INTEGER,            -- a command's exit status; NULL for a sysfs write, a timeout or a command that could not start
  ok INTEGER NOT NULL,            -- 1: the step succeeded
  mode_before TEXT,               -- the engine's mode before the action (adapter's describe)
  mode_after TEXT                 -- its mode after the action, read back from the engine
);
CREATE TABLE engine_stats(
  utc_ms INTEGER NOT NULL,        -- when the engine was read
  adapter TEXT NOT NULL,
  device TEXT NOT NULL,
  name TEXT NOT NULL,             -- read_hits, read_misses, write_hits, dirty_bytes, … (docs/adapters.md)
  value REAL NOT NULL,
  unit TEXT NOT NULL,             -- requests, bytes, blocks-4KiB, sectors, …
  window TEXT NOT NULL            -- cumulative, or the engine's own decaying window: decaying-5min, decaying-1h, decaying-1d
);
CREATE INDEX engine_stats_time ON engine_stats(utc_ms);
