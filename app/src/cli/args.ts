/**
 * Small, strict parsers of option values shared by the `cacheproof` commands (durations, windows);
 * the command lines themselves are declared in declarations.ts and parsed by command-line.ts.
 */
import { CALENDAR_DATE_RANGE, isCalendarDate } from '../shared/calendar.ts';

/** A usage error: the command prints it and exits with EXIT.usage. */
export class UsageError extends Error {}

/** The longest duration an option takes (`--warmup`): 30 days, in milliseconds and as written in help. */
export const DURATION_MAX_MS = 30 * 86_400_000;
export const DURATION_MAX_TEXT = '30d';
/** `--seed`: the bootstrap generator keeps 32 bits, so larger seeds would silently repeat smaller ones. */
export const SEED_MAX = 4_294_967_295;
/** `--targets` file values: milliseconds, greater than 0 and at most this. */
export const TARGET_MS_MAX = 60_000;
/** The cover date's range, as help and docs print it (the check is the ReportCover schema's). */
export const COVER_DATE_RANGE = CALENDAR_DATE_RANGE;

/**
 * Parses a duration: `90s`, `15m`, `1h`, `1h30m`, `500ms`, `2d`, or a bare number of seconds,
 * from 0 to `maxMs` (default {@link DURATION_MAX_MS}). Returns milliseconds.
 * Example: `parseDuration('1h30m', '--warmup')` → 5 400 000.
 */
export function parseDuration(text: string, flag: string, maxMs = DURATION_MAX_MS, maxText = DURATION_MAX_TEXT): number {
  const t = text.trim();
  let total = 0;
  if (/^\d+(\.\d+)?$/.test(t)) total = Number(t) * 1000;
  else {
    const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
    let matched = 0;
    for (const m of t.matchAll(re)) {
      const n = Number(m[1]);
      const unit = m[2];
      total += n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000);
      matched += m[0].length;
    }
    if (t.length === 0 || matched !== t.length) throw new UsageError(`${flag}: '${text}' is not a duration; write e.g. 90s, 15m, 1h or 1h30m.`);
  }
  if (!Number.isFinite(total) || total > maxMs) throw new UsageError(`${flag}: '${text}' is out of range; a duration from 0 to ${maxText} is accepted.`);
  return total;
}

/** Parses `FROM..TO` of ISO-8601 times with a zone (`Z` or `±hh:mm`). Returns UTC epoch ms. */
export function parseWindow(text: string, flag: string): { startMs: number; endMs: number } {
  const parts = text.split('..');
  if (parts.length !== 2) throw new UsageError(`${flag}: write the window as FROM..TO, e.g. 2026-11-02T00:00:00Z..2026-11-03T00:00:00Z.`);
  const [from, to] = parts.map((p, i) => parseTime(p, `${flag} (${i === 0 ? 'FROM' : 'TO'})`)) as [number, number];
  if (!(to > from)) throw new UsageError(`${flag}: the window ends before it starts.`);
  return { startMs: from, endMs: to };
}

function parseTime(text: string, what: string): number {
  const t = text.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))$/.exec(t);
  if (m === null) throw new UsageError(`${what}: '${text}' is not an ISO-8601 time with a zone; write e.g. 2026-11-02T00:00:00Z.`);
  const [y, mo, d, h, mi, s, oh, om] = [m[1], m[2], m[3], m[4], m[5], m[7] ?? '0', m[10] ?? '0', m[11] ?? '0'].map(Number) as number[];
  if (!isCalendarDate(y as number, mo as number, d as number) || (h as number) > 23 || (mi as number) > 59 || (s as number) > 59 || (oh as number) > 14 || (om as number) > 59) {
    throw new UsageError(`${what}: '${text}' is not a valid time; write ${CALENDAR_DATE_RANGE.replace('a real calendar date', 'a real calendar date and time')}, hours 00-23, minutes and seconds 00-59, zone offset at most ±14:00.`);
  }
  const ms = Date.parse(t);
  if (!Number.isFinite(ms)) throw new UsageError(`${what}: '${text}' is not a valid time.`);
  return ms;
}
