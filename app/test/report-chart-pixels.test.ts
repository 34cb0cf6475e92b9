/**
 * Issue #36, "nothing hidden, nothing invented", on paper: the report's time charts as printed
 * (PDF, full and short form) and as LibreOffice renders the PowerPoint deck, from the bundled
 * sample (front and backing lines that coincide before the switch) and from a PerfMon
 * before/after pair a day apart (a 23.5 h gap between the files, response times near the 20 ms
 * read and write targets). Pages are rendered by pdftoppm and, in each chart:
 * - every series shows pixels of its colour in each window where it has data (a line lying on
 *   another must still show);
 * - no series' colour lies inside a gap of more than 3 intervals (no line drawn across no data);
 * - no two words of a page are printed over each other (pdftotext -bbox), and the reference
 *   lines' label boxes of the layout (chart-ref-labels.ts) do not intersect.
 * Skipped saying why when Chromium, poppler, LibreOffice or the probe is missing (fails in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import type { ChartSpec, ReportModel } from '@cacheproof/engine/report';
import { reportText } from '../src/shared/i18n/report.ts';
import { exportReport } from '../src/host/report/export.ts';
import { chromiumPrinter, findChromium } from '../src/host/report/pdf.ts';
import { PHASE_TINT, paletteColor } from '../src/shared/palette.ts';
import { refLabelsOf } from '../src/shared/chart-svg.ts';
import { boxesIntersect } from '../src/shared/chart-ref-labels.ts';
import { colourOf, countColour, gridPlot, overprinted, pdfWords, renderPages, tintPlots, type Box, type Colour, type Rgb } from './support/chart-pixels.ts';
import { probeAbsent, releaseProbe, skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-chart-pixels-'));
const runs = (cmd: string, ...args: string[]): boolean => spawnSync(cmd, args).error === undefined;
const why = findChromium() === null ? 'no Chromium to print with'
  : !runs('pdftoppm', '-v') || !runs('pdftotext', '-v') ? 'no poppler-utils (pdftoppm, pdftotext)'
  : !runs('soffice', '--version') ? 'no LibreOffice (soffice) to render the deck: install libreoffice-impress (node scripts/ensure.mjs as root does)'
  : probeAbsent();
const skip = skipped('report chart pixels', why);
// one headless Chromium for the file's PDFs, as the app's host keeps one for its exports
const printer = chromiumPrinter();
afterAll(async () => {
  await printer.close();
  rmSync(dir, { recursive: true, force: true });
});

const DPI = 100;
const BASELINE = colourOf(PHASE_TINT.baseline.light);
const MEASURE = colourOf(PHASE_TINT.measure.light);

/** A PDH-CSV log of 30 minutes every 30 s on `day` (October 2024): 60 + 40 I/O per s, reads 12 ms and writes 14 ms (near the 20 ms targets). */
function perfmonLog(day: number, rps: number): string {
  const objects = ['PhysicalDisk(0 C:)', 'LogicalDisk(C:)'];
  const counters = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...objects.flatMap((o) => counters.map((c) => `"\\\\WINSRV\\${o}\\${c}"`))];
  const lines = [head.join(',')];
  for (let r = 0; r <= 60; r++) {
    const s = r * 30;
    const t = `10/${String(day).padStart(2, '0')}/2024 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
    const vals = [rps + (r % 5), 40, rps * 8192, 40 * 8192, 0.012 + (r % 3) / 1000, 0.014, 60];
    lines.push([`"${t}"`, ...objects.flatMap(() => vals.map((v) => `"${v}"`))].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

let pair = '';
beforeAll(() => {
  if (skip) return;
  writeFileSync(join(dir, 'before.csv'), perfmonLog(1, 60));
  writeFileSync(join(dir, 'after.csv'), perfmonLog(2, 52));
  pair = join(dir, 'pair.capture');
  execFileSync(releaseProbe, ['import', 'perfmon', '--baseline', join(dir, 'before.csv'), '--measure', join(dir, 'after.csv'), '--out', pair, '--json'], { encoding: 'utf8' });
});

/** The model's time charts with shaded windows, in the order they are printed. */
function timeCharts(model: ReportModel): ChartSpec[] {
  return model.sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'chart' && b.chart.kind === 'line' && (b.chart.bands?.length ?? 0) > 0 ? [b.chart] : []));
}

type Series = ChartSpec['series'][number];
const seriesColour = (s: Series): Colour => colourOf(s.rgb ?? paletteColor(s.color));
const hex = (s: Series): string => s.rgb ?? paletteColor(s.color);

/** Whether a series has a point with data in [from, to]. */
const hasData = (s: Series, from: number, to: number): boolean => s.points.some(([t, y]) => y !== null && t >= from && t <= to);

/** The gaps of more than 3 intervals in a colour's lines (every series of that colour without data), as [last t with data, next t with data]. */
function gapsOf(spec: ChartSpec, colour: string): [number, number][] {
  const same = spec.series.filter((s) => hex(s) === colour);
  const ts = (same[0]?.points ?? []).map(([t]) => t);
  const step = Math.min(...ts.slice(1).map((t, i) => t - (ts[i] as number)));
  const withData = ts.filter((_, i) => same.some((s) => s.points[i]?.[1] !== null && s.points[i]?.[1] !== undefined));
  const out: [number, number][] = [];
  for (let i = 1; i < withData.length; i++) if ((withData[i] as number) - (withData[i - 1] as number) > 3 * step * 1.01) out.push([withData[i - 1] as number, withData[i] as number]);
  return out;
}

/** What a chart's check found: per series and window the pixels of its colour, per gap the pixels inside it. */
interface Found { windows: { series: string; window: string; pixels: number }[]; gaps: { colour: string; pixels: number; widthPx: number }[] }

/**
 * Checks a chart drawn in `rows` with `x(t)` placing a time on the page image; a gap's pixels are
 * counted `margin` px inside its ends (the line's half width and cap, and the placing's error).
 */
function chartFound(img: Rgb, spec: ChartSpec, rows: Box, x: (t: number) => number, windows: { name: string; from: number; to: number }[], margin = 4): Found {
  const found: Found = { windows: [], gaps: [] };
  for (const s of spec.series) {
    for (const w of windows) {
      // a wide window is checked in tenths (a line under another must show all along, not at a spike)
      const parts = x(w.to) - x(w.from) >= 150 ? 10 : 1;
      for (let k = 0; k < parts; k++) {
        const from = w.from + ((w.to - w.from) * k) / parts;
        const to = w.from + ((w.to - w.from) * (k + 1)) / parts;
        if (!hasData(s, from, to)) continue;
        const name = parts === 1 ? w.name : `${w.name} (tenth ${k + 1})`;
        found.windows.push({ series: `${JSON.stringify(s.name)} ${hex(s)}`, window: name, pixels: countColour(img, { ...rows, left: x(from) - 1, right: x(to) + 2 }, seriesColour(s)) });
      }
    }
  }
  for (const colour of new Set(spec.series.map(hex))) {
    for (const [a, b] of gapsOf(spec, colour)) {
      const box = { ...rows, left: x(a) + margin, right: x(b) - margin };
      found.gaps.push({ colour, widthPx: box.right - box.left, pixels: countColour(img, box, colourOf(colour)) });
    }
  }
  return found;
}

function expectFound(found: Found, what: string): void {
  for (const w of found.windows) expect(w.pixels, `${what}: ${w.series} in the ${w.window} window`).toBeGreaterThanOrEqual(w.window.includes('tenth') ? 3 : 8);
  for (const g of found.gaps) expect(g.pixels, `${what}: ${g.colour} inside a gap ${g.widthPx}px wide`).toBe(0);
}

const bandsOf = (spec: ChartSpec): { name: string; from: number; to: number }[] => (spec.bands ?? []).filter((b) => b.tone !== 'warmup').map((b) => ({ name: b.tone, from: b.fromMs, to: b.toMs }));

/** The PDF's time charts: found by their shaded windows, in print order, each checked. */
function pdfCharts(pdf: string, model: ReportModel, tag: string): Found[] {
  const pages = renderPages(pdf, join(dir, `ppm-${tag}`), DPI);
  const plots = tintPlots(pages, BASELINE, MEASURE);
  const charts = timeCharts(model);
  expect(plots.length, `${tag}: plots found by their shading`).toBe(charts.length);
  return charts.map((spec, i) => {
    const plot = plots[i] as (typeof plots)[number];
    const bands = bandsOf(spec);
    const t0 = (bands[0] as (typeof bands)[number]).from;
    const t1 = (bands[bands.length - 1] as (typeof bands)[number]).to;
    const x = (t: number): number => plot.baseline[0] + ((t - t0) / (t1 - t0)) * (plot.measure[1] + 1 - plot.baseline[0]);
    return chartFound(pages[plot.page] as Rgb, spec, plot.box, x, bands);
  });
}

/** No two reference-line labels of the layout intersect, and none of a page's words overprints another. */
function expectNoOverprint(pdf: string, model: ReportModel, tag: string): void {
  for (const spec of timeCharts(model)) {
    const ls = refLabelsOf(spec, 'en');
    for (let i = 0; i < ls.length; i++) for (let j = i + 1; j < ls.length; j++) expect(boxesIntersect(ls[i]?.box as Box, ls[j]?.box as Box), `${tag} ${spec.id}: ${ls[i]?.text} / ${ls[j]?.text}`).toBe(false);
  }
  expect(overprinted(pdfWords(pdf)).map(([a, b]) => `page ${a.page + 1}: "${a.text}" over "${b.text}"`), tag).toEqual([]);
}

const inputs = (): { name: string; capture: string }[] => [{ name: 'sample', capture: sample }, { name: 'pair', capture: pair }];

describe.skipIf(skip)('the report\'s time charts as printed: every series in each window, no line across a gap, no label over another', () => {
  for (const form of ['full', 'short'] as const) {
    it(`PDF, ${form} form, the sample and a before/after pair a day apart`, async () => {
      for (const { name, capture } of inputs()) {
        const out = join(dir, `${name}-${form}.pdf`);
        // with the TCO section the CLI's default prefills (its tornado's bar labels are checked too)
        const res = await exportReport({ format: 'pdf', form, lang: 'en', paper: 'a4', out, printer, load: { capturePath: capture, cover: { title: 'Cache PoC' }, scenario: { prefill: 'en' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) } });
        const found = pdfCharts(out, res.model, `${name}-${form}`);
        found.forEach((f, i) => expectFound(f, `${name} ${form} PDF, chart ${i + 1}`));
        // both windows of the IOPS chart, the first printed, have lines to find
        expect(new Set(found[0]?.windows.map((w) => w.window.split(' ')[0])), `${name} ${form}: the IOPS chart's windows`).toEqual(new Set(['baseline', 'measure']));
        if (name === 'pair') expect(found.flatMap((f) => f.gaps).length, 'the pair\'s 23.5 h between the files is a gap').toBeGreaterThan(0);
        expectNoOverprint(out, res.model, `${name}-${form}`);
        if (name === 'pair' && form === 'full') {
          // the equal 20 ms read and write targets: one line, one label saying both
          const lat = timeCharts(res.model).find((c) => c.id === 'latency-time');
          expect(lat?.refLines?.map((r) => [r.y, r.label.key])).toEqual([[20, 'target.readWrite']]);
          expect(execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' })).toContain('reads and writes < 20 ms');
        }
      }
    }, 180_000);
  }
});

/** The values of each series of the deck's chart as written in its cache: '' for a blank point. */
async function chartValues(pptx: string): Promise<string[][]> {
  const zip = await JSZip.loadAsync(readFileSync(pptx));
  // pptxgenjs numbers charts across every deck made in the process: the deck's one chart, whatever its number
  const part = Object.keys(zip.files).find((f) => /^ppt\/charts\/chart\d+\.xml$/u.test(f)) ?? '';
  const xml = (await zip.file(part)?.async('string')) ?? '';
  return [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/gu)].map((m) => {
    const val = /<c:val>([\s\S]*?)<\/c:val>/u.exec(m[1] as string)?.[1] ?? '';
    return [...val.matchAll(/<c:pt idx="\d+"><c:v>([^<]*)<\/c:v><\/c:pt>/gu)].map((v) => v[1] as string);
  });
}

/** The deck's IOPS chart as LibreOffice renders it: its slide found by its title, its plot by its grid; a category axis (a point every bucket, centred in its slot). */
function deckChart(pdf: string, spec: ChartSpec, tag: string): Found {
  const title = reportText(spec.title, 'en');
  const pages = Number(/Pages:\s+(\d+)/u.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
  const page = Array.from({ length: pages }, (_, i) => i).find((i) => execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), pdf, '-'], { encoding: 'utf8' }).includes(title));
  expect(page, `${tag}: the slide titled "${title}"`).toBeDefined();
  const img = renderPages(pdf, join(dir, `ppm-${tag}`), DPI)[page as number] as Rgb;
  const plot = gridPlot(img);
  expect(plot, `${tag}: the chart's grid`).not.toBeNull();
  const box = plot as Box;
  const ts = (spec.series[0]?.points ?? []).map(([t]) => t);
  const step = ((ts[ts.length - 1] as number) - (ts[0] as number)) / Math.max(1, ts.length - 1);
  const x = (t: number): number => box.left + (((t - (ts[0] as number)) / step + 0.5) * (box.right - box.left)) / ts.length;
  // a point's place is known to about a slot (LibreOffice's inner plot is not exactly its grid)
  return chartFound(img, spec, box, x, bandsOf(spec), (box.right - box.left) / ts.length + 2);
}

describe.skipIf(skip)('the PowerPoint deck\'s chart as LibreOffice renders it: every series in each window, no line across a gap, blanks carried', () => {
  it('the sample and a before/after pair a day apart', async () => {
    const decks = new Map<string, ReportModel>();
    for (const { name, capture } of inputs()) {
      const out = join(dir, `${name}.pptx`);
      const res = await exportReport({ format: 'pptx', form: 'full', lang: 'en', paper: 'a4', out, load: { capturePath: capture, cover: { title: 'Cache PoC' }, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) } });
      decks.set(name, res.model);
      // a point without data is written blank (drawn as a gap: displayBlanksAs gap), a point with data never is
      const spec = timeCharts(res.model).find((c) => c.id === 'iops-time') as ChartSpec;
      const values = await chartValues(out);
      expect(values.length, `${name}: the deck's series`).toBe(spec.series.length);
      const written = spec.series.map((s) => s.points.map(([, y]) => y === null));
      expect(new Set(values.map((v) => JSON.stringify(v.map((x) => x === ''))))).toEqual(new Set(written.map((w) => JSON.stringify(w))));
      if (name === 'pair') expect(values.some((v) => v.includes('')), 'the pair\'s chart carries blanks').toBe(true);
    }
    const r = spawnSync('soffice', [`-env:UserInstallation=file://${join(dir, 'lo-profile')}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', dir, ...[...decks.keys()].map((n) => join(dir, `${n}.pptx`))], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, `soffice: ${r.stderr}`).toBe(0);
    for (const [name, model] of decks) {
      const spec = timeCharts(model).find((c) => c.id === 'iops-time') as ChartSpec;
      const found = deckChart(join(dir, `${name}.pdf`), spec, `${name}-deck`);
      expect(new Set(found.windows.map((w) => w.window.split(' ')[0])), `${name} deck: the windows`).toEqual(new Set(['baseline', 'measure']));
      expectFound(found, `${name} deck`);
      if (name === 'pair') expect(found.gaps.length, 'the pair\'s 23.5 h between the files is a gap').toBeGreaterThan(0);
      expect(overprinted(pdfWords(join(dir, `${name}.pdf`))).map(([a, b]) => `slide ${a.page + 1}: "${a.text}" over "${b.text}"`), name).toEqual([]);
    }
  }, 240_000);
});
