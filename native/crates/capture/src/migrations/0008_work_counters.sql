-- CacheProof capture schema, version 8 (docs/capture-schema.md, "work_counters"): the work the
-- server did, per interval, from counters the source logs beside the disks' (PerfMon
-- Process(NAME)\IO Data / Read / Write Operations/sec, which count a process's I/O requests above
-- the file cache, and SQL Server SQL Statistics\Batch Requests/sec). The engine compares the
-- disks' I/Os per unit of this work before vs after. One row per counter, instance and interval
-- with a figure; absent is no row, never 0; empty when the source carries no work counter.
CREATE TABLE work_counters(
  name TEXT NOT NULL,             -- io_ops_per_s, io_reads_per_s, io_writes_per_s, batches_per_s
  instance TEXT NOT NULL,         -- the process (_Total, sqlservr) or SQL Server instance (SQLServer, MSSQL$NAME), HOST\ prefixed in a log of several hosts
  start_utc_ms INTEGER NOT NULL,  -- the interval's start (the row above's time)
  end_utc_ms INTEGER NOT NULL,    -- its end (the row's time)
  rate_per_s REAL NOT NULL,       -- the counter's mean rate over the interval, per second
  source TEXT NOT NULL,           -- the counter path as the file spells it
  PRIMARY KEY (name, instance, start_utc_ms)
) WITHOUT ROWID;
