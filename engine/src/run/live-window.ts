/**
 * Which hour of a run's series the Live screen shows (issue 38: computed here, not in the
 * renderer): the window's ends, whether an earlier hour exists, the ends of the hours before and
 * after, and how many whole-second ticks its time axis can carry. Times are epoch milliseconds.
 */

/** The hour the live charts show. */
export const LIVE_WINDOW_MS = 3_600_000;

/** The latest point over every series' times (each sorted ascending), or 0 when there is none. */
export function seriesLastMs(times: readonly (readonly number[])[]): number {
  let last = 0;
  for (const t of times) last = Math.max(last, t[t.length - 1] ?? 0);
  return last;
}

/** The earliest point over every series' times (each sorted ascending), or null when there is none. */
export function seriesFirstMs(times: readonly (readonly number[])[]): number | null {
  let first = Infinity;
  for (const t of times) first = Math.min(first, t[0] ?? Infinity);
  return Number.isFinite(first) ? first : null;
}

/** What the window is drawn from: the end asked for (null = live), the series and the run's times. */
export interface LiveWindowInput {
  /** null = live (the last hour, growing); a number = the end of the earlier hour shown. */
  viewEndMs: number | null;
  /** seriesLastMs of the points held. */
  lastMs: number;
  /** seriesFirstMs of the points held. */
  firstMs: number | null;
  /** The run's last sample, when known. */
  lastSampleMs: number | null;
  /** The run's start, when known (else the first point held stands for it). */
  startedMs: number | null;
}

/** Where the live view ends: the end asked for, else the latest of the points held and the run's last sample. */
export function liveWindowEndMs(viewEndMs: number | null, lastMs: number, lastSampleMs: number | null): number {
  return viewEndMs ?? Math.max(lastMs, lastSampleMs ?? 0);
}

/**
 * The window shown: an earlier hour spans exactly one hour before its end; live, the hour before
 * the latest point, starting no earlier than the first point held; at least one second wide.
 * `hasEarlier`: the run started before the hour ending where this view ends.
 */
export function liveWindowRange(i: LiveWindowInput): { fromMs: number; toMs: number; hasEarlier: boolean } {
  const end = liveWindowEndMs(i.viewEndMs, i.lastMs, i.lastSampleMs);
  const fromMs = i.viewEndMs !== null ? end - LIVE_WINDOW_MS : Math.max(end - LIVE_WINDOW_MS, i.firstMs ?? end - LIVE_WINDOW_MS);
  const toMs = Math.max(end, fromMs + 1000);
  const start = i.startedMs ?? i.firstMs;
  return { fromMs, toMs, hasEarlier: start !== null && start < toMs - LIVE_WINDOW_MS };
}

/** The end of the hour before the one shown. */
export function earlierWindowEndMs(viewEndMs: number | null, lastMs: number, lastSampleMs: number | null): number {
  return liveWindowEndMs(viewEndMs, lastMs, lastSampleMs) - LIVE_WINDOW_MS;
}

/** The end of the hour after the one shown, or null (live) when that hour reaches the run's last sample. */
export function laterWindowEndMs(viewEndMs: number, lastSampleMs: number | null): number | null {
  const end = viewEndMs + LIVE_WINDOW_MS;
  return end >= (lastSampleMs ?? 0) ? null : end;
}

/** Ticks on a time axis of whole seconds: no more than the seconds shown (no repeated labels), between 2 and 7. */
export function wholeSecondTicks(fromMs: number, toMs: number): number {
  return Math.max(2, Math.min(7, Math.floor((toMs - fromMs) / 1000) + 1));
}
