/**
 * The PowerPoint export (app/src/host/report/pptx.ts), read back with a zip reader (JSZip) and
 * an XML parser (saxes, which throws on any malformed part): the package is a presentation with
 * the cover, verdict, chart and TCO slides; the verdict slide holds the headline figures as
 * `cacheproof analyze --json` gives them, formatted as the report prints them; the chart is a
 * native line chart of the report's series in the report's colours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import JSZip from 'jszip';
import { SaxesParser } from 'saxes';
import { runCli } from '../src/cli/main.ts';
import { formatVal } from '../src/shared/i18n/report.ts';
import type { Lang } from '../src/shared/i18n/types.ts';
import { COLOR } from '@cacheproof/engine/report';
import { paletteColor } from '../src/shared/palette.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-pptx-test-'));
let scenario = '';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

/** Every element's text runs (`a:t`) of an XML part, parsed (a malformed part throws). */
function texts(xml: string): string[] {
  const out: string[] = [];
  const p = new SaxesParser();
  let inT = false;
  let cur = '';
  p.on('opentag', (t) => { if (t.name === 'a:t') { inT = true; cur = ''; } });
  p.on('text', (t) => { if (inT) cur += t; });
  p.on('closetag', (t) => { if (t.name === 'a:t') { inT = false; out.push(cur); } });
  p.write(xml).close();
  return out;
}

/** Values of the elements named `name` (their text), in order. */
function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const p = new SaxesParser();
  let depth = 0;
  let cur = '';
  p.on('opentag', (t) => { if (t.name === name) { depth++; cur = ''; } });
  p.on('text', (t) => { if (depth > 0) cur += t; });
  p.on('closetag', (t) => { if (t.name === name) { depth--; out.push(cur); } });
  p.write(xml).close();
  return out;
}

const norm = (s: string): string => s.replace(/[\s\u00a0\u202f]+/gu, ' ').trim();

beforeAll(async () => {
  scenario = join(dir, 'sample.tco.json');
  expect((await cli('tco', '--from-capture', sample, '--out', scenario)).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PowerPoint export', () => {
  for (const lang of ['en', 'ru'] as const satisfies readonly Lang[]) {
    it(`${lang}: opens as a presentation whose verdict slide holds the analyze --json headline figures, with the chart and TCO slides`, async () => {
      const out = join(dir, `r-${lang}.pptx`);
      const r = await cli('report', sample, '--format', 'pptx', '--out', out, '--lang', lang, '--scenario', scenario);
      expect(r.code, r.err).toBe(0);
      const zip = await JSZip.loadAsync(readFileSync(out));
      const types = await zip.file('[Content_Types].xml')?.async('string');
      expect(types).toContain('application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml');
      const slides = Object.keys(zip.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/u.test(f)).sort((a, b) => Number(/\d+/u.exec(a)?.[0]) - Number(/\d+/u.exec(b)?.[0]));
      // cover, decision, summary, chart, TCO, caveats
      expect(slides).toHaveLength(6);
      // every part is well-formed XML
      for (const f of Object.keys(zip.files).filter((x) => x.endsWith('.xml') || x.endsWith('.rels'))) texts((await zip.file(f)?.async('string')) ?? '');
      const slideText = await Promise.all(slides.map(async (f) => norm(texts((await zip.file(f)?.async('string')) ?? '').join(' '))));
      // no empty unit in parentheses anywhere ("Drives ()"), and an empty cover field is left out, not "not given" (#28)
      for (const t of slideText) expect(t).not.toMatch(/\(\s*\)/u);
      expect(slideText[0]).not.toMatch(lang === 'en' ? /not given|Customer|Prepared by/u : /не указан|Заказчик|Подготовил/u);

      const json = JSON.parse((await cli('analyze', sample, '--json')).out) as {
        benefit: { iosSavedPercent: { value: number; ci95: { low: number; high: number } }; latencyMs: { before: number; after: number }; throughputMBps: { before: number; after: number } };
      };
      const b = json.benefit;
      const figures = [
        formatVal({ k: 'pct', v: b.iosSavedPercent.value, d: 1 }, lang),
        formatVal({ k: 'ci', low: b.iosSavedPercent.ci95.low, high: b.iosSavedPercent.ci95.high, of: 'pct', d: 1 }, lang),
        formatVal({ k: 'ms', v: b.latencyMs.before }, lang),
        formatVal({ k: 'ms', v: b.latencyMs.after }, lang),
        formatVal({ k: 'sig', v: b.throughputMBps.before, unit: 'mbps' }, lang),
      ].map(norm);
      for (const f of figures) expect(slideText[2], `slide 3 holds ${f}`).toContain(f);
      expect(slideText[2]).toMatch(lang === 'en' ? /^Executive summary Verdict: / : /^Резюме Итог: |^.+ Итог: /u);

      // the chart: a native line chart, one series per report line, in the report's palette
      const charts = Object.keys(zip.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/u.test(f));
      expect(charts).toHaveLength(1);
      const chartXml = (await zip.file(charts[0] as string)?.async('string')) ?? '';
      expect(chartXml).toContain('<c:lineChart>');
      // points without data are gaps, never a line drawn across them (an invented trend)
      expect(chartXml).toContain('<c:dispBlanksAs val="gap"/>');
      expect(chartXml).not.toContain('<c:dispBlanksAs val="span"/>');
      const series = [...chartXml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/gu)].map((m) => m[1] as string);
      expect(series.length).toBeGreaterThanOrEqual(2);
      const names = series.map((x) => norm(elements(/<c:tx>[\s\S]*?<\/c:tx>/u.exec(x)?.[0] ?? '', 'c:v').join('')));
      const colours = series.map((x) => `#${/<a:srgbClr val="([0-9A-F]{6})"/u.exec(x)?.[1] ?? ''}`);
      for (const n of names) expect(n).not.toBe('');
      // the PDF's colour for the same line: its role's in the one palette (front blue, backing vermillion)
      const roleOf = (name: string): string => (/\((front|фронт|приложение)/iu.test(name) ? 'front' : 'backing');
      expect(names.map(roleOf)).toContain('backing');
      names.forEach((n, i) => expect(colours[i], n).toBe(paletteColor(roleOf(n) === 'front' ? COLOR.front : COLOR.backing)));
      // the backing line lies under the front's before the switch: drawn wider, in a layer beneath it
      const lineWidth = (role: string): number => Number(/<a:ln w="(\d+)"/u.exec(series[names.findIndex((n) => roleOf(n) === role)] ?? '')?.[1]);
      expect(lineWidth('backing')).toBeGreaterThan(2 * lineWidth('front'));
      expect(chartXml.indexOf(names.find((n) => roleOf(n) === 'backing') ?? '?')).toBeLessThan(chartXml.indexOf(names.find((n) => roleOf(n) === 'front') ?? '?'));
      const points = series.map((x) => Number(/<c:val>[\s\S]*?<c:ptCount val="(\d+)"/u.exec(x)?.[1]));
      for (const n of points) expect(n).toBeGreaterThan(10);

      // the TCO slide: the bottom line of the scenario, the engine's verdict in the words `cacheproof tco` prints
      expect(slideText[4]).toMatch(lang === 'en' ? /Over \d+ years?,/u : /За \d+ (год|года|лет)/u);
      const tcoText = (await cli('tco', scenario, '--lang', lang)).out.split('\n')[1] ?? '';
      expect(tcoText).toMatch(lang === 'en' ? /^The cache configuration/u : /^Конфигурация с кэшем/u);
      expect(slideText[4]).toContain(norm(tcoText));
    }, 60_000);
  }
  for (const lang of ['fr', 'es'] as const satisfies readonly Lang[]) {
    it(`${lang}: the TCO slide's bottom line is the sentence \`cacheproof tco --lang ${lang}\` prints`, async () => {
      const out = join(dir, `r-${lang}.pptx`);
      const r = await cli('report', sample, '--format', 'pptx', '--out', out, '--lang', lang, '--scenario', scenario);
      expect(r.code, r.err).toBe(0);
      const zip = await JSZip.loadAsync(readFileSync(out));
      const tcoSlide = norm(texts((await zip.file('ppt/slides/slide5.xml')?.async('string')) ?? '').join(' '));
      const tcoText = (await cli('tco', scenario, '--lang', lang)).out.split('\n')[1] ?? '';
      expect(tcoText.length).toBeGreaterThan(40);
      expect(tcoSlide).toContain(norm(tcoText));
    }, 60_000);
  }
});
