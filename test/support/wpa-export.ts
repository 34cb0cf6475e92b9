/**
 * A WPA "Disk Usage" table as `wpaexporter` writes it, for tests and e2e specs: the header of the
 * real export in ../shared/realdata/etw (Siemens-Healthineers ETWAnalyzer's "Utilization by Disk",
 * `Disk,Process,Thread ID,Path Name,IO Type,Priority,Disk Service Time (µs),IO Time (µs),Size (B),
 * Complete Time (s),QD/I…,QD/C…`) with the two columns a cache needs that the preset leaves out —
 * `Init Time (s)` and `Offset` (hexadecimal, as WPA shows it) — and en-US numbers (`"5,571.225"`:
 * quoted, thousands grouped), rows grouped by disk as WPA lists them. No public export with
 * offsets was found, so this one is written; it is deterministic (a fixed linear congruential
 * generator, no clock).
 *
 * The workload, by hand: on disk 0, {@link WPA_READS} reads of 8 KiB, each at a block drawn from
 * {@link WPA_HOT_BLOCKS} hot 8 KiB blocks (offsets 0x0… upward) with probability 0.9, else a cold
 * block further on that is never read again; every 10th request is also a 4 KiB write; on disk 1, a
 * flush every 500 requests; 2 to 10 ms between reads (about 18 s of trace): 3,306 records, 3,300
 * requests kept. A cache of 1 MiB (256 blocks of
 * 4 KiB) can hold the hot set (128 × 8 KiB) but the cold reads push hot blocks out of an LRU cache:
 * the probe predicts 71.8 % of reads served (65.3 % of I/Os saved); the tests compare the probe's figures.
 */
import { writeFileSync } from 'node:fs';

export const WPA_READS = 3000;
export const WPA_HOT_BLOCKS = 128;

/** The header: the real export's columns, with `Init Time (s)` and `Offset` added. */
export const WPA_HEADER = 'Disk,Process,Thread ID,Path Name,IO Type,Priority,Init Time (s),Complete Time (s),Disk Service Time (µs),IO Time (µs),Size (B),Offset,QD/I - Queue Depth at Init Time,QD/C - Queue Depth at Complete Time';

/** One request of the export. */
interface Req { disk: number; type: 'Read' | 'Write' | 'Flush'; initNs: number; ioNs: number; bytes: number; offset: number }

/** `v` with `,` every three digits (en-US), quoted when grouped, as WPA's CSV writes it. */
function en(v: number, decimals: number): string {
  const [i = '0', f] = v.toFixed(decimals).split('.');
  const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/gu, ',');
  const s = f === undefined ? grouped : `${grouped}.${f}`;
  return s.includes(',') ? `"${s}"` : s;
}

/** The requests, in issue order. */
export function wpaRequests(): Req[] {
  let seed = 0x2545f491;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const out: Req[] = [];
  let t = 2_000_000_000; // 2 s after the trace's start
  let cold = WPA_HOT_BLOCKS;
  for (let i = 0; i < WPA_READS; i++) {
    t += 2_000_000 + Math.floor(next() * 8_000_000);
    const block = next() < 0.9 ? Math.floor(next() * WPA_HOT_BLOCKS) : cold++;
    out.push({ disk: 0, type: 'Read', initNs: t, ioNs: 150_000 + Math.floor(next() * 4_000_000), bytes: 8192, offset: block * 8192 });
    if (i % 10 === 9) {
      t += 50_000;
      out.push({ disk: 0, type: 'Write', initNs: t, ioNs: 80_000 + Math.floor(next() * 400_000), bytes: 4096, offset: (1 << 30) + i * 4096 });
    }
    if (i % 500 === 499) {
      t += 30_000;
      out.push({ disk: 1, type: 'Flush', initNs: t, ioNs: 5_000 + Math.floor(next() * 20_000), bytes: 0, offset: 0 });
    }
  }
  return out;
}

/** The export's text: rows grouped by disk (as WPA lists them), each in issue order. */
export function wpaExportText(reqs: readonly Req[] = wpaRequests()): string {
  const lines = [WPA_HEADER];
  for (const disk of [0, 1]) {
    for (const r of reqs.filter((x) => x.disk === disk)) {
      const us = r.ioNs / 1000;
      lines.push([
        String(r.disk), r.disk === 0 ? '"sqlservr.exe (2212)"' : 'System (4)', r.disk === 0 ? '4410' : '33868', r.disk === 0 ? 'D:\\Data\\sales.mdf' : '',
        r.type, 'Normal', en(r.initNs / 1e9, 9), en((r.initNs + r.ioNs) / 1e9, 9), en(us, 3), en(us, 3), en(r.bytes, 0),
        `0x${r.offset.toString(16).toUpperCase().padStart(12, '0')}`, '1', '0',
      ].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Writes the export to `path`; returns its counts by type, as a test compares them with the preview. */
export function writeWpaExport(path: string): { records: number; reads: number; writes: number; flushes: number; spanMs: number } {
  const reqs = wpaRequests();
  writeFileSync(path, wpaExportText(reqs));
  const n = (t: Req['type']): number => reqs.filter((r) => r.type === t).length;
  // the requests' span (flushes are kept, not requests): first issue to last completion
  const io = reqs.filter((r) => r.type !== 'Flush');
  const spanNs = Math.max(...io.map((r) => r.initNs + r.ioNs)) - Math.min(...io.map((r) => r.initNs));
  return { records: reqs.length, reads: n('Read'), writes: n('Write'), flushes: n('Flush'), spanMs: spanNs / 1e6 };
}
