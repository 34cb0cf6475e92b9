// The CSV report's peer (bench/report/run.mjs): the sqlite3 shell writing the same per-interval
// rows as CSV from the same capture — every interval of every device with the columns the
// report's intervals file has (device, start and end in ISO UTC, interval, status, the counts,
// and the derived rates, response times, request size, busy and queue), in device and time order.
// It does less than `cacheproof report --format csv`: no analysis, no summary file, no hash, and
// 15 significant digits instead of the shortest round-trip form.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';

const iso = (col) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${col} / 1000.0, 'unixepoch')`;
const per = (num, den) => `CASE WHEN ${den} > 0 THEN (${num}) * 1.0 / (${den}) END`;

/** The peer's SQL: the intervals file's 20 columns. */
export const PEER_SQL = `SELECT d.name, ${iso('i.start_utc_ms')}, ${iso('i.end_utc_ms')}, i.interval_ms, i.status,
  i.reads, i.writes, i.read_bytes, i.write_bytes,
  i.reads * 1000.0 / i.interval_ms, i.writes * 1000.0 / i.interval_ms, (i.reads + i.writes) * 1000.0 / i.interval_ms,
  i.read_bytes / 1000.0 / i.interval_ms, i.write_bytes / 1000.0 / i.interval_ms,
  ${per('i.read_time_ms', 'i.reads')}, ${per('i.write_time_ms', 'i.writes')}, ${per('i.read_time_ms + i.write_time_ms', 'i.reads + i.writes')},
  ${per('i.read_bytes + i.write_bytes', 'i.reads + i.writes')}, MIN(100.0, i.busy_ms * 100.0 / i.interval_ms), i.weighted_ms * 1.0 / i.interval_ms
FROM intervals i JOIN devices d ON d.id = i.device_id ORDER BY i.device_id, i.start_utc_ms;`;

/** Runs the peer into `out`; its wall seconds and the bytes it wrote, or null when sqlite3 failed. */
export function sqliteCsvPeer(capture, out) {
  const t = performance.now();
  const r = spawnSync('sqlite3', ['-csv', '-header', '-cmd', `.output ${out}`, capture, PEER_SQL], { stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) return null;
  return { seconds, bytes: statSync(out).size };
}
