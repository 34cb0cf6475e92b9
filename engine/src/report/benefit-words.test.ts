import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import { ioTimeSaved } from '../benefit/figures.ts';
import { synthCapture, type SynthOptions } from '../benefit/testkit.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { buildReportModel } from './build.ts';
import { shortForm } from './short.ts';
import { reportSeries } from './series.ts';
import { ioTimeSavedMsg, noChange, spansZero } from './benefit-words.ts';
import type { Msg, ReportModel } from './types.ts';

function run(o: Partial<SynthOptions>): { a: AnalysisReport; model: ReportModel } {
  const data = synthCapture({ baselineS: 300, measureS: 300, warmupS: 60, stepMs: 10_000, backing: ['back0'], iopsBefore: 500, iopsAfter: 500, latBeforeMs: 6, seed: 3, ...o });
  const a = analyze(data, { bootstrapReplicates: 200 });
  if (!a.ok) throw new Error(a.error.message);
  const model = buildReportModel({
    analysis: a, capture: { fileName: 'x.capture', sha256: 'ab'.repeat(32), sizeBytes: 1, probeVersion: '0.1.0', source: 'synthetic', schemaVersion: 1, sampleIntervalMs: 10_000, devices: data.devices },
    series: reportSeries(data.intervals, data.devices), cover: {}, appVersion: '9.9.9', generatedMs: 0, tco: null,
  });
  return { a, model };
}

const summary = (model: ReportModel) => model.sections.find((s) => s.id === 'summary')?.blocks ?? [];
const cardSubs = (model: ReportModel, id: string): string[] =>
  summary(model).flatMap((b) => (b.type === 'cards' ? b.cards.filter((c) => c.id === id).flatMap((c) => c.subs.map((s) => s.key)) : []));
const sentences = (model: ReportModel): string[] => summary(model).flatMap((b) => (b.type === 'sentences' ? b.items.map((s: Msg) => s.key) : []));

describe('a saving the data cannot tell from noise', () => {
  it('front and backing, noisy 5-minute windows: both intervals include zero, and the card, verdict, summary and short form say so with what would settle it', () => {
    const { a, model } = run({ front: 'f0', missRatio: 0.97, noise: 0.9, latAfterMs: 5.9 });
    const saved = a.benefit.iosSavedPercent;
    // the capture is what the test needs: a positive saving whose interval spans zero
    expect(saved.value).toBeGreaterThan(0);
    expect(saved.ci95?.low).toBeLessThan(0);
    expect(saved.ci95?.high).toBeGreaterThan(0);
    const n = noChange(a);
    expect(n.iosSaved?.key).toBe('noise.iosSaved');
    expect(n.iosSaved?.p?.['value']).toEqual({ k: 'pct', v: saved.value, d: 1 });
    expect(n.iosSaved?.p?.['ci']).toMatchObject({ k: 'ci', low: saved.ci95?.low, high: saved.ci95?.high });
    expect(n.iosSaved?.p?.['settle']).toEqual({ k: 'msg', m: { key: 'noise.settle.windows' } });
    expect(spansZero(a.benefit.latencyMs.reductionPercentCi95)).toBe(true);
    expect(n.latency?.key).toBe('noise.latency');
    // the full report's summary opens on it; the short form's verdict is the decision block, whose I/Os saved line says it
    const verdict = summary(model)[0];
    expect(verdict?.type === 'paragraph' ? verdict.text.key : '').toBe('noise.iosSaved');
    for (const m of [model, shortForm(model)]) {
      const decision = m.sections[0];
      expect(decision?.id).toBe('decision');
      const sig = m.decision?.iosSaved?.p?.['sig'];
      expect(sig?.k === 'msg' ? sig.m : null).toEqual(n.iosSaved);
      const lat = m.decision?.latency?.p?.['sig'];
      expect(lat?.k === 'msg' ? lat.m : null).toEqual(n.latency);
    }
    // the full report's cards say it too; the short form's say it once, in the decision block above them
    expect(cardSubs(model, 'iosSaved')[0]).toBe('noise.iosSaved');
    expect(cardSubs(model, 'latency')).toContain('noise.latency');
    expect(cardSubs(shortForm(model), 'iosSaved')).not.toContain('noise.iosSaved');
    expect(cardSubs(shortForm(model), 'latency')).not.toContain('noise.latency');
    // and the cards keep their own figures
    expect(cardSubs(shortForm(model), 'iosSaved')).toContain('card.beforeAfterIos');
    expect(sentences(model)).toEqual(expect.arrayContaining(['noise.iosSaved', 'noise.latency']));
  });

  it('backing only: what would settle it includes a front device', () => {
    const { a } = run({ front: null, missRatio: 0.95, noise: 0.9 });
    expect(a.mode).toBe('backing-only');
    expect(spansZero(a.benefit.iosSavedPercent.ci95)).toBe(true);
    expect(noChange(a).iosSaved?.p?.['settle']).toEqual({ k: 'msg', m: { key: 'noise.settle.front' } });
  });

  it('a saving whose interval excludes zero is told plainly: no "not distinguishable" anywhere', () => {
    const { a, model } = run({ front: 'f0', baselineS: 3600, measureS: 3600, missRatio: 0.2, noise: 0.05, latAfterMs: 1 });
    expect(a.benefit.iosSavedPercent.ci95?.low).toBeGreaterThan(0);
    expect(noChange(a)).toEqual({ iosSaved: null, latency: null });
    expect(JSON.stringify(model)).not.toContain('noise.');
  });
});

describe('I/O time saved as a share and an absolute', () => {
  it('"spent 81 % less time on I/O: 48 min 36 s less per hour", the absolute alone without a share, "none" when nothing was kept off', () => {
    expect(ioTimeSavedMsg(ioTimeSaved(100, 19, 10, 3600))).toEqual({ key: 'iotime.share', p: { share: { k: 'pct', v: expect.closeTo(81, 9) as number, d: 1 }, perHour: { k: 'msg', m: { key: 'dur.minS', p: { min: { k: 'num', v: 48, d: 0 }, s: { k: 'num', v: 36, d: 0 } } } } } });
    expect(ioTimeSavedMsg(ioTimeSaved(100, 99.999, 10, 3600))?.p?.['perHour']).toEqual({ k: 'num', v: expect.closeTo(0.036, 9) as number, d: 1, unit: 's' });
    expect(ioTimeSavedMsg(ioTimeSaved(100, 19, 0, 3600))).toEqual({ key: 'iotime.perHour', p: { perHour: { k: 'num', v: 0, d: 1, unit: 's' } } });
    expect(ioTimeSavedMsg(ioTimeSaved(100, 150, 2, 3600))).toEqual({ key: 'iotime.none' });
    expect(ioTimeSavedMsg(ioTimeSaved(null, 150, 2, 3600))).toBeNull();
  });
  it('is on the report\'s I/Os saved card and in its summary', () => {
    const { model } = run({ front: 'f0', baselineS: 3600, measureS: 3600, missRatio: 0.2, noise: 0.05, latAfterMs: 1 });
    expect(cardSubs(model, 'iosSaved')).toContain('iotime.share');
    expect(sentences(model)).toContain('iotime.share');
    // the measured figure comes first on the card and in the summary, the model after it as its estimate
    const card = cardSubs(model, 'iosSaved'), said = sentences(model);
    const first = (xs: string[]): number => xs.findIndex((k) => k.startsWith('iotime.measured'));
    expect(first(card)).toBeGreaterThanOrEqual(0);
    expect(first(card)).toBeLessThan(card.indexOf('iotime.share'));
    expect(first(said)).toBeLessThan(said.indexOf('iotime.share'));
  });
});
