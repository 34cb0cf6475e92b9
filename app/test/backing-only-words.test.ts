/**
 * Backing-only: with no front device the figures are the backing drives' own, so neither
 * `cacheproof analyze` nor the report (every message of its model, in every language) calls
 * anything "application" or "delivered" (the CLI printed the disks' IOPS as "Delivered IOPS
 * (application)").
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '@cacheproof/engine';
import { buildReportModel, reportSeries, shortForm, type Msg, type ReportModel } from '@cacheproof/engine/report';
import { synthCapture } from '../../engine/src/benefit/testkit.ts';
import { formatText } from '../src/cli/analyze.ts';
import { formatVal } from '../src/shared/i18n/report.ts';
import { LANGS, type Lang } from '../src/shared/i18n/types.ts';

/** The words for the application and for what it was delivered, per language. */
const APPLICATION: Record<Lang, RegExp> = {
  en: /applica|deliver/iu,
  fr: /applica|délivr/iu,
  es: /aplicaci|entregad/iu,
  // «Приложение» is also the appendix's title: the application's forms here are приложения, приложению, приложением
  ru: /приложени[яюй]|приложением|выдан/iu,
};

function capture(front: string | null) {
  const data = synthCapture({ baselineS: 3600, measureS: 3600, warmupS: 300, stepMs: 10_000, front, backing: ['back0', 'back1'], iopsBefore: 400, iopsAfter: 400, missRatio: 0.3, latBeforeMs: 6, latAfterMs: 1, noise: 0.05, seed: 5 });
  const a = analyze(data, { bootstrapReplicates: 100 });
  if (!a.ok) throw new Error(a.error.message);
  const model = buildReportModel({
    analysis: a, capture: { fileName: 'x.capture', sha256: 'ab'.repeat(32), sizeBytes: 1, probeVersion: '0.1.0', source: 'synthetic', schemaVersion: 1, sampleIntervalMs: 10_000, devices: data.devices },
    series: reportSeries(data.intervals, data.devices), cover: {}, appVersion: '9.9.9', generatedMs: 0, tco: null,
  });
  return { a, model };
}

/** Every message of the model (titles, sentences, cards, tables, captions, labels), as text in one language. */
function texts(model: ReportModel, lang: Lang): string[] {
  const out: string[] = [];
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      x.forEach(visit);
      return;
    }
    const o = x as Record<string, unknown>;
    if (typeof o['key'] === 'string') {
      out.push(formatVal({ k: 'msg', m: o as unknown as Msg }, lang));
      return;
    }
    Object.values(o).forEach(visit);
  };
  visit(model);
  return out;
}

describe('backing-only outputs never say "application" or "delivered"', () => {
  const bo = capture(null);
  it('the capture is analysed in backing-only mode', () => expect(bo.a.mode).toBe('backing-only'));
  for (const lang of LANGS) {
    it(`cacheproof analyze and the report model, full and short (${lang})`, () => {
      const cli = formatText(bo.a, 'x.capture', lang);
      expect(cli.split('\n').filter((l) => APPLICATION[lang].test(l))).toEqual([]);
      for (const model of [bo.model, shortForm(bo.model)]) {
        const said = texts(model, lang);
        expect(said.length).toBeGreaterThan(model.form === 'full' ? 100 : 20);
        expect(said.filter((s) => APPLICATION[lang].test(s))).toEqual([]);
      }
    });
  }
  it('with a front device the same words do name the application (the check can fail)', () => {
    const fb = capture('front0');
    expect(fb.a.mode).toBe('front-and-backing');
    expect(formatText(fb.a, 'x.capture', 'en')).toMatch(APPLICATION.en);
    expect(texts(fb.model, 'en').some((s) => APPLICATION.en.test(s))).toBe(true);
  });
});
