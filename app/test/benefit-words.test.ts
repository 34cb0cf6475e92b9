/**
 * The headline's words in every language, from the engine's keys (engine/src/report/benefit-words.ts):
 * the I/O time saved as a share and an absolute, and a saving whose 95 % interval includes zero
 * said to be indistinguishable from no change — the same on the dashboard's cards, in the report
 * and in `cacheproof analyze`.
 */
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisReport } from '@cacheproof/engine';
import { buildReportModel, ioTimeSavedVal, ioTimeVals, noChangeVals, reportSeries, type ReportModel } from '@cacheproof/engine/report';
import { synthCapture, type SynthOptions } from '../../engine/src/benefit/testkit.ts';
import { formatText } from '../src/cli/analyze.ts';
import { formatVal } from '../src/shared/i18n/report.ts';
import { LANGS, type Lang } from '../src/shared/i18n/types.ts';

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

/** The summary section (verdict, sentences, cards) as text in one language. */
function summaryText(model: ReportModel, lang: Lang): string {
  const out: string[] = [];
  for (const b of model.sections.find((s) => s.id === 'summary')?.blocks ?? []) {
    if (b.type === 'paragraph') out.push(formatVal({ k: 'msg', m: b.text }, lang));
    else if (b.type === 'sentences') out.push(...b.items.map((m) => formatVal({ k: 'msg', m }, lang)));
    else if (b.type === 'cards') for (const c of b.cards) out.push(...c.subs.map((m) => formatVal({ k: 'msg', m }, lang)));
  }
  return out.join('\n');
}

const NOISE: Record<Lang, RegExp> = {
  en: /not distinguishable from no change over windows this long \(95% interval [−-]\d+[.,]\d\s?% – \d+[.,]\d\s?% includes zero\)\. What would settle it: longer windows/u,
  fr: /impossible à distinguer d’une absence de changement sur des fenêtres aussi courtes \(intervalle à 95 % [−-]\d+[.,]\d\s?% – \d+[.,]\d\s?% contient zéro\)\. Pour trancher : des fenêtres plus longues/u,
  es: /no se distingue de la ausencia de cambio con ventanas tan cortas \(intervalo del 95 % [−-]\d+[.,]\d\s?% – \d+[.,]\d\s?% incluye el cero\)\. Lo que lo aclararía: ventanas más largas/u,
  ru: /на окнах такой длины неотличимо от отсутствия изменений \(95%-й интервал [−-]\d+[.,]\d\s?% – \d+[.,]\d\s?% включает ноль\)\. Что позволит решить: более длинные окна/u,
};
const SHARE: Record<Lang, RegExp> = {
  en: /^Estimate \(I\/Os kept off the drives × their response time before, Condusiv's method\): \d+[.,]\d\s?% less time on I\/O, (\d+ h \d+ min|\d+ min \d+ s|\d+ s|\d+[.,]\d s) less per hour$/u,
  fr: /^Estimation \(E\/S évitées aux disques × leur temps de réponse avant, méthode de Condusiv\) : \d+[.,]\d\s?% de temps en moins en E\/S, .+ de moins par heure$/u,
  es: /^Estimación \(E\/S evitadas a los discos × su tiempo de respuesta antes, método de Condusiv\): un \d+[.,]\d\s?% menos de tiempo en E\/S, .+ menos por hora$/u,
  ru: /^Оценка \(операции, снятые с дисков, × их время отклика до включения, метод Condusiv\): на \d+[.,]\d\s?% меньше времени ввода-вывода, на .+ меньше в час$/u,
};

/** The measured I/O time, said first (benefit-words.ts ioTimeMeasuredMsg). */
const MEASURED: Record<Lang, RegExp> = {
  en: /^Measured: the backing drives spent \d+[.,]\d\s?% (less|more) time on I\/O, .+ (less|more) per hour \(.+ → .+ of I\/O time per hour, summed from their counters\)/u,
  fr: /^Mesuré : les disques sous-jacents ont passé \d+[.,]\d\s?% de temps en (moins|plus) en E\/S/u,
  es: /^Medido: los discos de respaldo dedicaron un \d+[.,]\d\s?% (menos|más) de tiempo a E\/S/u,
  ru: /^Измерено: базовые диски тратили на ввод-вывод на \d+[.,]\d\s?% (меньше|больше) времени/u,
};

describe('a saving the data cannot tell from noise, in every language', () => {
  const { a, model } = run({ front: 'f0', missRatio: 0.97, noise: 0.9, latAfterMs: 5.9 });
  it('the capture has an interval of I/Os saved that spans zero', () => {
    const c = a.benefit.iosSavedPercent.ci95;
    expect(c !== null && c.low < 0 && c.high > 0).toBe(true);
  });
  for (const lang of LANGS) {
    it(`the report's verdict, summary and cards and cacheproof analyze say it (${lang})`, () => {
      const said = noChangeVals(a).map((v) => formatVal(v, lang));
      expect(said).toHaveLength(2);
      for (const s of said) expect(s).toMatch(NOISE[lang]);
      const report = summaryText(model, lang);
      // the verdict (first paragraph), a summary sentence and the card each say the I/Os saved one
      expect(report.split(said[0] as string).length - 1).toBeGreaterThanOrEqual(3);
      expect(report).toContain(said[1]);
      const cli = formatText(a, 'x.capture', lang);
      for (const s of said) expect(cli).toContain(s);
      expect(`${report}\n${cli}`).not.toMatch(/\{\w+\}/u);
    });
  }
});

describe('I/O time saved as a share and an absolute, in every language', () => {
  const { a, model } = run({ front: 'f0', baselineS: 3600, measureS: 3600, missRatio: 0.2, noise: 0.05, latAfterMs: 1 });
  for (const lang of LANGS) {
    it(`card, report and CLI print the engine's words (${lang})`, () => {
      const words = formatVal(ioTimeSavedVal(a.benefit.ioTimeSaved), lang);
      expect(words).toMatch(SHARE[lang]);
      expect(summaryText(model, lang)).toContain(words);
      expect(formatText(a, 'x.capture', lang)).toContain(words);
      // the measured figure, said before the estimate in the report and in the CLI
      const measured = formatVal(ioTimeVals(a.benefit.ioTimeMeasured, a.benefit.ioTimeSaved)[0] ?? { k: 'str', s: '' }, lang);
      expect(measured).toMatch(MEASURED[lang]);
      for (const text of [summaryText(model, lang), formatText(a, 'x.capture', lang)]) {
        expect(text).toContain(measured);
        expect(text.indexOf(measured)).toBeLessThan(text.indexOf(words));
      }
    });
  }
});
