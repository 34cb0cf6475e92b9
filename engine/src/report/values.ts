/**
 * Value helpers of the report model: how each figure is wrapped for display ({@link Val}) and the
 * few facts about an analysis that several parts of the report share (roles, app-facing devices,
 * the windows line, health grade and targets). Pure; used by build.ts, charts.ts, tables.ts and
 * tco-section.ts.
 */
import type { AnalysisReport } from '../benefit/result.ts';
import type { Interval95 } from '../benefit/bootstrap.ts';
import { TARGET_PRESETS, type HealthWindow, type LatencyTargets } from '../benefit/health.ts';
import type { DeviceRole } from '../records/types.ts';
import type { ReportKey } from './keys.ts';
import type { Msg, Table, Unit, Val } from './types.ts';

export const m = (key: ReportKey, p?: Record<string, Val>): Msg => (p === undefined ? { key } : { key, p });
export const str = (s: string): Val => ({ k: 'str', s });
export const msgv = (key: ReportKey, p?: Record<string, Val>): Val => ({ k: 'msg', m: m(key, p) });
export const empty: Val = { k: 'empty' };

export function num(v: number | null, d: number, unit?: Unit, why?: string): Val {
  const out: Val = { k: 'num', v, d };
  if (unit !== undefined) out.unit = unit;
  if (v === null && why !== undefined) out.why = why;
  return out;
}
export function pct(v: number | null, d = 1, why?: string): Val {
  return v === null && why !== undefined ? { k: 'pct', v, d, why } : { k: 'pct', v, d };
}
export function ms(v: number | null, why?: string): Val {
  return v === null && why !== undefined ? { k: 'ms', v, why } : { k: 'ms', v };
}
export function sig(v: number | null, unit?: Unit, why?: string): Val {
  const out: Val = { k: 'sig', v };
  if (unit !== undefined) out.unit = unit;
  if (v === null && why !== undefined) out.why = why;
  return out;
}
export function ci(c: Interval95 | null, of: 'pct' | 'x' | 'sig', d = 1): Val {
  return c === null ? empty : { k: 'ci', low: c.low, high: c.high, of, d };
}
export function time(iso: string | number, style: 'datetime' | 'date' | 'time' = 'datetime'): Val {
  return { k: 'time', ms: typeof iso === 'number' ? iso : Date.parse(iso), style };
}
export const list = (items: string[]): Val => str(items.length === 0 ? '—' : items.join(', '));

/** A duration in words: `{h} h {min} min` etc., as a message (localized units). */
export function duration(seconds: number): Val {
  const s = Math.round(seconds);
  if (s < 120) return msgv('dur.s', { n: num(s, 0) });
  if (s < 7200) {
    const min = Math.floor(s / 60);
    const rest = s % 60;
    return rest === 0 ? msgv('dur.min', { n: num(min, 0) }) : msgv('dur.minS', { min: num(min, 0), s: num(rest, 0) });
  }
  const h = Math.floor(s / 3600);
  const min = Math.round((s % 3600) / 60);
  return min === 0 ? msgv('dur.h', { n: num(h, 0) }) : msgv('dur.hMin', { h: num(h, 0), min: num(min, 0) });
}

export const why = (reasons: Record<string, string>, key: string): string | undefined => reasons[key];

export function roleOf(a: AnalysisReport, name: string, fallback: DeviceRole): DeviceRole {
  if (a.devices.front.includes(name)) return 'front';
  if (a.devices.backing.includes(name)) return 'backing';
  if (a.devices.cache.includes(name)) return 'cache';
  if (a.devices.other.includes(name)) return 'other';
  return fallback;
}

export function appDevices(a: AnalysisReport): string[] {
  return a.devices.appFacing === 'front' ? a.devices.front : a.devices.backing;
}

export function windowsMsg(a: AnalysisReport): Msg {
  const w = a.windows;
  return m('card.window', { b0: time(w.baseline.start, 'time'), b1: time(w.baseline.end, 'time'), m0: time(w.measure.start, 'time'), m1: time(w.measure.end, 'time') });
}

/** What the targets' words need: an analysis or a workload profile (both carry `health.preset` and `health.targets`). */
export interface HealthOf { health: { preset: string; targets: LatencyTargets } }

export function gradeVal(h: HealthWindow): Val {
  return msgv(`grade.${h.grade}`);
}

/** The targets of an analysis or a workload profile, in words. */
export function targetsVal(a: HealthOf): Val {
  const t = a.health.targets;
  const parts: Val[] = [];
  // a target as typed: whole milliseconds as they are, a fraction (0.5 ms) with its decimals (at most 3), never rounded to 0
  const target = (x: number): Val => num(x, Number.isInteger(x) ? 0 : Math.min(3, (String(x).split('.')[1] ?? '').length));
  if (t.readMs !== undefined) parts.push(msgv('target.read', { ms: target(t.readMs) }));
  if (t.writeMs !== undefined) parts.push(msgv('target.write', { ms: target(t.writeMs) }));
  if (t.transferMs !== undefined) parts.push(msgv('target.transfer', { ms: target(t.transferMs) }));
  if (t.warnMs !== undefined) parts.push(msgv('target.warn', { ms: target(t.warnMs) }));
  return { k: 'list', items: parts };
}

/** The preset's name in the report's language (never the raw id such as `generic`). */
export function presetVal(a: HealthOf): Val {
  const p = a.health.preset;
  return p === 'custom' ? msgv('preset.custom') : Object.prototype.hasOwnProperty.call(TARGET_PRESETS, p) ? msgv(`preset.${p}` as ReportKey) : str(p);
}

export const col = (head: ReportKey, align: 'left' | 'right' = 'right', unit?: Unit): Table['columns'][number] => (unit === undefined ? { head: m(head), align } : { head: m(head), align, unit });
