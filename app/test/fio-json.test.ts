/**
 * fio's JSON as a reference (engine/src/verify/fio.ts) on the real files in
 * ../shared/realdata/fio_json: values read straight from each file, converted as documented
 * (fio 3: io_bytes in bytes; fio 2: io_bytes in KiB), text before the JSON tolerated, and
 * bad input refused with a sentence naming the file and the field.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWithFio, FioJsonError, fioTotals, parseFioJson } from '@cacheproof/engine';
import { realdata, realdataAbsent, skipped } from '../../test/support/testenv.ts';

const dir = realdata('fio_json');
// without the folder: skipped with a message, and a failure in CI
const skip = skipped('fio-json (real files)', realdataAbsent(dir));
const read = (name: string): { text: string; run: ReturnType<typeof parseFioJson> } => {
  const text = readFileSync(join(dir, name), 'utf8');
  return { text, run: parseFioJson(text, name) };
};

describe.skipIf(skip)('fio JSON, real files', () => {
  it('fio 3.1 randread: bytes, I/Os, the end time and the disk\'s block-layer counts, as the file gives them', () => {
    const { run } = read('fioplot_fio-3.1_HPDL380G8-H420i-Crucial-MX200_randread-4-32.json');
    expect(run.version).toBe('fio-3.1');
    expect(run.ioBytesInKiB).toBe(false);
    expect(run.endMs).toBe(1564909123419);
    expect(run.elapsedS).toBe(61);
    expect(run.jobs[0]?.read).toEqual({ ios: 2768582, bytes: 11340111872, runtimeMs: 60003 });
    expect(run.disks).toEqual([{ name: 'sdb', readIos: 2760890, writeIos: 0, readMerges: 7, writeMerges: 0, readTicksMs: 7513724, writeTicksMs: 0 }]);
  });

  it('fio 3.1 RAID 0: one disk_util entry per member and the md device', () => {
    const { run } = read('fioplot_fio-3.1_HPDL380G8-H420i-Crucial-MX200x3_RAID0_randwrite-32-32.json');
    expect(run.disks.map((d) => d.name)).toEqual(['md0', 'sdd', 'sdb', 'sdc']);
    expect(run.disks.find((d) => d.name === 'sdc')?.writeIos).toBe(409682);
  });

  it('fio 2.17: io_bytes is KiB (16 KiB × total_ios), converted to bytes; no disk_util', () => {
    const { run } = read('pkb_fio-2.17_gce-pd_randrw16k.json');
    expect(run.ioBytesInKiB).toBe(true);
    expect(run.jobs[0]?.read).toEqual({ ios: 80891, bytes: 1294256 * 1024, runtimeMs: 10003 });
    expect((run.jobs[0]?.read.bytes ?? 0) / 80891).toBe(16384);
    expect(run.disks).toEqual([]);
    expect(fioTotals(run)).toEqual({ reads: 80891, writes: 24580, readBytes: 1294256 * 1024, writeBytes: 393280 * 1024 });
  });

  it('fio 2.1.4: no total_ios, so the jobs\' I/O count is absent (never estimated), and no timestamp', () => {
    const { run } = read('pkb_fio-2.1.4_parser-sample-result.json');
    expect(run.endMs).toBeNull();
    expect(run.jobs).toHaveLength(5);
    expect(run.jobs[1]?.read).toEqual({ ios: null, bytes: 361984 * 1024, runtimeMs: 2788 });
    expect(fioTotals(run).reads).toBeNull();
    const rows = compareWithFio(run, 'sdb', { reads: 19464, writes: 10600, readBytes: null, writeBytes: null });
    expect(rows.filter((r) => r.source === 'disk_util')).toEqual([
      { figure: 'reads', source: 'disk_util', fio: 19464, capture: 19464, diffPercent: 0 },
      { figure: 'writes', source: 'disk_util', fio: 10508, capture: 10600, diffPercent: ((10600 - 10508) / 10508) * 100 },
    ]);
    expect(rows.find((r) => r.source === 'jobs' && r.figure === 'reads')?.diffPercent).toBeNull();
  });

  it('text before the JSON (fio\'s own messages) is skipped', () => {
    const { text } = read('fioplot_fio-3.1_HPDL380G8-H420i-Crucial-MX200_randwrite-1-1.json');
    const run = parseFioJson(`random-read: (g=0): rw=randwrite, bs=(R) 4096B-4096B\nfio-3.1\nStarting 1 process\n${text}`, 'with-preamble.json');
    expect(run.disks[0]).toMatchObject({ name: 'sdb', readIos: 14, writeIos: 444843 });
  });
});

describe('fio JSON, bad input', () => {
  it('names the file and what is wrong', () => {
    expect(() => parseFioJson('fio-3.1\nno json here\n', 'a.json')).toThrow(/a\.json: no JSON object/u);
    expect(() => parseFioJson('{\n  "jobs": [ {', 'cut.json')).toThrow(/cut\.json: the JSON that starts on line 1 is not valid.*cut short/u);
    expect(() => parseFioJson('{"x": 1}', 'other.json')).toThrow(/other\.json: no "jobs" array/u);
    expect(() => parseFioJson('{"jobs": [{"jobname": "j", "read": {"io_bytes": "many", "runtime": 1}, "write": {"io_bytes": 0, "runtime": 0}}]}', 'f.json')).toThrow(FioJsonError);
    expect(() => parseFioJson('{"jobs": [{"jobname": "j", "read": {"io_bytes": "many", "runtime": 1}, "write": {"io_bytes": 0, "runtime": 0}}]}', 'f.json')).toThrow(/f\.json: jobs\[0\]\.read\.io_bytes is not a count/u);
  });
});
