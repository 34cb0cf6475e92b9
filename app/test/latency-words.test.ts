/**
 * A response time that rose reads the same on the dashboard's card, in the report's figures
 * table and in `cacheproof analyze`, in every language: "increased by …, …× slower" (the engine's
 * `latencyChange` key and values, translated), never "−50 % lower, 0.67× faster".
 */
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisReport } from '@cacheproof/engine';
import { latencyChangeVal } from '@cacheproof/engine/report';
import { synthCapture } from '../../engine/src/benefit/testkit.ts';
import { figuresTable } from '../../engine/src/report/tables.ts';
import { formatText } from '../src/cli/analyze.ts';
import { latencyChangeText } from '../src/renderer/dashboard/text.ts';
import { formatVal } from '../src/shared/i18n/report.ts';
import { LANGS } from '../src/shared/i18n/types.ts';

function analysis(latBeforeMs: number, latAfterMs: number): AnalysisReport {
  const r = analyze(synthCapture({ baselineS: 3600, measureS: 3600, stepMs: 10_000, missRatio: 0.2, latBeforeMs, latAfterMs }), { seed: 1 });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

/** The words a rise must use in each language, and the words of a fall it must not. */
const ROSE: Record<(typeof LANGS)[number], { say: RegExp; never: RegExp }> = {
  en: { say: /^increased by 50[.,]0\s?%, 1[.,]5× slower$/u, never: /\bfaster\b|\blower\b|−/u },
  fr: { say: /^augmenté de 50[.,]0\s?%, 1[.,]5 fois plus lent$/u, never: /rapide|moins|−/u },
  es: { say: /^aumentado un 50[.,]0\s?%, 1[.,]5 veces más lento$/u, never: /rápido|menos|−/u },
  ru: { say: /^больше на 50[.,]0\s?%, в 1[.,]5 раза медленнее$/u, never: /быстрее|меньше|−/u },
};

describe('the words of a response time that rose', () => {
  const a = analysis(2, 3);
  const l = a.benefit.latencyMs;

  it('the analysis has the latency rising by half (2 ms → 3 ms)', () => {
    expect(l.reductionPercent).toBeCloseTo(-50, 6);
    expect(l.speedup).toBeCloseTo(2 / 3, 6);
  });

  for (const lang of LANGS) {
    it(`card, figures table and CLI print the same words (${lang})`, () => {
      const card = latencyChangeText(l, lang);
      expect(card).toMatch(ROSE[lang].say);
      expect(card).not.toMatch(ROSE[lang].never);
      const row = figuresTable(a).rows.find((r) => r.cells[0]?.k === 'msg' && r.cells[0].m.key === 'fig.latency');
      const cell = row?.cells[3];
      expect(cell).toBeDefined();
      if (cell === undefined) return;
      const table = formatVal(cell, lang);
      // the table's change cell is the card's words, then the reduction's interval
      expect(table.startsWith(card)).toBe(true);
      expect(table.slice(card.length)).not.toMatch(/faster|rapide|rápido|быстрее/u);
      const cli = formatText(a, 'x.capture', lang).split('\n').find((s) => s.includes(card));
      expect(cli).toBeDefined();
    });
  }

  it('a fall and no change are said with the same one rule', () => {
    const fell = analysis(4, 1);
    expect(latencyChangeText(fell.benefit.latencyMs, 'en')).toMatch(/^reduced by 75[.,]0\s?%, 4× faster$/u);
    expect(formatVal(latencyChangeVal({ reductionPercent: 0, speedup: 1 }), 'fr')).toBe('inchangé');
  });
});
