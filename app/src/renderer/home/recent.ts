/**
 * Analyses opened in this browser profile, kept in localStorage so that Home can list them
 * after a restart (the runs themselves come from the host's `run.list`). Only what Home shows
 * is kept: the capture's path, name, host, dates and headline; the analysis is recomputed
 * from the capture when it is opened again.
 */
import type { AnalysisView } from '../../shared/contract.ts';

const KEY = 'cacheproof.recent';
const MAX = 20;

export interface RecentCapture {
  captureFile: string;
  name: string;
  hostname: string | null;
  /** First and last phase boundary (UTC ms), or the first and last chart point when the capture has no phases. */
  startMs: number | null;
  endMs: number | null;
  iosSavedPercent: number | null;
  isSample: boolean;
  openedMs: number;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown): number | null => (isNum(v) ? v : null);

/** Parses what localStorage holds; anything malformed is skipped (the store is not trusted). */
function parse(text: string | null): RecentCapture[] {
  if (text === null) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: RecentCapture[] = [];
  for (const r of raw as unknown[]) {
    if (r === null || typeof r !== 'object') continue;
    const o = r as Record<string, unknown>;
    if (typeof o.captureFile !== 'string' || typeof o.name !== 'string' || !isNum(o.openedMs)) continue;
    out.push({
      captureFile: o.captureFile,
      name: o.name,
      hostname: typeof o.hostname === 'string' ? o.hostname : null,
      startMs: numOrNull(o.startMs),
      endMs: numOrNull(o.endMs),
      iosSavedPercent: numOrNull(o.iosSavedPercent),
      isSample: o.isSample === true,
      openedMs: o.openedMs,
    });
  }
  return out;
}

export function recentCaptures(): RecentCapture[] {
  try {
    return parse(localStorage.getItem(KEY)).sort((a, b) => b.openedMs - a.openedMs);
  } catch {
    return [];
  }
}

/** The time span an analysis covers: its phases, else its chart points. */
export function viewSpan(v: AnalysisView): { startMs: number | null; endMs: number | null } {
  const starts = v.phases.map((p) => p.startMs);
  const ends = v.phases.map((p) => p.endMs ?? p.startMs);
  if (starts.length > 0) return { startMs: Math.min(...starts), endMs: Math.max(...ends) };
  const ts = v.series.flatMap((s) => (s.t.length > 0 ? [s.t[0] ?? 0, s.t[s.t.length - 1] ?? 0] : []));
  return ts.length > 0 ? { startMs: Math.min(...ts), endMs: Math.max(...ts) } : { startMs: null, endMs: null };
}

/** Records an analysis opened in this window (newest first, one entry per capture file). */
export function rememberRecent(v: AnalysisView, nowMs: number = Date.now()): void {
  const entry: RecentCapture = {
    captureFile: v.captureFile,
    name: v.name,
    hostname: v.host.hostname,
    ...viewSpan(v),
    iosSavedPercent: v.result.benefit.iosSavedPercent.value,
    isSample: v.isSample,
    openedMs: nowMs,
  };
  const list = [entry, ...recentCaptures().filter((r) => r.captureFile !== v.captureFile)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // A full or disabled storage only loses the list of recent files, never a capture.
  }
}
