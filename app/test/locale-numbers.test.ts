/** Numbers in form fields: shown in the locale's format and read back from it (issue 17). */
import { describe, expect, it } from 'vitest';
import { fmtInput, parseLocaleNumber } from '../src/shared/i18n/numbers.ts';
import { LANGS } from '../src/shared/i18n/types.ts';

describe('fmtInput and parseLocaleNumber', () => {
  it('shows a field\'s number the locale\'s way', () => {
    expect(fmtInput('en', 1234.5)).toBe('1,234.5');
    expect(fmtInput('fr', 1234.5)).toBe('1\u202f234,5');
    expect(fmtInput('ru', 1234.5)).toBe('1\u00a0234,5');
    expect(fmtInput('es', 12345.5)).toBe('12.345,5');
    expect(fmtInput('en', 80.0230946)).toBe('80.0231');
    expect(fmtInput('fr', 0.15)).toBe('0,15');
  });

  it('reads back what it shows, in every language, for small, large and negative numbers', () => {
    for (const lang of LANGS) for (const v of [0, 0.15, 1.5, 12, 999.5, 1234.5, 12345.6, 1_234_567, -1234.25, 80.0231, 1e-5]) expect(parseLocaleNumber(lang, fmtInput(lang, v)), `${lang} ${v}`).toBe(Number(v.toPrecision(6)));
  });

  it('English: a comma groups, a point is the decimal', () => {
    expect(parseLocaleNumber('en', '1,234.5')).toBe(1234.5);
    expect(parseLocaleNumber('en', '12,345')).toBe(12345);
    expect(parseLocaleNumber('en', '1,234,567')).toBe(1234567);
    expect(parseLocaleNumber('en', '0.32')).toBe(0.32);
    // a comma that cannot be grouping is a decimal comma (a value pasted from a French sheet)
    expect(parseLocaleNumber('en', '0,15')).toBe(0.15);
  });

  it('French and Russian: spaces group (plain, no-break or narrow), a comma or a point is the decimal', () => {
    for (const lang of ['fr', 'ru'] as const) {
      expect(parseLocaleNumber(lang, '1 234,5')).toBe(1234.5);
      expect(parseLocaleNumber(lang, '1\u202f234,5')).toBe(1234.5);
      expect(parseLocaleNumber(lang, '1\u00a0234,5')).toBe(1234.5);
      expect(parseLocaleNumber(lang, '0,21')).toBe(0.21);
      expect(parseLocaleNumber(lang, '0.21')).toBe(0.21);
      expect(parseLocaleNumber(lang, '−3,5')).toBe(-3.5);
    }
  });

  it('Spanish: a point groups thousands, a comma is the decimal; a lone point that cannot group is a decimal', () => {
    expect(parseLocaleNumber('es', '12.345,5')).toBe(12345.5);
    expect(parseLocaleNumber('es', '12.345')).toBe(12345);
    expect(parseLocaleNumber('es', '0,15')).toBe(0.15);
    expect(parseLocaleNumber('es', '0.15')).toBe(0.15);
  });

  it('refuses what is not one number', () => {
    for (const lang of LANGS) for (const bad of ['', ' ', '-', 'abc', '12..3', '1,2,3', '1.2.3,4,5', '1,23.4', '5 ms', '0x10', 'Infinity', '1e999']) expect(parseLocaleNumber(lang, bad), `${lang} '${bad}'`).toBeNull();
  });
});
