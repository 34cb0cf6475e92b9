/**
 * Writes a synthetic capture for tests, end-to-end specs and benchmarks, in the schema the
 * probe writes: built from the capture's own numbered migrations (never a copy of the schema),
 * so a schema change reaches the synthetic captures too. Deterministic (seeded); the workload is shaped like a cache experiment: the
 * front device carries the same I/O throughout, the backing devices carry all of it in the
 * baseline and only the misses (missShare) after the switch.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { mulberry32 } from '../../engine/src/benefit/prng.ts';

export interface SyntheticOptions {
  path: string;
  /** Baseline and measure length, seconds each. */
  windowSeconds: number;
  warmupSeconds: number;
  intervalMs: number;
  /** Number of backing devices (1 front device is added, and `extraDevices` others). */
  backingDevices: number;
  extraDevices?: number;
  /** Share of front I/O that still reaches the backing devices after the switch (0–1). */
  missShare: number;
  startUtcMs?: number;
  seed?: number;
  /** Schema version to write (default: the newest migration). */
  userVersion?: number;
}

declare const __dirname: string | undefined;

const MIGRATIONS = join('native', 'crates', 'capture', 'src', 'migrations');

/**
 * The checkout's migrations folder: from this file's folder when the module system gives it
 * (vitest, the benchmarks' CommonJS bundle), else from the working folder up (Playwright's ESM
 * loader has no `__dirname`; specs run from the checkout).
 */
function migrationsDir(): string {
  const starts = [typeof __dirname === 'string' ? join(__dirname, '..', '..') : null, process.cwd()];
  for (const start of starts) {
    if (start === null) continue;
    for (let d = resolve(start); ; d = dirname(d)) {
      if (existsSync(join(d, MIGRATIONS))) return join(d, MIGRATIONS);
      if (dirname(d) === d) break;
    }
  }
  throw new Error(`the capture migrations (${MIGRATIONS}) were not found above ${process.cwd()}: run from the CacheProof checkout`);
}

/** The capture schema's numbered migrations (native/crates/capture/src/migrations/NNNN_*.sql), in order. */
export function migrations(): { version: number; file: string; sql: string }[] {
  const dir = migrationsDir();
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/u.test(f))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 4)), file, sql: readFileSync(join(dir, file), 'utf8') }));
}

/** The newest capture schema version (the last numbered migration). */
export function latestSchemaVersion(): number {
  return Math.max(...migrations().map((m) => m.version));
}

/** Writes the capture; returns the number of interval rows. */
export function writeSyntheticCapture(o: SyntheticOptions): number {
  const rand = mulberry32(o.seed ?? 42);
  const db = new Database(o.path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // The schema as the probe makes it: every numbered migration up to the version asked for.
  const version = o.userVersion ?? latestSchemaVersion();
  for (const m of migrations()) if (m.version <= version) db.exec(m.sql);
  db.pragma(`application_id = ${0x43505246}`);
  db.pragma(`user_version = ${version}`);
  const start = o.startUtcMs ?? Date.UTC(2026, 10, 2, 0, 0, 0);
  const n = Math.round((o.windowSeconds * 1000) / o.intervalMs);
  const w = Math.round((o.warmupSeconds * 1000) / o.intervalMs);
  const switchAt = start + n * o.intervalMs;
  const measureStart = switchAt + w * o.intervalMs;
  const end = measureStart + n * o.intervalMs;
  const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
  for (const [k, v] of Object.entries({ probe_version: 'synthetic', hostname: 'synthetic-host', kernel: '6.1.0-test', boot_id: 'synthetic-boot', interval_ms: String(o.intervalMs), source: 'synthetic' })) meta.run(k, v);
  const dev = db.prepare('INSERT INTO devices(id, name, major, minor, rotational, role, size_bytes, is_partition) VALUES (?, ?, ?, ?, ?, ?, ?, 0)');
  const devices: { id: number; name: string; role: string }[] = [{ id: 1, name: 'front0', role: 'front' }];
  for (let i = 0; i < o.backingDevices; i++) devices.push({ id: 2 + i, name: `back${i}`, role: 'backing' });
  for (let i = 0; i < (o.extraDevices ?? 0); i++) devices.push({ id: 2 + o.backingDevices + i, name: `other${i}`, role: 'other' });
  for (const d of devices) dev.run(d.id, d.name, 7, d.id, d.role === 'backing' ? 1 : 0, d.role, d.role === 'backing' ? 2_000_000_000_000 : 500_000_000_000);
  const phase = db.prepare('INSERT INTO phases VALUES (?, ?, ?, ?)');
  phase.run('baseline', start, switchAt, o.windowSeconds);
  phase.run('switch', switchAt, switchAt, 0);
  phase.run('warmup', switchAt, measureStart, o.warmupSeconds);
  phase.run('measure', measureStart, end, o.windowSeconds);
  const ins = db.prepare(`INSERT INTO intervals(device_id, start_utc_ms, end_utc_ms, interval_ms, status, reads, writes, read_bytes, write_bytes,
    read_time_ms, write_time_ms, busy_ms, weighted_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  let rows = 0;
  const total = 2 * n + w;
  const tx = db.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const t0 = start + k * o.intervalMs;
      const after = t0 >= switchAt;
      const sec = o.intervalMs / 1000;
      const hourFactor = 1 + 0.3 * Math.sin((2 * Math.PI * ((t0 / 3_600_000) % 24)) / 24);
      const reads = Math.round(800 * sec * hourFactor * (0.9 + 0.2 * rand()));
      const writes = Math.round(200 * sec * hourFactor * (0.9 + 0.2 * rand()));
      const miss = after ? o.missShare : 1;
      const frontLat = after ? 0.4 + 0.1 * rand() : 4 + rand();
      for (const d of devices) {
        let r = reads;
        let wr = writes;
        let lat = frontLat;
        if (d.role === 'backing') {
          r = Math.round((reads * miss) / o.backingDevices);
          wr = Math.round(writes / o.backingDevices);
          lat = 4 + rand();
        } else if (d.role === 'other') {
          r = Math.round(10 * sec * rand());
          wr = Math.round(5 * sec * rand());
        }
        ins.run(d.id, t0, t0 + o.intervalMs, o.intervalMs, 'ok', r, wr, r * 4096, wr * 8192, Math.round(r * lat), Math.round(wr * lat), Math.min(o.intervalMs, Math.round((r + wr) * lat)), Math.round((r + wr) * lat));
        rows++;
      }
    }
  });
  for (let k = 0; k < total; k += 5000) tx(k, Math.min(total, k + 5000));
  db.close();
  return rows;
}
