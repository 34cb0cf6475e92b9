/**
 * Analyses and workload profiles opened in this browser profile, kept in localStorage so that
 * Home can list them after a restart (the runs themselves come from the host's `run.list`). Only
 * what Home shows is kept: the capture's path, name, host, dates and headline (an analysis's I/Os
 * saved; a profile's mean and 95th-percentile IOPS, the engine's figures), and for a profile the
 * route that opens it again; the figures are recomputed from the capture when it is opened again.
 */
import { timeSpan } from '@cacheproof/engine';
import type { AnalysisView, ProfileView } from '../../shared/contract.ts';

const KEY = 'cacheproof.recent';
const MAX = 20;

export interface RecentCapture {
  captureFile: string;
  /** The analysis's id (`#/results/<id>`), so that a reloaded page can open it again; null for a profile or an entry stored before ids were kept. */
  viewId: string | null;
  name: string;
  hostname: string | null;
  /** First and last phase boundary (UTC ms), or the first and last chart point when the capture has no phases. */
  startMs: number | null;
  endMs: number | null;
  iosSavedPercent: number | null;
  isSample: boolean;
  openedMs: number;
  /** Set for a workload profile (a baseline alone): the route of its screen and its headline, the engine's IOPS (mean and 95th percentile). */
  profile: { route: string; meanIops: number | null; p95Iops: number | null } | null;
}

/** A profile's route as the profile screen makes it (`profile/<runId>`, `profile-file/<path>[/<host>]`), nothing else. */
const PROFILE_ROUTE = /^profile(-file)?\/[^/]+(\/[^/]+)?$/u;

function profileOf(v: unknown): RecentCapture['profile'] {
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o['route'] !== 'string' || !PROFILE_ROUTE.test(o['route'])) return null;
  return { route: o['route'], meanIops: numOrNull(o['meanIops']), p95Iops: numOrNull(o['p95Iops']) };
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
      viewId: typeof o.viewId === 'string' ? o.viewId : null,
      name: o.name,
      hostname: typeof o.hostname === 'string' ? o.hostname : null,
      startMs: numOrNull(o.startMs),
      endMs: numOrNull(o.endMs),
      iosSavedPercent: numOrNull(o.iosSavedPercent),
      isSample: o.isSample === true,
      openedMs: o.openedMs,
      profile: profileOf(o.profile),
    });
  }
  return out;
}

/** The recent analysis (not profile) whose view has this id, if this window opened it before. */
export function recentAnalysis(viewId: string): RecentCapture | undefined {
  return recentCaptures().find((r) => r.profile === null && r.viewId === viewId);
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
  if (starts.length > 0) return timeSpan(starts, ends);
  const ts = v.series.flatMap((s) => (s.t.length > 0 ? [s.t[0] ?? 0, s.t[s.t.length - 1] ?? 0] : []));
  return timeSpan(ts, ts);
}

/** Records an analysis opened in this window (newest first, one entry per capture file). */
export function rememberRecent(v: AnalysisView, nowMs: number = Date.now()): void {
  const entry: RecentCapture = {
    captureFile: v.captureFile,
    viewId: v.id,
    name: v.name,
    hostname: v.host.hostname,
    ...viewSpan(v),
    iosSavedPercent: v.result.benefit.iosSavedPercent.value,
    isSample: v.isSample,
    openedMs: nowMs,
    profile: null,
  };
  store(entry);
}

/** Records a workload profile opened in this window, with the route of its screen (one entry per profile route; an analysis of the same capture is another). */
export function rememberRecentProfile(v: ProfileView, route: string, nowMs: number = Date.now()): void {
  const p = v.profile;
  store({
    captureFile: v.captureFile,
    viewId: null,
    name: v.name,
    hostname: v.host.hostname,
    startMs: p.window.startMs,
    endMs: p.window.endMs,
    iosSavedPercent: null,
    isSample: false,
    openedMs: nowMs,
    profile: { route, meanIops: p.appFacing.means.iops, p95Iops: p.appFacing.percentiles.iops?.p95 ?? null },
  });
}

/** The entry's identity: an analysis by its capture file, a profile by its route. */
const keyOf = (r: RecentCapture): string => (r.profile === null ? `capture:${r.captureFile}` : `profile:${r.profile.route}`);

function store(entry: RecentCapture): void {
  const list = [entry, ...recentCaptures().filter((r) => keyOf(r) !== keyOf(entry))].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // A full or disabled storage only loses the list of recent files, never a capture.
  }
}
