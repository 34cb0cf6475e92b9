/**
 * The V-locity case's PerfMon before/after pair (issue #26): a Windows server with an in-OS cache,
 * where PhysicalDisk and LogicalDisk both fall from 100 to 88 I/O per s (12 % fewer disk I/Os),
 * imported with the real probe. Used by perfmon-in-os-cache.test.ts and decision-block.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseProbe } from '../../../test/support/testenv.ts';

const OBJECTS = ['PhysicalDisk(0 C:)', 'PhysicalDisk(_Total)', 'LogicalDisk(C:)', 'LogicalDisk(_Total)'];
const COUNTERS = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];

/** A PDH-CSV log of 30 minutes every 30 s on `day` (October 2024), every object at `rps` reads and `wps` writes per s. */
export function inOsLog(day: number, rps: number, wps: number): string {
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...OBJECTS.flatMap((o) => COUNTERS.map((c) => `"\\\\WINSRV\\${o}\\${c}"`))];
  const lines = [head.join(',')];
  for (let r = 0; r <= 60; r++) {
    const s = r * 30;
    const t = `10/${String(day).padStart(2, '0')}/2024 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    const vals = [rps, wps, rps * 8192, wps * 8192, 0.004, 0.006, 60];
    lines.push([`"${t}"`, ...OBJECTS.flatMap(() => vals.map((v) => `"${v}"`))].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Writes the pair into `dir` and imports it with the probe as `dir/name`; returns the capture path and the import's JSON. */
export function importInOsPair(dir: string, name = 'in-os.capture'): { capture: string; imported: { preview: { devices: { name: string; role: string }[]; notes: string[] } } } {
  const before = join(dir, 'before.csv');
  const after = join(dir, 'after.csv');
  writeFileSync(before, inOsLog(1, 60, 40));
  writeFileSync(after, inOsLog(2, 52.8, 35.2));
  const capture = join(dir, name);
  const imported = JSON.parse(execFileSync(releaseProbe, ['import', 'perfmon', '--baseline', before, '--measure', after, '--out', capture, '--json'], { encoding: 'utf8' })) as {
    preview: { devices: { name: string; role: string }[]; notes: string[] };
  };
  return { capture, imported };
}
