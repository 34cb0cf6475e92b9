/**
 * Issue #28's "Words and polish": percentages follow the locale's own pattern (no French space
 * in English), French puts its space before a colon, and the dashboard's "no interval" line reads
 * for a manager, not as a note about the engine.
 */
import { describe, expect, it } from 'vitest';
import { dashboard } from '../src/shared/i18n/dashboard.ts';
import { fmtLabel, fmtPercentUpTo } from '../src/shared/i18n/numbers.ts';
import { planner, tornadoValueText } from '../src/shared/i18n/planner.ts';
import { report } from '../src/shared/i18n/report.ts';
import { tco } from '../src/shared/i18n/tco.ts';
import { LANGS, translate } from '../src/shared/i18n/types.ts';

describe('percent in the locale’s pattern', () => {
  it('English writes 100% and −20% with no space; French, Spanish and Russian keep theirs', () => {
    expect(fmtPercentUpTo('en', 100, 1)).toBe('100%');
    expect(tornadoValueText('hitShare', 1, { usdPerKwh: 0.1 } as never, 'en')).toBe('100%');
    expect(tornadoValueText('hitShare', 0.255, { usdPerKwh: 0.1 } as never, 'en')).toBe('25.5%');
    expect(tornadoValueText('hitShare', 1, { usdPerKwh: 0.1 } as never, 'fr')).toMatch(/^100[\u00a0\u202f]%$/u);
    expect(translate(report, 'en', 'ser.sensLow', { pct: '20' })).toBe('Input −20%');
    expect(translate(planner, 'en', 'tornado.high', { pct: '20' })).toBe('Input +20%');
  });

  it('no English catalog line puts a space between a number or placeholder and %', () => {
    for (const cat of [report, planner, tco, dashboard] as { en: Record<string, string> }[]) {
      for (const [key, text] of Object.entries(cat.en)) expect(`${key}: ${text}`).not.toMatch(/[0-9}][ \u00a0\u202f]%/u);
    }
  });
});

describe('French colon', () => {
  it('puts a narrow no-break space before the colon in French only', () => {
    expect(fmtLabel('fr', 'Hôte', 'vm')).toBe('Hôte\u202f: vm');
    expect(fmtLabel('en', 'Host', 'vm')).toBe('Host: vm');
    expect(fmtLabel('ru', 'Хост', 'vm')).toBe('Хост: vm');
  });
});

describe('a figure with no interval, in a manager’s words', () => {
  it('does not talk about the engine or a 95% interval, in every language', () => {
    for (const lang of LANGS) {
      const text = translate(dashboard, lang, 'ciNotComputed');
      expect(text).not.toMatch(/engine|moteur|motor|движок|95/iu);
      expect(text.length).toBeGreaterThan(20);
    }
  });
});
