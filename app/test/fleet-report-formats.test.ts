/**
 * The fleet report (issue 27) as a planner takes it away: `cacheproof report FLEET` (the built CLI)
 * on a fleet capture with no switch (the two-computer PerfMon log, support/fleet-log.ts, imported by
 * the release probe), as PPTX (en, ru) and XLSX, read back against the fleet view's aggregate
 * (`fleet.open`, the engine's per-moment sum):
 * - XLSX: the summary's fleet peak, p95 and mean are the aggregate's at full precision, and a
 *   sheet holds the fleet's IOPS at every moment (the chart's data, unbucketed);
 * - PPTX: the verdict slide holds the engine's verdict with the peak, p95 and mean as the report
 *   words them; a slide draws the fleet's IOPS over time as a native chart whose values are the
 *   aggregate's per-moment sums (every moment: the log's 480 are under the chart's bound) with the
 *   p95 as a line of its value, and under it the chart's summary.
 * Skipped with a message without the probe; a failure in CI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { fleetChart } from '@cacheproof/engine/report';
import type { FleetView } from '../src/shared/contract.ts';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { fmtNumber } from '../src/shared/i18n/numbers.ts';
import { reportText, rt } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';
import { twoComputerPerfmonLog } from '../../test/support/fleet-log.ts';
import { ensureBuiltCli, runBuiltCli } from './support/built-cli.ts';
import { norm } from './support/page-checks.ts';

const skip = skipped('fleet-report-formats', probeAbsent());
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-fleet-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Aggregate = NonNullable<FleetView['aggregate']>;
const fleet = join(dir, 'fleet.capture');
let agg: Aggregate;

async function cli(...args: string[]): Promise<void> {
  const r = await runBuiltCli(args);
  expect(r.code, `cacheproof ${args.join(' ')}: ${r.err}`).toBe(0);
}

const unxml = (s: string): string => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
const textOf = (xml: string): string => norm([...xml.matchAll(/<a:t>([^<]*)<\/a:t>/gu)].map((m) => unxml(m[1] as string)).join(' '));

describe.skipIf(skip)('the fleet report as PPTX and XLSX', () => {
  beforeAll(async () => {
    // the CLI as built from these sources (a stale bundle would test older words)
    ensureBuiltCli();
    const log = join(dir, 'two-computers.csv');
    writeFileSync(log, twoComputerPerfmonLog());
    execFileSync(releaseProbe, ['import', 'perfmon', log, '--out', fleet]);
    const d = createDispatch(createHandlers({ shell: 'browser', sample: null, probe: releaseProbe, dataDir: join(dir, 'data') }), (channel, err) => {
      throw new Error(`bug in ${channel}: ${String(err)}`);
    });
    const r = await d('fleet.open', { path: fleet });
    if (!r.ok) throw new Error(r.error.message);
    const a = (r.value as FleetView).aggregate;
    if (a === null || a.peak === null) throw new Error('the fleet has no aggregate');
    agg = a;
  }, 300_000);

  it('XLSX: the summary\'s fleet peak, p95 and mean are the aggregate\'s', async () => {
    const out = join(dir, 'fleet.xlsx');
    await cli('report', fleet, '--format', 'xlsx', '--out', out);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const values = new Map<string, unknown>();
    // the summary sheet (a fleet with a plan opens on the decision block's sheet: profile-sizing.test.ts)
    const summary = wb.worksheets.find((w) => w.name === rt('xl.summarySheet', 'en')) as ExcelJS.Worksheet;
    summary.eachRow((row, n) => {
      if (n > 1) values.set(String(row.getCell(1).value), row.getCell(5).value);
    });
    expect(values.get('fleetPeak')).toBe(agg.peak?.iops);
    expect(values.get('fleetP95')).toBe(agg.p95Iops);
    expect(values.get('fleetMean')).toBe(agg.meanIops);
    expect(values.get('fleetSumOfPeaks')).toBe(agg.sumOfHostPeaksIops);
    // the chart's data, every moment unbucketed: a sheet of the fleet's IOPS at each moment, its highest the peak
    const sheet = wb.worksheets.find((w) => w.name === rt('fl.xl.moments', 'en'));
    expect(sheet, wb.worksheets.map((w) => w.name).join(' | ')).toBeDefined();
    const moments: number[] = [];
    sheet?.eachRow((row, n) => {
      if (n > 1) moments.push(row.getCell(2).value as number);
    });
    expect(moments).toEqual(agg.series.iops);
    expect(Math.max(...moments)).toBe(agg.peak?.iops);
  }, 60_000);

  for (const lang of ['en', 'ru'] as Lang[]) {
    it(`PPTX ${lang}: the verdict, and the fleet's IOPS over time as a chart of the per-moment sums with the p95 line`, async () => {
      const out = join(dir, `fleet-${lang}.pptx`);
      await cli('report', fleet, '--format', 'pptx', '--lang', lang, '--out', out);
      const zip = await JSZip.loadAsync(readFileSync(out));
      const byNumber = (re: RegExp): string[] => Object.keys(zip.files).filter((f) => re.test(f)).sort((a, b) => Number(/\d+(?=\.xml)/u.exec(a)?.[0]) - Number(/\d+(?=\.xml)/u.exec(b)?.[0]));
      const slides = await Promise.all(byNumber(/^ppt\/slides\/slide\d+\.xml$/u).map(async (f) => (await zip.file(f)?.async('string')) ?? ''));
      const iops = (v: number | null): string => norm(fmtNumber(lang, v as number, 0));
      // the verdict slide (after the decision block's, the fleet being sized: profile-sizing.test.ts): the engine's sentence with the fleet's peak, p95 and mean
      const verdict = textOf(slides.find((x) => textOf(x).startsWith(norm(rt('sec.summary', lang)))) ?? '');
      expect(verdict).toContain(norm(rt('sec.summary', lang)));
      for (const v of [agg.peak?.iops ?? null, agg.p95Iops, agg.meanIops]) expect(verdict).toContain(iops(v));
      // the chart slide: its title, the engine's summary under it, and a native chart
      const spec = fleetChart(agg);
      expect(spec).not.toBeNull();
      if (spec === null) return;
      const at = slides.findIndex((x) => textOf(x).startsWith(norm(reportText(spec.title, lang))));
      expect(at, slides.map(textOf).join('\n')).toBeGreaterThan(1);
      expect(textOf(slides[at] as string)).toContain(norm(reportText(spec.summary, lang)));
      const rels = (await zip.file(`ppt/slides/_rels/slide${at + 1}.xml.rels`)?.async('string')) ?? '';
      const target = /Target="(?:\.\.|\/ppt)\/charts\/(chart\d+\.xml)"/u.exec(rels)?.[1];
      expect(target, rels).toBeDefined();
      const chart = (await zip.file(`ppt/charts/${target as string}`)?.async('string')) ?? '';
      // each series' values in order (c:ser → c:val → c:pt/c:v)
      const series = [...chart.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/gu)].map((s) => {
        const val = /<c:val>([\s\S]*?)<\/c:val>/u.exec(s[1] as string)?.[1] ?? '';
        return [...val.matchAll(/<c:v>([^<]*)<\/c:v>/gu)].map((m) => Number(m[1]));
      });
      expect(series).toHaveLength(2);
      // the fleet's sum at every moment (480 moments: under the bound, not bucketed), its highest the peak
      expect(series[0]).toEqual(agg.series.iops);
      expect(Math.max(...(series[0] as number[]))).toBe(agg.peak?.iops);
      // the p95 line: its value at every moment
      expect(new Set(series[1])).toEqual(new Set([agg.p95Iops]));
      expect(series[1]).toHaveLength(agg.series.iops.length);
    }, 60_000);
  }
});
