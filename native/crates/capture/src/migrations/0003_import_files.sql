-- CacheProof capture schema, version 3 (docs/capture-schema.md): provenance of imported files
-- (`cacheproof-probe import`). One row per file an import read; empty in recorded captures.
CREATE TABLE import_files(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,             -- file name (last path component)
  path TEXT NOT NULL,             -- the path as given to import
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,           -- hex SHA-256 of the file's bytes
  kind TEXT NOT NULL,             -- import KIND: perfmon, esxtop, iostat, iostat-json, sar, sadf, diskstats
  format TEXT NOT NULL,           -- the format recognized, in words
  encoding TEXT NOT NULL,         -- utf-8, utf-16le, utf-16be, cp1251, cp1252, cp932
  encoding_how TEXT NOT NULL,     -- bom, detected or given (--encoding)
  time_zone TEXT,                 -- the zone name the file states, NULL when none
  utc_offset_min INTEGER,         -- source local time − UTC, minutes; NULL when unknown
  time_zone_source TEXT NOT NULL, -- where the offset came from, in words
  part TEXT NOT NULL,             -- all, baseline or measure
  hosts TEXT NOT NULL,            -- JSON array of host names found in the file
  first_utc_ms INTEGER,           -- first sample of the file
  last_utc_ms INTEGER,            -- last sample of the file
  samples INTEGER NOT NULL,       -- samples read from the file
  mapping TEXT NOT NULL           -- JSON: {mapped:[{source,field}], unmapped:[{what,why}], notes:[…], devices:[{name,source,role}]}
);
