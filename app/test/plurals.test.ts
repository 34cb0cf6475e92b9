/** Plural words by the language's CLDR rules (Intl.PluralRules), in every catalog's `format`. */
import { describe, expect, it } from 'vitest';
import { format } from '../src/shared/i18n/types.ts';
import { planner } from '../src/shared/i18n/planner.ts';
import { rt } from '../src/shared/i18n/report.ts';
import { translate } from '../src/shared/i18n/types.ts';

const Y = '{years} {years|one:год|few:года|many:лет|other:года}';

describe('plural words', () => {
  it('Russian: 1 год, 4 года, 5 лет, 21 год, 1,5 года; numbers given formatted or raw', () => {
    expect(format(`через ${Y}`, { years: 4 }, 'ru')).toBe('через 4 года');
    expect(format(Y, { years: 5 }, 'ru')).toBe('5 лет');
    expect(format(Y, { years: 21 }, 'ru')).toBe('21 год');
    expect(format(Y, { years: '1,5' }, 'ru')).toBe('1,5 года');
    expect(format('{n} {n|one:диск|few:диска|many:дисков|other:диска}', { n: '1\u00a0234' }, 'ru')).toBe('1\u00a0234 диска');
    expect(format('{n} {n|one:диск|few:диска|many:дисков|other:диска}', { n: 4 }, 'ru')).toBe('4 диска');
  });

  it('without a language, or with a value that is not a number, the `other` form', () => {
    expect(format(Y, { years: 5 })).toBe('5 года');
    expect(format(Y, { years: 'n/a' }, 'ru')).toBe('n/a года');
  });

  it('the catalogs say "через 4 года" and "4 диска" where they said "через 4 лет" and "4 дисков"', () => {
    expect(translate(planner, 'ru', 'sum.cumulative', { label: 'A', start: '1', end: '2', years: 4 })).toBe('A: 1 USD в первый день, 2 USD через 4 года');
    expect(translate(planner, 'ru', 'sum.spindlesPoint', { drives: 4, iops: '900' })).toBe('4 диска при 900 IOPS');
    expect(translate(planner, 'ru', 'sum.spindlesPoint', { drives: 25, iops: '900' })).toBe('25 дисков при 900 IOPS');
    expect(rt('tco.total', 'ru', { years: 4 })).toBe('Итого за 4 года');
    expect(rt('tco.total', 'ru', { years: 5 })).toBe('Итого за 5 лет');
    expect(rt('tco.total', 'en', { years: 4 })).toMatch(/4 years/u);
  });
});
