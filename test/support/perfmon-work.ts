/**
 * A Windows Performance Monitor before/after pair of one SQL Server host with an in-OS cache
 * (issue #26), in the real Data Collector Set header form: `PhysicalDisk(0 C:)` and
 * `LogicalDisk(C:)` (one layer) fall from 60 + 40 to 52.8 + 35.2 I/O per s (12 %), and the log
 * carries the server's own work: `Process(_Total)\IO Data / Read / Write Operations/sec` (200 per
 * s before, 200 × `workAfter` after) and SQL Server `Batch Requests/sec` (a tenth of it). 30
 * minutes every 30 s on 1 and 2 October 2024; the first row blank, as PDH writes it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DISKS = ['PhysicalDisk(0 C:)', 'PhysicalDisk(_Total)', 'LogicalDisk(C:)', 'LogicalDisk(_Total)'];
const DISK_COUNTERS = ['Disk Reads/sec', 'Disk Writes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];
const WORK = ['Process(_Total)\\IO Data Operations/sec', 'Process(_Total)\\IO Read Operations/sec', 'Process(_Total)\\IO Write Operations/sec', 'Process(_Total)\\% Processor Time', 'SQLServer:SQL Statistics\\Batch Requests/sec'];

/** One log on `day` (October 2024): the disks at `rps` + `wps`, the process at `work` I/O requests per s. */
export function perfmonWorkLog(day: number, rps: number, wps: number, work: number): string {
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...DISKS.flatMap((o) => DISK_COUNTERS.map((c) => `"\\\\SQL01\\${o}\\${c}"`)), ...WORK.map((c) => `"\\\\SQL01\\${c}"`)];
  const lines = [head.join(',')];
  for (let r = 0; r <= 60; r++) {
    const s = r * 30;
    const t = `10/${String(day).padStart(2, '0')}/2024 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    const disk = [rps, wps, 0.004, 0.006, 60];
    const vals = r === 0 ? head.slice(1).map(() => ' ') : [...DISKS.flatMap(() => disk), work, work * 0.75, work * 0.25, 12.5, work / 10];
    lines.push([`"${t}"`, ...vals.map((v) => `"${v}"`)].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Writes the pair into `dir` as `NAME-before.csv` / `NAME-after.csv`, imports it with `probe`, and returns the capture's path. */
export function importPerfmonWorkPair(probe: string, dir: string, name: string, workAfter: number): string {
  const before = join(dir, `${name}-before.csv`), after = join(dir, `${name}-after.csv`), capture = join(dir, `${name}.capture`);
  writeFileSync(before, perfmonWorkLog(1, 60, 40, 200));
  writeFileSync(after, perfmonWorkLog(2, 52.8, 35.2, 200 * workAfter));
  execFileSync(probe, ['import', 'perfmon', '--baseline', before, '--measure', after, '--out', capture], { encoding: 'utf8' });
  return capture;
}
