/**
 * fio's JSON output (`fio --output-format=json`, fio 2.x and 3.x) as a reference for a capture,
 * the way an independent lab checks an analyzer against its load generator: fio's own totals per
 * job and the block-layer counts it read for each disk (`disk_util`, from /proc/diskstats),
 * beside the capture's totals of the same device and window.
 *
 * Units, by version (fio's own changelog): fio 3 writes `io_bytes` in bytes and adds `io_kbytes`;
 * fio 2 writes `io_bytes` in KiB and has no `io_kbytes`. `total_ios` exists from fio 2.1x on; where
 * it is absent the job's I/O count is null (never estimated from `iops × runtime`).
 */

/** One direction (read or write) of one fio job. */
export interface FioSide {
  /** I/Os fio completed (`total_ios`), or null when this fio does not report it. */
  ios: number | null;
  /** Bytes fio moved (from `io_bytes`/`io_kbytes`, see the module comment). */
  bytes: number;
  /** Milliseconds this direction ran (`runtime`). */
  runtimeMs: number;
}

export interface FioJob {
  name: string;
  read: FioSide;
  write: FioSide;
}

/** fio's `disk_util` entry for a device: block-layer counts over the run (diskstats deltas). */
export interface FioDisk {
  name: string;
  readIos: number;
  writeIos: number;
  readMerges: number | null;
  writeMerges: number | null;
  /** ms reading/writing (diskstats fields 4 and 8 deltas). */
  readTicksMs: number | null;
  writeTicksMs: number | null;
}

export interface FioRun {
  /** `fio version`, e.g. `fio-3.1`. */
  version: string;
  /** End of the run, UTC ms (`timestamp_ms`, else `timestamp` × 1000), or null (fio 2.1 writes neither). */
  endMs: number | null;
  /** Longest job's `elapsed`, seconds, or null. */
  elapsedS: number | null;
  jobs: FioJob[];
  disks: FioDisk[];
  /** Whether `io_bytes` was read as KiB (fio 2) rather than bytes (fio 3). */
  ioBytesInKiB: boolean;
}

/** A file that is not fio JSON, or a field that is missing or not a number: names the file and the field. */
export class FioJsonError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function num(o: Obj, key: string, where: string, file: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new FioJsonError(`${file}: ${where}.${key} is ${v === undefined ? 'missing' : `not a count (${JSON.stringify(v)})`}; is this fio's --output-format=json output?`);
  return v;
}

function optNum(o: Obj, key: string): number | null {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/**
 * Parses fio's JSON output. Text before the JSON (fio's own messages when `--output` was not
 * used) is skipped: the JSON starts at the first line that begins with `{`.
 *
 * @example
 * parseFioJson(readFileSync('run.json', 'utf8'), 'run.json').disks[0] // { name: 'sdb', readIos: 2760890, … }
 */
export function parseFioJson(text: string, file: string): FioRun {
  const start = /^\{/mu.exec(text);
  if (start === null) throw new FioJsonError(`${file}: no JSON object in it (no line starts with '{'); run fio with --output-format=json.`);
  let doc: unknown;
  try {
    doc = JSON.parse(text.slice(start.index));
  } catch (err) {
    const line = text.slice(0, start.index).split('\n').length;
    throw new FioJsonError(`${file}: the JSON that starts on line ${line} is not valid (${(err as Error).message}); was the file cut short?`);
  }
  if (!isObj(doc) || !Array.isArray(doc['jobs'])) throw new FioJsonError(`${file}: no "jobs" array: this is not fio's JSON output.`);
  const version = typeof doc['fio version'] === 'string' ? doc['fio version'] : 'unknown';
  const jobsRaw = doc['jobs'] as unknown[];
  const sample = jobsRaw.find(isObj);
  const readSample = sample !== undefined && isObj(sample['read']) ? sample['read'] : {};
  const ioBytesInKiB = !('io_kbytes' in readSample);
  const jobs = jobsRaw.map((j, i): FioJob => {
    if (!isObj(j)) throw new FioJsonError(`${file}: jobs[${i}] is not an object.`);
    const side = (key: 'read' | 'write'): FioSide => {
      const s = j[key];
      const where = `jobs[${i}].${key}`;
      if (!isObj(s)) throw new FioJsonError(`${file}: ${where} is missing.`);
      const ioBytes = num(s, 'io_bytes', where, file);
      return { ios: optNum(s, 'total_ios'), bytes: ioBytesInKiB ? ioBytes * 1024 : ioBytes, runtimeMs: num(s, 'runtime', where, file) };
    };
    return { name: typeof j['jobname'] === 'string' ? j['jobname'] : `job ${i}`, read: side('read'), write: side('write') };
  });
  const disks = (Array.isArray(doc['disk_util']) ? doc['disk_util'] : []).map((d, i): FioDisk => {
    if (!isObj(d) || typeof d['name'] !== 'string') throw new FioJsonError(`${file}: disk_util[${i}] has no name.`);
    const where = `disk_util[${i}]`;
    return {
      name: d['name'], readIos: num(d, 'read_ios', where, file), writeIos: num(d, 'write_ios', where, file),
      readMerges: optNum(d, 'read_merges'), writeMerges: optNum(d, 'write_merges'), readTicksMs: optNum(d, 'read_ticks'), writeTicksMs: optNum(d, 'write_ticks'),
    };
  });
  const endMs = optNum(doc, 'timestamp_ms') ?? ((): number | null => { const t = optNum(doc, 'timestamp'); return t === null ? null : t * 1000; })();
  const elapsed = jobs.length === 0 ? null : jobsRaw.reduce<number | null>((m, j) => { const e = isObj(j) ? optNum(j, 'elapsed') : null; return e === null ? m : Math.max(m ?? 0, e); }, null);
  return { version, endMs, elapsedS: elapsed, jobs, disks, ioBytesInKiB };
}

/** fio's totals over every job: I/Os (null when any job lacks `total_ios`) and bytes, per direction. */
export function fioTotals(run: FioRun): { reads: number | null; writes: number | null; readBytes: number; writeBytes: number } {
  const sum = (pick: (j: FioJob) => number | null): number | null => run.jobs.reduce<number | null>((a, j) => { const v = pick(j); return a === null || v === null ? null : a + v; }, 0);
  return {
    reads: sum((j) => j.read.ios), writes: sum((j) => j.write.ios),
    readBytes: run.jobs.reduce((a, j) => a + j.read.bytes, 0), writeBytes: run.jobs.reduce((a, j) => a + j.write.bytes, 0),
  };
}

/** One compared figure: fio's value, the capture's, and the capture's difference from fio in percent. */
export interface VerifyRow {
  figure: 'reads' | 'writes' | 'readBytes' | 'writeBytes';
  /** What fio's number is: its job totals (`jobs`, at the file level) or its block-layer count for the device (`disk_util`). */
  source: 'jobs' | 'disk_util';
  fio: number | null;
  capture: number | null;
  /** (capture − fio) ÷ fio × 100; null when either is absent or fio's is 0. */
  diffPercent: number | null;
}

/**
 * Compares the capture's totals of one device and window with fio's: fio's job totals (its own
 * I/O counts: equal to the device's for direct, aligned I/O on a device only fio used; buffered
 * I/O, merging and the page cache make them differ) and the block-layer counts fio sampled for
 * that device (`disk_util`: fio reads /proc/diskstats every 250 ms, so it can stop short of the
 * run's last requests).
 */
export function compareWithFio(run: FioRun, device: string, capture: { reads: number | null; writes: number | null; readBytes: number | null; writeBytes: number | null }): VerifyRow[] {
  const diff = (fio: number | null, cap: number | null): number | null => (fio === null || cap === null || fio === 0 ? null : ((cap - fio) / fio) * 100);
  const rows: VerifyRow[] = [];
  const disk = run.disks.find((d) => d.name === device);
  if (disk !== undefined) {
    rows.push({ figure: 'reads', source: 'disk_util', fio: disk.readIos, capture: capture.reads, diffPercent: diff(disk.readIos, capture.reads) });
    rows.push({ figure: 'writes', source: 'disk_util', fio: disk.writeIos, capture: capture.writes, diffPercent: diff(disk.writeIos, capture.writes) });
  }
  const t = fioTotals(run);
  rows.push({ figure: 'reads', source: 'jobs', fio: t.reads, capture: capture.reads, diffPercent: diff(t.reads, capture.reads) });
  rows.push({ figure: 'writes', source: 'jobs', fio: t.writes, capture: capture.writes, diffPercent: diff(t.writes, capture.writes) });
  rows.push({ figure: 'readBytes', source: 'jobs', fio: t.readBytes, capture: capture.readBytes, diffPercent: diff(t.readBytes, capture.readBytes) });
  rows.push({ figure: 'writeBytes', source: 'jobs', fio: t.writeBytes, capture: capture.writeBytes, diffPercent: diff(t.writeBytes, capture.writeBytes) });
  return rows;
}
