/**
 * The workload-profile report at the before/after report's standard (issue 37): `cacheproof report
 * --profile` (the built CLI) on a three-day PerfMon log with a three-hour hole (synthetic in the
 * real format, support/profile-logs.ts, imported with no switch by the release probe) writes a PDF
 * whose pages, rendered by poppler, show:
 * - each time chart (IOPS with reads and writes, MB/s, response time, queue size, request size per
 *   hour): pixels of every series' colour between the chart's title and its x axis's title, the
 *   region of its drawing (the legend's swatches lie below it);
 * - the busiest-hours heatmap: its busiest cell's full shade;
 * - the per-day tables: each day's mean, p95, peak and peak time read back (pdftotext) equal
 *   `analyze --profile --json`'s `days` at the precision the report states them.
 * The pages pass the before/after report's checks (support/page-checks.ts), in English and Russian.
 * Skipped with a message without the probe, Chromium or poppler; a failure in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DayFigure, WorkloadProfile } from '@cacheproof/engine';
import { COLOR } from '@cacheproof/engine/report';
import { findChromium } from '../src/host/report/pdf.ts';
import { heatHex } from '../src/host/report/heat.ts';
import { PALETTE } from '../src/shared/palette.ts';
import { fmtNumber } from '../src/shared/i18n/numbers.ts';
import { formatVal, rt } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { runBuiltCli } from './support/built-cli.ts';
import { expectCleanText, expectPagesFit, norm } from './support/page-checks.ts';
import { perfmonLog } from './support/profile-logs.ts';

const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined && spawnSync('pdftoppm', ['-v']).error === undefined;
const skip = skipped('profile-report-charts', probeAbsent() ?? (findChromium() === null ? 'Chromium is not installed (CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'poppler-utils (pdftotext, pdftoppm) is not installed'));

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-profile-charts-'));
const capture = join(dir, 'sql01.capture');
let profile: WorkloadProfile;
/** Render resolution, dots per inch (pdftotext's boxes are in points: 72 a inch). */
const DPI = 100;

async function cli(...args: string[]): Promise<string> {
  const r = await runBuiltCli(args);
  expect(r.code, `cacheproof ${args.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
}

beforeAll(async () => {
  if (skip) return;
  const log = perfmonLog({ startMs: Date.UTC(2026, 9, 5), days: 3, stepS: 300, iops: 400, hotHour: 14 });
  // a hole: the second day's rows from 06:00 to 08:55 are missing
  writeFileSync(join(dir, 'sql01.csv'), log.text.split('\r\n').filter((l) => !/^"10\/06\/2026 0[6-8]:/u.test(l)).join('\r\n'));
  expect(spawnSync(releaseProbe, ['import', 'perfmon', join(dir, 'sql01.csv'), '--out', capture], { stdio: 'ignore' }).status).toBe(0);
  profile = JSON.parse(await cli('analyze', capture, '--profile', '--json')) as WorkloadProfile;
}, 90_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Word { text: string; x0: number; y0: number; x1: number; y1: number }

/** Every page's words and their boxes (points), from `pdftotext -bbox`. */
function pagesWords(pdf: string): Word[][] {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
  return html.split('<page ').slice(1).map((page) => [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/gu)]
    .map((w) => ({ text: norm(w[5] as string).replaceAll('&amp;', '&'), x0: Number(w[1]), y0: Number(w[2]), x1: Number(w[3]), y1: Number(w[4]) })));
}

/** Where a phrase starts on a page (its words in a row), from the word index `from`: the index of its first word, or -1. */
function find(words: Word[], phrase: string, from = 0): number {
  const want = norm(phrase).split(' ').filter((w) => w !== '');
  for (let i = from; i + want.length <= words.length; i++) if (want.every((w, k) => words[i + k]?.text === w)) return i;
  return -1;
}

/** A page rendered at {@link DPI} as RGB pixels (binary PPM). */
function render(pdf: string, page: number): { w: number; h: number; rgb: Buffer } {
  const base = join(dir, `p${page}`);
  execFileSync('pdftoppm', ['-r', String(DPI), '-f', String(page), '-l', String(page), '-singlefile', pdf, base]);
  const buf = readFileSync(`${base}.ppm`);
  const head = /^P6\s+(\d+)\s+(\d+)\s+255\s/u.exec(buf.subarray(0, 40).toString('latin1'));
  if (head === null) throw new Error('not a binary PPM');
  return { w: Number(head[1]), h: Number(head[2]), rgb: buf.subarray(head[0].length) };
}

/** Pixels within `tol` (each channel) of an RRGGBB colour between two heights of the page (points). */
function pixels(img: { w: number; h: number; rgb: Buffer }, hex: string, top: number, bottom: number, tol: number): number {
  const [r, g, b] = [0, 2, 4].map((k) => parseInt(hex.replace('#', '').slice(k, k + 2), 16)) as [number, number, number];
  let n = 0;
  for (let y = Math.floor((top * DPI) / 72); y < Math.min(img.h, Math.ceil((bottom * DPI) / 72)); y++) {
    for (let x = 0; x < img.w; x++) {
      const o = (y * img.w + x) * 3;
      if (Math.abs((img.rgb[o] as number) - r) <= tol && Math.abs((img.rgb[o + 1] as number) - g) <= tol && Math.abs((img.rgb[o + 2] as number) - b) <= tol) n++;
    }
  }
  return n;
}

const DEVICES = (): string => (profile.devices.appFacing === 'front' ? profile.devices.front : profile.devices.backing).join(', ');

describe.skipIf(skip)('the workload-profile report\'s time charts, heatmap and per-day tables', () => {
  for (const lang of ['en', 'ru'] as Lang[]) {
    it(`${lang}: every series of every time chart drawn, the heatmap shaded, each day's figures those of analyze --profile --json`, async () => {
      expect(profile.days.map((d) => d.day)).toEqual(['2026-10-05', '2026-10-06', '2026-10-07']);
      const out = join(dir, `profile-${lang}.pdf`);
      const r = await runBuiltCli(['report', capture, '--profile', '--format', 'pdf', '--lang', lang, '--out', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).not.toContain('warning:');
      const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      expectPagesFit(out, join(dir, `gray-${lang}`), pages);
      expectCleanText(norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' })), lang);
      const words = pagesWords(out);

      const role = PALETTE[profile.devices.appFacing === 'front' ? COLOR.front : COLOR.backing];
      const charts: [string, string[]][] = [
        ['pc.iopsTitle', [role, PALETTE[COLOR.category1], PALETTE[COLOR.category2]]],
        ['pc.mbpsTitle', [role]], ['pc.latencyTitle', [role]], ['pc.queueTitle', [role]], ['pc.sizeTitle', [role]],
      ];
      for (const [key, colours] of charts) {
        const title = rt(key as 'pc.iopsTitle', lang, { devices: DEVICES() });
        const page = words.findIndex((w) => find(w, title) >= 0);
        expect(page, `${key}: "${title}" on a page`).toBeGreaterThanOrEqual(0);
        const ws = words[page] as Word[];
        const at = find(ws, title);
        const axis = find(ws, rt('ax.timeUtc', lang), at);
        expect(axis, `${key}: the x axis's title under the chart's title`).toBeGreaterThan(at);
        const img = render(out, page + 1);
        const top = (ws[at] as Word).y1, bottom = (ws[axis] as Word).y0;
        for (const c of colours) expect(pixels(img, c, top, bottom, c === '#000000' ? 24 : 40), `${lang} ${key}: pixels of ${c} in its drawing`).toBeGreaterThan(30);
      }

      // the heatmap: its busiest cell at full shade, under its title
      const hours = rt('pr.t.hours', lang);
      const hp = words.findIndex((w) => find(w, hours) >= 0);
      expect(hp).toBeGreaterThanOrEqual(0);
      const hw = words[hp] as Word[];
      expect(pixels(render(out, hp + 1), heatHex(1), (hw[find(hw, hours)] as Word).y1, 842, 6), `${lang}: the heatmap's darkest shade`).toBeGreaterThan(50);

      // the per-day tables: each day's row holds the JSON's figures as the report states them
      const layout = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }).split('\n').map(norm);
      const tables: [string, keyof Pick<WorkloadProfile['days'][number], 'iops' | 'mbps' | 'awaitMs'>, number][] = [['pd.t.iops', 'iops', 1], ['pd.t.mbps', 'mbps', 2], ['pd.t.latency', 'awaitMs', 3]];
      for (const [key, figure, d] of tables) {
        const start = layout.findIndex((l) => l.startsWith(norm(rt(key as 'pd.t.iops', lang))));
        expect(start, `${key} in the PDF`).toBeGreaterThanOrEqual(0);
        for (const day of profile.days) {
          const row = layout.slice(start).find((l) => l.startsWith(day.day));
          const f: DayFigure = day[figure];
          const want = [f.mean, f.p95, f.peak].map((v) => norm(fmtNumber(lang, v as number, d)));
          want.push(norm(formatVal({ k: 'time', ms: f.peakAtMs as number, style: 'time' }, lang)));
          expect(row?.slice(day.day.length).trim(), `${lang} ${key} ${day.day}`).toBe(want.join(' '));
        }
      }
    }, 120_000);
  }
});
