"""The analysis's peer in the benches: DuckDB doing the same work on the same interval rows.

bench/lib/duckdb-peer.mjs runs it in bench/lib/.venv (duckdb and pandas from PyPI).

  prepare CAPTURE DB    copies the capture's interval rows (and device names) into a DuckDB file,
                        once (not timed): DuckDB then reads its own columnar storage, as the app
                        reads the capture's columnar blocks.
  figures DB B0 B1 M0 M1 BACKING_IDS THREADS
                        per device and per group (the front device, the backing devices' sum per
                        interval), in each window [B0, B1) and [M0, M1) (UTC ms): the counts of
                        `ok` intervals, the sums of every counter, and p50/p95/p99 (type 7,
                        quantile_cont) and the maximum of the nine per-interval metrics the engine
                        summarizes (engine/src/metrics/summary.ts DISTRIBUTION_METRICS); and every
                        device's bucket sums on two time grids (the dashboard's chart line and the
                        report's). Prints the wall milliseconds from opening the file to the last
                        result fetched, and the result rows.
  csv DB OUT THREADS    writes the report's per-interval CSV columns (bench/report/csv-peer.mjs's
                        20) for every interval in device and time order; prints milliseconds and
                        bytes.
"""
import json
import os
import sqlite3
import sys
import time

import duckdb

COUNTERS = ['reads', 'writes', 'read_bytes', 'write_bytes', 'read_time_ms', 'write_time_ms', 'busy_ms', 'weighted_ms']

# the nine per-interval metrics (engine DISTRIBUTION_METRICS), NULL where the engine has no value
METRICS = {
    'iops': '(reads + writes) * 1000.0 / interval_ms',
    'readsPerSec': 'reads * 1000.0 / interval_ms',
    'writesPerSec': 'writes * 1000.0 / interval_ms',
    'mbps': '(read_bytes + write_bytes) / 1e6 * 1000.0 / interval_ms',
    'awaitMs': 'CASE WHEN reads + writes > 0 THEN (read_time_ms + write_time_ms) * 1.0 / (reads + writes) END',
    'rAwaitMs': 'CASE WHEN reads > 0 THEN read_time_ms * 1.0 / reads END',
    'wAwaitMs': 'CASE WHEN writes > 0 THEN write_time_ms * 1.0 / writes END',
    'utilPercent': 'busy_ms * 100.0 / interval_ms',
    'aquSz': 'weighted_ms * 1.0 / interval_ms',
}


def prepare(capture, db):
    tmp = db + '.tmp'
    if os.path.exists(tmp):
        os.remove(tmp)
    src = sqlite3.connect(capture)
    con = duckdb.connect(tmp)
    cols = 'device_id, start_utc_ms, end_utc_ms, interval_ms, status, ' + ', '.join(COUNTERS)
    con.execute(f'CREATE TABLE intervals (device_id INTEGER, start_utc_ms BIGINT, end_utc_ms BIGINT, interval_ms DOUBLE, status VARCHAR, '
                + ', '.join(f'{c} BIGINT' for c in COUNTERS) + ')')
    cur = src.execute(f'SELECT {cols} FROM intervals ORDER BY device_id, start_utc_ms')
    import pandas
    while True:
        rows = cur.fetchmany(500_000)
        if not rows:
            break
        frame = pandas.DataFrame(rows, columns=cols.split(', '))
        con.execute('INSERT INTO intervals SELECT * FROM frame')
    names = src.execute('SELECT id, name FROM devices').fetchall()
    con.execute('CREATE TABLE devices (id INTEGER, name VARCHAR)')
    con.executemany('INSERT INTO devices VALUES (?, ?)', names)
    con.execute('CHECKPOINT')
    con.close()
    os.replace(tmp, db)


def summary_sql(source, key):
    """Per `key` and window: counts, sums and the nine distributions of `source`'s rows."""
    sums = ', '.join(f'sum({c})' for c in COUNTERS)
    dists = ', '.join(f'quantile_cont({m}, [0.5, 0.95, 0.99]), max({m})' for m in METRICS)
    metrics = ', '.join(f'{e} AS {m}' for m, e in METRICS.items())
    return f'''SELECT {key}, win, count(*), sum(interval_ms), {sums}, {dists}
      FROM (SELECT *, {metrics} FROM {source}) GROUP BY ALL ORDER BY ALL'''


def figures(db, b0, b1, m0, m1, backing, threads):
    t0 = time.perf_counter()
    con = duckdb.connect(db, read_only=True)
    con.execute(f'SET threads = {threads}')
    win = f'CASE WHEN start_utc_ms >= {b0} AND end_utc_ms <= {b1} THEN 0 WHEN start_utc_ms >= {m0} AND end_utc_ms <= {m1} THEN 1 END'
    cols = 'device_id, start_utc_ms, interval_ms, ' + ', '.join(COUNTERS)
    ok = f"(SELECT {cols}, {win} AS win FROM intervals WHERE status = 'ok') WHERE win IS NOT NULL"
    group_sums = ', '.join(f'sum({c}) AS {c}' for c in COUNTERS)
    backing_rows = f'''(SELECT win, start_utc_ms, max(interval_ms) AS interval_ms, {group_sums}
      FROM (SELECT * FROM {ok}) WHERE device_id IN ({backing}) GROUP BY win, start_utc_ms)'''
    span = m1 - b0
    out = []
    out += con.execute(summary_sql(f'(SELECT * FROM {ok})', 'device_id')).fetchall()
    out += con.execute(summary_sql(backing_rows, "'backing'")).fetchall()
    for buckets in (1000, 300):
        width = -(-span // buckets)
        out += con.execute(f'''SELECT device_id, (start_utc_ms - {b0}) // {width} AS k, sum(interval_ms), {group_sums}
          FROM intervals WHERE status = 'ok' GROUP BY ALL ORDER BY ALL''').fetchall()
    ms = (time.perf_counter() - t0) * 1000
    con.close()
    print(json.dumps({'ms': ms, 'rows': len(out), 'version': duckdb.__version__}))


def csv(db, out, threads):
    t0 = time.perf_counter()
    con = duckdb.connect(db, read_only=True)
    con.execute(f'SET threads = {threads}')

    def per(num, den):
        return f'CASE WHEN {den} > 0 THEN ({num}) * 1.0 / ({den}) END'

    def iso(col):
        return f"strftime(make_timestamp({col} * 1000), '%Y-%m-%dT%H:%M:%S.%gZ')"
    sql = f'''SELECT d.name, {iso('i.start_utc_ms')}, {iso('i.end_utc_ms')}, i.interval_ms, i.status,
      i.reads, i.writes, i.read_bytes, i.write_bytes,
      i.reads * 1000.0 / i.interval_ms, i.writes * 1000.0 / i.interval_ms, (i.reads + i.writes) * 1000.0 / i.interval_ms,
      i.read_bytes / 1000.0 / i.interval_ms, i.write_bytes / 1000.0 / i.interval_ms,
      {per('i.read_time_ms', 'i.reads')}, {per('i.write_time_ms', 'i.writes')}, {per('i.read_time_ms + i.write_time_ms', 'i.reads + i.writes')},
      {per('i.read_bytes + i.write_bytes', 'i.reads + i.writes')}, least(100.0, i.busy_ms * 100.0 / i.interval_ms), i.weighted_ms * 1.0 / i.interval_ms
      FROM intervals i JOIN devices d ON d.id = i.device_id ORDER BY i.device_id, i.start_utc_ms'''
    con.execute(f"COPY ({sql}) TO '{out}' (HEADER, DELIMITER ',')")
    con.close()
    # the same durability as the report's atomic writer: the file's bytes on disk before it counts
    fd = os.open(out, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({'ms': ms, 'bytes': os.path.getsize(out), 'version': duckdb.__version__}))


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'prepare':
        prepare(*args)
    elif cmd == 'figures':
        figures(args[0], int(args[1]), int(args[2]), int(args[3]), int(args[4]), args[5], int(args[6]))
    elif cmd == 'csv':
        csv(args[0], args[1], int(args[2]))
    else:
        sys.exit(f'duckdb_peer.py: unknown command {cmd!r} (prepare, figures, csv)')
