/** The Live screen's words: its catalog, and durations in two units at most (the split is shared/units.ts). */
import { live, type LiveKey } from '../../shared/i18n/live.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { splitSeconds } from '../../shared/units.ts';
import { fmtNumber } from '../format.ts';

export type LiveWords = (key: LiveKey, params?: Record<string, string | number>) => string;

export function liveWords(lang: Lang): LiveWords {
  return (key, params) => translate(live, lang, key, params);
}

/** `1 h 05 min`, `12 min 30 s`, `45 s`: two units at most, in the locale's words. */
export function durationText(lang: Lang, seconds: number): string {
  const t = liveWords(lang);
  const { d, h, m, s: sec } = splitSeconds(seconds);
  const n = (v: number): string => fmtNumber(lang, v, 0);
  const parts: string[] = [];
  if (d > 0) parts.push(t('dur.d', { n: n(d) }), ...(h > 0 ? [t('dur.h', { n: n(h) })] : []));
  else if (h > 0) parts.push(t('dur.h', { n: n(h) }), ...(m > 0 ? [t('dur.min', { n: n(m) })] : []));
  else if (m > 0) parts.push(t('dur.min', { n: n(m) }), ...(sec > 0 ? [t('dur.s', { n: n(sec) })] : []));
  else parts.push(t('dur.s', { n: n(sec) }));
  return parts.join(' ');
}
