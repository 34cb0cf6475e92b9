/**
 * The capacity planner's deliverable (issue 27): `cacheproof report` (the built CLI) on three
 * captures with no cache switch writes the workload-profile report as PDF (full and short), PPTX
 * and XLSX, and each is read back:
 * - a PerfMon log (typeperf PDH-CSV, one PhysicalDisk and LogicalDisk capacity counters) and a
 *   `sadf -d` log, synthetic in the real formats (support/profile-logs.ts: a steady load with one
 *   hour at three times the I/O), imported with no switch by the release probe;
 * - a live run of the real probe on a block device of this machine, stopped in its baseline.
 * Against `analyze --profile --json`: the verdict's figures at the precision it states them (PDF
 * and PPTX text: IOPS 1 decimal, MB/s 2, ms 3, percent 1, KiB 1), the busiest hour the engine names
 * (the synthetic logs' hot hour) in the summary and as the heatmap's darkest, largest cell (full PDF
 * line, PPTX table, XLSX sheet), the XLSX summary's figures at full precision, the PerfMon log's
 * capacity; the PDFs' pages pass the before/after report's checks (support/page-checks.ts: no
 * layout overflow, nothing at the page's edge, no mostly empty page, no doubled label, no English
 * in Russian), in English and Russian.
 * Skipped with a message without the probe, Chromium or poppler; a failure in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { WorkloadProfile } from '@cacheproof/engine';
import type { DeviceEntry, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { findChromium } from '../src/host/report/pdf.ts';
import { heatHex } from '../src/host/report/heat.ts';
import { loadProfileReport } from '../src/host/report/profile.ts';
import { fmtNumber, fmtPercent } from '../src/shared/i18n/numbers.ts';
import { formatVal, report, reportText, rt } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { probeAbsent, releaseProbe, skipped, waitFor } from '../../test/support/testenv.ts';
import { runBuiltCli } from './support/built-cli.ts';
import { expectCleanText, expectPagesFit, norm } from './support/page-checks.ts';
import { perfmonLog, sadfLog } from './support/profile-logs.ts';

const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined && spawnSync('pdftoppm', ['-v']).error === undefined;
const skip = skipped('profile-deliverable', probeAbsent() ?? (findChromium() === null ? 'Chromium is not installed (CACHEPROOF_CHROMIUM)' : null) ?? (hasPoppler ? null : 'poppler-utils (pdftotext, pdftoppm) is not installed'));

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-profile-deliverable-'));
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

type Id = 'perfmon' | 'sadf' | 'live';
/** No role flags for any of them: the live capture carries the roles its run's plan chose (`record --role`). */
interface Case { id: Id; capture: string; hotHourMs: number | null; profile: WorkloadProfile }
const cases = new Map<Id, Case>();
let liveCapture: string | null = null;

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0] as string, args.slice(1), { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function cli(...args: string[]): Promise<{ out: string; err: string }> {
  const r = await runBuiltCli(args);
  expect(r.code, `cacheproof ${args.join(' ')}: ${r.err}`).toBe(0);
  return r;
}

/** A run of the real probe through the host's services, stopped in its baseline after a few samples. */
async function recordStoppedInBaseline(): Promise<{ capture: string; disk: string }> {
  const d: Dispatch = createDispatch(createHandlers({ shell: 'browser', sample: null, probe: releaseProbe, dataDir: dir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
  const call = async <T,>(channel: string, payload: unknown): Promise<T> => {
    const r = await d(channel, payload);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
    return r.value as T;
  };
  const { devices } = await call<{ devices: DeviceEntry[] }>('devices.list', {});
  const disk = devices.find((x) => !x.isPartition && x.kind !== 'loop' && (x.sizeBytes ?? 0) > 0)?.name ?? devices[0]?.name;
  if (disk === undefined) throw new Error('no block device to record on this machine');
  const plan: RunPlan = { name: 'sizing, baseline only', front: null, backing: [disk], baselineSeconds: 600, warmupSeconds: 60, measureSeconds: 600, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic' };
  const s = await call<RunStatus>('run.start', { plan });
  liveCapture = s.captureFile;
  // a little I/O of our own while it records (on whichever disk holds the temporary folder)
  for (let i = 0; i < 8; i++) {
    const fd = openSync(join(dir, `io-${i}.bin`), 'w');
    writeSync(fd, Buffer.alloc(1 << 20, i));
    fsyncSync(fd);
    closeSync(fd);
  }
  await waitFor('4 samples of the live run', 20_000, async () => ((await call<RunStatus>('run.status', { runId: s.id })).samples >= 4 ? true : undefined));
  expect((await call<RunStatus>('run.stop', { runId: s.id })).state).toBe('stopped');
  return { capture: s.captureFile, disk };
}

beforeAll(async () => {
  if (skip) return;
  const pm = perfmonLog({ startMs: Date.UTC(2026, 9, 5), days: 2, stepS: 300, iops: 400, hotHour: 14 });
  const sd = sadfLog({ startMs: Date.UTC(2026, 9, 5, 6), hours: 30, stepS: 600, tps: 120, hotHour: 9 });
  writeFileSync(join(dir, 'sql01-typeperf.csv'), pm.text);
  writeFileSync(join(dir, 'web01-sadf.csv'), sd.text);
  const logs: [Id, string, string, number | null][] = [['perfmon', 'perfmon', 'sql01-typeperf.csv', pm.hotHourMs], ['sadf', 'sadf', 'web01-sadf.csv', sd.hotHourMs]];
  for (const [id, kind, file, hot] of logs) {
    const capture = join(dir, `${id}.capture`);
    expect(await run([releaseProbe, 'import', kind, join(dir, file), '--out', capture])).toBe(0);
    cases.set(id, { id, capture, hotHourMs: hot, profile: null as unknown as WorkloadProfile });
  }
  const live = await recordStoppedInBaseline();
  cases.set('live', { id: 'live', capture: live.capture, hotHourMs: null, profile: null as unknown as WorkloadProfile });
  for (const c of cases.values()) {
    c.profile = JSON.parse((await cli('analyze', c.capture, '--profile', '--json')).out) as WorkloadProfile;
    expect(c.profile.kind).toBe('workload-profile');
  }
  // The roles are the ones the run's plan chose (its backing disk), read from the capture alone.
  expect(cases.get('live')?.profile.devices.backing).toEqual([live.disk]);
}, 90_000);

afterAll(() => {
  if (liveCapture !== null) spawnSync(releaseProbe, ['stop', liveCapture], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

/** The verdict's figures as `analyze --profile` states them (null ones left out: the report says n/a), in the verdict's order. */
function verdictFigures(p: WorkloadProfile, lang: Lang): string[] {
  const a = p.appFacing;
  const f = (v: number | null | undefined, d: number, pct = false): string[] => (v === null || v === undefined ? [] : [norm(pct ? fmtPercent(lang, v, d) : fmtNumber(lang, v, d))]);
  return [
    ...f(a.percentiles.iops?.p95, 1), ...f(a.percentiles.iops?.max, 1), ...f(a.means.iops, 1), ...f(a.means.mbps, 2), ...f(a.percentiles.mbps?.max, 2),
    ...f(a.means.readSharePercent, 1, true), ...f(a.means.avgRequestBytes === null ? null : a.means.avgRequestBytes / 1024, 1), ...f(a.means.awaitMs, 3),
  ];
}

/** Each figure found in the text after the one before it, each a whole number token. */
function expectInOrder(text: string, figures: string[]): void {
  let from = 0;
  for (const f of figures) {
    const re = new RegExp(`(?<![\\d.,])${f.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![\\d])`, 'u');
    const at = re.exec(text.slice(from));
    expect(at, `"${f}" after position ${from} in: ${text}`).not.toBeNull();
    from += (at?.index ?? 0) + f.length;
  }
}

/** The text between a catalog sentence's first words and the next sentence's (a template's text before its first parameter). */
function between(text: string, key: 'pr.verdict' | 'pr.busiest', next: string, lang: Lang): string {
  const head = norm(report[lang][key].split('{')[0] as string);
  const start = text.indexOf(head);
  expect(start, `"${head}" in: ${text.slice(0, 2000)}`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf(norm(next), start + head.length);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The busiest hour's sentence: its start, end and IOPS as the JSON gives them. */
function busiestFigures(p: WorkloadProfile, lang: Lang): string[] {
  const b = p.hours.busiest;
  expect(b, 'the engine names a busiest hour').not.toBeNull();
  const bb = b as NonNullable<typeof b>;
  return [formatVal({ k: 'time', ms: bb.startMs, style: 'datetime' }, lang), formatVal({ k: 'time', ms: bb.endMs, style: 'time' }, lang), fmtNumber(lang, bb.iops, 1), fmtNumber(lang, p.appFacing.means.iops as number, 1)].map(norm);
}

/** The named hour's row label and its day's column (1-based, after the hour column) in the heatmap. */
function namedCell(p: WorkloadProfile): { label: string; column: number } {
  const b = p.hours.busiest as NonNullable<WorkloadProfile['hours']['busiest']>;
  const hour = Math.floor((b.startMs % DAY_MS) / HOUR_MS);
  return { label: `${String(hour).padStart(2, '0')}:00`, column: 1 + p.hours.days.indexOf(Math.floor(b.startMs / DAY_MS) * DAY_MS) };
}

function parseLocal(s: string, lang: Lang): number {
  const t = s.replace(/[\s\u00a0\u202f]/gu, '');
  return Number(lang === 'en' ? t.replaceAll(',', '') : t.replace(',', '.'));
}

/** Every cell of the heatmap read back: the largest one's row label and column, as read (its text parsed). */
function largest(rows: string[][], lang: Lang): { label: string; column: number; text: string } {
  let best = { label: '', column: -1, text: '', v: -Infinity };
  for (const r of rows) r.slice(1).forEach((c, i) => {
    const v = c === '' ? NaN : parseLocal(c, lang);
    if (v > best.v) best = { label: r[0] as string, column: i + 1, text: c, v };
  });
  return best;
}

const ORDER: [Id, Lang, 'full' | 'short'][] = [
  // each capture in both forms, both languages on each form; the PerfMon log's full report in both (the most pages: capacity)
  ['perfmon', 'en', 'full'], ['perfmon', 'ru', 'full'], ['perfmon', 'ru', 'short'],
  ['sadf', 'en', 'full'], ['sadf', 'ru', 'short'], ['live', 'ru', 'full'], ['live', 'en', 'short'],
];

describe.skipIf(skip)('the workload-profile report of logs with no switch and of a run stopped in its baseline', () => {
  for (const [id, lang, form] of ORDER) {
    it(`${id}, PDF ${form}, ${lang}: the verdict and the busiest hour of analyze --profile --json, the heatmap's cell, the page checks`, async () => {
      const c = cases.get(id) as Case;
      const p = c.profile;
      if (c.hotHourMs !== null) expect(p.hours.busiest?.startMs, 'the engine names the log\'s hot hour').toBe(c.hotHourMs);
      const out = join(dir, `${id}-${form}-${lang}.pdf`);
      const r = await cli('report', c.capture, '--format', 'pdf', '--form', form, '--lang', lang, '--out', out);
      // the CLI warns of an element wider or taller than its page (the layout's overflow check)
      expect(r.err).not.toContain('warning:');
      const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      if (form === 'short') expect(pages).toBeLessThanOrEqual(2);
      else expect(pages).toBeGreaterThanOrEqual(3);
      const fill = expectPagesFit(out, join(dir, `${id}-${form}-${lang}-gray`), pages);
      console.log(`${id} ${form}-${lang}: ${pages} pages; ${fill.join('; ')}`);
      const layout = norm(execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }));
      expectCleanText(layout, lang);

      const text = norm(execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' }));
      const next = report[lang]['pr.busiest'].split('{')[0] as string;
      expectInOrder(between(text, 'pr.verdict', next, lang), verdictFigures(p, lang));
      expectInOrder(between(text, 'pr.busiest', report[lang]['pr.intro'].split('{')[0] as string, lang), busiestFigures(p, lang));
      // the heatmap: the named hour's row holds its IOPS (the row's cells on one line of the page); the short form of a
      // profile with a plan leaves the heatmap to the full report and the deck (its busiest-hour sentence, checked above, names the hour)
      if (form === 'short') return;
      const cell = namedCell(p);
      const rows = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }).split('\n').map(norm).filter((l) => l.startsWith(`${cell.label} `));
      expect(rows.some((l) => expectWord(l, norm(fmtNumber(lang, p.hours.busiest?.iops as number, 1)))), `${cell.label}: ${rows.join(' | ')}`).toBe(true);
      if (id === 'perfmon' && form === 'full') {
        // capacity: C:'s size, free space and days to full, as the JSON gives them
        const v = p.capacity.volumes.find((x) => x.volume === 'C:');
        expect(v?.daysToFull).toBeGreaterThan(0);
        // the summary's capacity sentence: total size, used, its share, free, then the first volume to fill, its growth a day and days to full
        const bytes = (b: number | null | undefined): string => norm(formatVal({ k: 'bytes', v: b ?? null }, lang));
        const summary = text.slice(text.indexOf(norm(report[lang]['pr.capSummary'].split('{')[0] as string)));
        expectInOrder(summary, [bytes(v?.sizeBytes), bytes(v?.usedBytes), norm(fmtPercent(lang, 100 * (v?.usedShare as number), 1)), bytes(v?.freeBytes), 'C:', bytes(v?.growthBytesPerDay), norm(fmtNumber(lang, v?.daysToFull as number, 0))]);
        const row = text.slice(text.indexOf(norm(rt('pr.t.capacity', lang))));
        expectInOrder(row, [formatVal({ k: 'bytes', v: v?.sizeBytes ?? null }, lang), formatVal({ k: 'bytes', v: v?.freeBytes ?? null }, lang), fmtNumber(lang, v?.daysToFull as number, 0)].map(norm));
      }
    }, 60_000);
  }

  /**
   * The deck's time charts are the report model's IOPS, MB/s and response time over time (engine
   * profile-charts.ts), in that order, each on a slide titled as the PDF titles it: native line
   * charts whose series carry the model's names and, point for point, its values (an empty point a gap).
   */
  async function expectDeckCharts(zip: JSZip, slideTexts: string[], capture: string, lang: Lang): Promise<void> {
    const loaded = await loadProfileReport({ capturePath: capture, cover: {}, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: 0 });
    loaded.close();
    const specs = loaded.model.sections.flatMap((x) => x.blocks).flatMap((b) => (b.type === 'chart' && ['profile-iops-time', 'profile-mbps-time', 'profile-latency-time'].includes(b.chart.id) ? [b.chart] : []));
    expect(specs.map((x) => x.id)).toEqual(['profile-iops-time', 'profile-mbps-time', 'profile-latency-time']);
    const titled = specs.map((x) => slideTexts.findIndex((t) => t.startsWith(norm(reportText(x.title, lang)))));
    expect(titled.every((i) => i >= 0), `slides titled ${specs.map((x) => reportText(x.title, lang)).join(' | ')}`).toBe(true);
    expect([...titled].sort((a, b) => a - b)).toEqual(titled);
    const files = Object.keys(zip.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/u.test(f)).sort((a, b) => Number(/\d+/u.exec(a)?.[0]) - Number(/\d+/u.exec(b)?.[0]));
    const charts = await Promise.all(files.map(async (f) => (await zip.file(f)?.async('string')) ?? ''));
    expect(charts).toHaveLength(specs.length);
    specs.forEach((spec, k) => {
      const chart = charts[k] as string;
      expect(chart).toContain('<c:dispBlanksAs val="gap"/>');
      const series = [...chart.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/gu)].map((m) => m[1] as string);
      const own = spec.series.map((x) => formatVal(x.name, lang));
      const drawn = series.filter((x) => own.some((n) => x.includes(`<c:v>${n}</c:v>`)));
      expect(drawn, `${spec.id}: ${own.join(', ')}`).toHaveLength(own.length);
      for (const [i, ser] of spec.series.entries()) {
        const xmlOf = drawn.find((x) => x.includes(`<c:v>${own[i]}</c:v>`)) as string;
        const val = /<c:val>([\s\S]*?)<\/c:val>/u.exec(xmlOf)?.[1] ?? '';
        // an empty value is a blank, which the chart draws as a gap (pptxgenjs writes a NaN so)
        const pts = new Map([...val.matchAll(/<c:pt idx="(\d+)">\s*<c:v>([^<]*)<\/c:v>/gu)].map((m) => [Number(m[1]), m[2] === '' ? Number.NaN : Number(m[2])]));
        expect(Number(/<c:ptCount val="(\d+)"/u.exec(val)?.[1]), `${spec.id} ${own[i]}: points`).toBe(ser.points.length);
        ser.points.forEach(([, y], j) => {
          const got = pts.get(j);
          if (y === null) expect(got === undefined || Number.isNaN(got), `${spec.id} ${own[i]} point ${j}: a gap, got ${got}`).toBe(true);
          else expect(got, `${spec.id} ${own[i]} point ${j}`).toBeCloseTo(y, 6);
        });
      }
    });
  }

  for (const [id, lang] of [['perfmon', 'en'], ['perfmon', 'ru'], ['sadf', 'en'], ['live', 'ru']] as [Id, Lang][]) {
    it(`${id}, PPTX ${lang}: the verdict and busiest-hour slide, the heatmap's largest cell is the hour the engine names`, async () => {
      const c = cases.get(id) as Case;
      const p = c.profile;
      const out = join(dir, `${id}-${lang}.pptx`);
      await cli('report', c.capture, '--format', 'pptx', '--lang', lang, '--out', out);
      const zip = await JSZip.loadAsync(readFileSync(out));
      const slides = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/u.test(f)).sort((a, b) => Number(/\d+/u.exec(a)?.[0]) - Number(/\d+/u.exec(b)?.[0]));
      const xml = await Promise.all(slides.map(async (f) => (await zip.file(f)?.async('string')) ?? ''));
      const textOf = (x: string): string => norm([...x.matchAll(/<a:t>([^<]*)<\/a:t>/gu)].map((m) => m[1]).join(' ').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>'));
      // the summary's slide (after the decision block's: the profile is sized, profile-sizing.test.ts)
      const verdict = textOf(xml.find((x) => textOf(x).startsWith(norm(rt('sec.summary', lang)))) ?? '');
      expectInOrder(between(verdict, 'pr.verdict', report[lang]['pr.busiest'].split('{')[0] as string, lang), verdictFigures(p, lang));
      expectInOrder(between(verdict, 'pr.busiest', '\u0000', lang), busiestFigures(p, lang));
      const heat = xml.find((x) => textOf(x).startsWith(norm(rt('pr.t.hours', lang))));
      expect(heat, 'a slide of the busiest hours').toBeDefined();
      const cellsXml = [...(heat as string).matchAll(/<a:tr\b[\s\S]*?<\/a:tr>/gu)].map((tr) => [...tr[0].matchAll(/<a:tc\b[\s\S]*?<\/a:tc>/gu)].map((tc) => tc[0]));
      const rows = cellsXml.map((r) => r.map(textOf));
      const cell = namedCell(p);
      const top = largest(rows.slice(1), lang);
      if (c.hotHourMs !== null || rows.length === 2) expect([top.label, top.column]).toEqual([cell.label, cell.column]);
      const at = rows.findIndex((r) => r[0] === cell.label);
      expect(rows[at]?.[cell.column]).toBe(norm(fmtNumber(lang, p.hours.busiest?.iops as number, 1)));
      // and shaded the darkest: the busiest cell's fill is the full shade (when it had I/O)
      if ((p.hours.busiest?.iops ?? 0) > 0) expect(cellsXml[at]?.[cell.column]).toContain(`<a:srgbClr val="${heatHex(1)}"/>`);
      await expectDeckCharts(zip, xml.map(textOf), c.capture, lang);
    }, 60_000);
  }

  for (const id of ['perfmon', 'sadf', 'live'] as Id[]) {
    it(`${id}, XLSX: the summary's figures are the JSON's at full precision; the busiest-hours sheet's largest cell is the named hour, its IOPS the JSON's`, async () => {
      const c = cases.get(id) as Case;
      const p = c.profile;
      const out = join(dir, `${id}.xlsx`);
      await cli('report', c.capture, '--format', 'xlsx', '--out', out);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(out);
      const values = new Map<string, unknown>();
      // the summary sheet (a profile with a plan opens on the decision block's sheet: profile-sizing.test.ts)
    (wb.worksheets.find((w) => w.name === rt('xl.summarySheet', 'en')) as ExcelJS.Worksheet).eachRow((row, n) => {
        if (n > 1) values.set(String(row.getCell(1).value), row.getCell(5).value);
      });
      const a = p.appFacing;
      const want: [string, number | null | undefined][] = [['iopsMean', a.means.iops], ['iopsP95', a.percentiles.iops?.p95], ['iopsPeak', a.percentiles.iops?.max], ['mbpsMean', a.means.mbps], ['awaitMsMean', a.means.awaitMs], ['readShareMean', a.means.readSharePercent]];
      for (const [k, v] of want) expect(values.get(k) ?? null, k).toBe(v ?? null);
      const sheet = wb.worksheets.find((w) => w.name === rt('pr.xl.hours', 'en'));
      expect(sheet, wb.worksheets.map((w) => w.name).join(' | ')).toBeDefined();
      const rows: (string | number | null)[][] = [];
      sheet?.eachRow((row, n) => {
        if (n > 1) rows.push((row.values as (string | number | null)[]).slice(1));
      });
      let best = { label: '', column: -1, v: -Infinity };
      for (const r of rows) r.slice(1).forEach((v, i) => {
        if (typeof v === 'number' && v > best.v) best = { label: String(r[0]), column: i + 1, v };
      });
      const cell = namedCell(p);
      if (c.hotHourMs !== null || rows.length === 1) expect([best.label, best.column]).toEqual([cell.label, cell.column]);
      expect(rows.find((r) => r[0] === cell.label)?.[cell.column]).toBe(p.hours.busiest?.iops);
      if (id === 'perfmon') {
        const cap = wb.worksheets.find((w) => w.name === rt('pr.xl.capacity', 'en'));
        const v = p.capacity.volumes.find((x) => x.volume === 'C:');
        expect(cap?.getRow(2).getCell(1).value).toBe('C:');
        expect(cap?.getRow(2).getCell(7).value).toBe(v?.daysToFull);
      }
    }, 60_000);
  }
});

/** Whether a line holds the figure as a whole number token. */
function expectWord(line: string, figure: string): boolean {
  return new RegExp(`(?<![\\d.,])${figure.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![\\d])`, 'u').test(line);
}

