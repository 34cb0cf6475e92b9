/**
 * Synthetic disk logs with no cache switch, in the real formats (tests only; nothing here is real
 * data): a typeperf PerfMon CSV (PDH-CSV 4.0 header in UTC, one PhysicalDisk and the LogicalDisk
 * capacity counters, as ../shared/realdata/perfmon_csv's logs) and a `sadf -d` log (docs/import.md
 * § sadf). Each is a steady load with one hour at three times the I/O: the hour the profile must
 * name the busiest. Deterministic.
 */

export interface SyntheticLog {
  text: string;
  /** The hour holding three times the I/O (UTC epoch ms, its start). */
  hotHourMs: number;
}

const HOUR_MS = 3_600_000;
const pad = (n: number): string => String(n).padStart(2, '0');

/** A small deterministic wobble, 0.9..1.1, so that the percentiles are not all one value. */
function wobble(i: number): number {
  return 1 + 0.1 * Math.sin(i * 1.7);
}

/**
 * PerfMon: `days` days at `stepS` seconds, PhysicalDisk(0 C:) at ~`iops` (70 % reads, 8 KiB
 * requests, 2–4 ms), the hour `hotHour` of the last day at three times the I/O; LogicalDisk(C:)
 * 500 GiB, its free space falling 2 GiB a day (Free Megabytes whole MiB, % Free Space 6 decimals).
 */
export function perfmonLog(o: { startMs: number; days: number; stepS: number; iops: number; hotHour: number; host?: string }): SyntheticLog {
  const host = o.host ?? 'SQL01';
  const d = `\\\\${host}\\PhysicalDisk(0 C:)\\`;
  const v = `\\\\${host}\\LogicalDisk(C:)\\`;
  const heads = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', 'Avg. Disk Queue Length', '% Idle Time'].map((c) => d + c);
  heads.push(`${v}% Free Space`, `${v}Free Megabytes`);
  const lines = [['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...heads].map((h) => `"${h}"`).join(',')];
  const hot = o.startMs + (o.days - 1) * 86_400_000 + o.hotHour * HOUR_MS;
  const sizeMiB = 512_000;
  const n = Math.floor((o.days * 86_400) / o.stepS);
  for (let i = 0; i <= n; i++) {
    const t = o.startMs + i * o.stepS * 1000;
    // a PerfMon row's rates are over the interval ending at its time
    const k = t - o.stepS * 1000 >= hot && t <= hot + HOUR_MS ? 3 : 1;
    const total = o.iops * wobble(i) * k;
    const reads = total * 0.7, writes = total * 0.3;
    const freeMiB = Math.round(200_000 - (2048 * (t - o.startMs)) / 86_400_000);
    const dt = new Date(t);
    const stamp = `${pad(dt.getUTCMonth() + 1)}/${pad(dt.getUTCDate())}/${dt.getUTCFullYear()} ${pad(dt.getUTCHours())}:${pad(dt.getUTCMinutes())}:${pad(dt.getUTCSeconds())}.000`;
    const cells = [reads, writes, reads * 8192, writes * 8192, 0.002 + 0.001 * k, 0.004, total * 0.003, Math.max(0, 100 - total / 20), (100 * freeMiB) / sizeMiB, freeMiB];
    lines.push([stamp, ...cells.map((c, j) => (j === 8 ? c.toFixed(6) : String(c)))].map((c) => `"${c}"`).join(','));
  }
  return { text: `${lines.join('\r\n')}\r\n`, hotHourMs: hot };
}

/** sadf -d: `hours` hours at `stepS` seconds of `sda` at ~`tps`, the hour `hotHour` (from the start) at three times the I/O. */
export function sadfLog(o: { startMs: number; hours: number; stepS: number; tps: number; hotHour: number; host?: string }): SyntheticLog {
  const lines = ['# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s;dkB/s;areq-sz;aqu-sz;await;%util'];
  const hot = Math.floor(o.startMs / HOUR_MS) * HOUR_MS + o.hotHour * HOUR_MS;
  const n = Math.floor((o.hours * 3600) / o.stepS);
  for (let i = 1; i <= n; i++) {
    const t = o.startMs + i * o.stepS * 1000;
    // a line is the interval ending at its timestamp
    const k = t - o.stepS * 1000 >= hot && t <= hot + HOUR_MS ? 3 : 1;
    const tps = o.tps * wobble(i) * k;
    const rkb = tps * 0.6 * 16, wkb = tps * 0.4 * 16;
    const dt = new Date(t);
    const stamp = `${dt.getUTCFullYear()}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())} ${pad(dt.getUTCHours())}:${pad(dt.getUTCMinutes())}:${pad(dt.getUTCSeconds())} UTC`;
    lines.push([o.host ?? 'web01', String(o.stepS), stamp, 'sda', tps.toFixed(2), rkb.toFixed(2), wkb.toFixed(2), '0.00', '16.00', (tps * 0.002).toFixed(2), (1.5 * k).toFixed(2), Math.min(100, tps / 10).toFixed(2)].join(';'));
  }
  return { text: `${lines.join('\n')}\n`, hotHourMs: hot };
}
