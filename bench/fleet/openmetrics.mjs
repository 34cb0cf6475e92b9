// A synthetic node_exporter fleet for bench/fleet: HOSTS hosts × 2 disks (sda, sdb), one scrape
// every STEP seconds over POINTS intervals, as OpenMetrics, backfilled into a Prometheus TSDB with
// `promtool tsdb create-blocks-from openmetrics` (the e2e's way, e2e/prometheus.ts). Written a
// chunk of hosts at a time (one OpenMetrics file per chunk, backfilled then removed) so the
// generator's memory and the file on disk stay bounded whatever the fleet's size; each line is
// computed from closed forms (no series is held). The same fleet also goes to VictoriaMetrics
// through its import API (importFleet: the Prometheus text format, timestamps in ms).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const DISKS = ['sda', 'sdb'];

/**
 * The devices of host h: its two disks, and with `stacked`, on every fourth host (h mod 4 = 1) a
 * device-mapper volume `dm-0` and on every fifth (h mod 5 = 2) a partition `sda1`, both following
 * the daily wave of the disks (an import finds them on a disk: not counted): what an import's
 * roles and the pushdown's device regexes must agree on. Host 3 then also restarts half-way
 * (its counters start again from 0: a reset interval, left out by both) and host 4 has slow
 * reads in every tenth interval (readSeconds).
 */
export function devicesOf(h, stacked) {
  if (!stacked) return DISKS;
  return [...DISKS, ...(h % 4 === 1 ? ['dm-0'] : []), ...(h % 5 === 2 ? ['sda1'] : [])];
}

export const hostName = (h) => `host${String(h).padStart(4, '0')}:9100`;

/** Reads/s and writes/s of host h, device d (its index in devicesOf), in interval k: a base, a daily wave and, on sda, a one-hour burst at a host-dependent time each day. */
export function ratesAt(h, d, k, stepS) {
  const minute = Math.floor((k * stepS) / 60);
  const ofDay = minute % 1440;
  const burstAt = 60 * ((h * 7) % 24);
  const burst = d === 0 && ofDay >= burstAt && ofDay < burstAt + 60 ? 150 + (h % 50) : 0;
  const wave = Math.round(20 * (1 + Math.sin((2 * Math.PI * ofDay) / 1440)));
  return { reads: 20 + ((h * 7 + d * 13) % 90) + wave + burst, writes: 5 + ((h * 3 + d) % 20) };
}

/** Seconds a read takes: 2 ms; with `stacked`, 25 ms on host 4 in every tenth interval (10 % of its intervals over the 20 ms target: a warning). */
export const readSeconds = (h, k, stacked) => (stacked && h === 4 && k % 10 === 0 ? 0.025 : 0.002);

/** The 11 node_exporter disk families (the probe reads latencies from a full layout only): name, value from the cumulative reads, writes and read seconds, type. */
const FAMILIES = [
  ['node_disk_reads_completed', (r) => String(r)],
  ['node_disk_reads_merged', () => '0'],
  ['node_disk_writes_merged', () => '0'],
  ['node_disk_io_now', () => '0', 'gauge'],
  ['node_disk_writes_completed', (_r, w) => String(w)],
  ['node_disk_read_bytes', (r) => String(r * 4096)],
  ['node_disk_written_bytes', (_r, w) => String(w * 8192)],
  ['node_disk_read_time_seconds', (_r, _w, rt) => rt.toFixed(3)],
  ['node_disk_write_time_seconds', (_r, w) => (w * 0.001).toFixed(3)],
  ['node_disk_io_time_seconds', (r, w) => ((r + w) * 0.001).toFixed(3)],
  ['node_disk_io_time_weighted_seconds', (_r, w, rt) => (rt + w * 0.001).toFixed(3)],
];

/**
 * Writes intervals kFrom ≤ k < kTo of `hosts` to `file`; `state` holds each device's counters
 * (reads, writes, read seconds) at kFrom, by "h/d", and is moved on to kTo. Timestamps in
 * seconds (OpenMetrics), or with `ms` in milliseconds (the Prometheus text format).
 */
async function writeSlice(file, hosts, { points, stepS, t0, stacked, kFrom, kTo, state, ms = false }) {
  const out = createWriteStream(file);
  const put = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once('drain', r)));
  const next = new Map();
  for (const [fam, value, type = 'counter'] of FAMILIES) {
    await put(`# TYPE ${fam} ${type}\n`);
    const name = type === 'counter' ? `${fam}_total` : fam;
    for (const h of hosts) {
      const devices = devicesOf(h, stacked);
      for (let d = 0; d < devices.length; d++) {
        const labels = `{device="${devices[d]}",instance="${hostName(h)}",job="node"}`;
        let { r, w, rt } = state.get(`${h}/${d}`) ?? { r: 1_000_000 * h, w: 300_000 * h, rt: 1_000_000 * h * 0.002 };
        let buf = '';
        for (let k = kFrom; k < kTo; k++) {
          // with `stacked`, host 3 restarts half-way: its counters start again from 0 (a reset)
          if (stacked && h === 3 && k === Math.floor(points / 2)) { r = 0; w = 0; rt = 0; }
          buf += `${name}${labels} ${value(r, w, rt)} ${(t0 + k * stepS) * (ms ? 1000 : 1)}\n`;
          if (k < points) {
            const x = ratesAt(h, d, k, stepS);
            r += x.reads * stepS;
            w += x.writes * stepS;
            rt += x.reads * stepS * readSeconds(h, k, stacked);
          }
          if (buf.length > 1 << 20) {
            await put(buf);
            buf = '';
          }
        }
        await put(buf);
        next.set(`${h}/${d}`, { r, w, rt });
      }
    }
  }
  for (const [key, v] of next) state.set(key, v);
  await put('# EOF\n');
  await new Promise((res, rej) => out.end((e) => (e ? rej(e) : res())));
}

/**
 * Backfills the fleet into `dir/tsdb`, `chunk` hosts at a time (`stacked`: with the devices
 * devicesOf adds), with `sliceS`, each chunk a slice of time per file: promtool parses its whole
 * input once for every 2-hour block it writes, so a week in one file costs 84 parses of it;
 * 2-hour slices cost one. `log` says where it is.
 */
export async function backfillFleet({ dir, hosts, points, stepS, t0, chunk = 25, stacked = false, sliceS = 0, log = () => {} }) {
  mkdirSync(dir, { recursive: true });
  const slice = sliceS > 0 ? Math.max(1, Math.floor(sliceS / stepS)) : points + 1;
  // a slice is written while promtool backfills the one before (two processes, two cores; two files)
  let last = Promise.resolve();
  let n = 0;
  for (let a = 0; a < hosts; a += chunk) {
    const ids = Array.from({ length: Math.min(chunk, hosts - a) }, (_, i) => a + i);
    const state = new Map();
    for (let kFrom = 0; kFrom <= points; kFrom += slice) {
      const kTo = Math.min(kFrom + slice, points + 1);
      const file = join(dir, `slice-${n++ % 2}.om`);
      await writeSlice(file, ids, { points, stepS, t0, stacked, kFrom, kTo, state });
      await last;
      const done = kTo === points + 1 ? `backfilled hosts ${a}–${a + ids.length - 1} of ${hosts}` : null;
      last = promtool(file, join(dir, 'tsdb')).then(() => { if (done) log(done); });
    }
  }
  await last;
}

/**
 * Writes the same fleet as backfillFleet into a VictoriaMetrics server at `url` (`POST
 * /api/v1/import/prometheus`: the Prometheus text format, timestamps in ms), `chunk` hosts a
 * request, each request's body a file in `dir` removed once sent.
 */
export async function importFleet({ url, dir, hosts, points, stepS, t0, chunk = 10, stacked = false }) {
  mkdirSync(dir, { recursive: true });
  for (let a = 0; a < hosts; a += chunk) {
    const ids = Array.from({ length: Math.min(chunk, hosts - a) }, (_, i) => a + i);
    const file = join(dir, 'import.prom');
    await writeSlice(file, ids, { points, stepS, t0, stacked, kFrom: 0, kTo: points + 1, state: new Map(), ms: true });
    const r = await fetch(`${url}/api/v1/import/prometheus`, { method: 'POST', body: readFileSync(file) });
    rmSync(file);
    if (!r.ok) throw new Error(`VictoriaMetrics refused the import of hosts ${a}–${a + ids.length - 1} (HTTP ${r.status}): ${(await r.text()).slice(0, 500)}`);
  }
}

/** `promtool tsdb create-blocks-from openmetrics FILE TSDB`, then the file removed. */
function promtool(file, tsdb) {
  return new Promise((resolve, reject) => {
    const p = spawn('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', file, tsdb], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', reject);
    p.on('exit', (code) => {
      if (code === 0) {
        rmSync(file);
        resolve();
      } else reject(new Error(`promtool failed on ${file} (exit ${code}): ${err.trim().slice(-500)}`));
    });
  });
}
