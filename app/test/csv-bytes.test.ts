/**
 * The per-interval CSV's byte writer (app/src/host/report/csv-bytes.ts) writes exactly what
 * `String(number)`, `Date#toISOString` and the CSV field escaper give, for every kind of value the
 * exporter meets: integers, short decimals (MB/s, %), arbitrary ratios (ms per I/O), tiny and huge
 * numbers, negative values and times across days, leap days and before 1970; and the rows written
 * on two threads (app/src/host/report/csv-rows.ts) are the bytes one thread writes.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnsFromRecords, recordAt, type DeviceColumns, type IntervalRecord } from '@cacheproof/engine';
import { INTERVAL_COLUMNS, intervalRow } from '@cacheproof/engine/report';
import { appendRows, chunkOf, CSV_CHUNK_ROWS, csvWorkerReply, formatRows } from '../src/host/report/csv-rows.ts';
import { makeSlot } from '../src/host/report/csv-slots.ts';
import { CsvBytes, csvField } from '../src/host/report/csv-bytes.ts';
import { uniform as rng } from '../../test/support/rng.ts';

const root = join(import.meta.dirname, '..', '..');

async function written(fill: (out: CsvBytes) => void | Promise<void>): Promise<string> {
  // a small first buffer, so that the tests also cross its growth
  const out = new CsvBytes(64);
  await fill(out);
  return Buffer.from(out.take()).toString('utf8');
}

describe('CsvBytes', () => {
  it('writes numbers exactly as String(v), one per line', async () => {
    const r = rng(42);
    const values: number[] = [0, -0, 1, -1, 9, 10, 99, 100, 12345678901234, 2 ** 53 - 1, 2 ** 53, 2 ** 60, 1e21, 1e-7, 1e-6, 0.000001, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.5, -2.25, 0.4096, 0.151552, 99.9, 100.5, 1e15 - 0.5, 1e15, 123456789.123456, 0.0000015, 5e-324, Number.MAX_VALUE, 1 / 3, 2 / 3, 10 / 3];
    for (let i = 0; i < 20_000; i++) {
      const k = Math.floor(r() * 7);
      const n = Math.floor(r() * 10 ** Math.floor(r() * 12));
      values.push(n / 10 ** k, -n / 10 ** k, n * 1000 / Math.max(1, Math.floor(r() * 3000)), r() * 10 ** (Math.floor(r() * 30) - 15), (n * 4096) / 1e6, (Math.floor(r() * 1000) * 100) / 1000);
    }
    const text = await written((out) => {
      for (const v of values) {
        out.number(v);
        out.byte(10);
      }
    });
    const expected = values.map((v) => (Number.isFinite(v) ? String(v) : '')).join('\n') + '\n';
    const got = text.split('\n');
    const want = expected.split('\n');
    for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) expect(`${values[i]} → ${got[i]}`).toBe(`${values[i]} → ${want[i]}`);
    expect(text).toBe(expected);
  });

  it('writes non-finite numbers as empty cells', async () => {
    expect(await written((out) => { out.number(NaN); out.byte(44); out.number(Infinity); out.byte(44); out.number(-Infinity); })).toBe(',,');
  });

  it('writes times exactly as Date#toISOString across days, leap days, years and before 1970', async () => {
    const times = [0, 999, 86_399_999, 86_400_000, Date.UTC(2024, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 1, 29, 12, 0, 0, 5), Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), -1, -86_400_001, 1234.5, Date.UTC(2026, 10, 2, 7, 8, 9, 10), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -62198755200000 - 1];
    for (let t = Date.UTC(2026, 10, 2, 23, 0, 0); t < Date.UTC(2026, 10, 3, 1, 0, 0); t += 997) times.push(t);
    const text = await written((out) => {
      for (const t of times) {
        out.time(t);
        out.byte(10);
      }
    });
    expect(text).toBe(times.map((t) => new Date(t).toISOString()).join('\n') + '\n');
  });

  it('writes text cells escaped like csvField, UTF-8, as the buffer grows', async () => {
    const cells = ['sda', '=cmd|x', 'диск "1", a', '-sdb', 'nvme0n1', 'ok'];
    const many = Array.from({ length: 300_000 }, (_, i) => cells[i % cells.length] as string);
    const text = await written((out) => {
      for (const c of many) {
        out.cell(c, csvField);
        out.text('\r\n');
      }
    });
    expect(text).toBe(many.map((c) => `${csvField(c)}\r\n`).join(''));
  });
});

describe('appendRows (the per-interval CSV on two threads)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-csvrows-'));
  // beside node_modules, so that the bundle finds better-sqlite3 as app/dist's does
  const workerFile = join(root, 'node_modules', '.cache', 'cacheproof-test', `csv-worker-${process.pid}.cjs`);
  beforeAll(async () => {
    // the worker bundle, built from the sources under test (as scripts/build.mjs builds app/dist/analysis-worker.cjs)
    await build({
      entryPoints: [join(root, 'app/src/host/analysis-worker.ts')], outfile: workerFile, bundle: true, platform: 'node', format: 'cjs',
      target: 'node20', external: ['better-sqlite3'], define: { __CACHEPROOF_VERSION__: '"test"' }, logLevel: 'warning',
    });
  }, 60_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(workerFile, { force: true });
    rmSync(`${workerFile}.map`, { force: true });
  });

  /** Intervals of three devices with every kind of value: gaps, short decimals, ratios, a device named like a formula. */
  function columns(): DeviceColumns[] {
    const recs: IntervalRecord[] = [];
    const r = rng(7);
    for (const [device, n] of [['sda', 3 * CSV_CHUNK_ROWS + 123], ['=sdb', 17], ['nvme0n1', CSV_CHUNK_ROWS]] as const) {
      for (let i = 0; i < n; i++) {
        const gap = i % 97 === 5;
        const reads = Math.floor(r() * 5000), writes = Math.floor(r() * 800);
        recs.push({ device, startMs: 1_763_000_000_000 + i * 1000, endMs: 1_763_000_000_000 + (i + 1) * 1000, intervalMs: 1000, status: gap ? 'gap' : 'ok',
          reads: gap ? null : reads, writes: gap ? null : writes, readBytes: reads * 4096, writeBytes: writes * 8192 + 512, readTimeMs: r() * 900, writeTimeMs: Math.floor(r() * 90),
          busyMs: Math.floor(r() * 1000), weightedMs: i % 11 === 0 ? null : r() * 3000 });
      }
    }
    return columnsFromRecords(recs);
  }

  async function csvOf(cols: DeviceColumns[], worker: string | null, order: string[]): Promise<Buffer> {
    const file = join(dir, `rows-${worker === null ? 'one' : 'two'}.csv`);
    closeSync(openSync(file, 'w'));
    const fd = openSync(file, 'r+');
    const seen: number[] = [];
    try {
      const end = await appendRows(fd, 3, order, (d) => cols.find((c) => c.device === d) as DeviceColumns, worker, (rows) => seen.push(rows));
      expect(end).toBe(statSync(file).size);
    } finally {
      closeSync(fd);
    }
    expect(seen.at(-1)).toBe(cols.reduce((a, c) => a + (order.includes(c.device) ? c.n : 0), 0));
    return readFileSync(file);
  }

  it('writes the same bytes on two threads as on one, in device order, each row the engine intervalRow written as the CSV writes it', async () => {
    const cols = columns();
    const order = ['nvme0n1', 'sda', '=sdb'];
    const one = await csvOf(cols, null, order);
    const two = await csvOf(cols, workerFile, order);
    expect(two.equals(one)).toBe(true);
    expect(one.subarray(3).toString('utf8')).toBe(expectedRows(cols, order));
    expect(one.subarray(0, 3)).toEqual(Buffer.alloc(3));
  });

  it('writes each row as the engine gives it when the times step irregularly (the first cells copied from the row before only when just the times moved on)', () => {
    const recs: IntervalRecord[] = [];
    const r = rng(11);
    // steps of whole seconds that cross minutes, hours and midnight; of 0, of fractions and of
    // more than a day; ends that do not follow the starts; times before 1970, of fractional ms,
    // and in years beyond 9999 (a longer text)
    const steps = [1000, 1000, 5000, 60_000, 3_600_000, 1000, 1500, 0, 86_400_000, 90_000_000, 999, 1001, 59_000, 61_000, 7_200_000];
    for (const [device, from] of [['sda', Date.UTC(2026, 10, 2, 22, 58, 57)], ['диск,"2"', -5_000], ['=x', Date.UTC(9999, 11, 31, 23, 59, 50)], ['f', 1_763_000_000_000.25]] as const) {
      let t = from;
      for (let i = 0; i < 4000; i++) {
        const step = steps[Math.floor(r() * steps.length)] as number;
        const intervalMs = i % 50 === 7 ? 2000 : step === 0 ? 1000 : step;
        const reads = Math.floor(r() * 50);
        recs.push({ device, startMs: t, endMs: i % 61 === 3 ? t + 2 * intervalMs : t + intervalMs, intervalMs, status: i % 37 === 5 ? 'reset' : 'ok',
          reads, writes: 3, readBytes: reads * 4096, writeBytes: 512, readTimeMs: r() * 90, writeTimeMs: 7, busyMs: Math.floor(r() * 1000), weightedMs: r() * 300 });
        t += step;
      }
    }
    const cols = columnsFromRecords(recs);
    for (const c of cols) expect(Buffer.from(formatRows(c)).toString('utf8')).toBe(expectedRows(cols, [c.device]));
    // a chunk that starts in the middle writes its first row in full
    const c = cols[0] as DeviceColumns;
    const middle = expectedRows(cols, [c.device]).split('\r\n').slice(1234, 2345).map((l) => `${l}\r\n`).join('');
    expect(Buffer.from(formatRows(c, 1234, 2345)).toString('utf8')).toBe(middle);
    // into a buffer written before (here: all '0', what trailing zeros are trimmed by)
    const used = new Uint8Array(2_000_000).fill(48);
    const again = formatRows(c, 1234, 2345, used.buffer);
    expect(again.buffer).toBe(used.buffer);
    expect(Buffer.from(again).toString('utf8')).toBe(middle);
    // rows copied into the longer arrays of a chunk given back by the worker: only the first n count
    const given = chunkOf(cols[1] as DeviceColumns, 0, 3000);
    const reused = chunkOf(c, 1234, 2345, given);
    expect(reused).toBe(given);
    expect([reused.device, reused.n]).toEqual([c.device, 2345 - 1234]);
    expect(Buffer.from(formatRows(reused)).toString('utf8')).toBe(middle);
    expect(chunkOf(c, 0, 3001, given)).not.toBe(given);
  });
});

describe('csvWorkerReply (the worker side of the shared slots)', () => {
  it('formats a chunk copied into a slot into its shared buffer, and rows that outgrow it into a buffer of their own', () => {
    const recs: IntervalRecord[] = [];
    const long = `disk-${'x'.repeat(300)}`;
    for (const device of ['sda', long]) {
      for (let i = 0; i < 500; i++) {
        recs.push({ device, startMs: 1_763_000_000_000 + i * 1000, endMs: 1_763_000_001_000 + i * 1000, intervalMs: 1000, status: 'ok',
          reads: i, writes: 3, readBytes: i * 4096, writeBytes: 512, readTimeMs: i / 7, writeTimeMs: 7, busyMs: i, weightedMs: i / 3 });
      }
    }
    const cols = columnsFromRecords(recs);
    // the calling thread's slot; the worker gets its memory once, then chunks by number
    const slot = makeSlot(3, 1000, 1000 * 200 + 256);
    expect(csvWorkerReply({ type: 'slot', index: 3, input: slot.input, output: slot.output })).toBeNull();
    for (const c of cols) {
      chunkOf(c, 0, 500, slot.columns);
      const answer = csvWorkerReply({ type: 'rows', id: 9, slot: 3, device: c.device, n: 500 });
      const want = Buffer.from(formatRows(c, 0, 500)).toString('utf8');
      if (c.device === 'sda') {
        expect(answer?.reply).toEqual({ id: 9, length: Buffer.byteLength(want) });
        expect(answer?.transfer).toEqual([]);
        expect(Buffer.from(slot.output, 0, Buffer.byteLength(want)).toString('utf8')).toBe(want);
      } else {
        // ~480 bytes a row, 240 kB: more than the slot's buffer holds
        const reply = answer?.reply as { id: number; bytes: Uint8Array };
        expect(reply.bytes.buffer).not.toBe(slot.output);
        expect(answer?.transfer).toEqual([reply.bytes.buffer]);
        expect(Buffer.from(reply.bytes).toString('utf8')).toBe(want);
      }
    }
  });
});

/** The rows of `order`'s devices from the engine's intervalRow, csvField and toISOString, without the byte writer. */
function expectedRows(cols: DeviceColumns[], order: string[]): string {
  return order.flatMap((d) => {
    const c = cols.find((x) => x.device === d) as DeviceColumns;
    return Array.from({ length: c.n }, (_, i) => intervalRow(recordAt(c, i)).map((v, j) => (v === null ? '' : typeof v === 'string' ? csvField(v) : INTERVAL_COLUMNS[j]?.kind === 'time' ? new Date(v).toISOString() : csvField(v))).join(',') + '\r\n');
  }).join('');
}
