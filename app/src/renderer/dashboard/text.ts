/**
 * The dashboard's words and numbers for one language: `d(key)` looks a string up in the
 * `dashboard` catalog; the formatters put a unit on every figure (`0,92 ms` in French).
 */
import type { AnalysisReport } from '@cacheproof/engine';
import { latencyChangeVal } from '@cacheproof/engine/report';
import { dashboard, type DashboardKey } from '../../shared/i18n/dashboard.ts';
import { formatVal } from '../../shared/i18n/report.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { fmtDuration, fmtNumber, fmtPercent, fmtSig, fmtSignedPercent, fmtUtc } from '../format.ts';

export type Params = Record<string, string | number>;

export interface Words {
  lang: Lang;
  d(key: DashboardKey, params?: Params): string;
  /** `null` → "not available". */
  na: string;
  ms(v: number | null): string;
  iops(v: number | null): string;
  mbps(v: number | null): string;
  /** Percent 0–100 with one decimal. */
  pct(v: number | null): string;
  signedPct(v: number | null): string;
  count(v: number | null): string;
  perSec(v: number | null): string;
  factor(v: number | null): string;
  bytes(v: number | null): string;
  /** A number only (3 significant digits below 100), for axis ticks. */
  num(v: number): string;
  /** A number with a fixed count of decimals and the locale's grouping (the report's `num`). */
  fixed(v: number, digits: number): string;
  duration(seconds: number): string;
  utc(epochMs: number, withDate?: boolean): string;
  /** A null reason from the engine, in words. */
  reason(code: unknown): string;
}

const REASONS = ['no-data', 'no-io', 'no-reads', 'no-writes', 'not-reported', 'zero-denominator', 'backing-only-mode', 'too-few-blocks', 'no-matched-hours', 'no-backing-io-baseline', 'none-eliminated', 'none-breaking'] as const;

export function words(lang: Lang): Words {
  const d = (key: DashboardKey, params?: Params): string => translate(dashboard, lang, key, params);
  const na = d('notAvailable');
  const unit = (key: DashboardKey, f: (v: number) => string) => (v: number | null): string => (v === null ? na : d(key, { value: f(v) }));
  return {
    lang,
    d,
    na,
    ms: unit('unit.ms', (v) => fmtSig(lang, v)),
    iops: unit('unit.iops', (v) => fmtSig(lang, v)),
    mbps: unit('unit.mbps', (v) => fmtSig(lang, v)),
    pct: (v) => (v === null ? na : fmtPercent(lang, v, 1)),
    signedPct: (v) => (v === null ? na : fmtSignedPercent(lang, v, 1)),
    count: unit('unit.ios', (v) => fmtNumber(lang, v, 0)),
    perSec: unit('unit.iosPerSec', (v) => fmtSig(lang, v)),
    factor: unit('unit.factor', (v) => fmtNumber(lang, v, v < 10 ? 2 : 1)),
    bytes: unit('unit.bytes', (v) => fmtNumber(lang, v, 0)),
    num: (v) => fmtSig(lang, v),
    fixed: (v, digits) => fmtNumber(lang, v, digits),
    duration: (s) => fmtDuration(lang, s),
    utc: (ms, withDate = true) => fmtUtc(lang, ms, withDate),
    reason: (code) => ((REASONS as readonly unknown[]).includes(code) ? d(`reason.${code as (typeof REASONS)[number]}`) : na),
  };
}

/**
 * The response time's change in words ("increased by 50.0 %, 1.5× slower"): the engine's key and
 * values (`latencyChangeVal`), translated as the report translates them; '' when there is none.
 */
export function latencyChangeText(l: AnalysisReport['benefit']['latencyMs'], lang: Lang): string {
  return formatVal(latencyChangeVal(l), lang);
}

/** Splits a long definition into tooltip lines of about `width` characters (Chart.js does not wrap). */
export function wrap(text: string, width = 64): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line.length > 0 ? `${line} ${word}` : word;
  }
  if (line.length > 0) lines.push(line);
  return lines;
}
