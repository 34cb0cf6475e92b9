/**
 * Backing-only words: with no front device measured, the figures are the backing drives' own, so
 * nothing in the report is called "application" or "delivered". Each text key that says so has a
 * backing-only variant (`bo.<key>`, the app's catalogs hold the four languages); the report model
 * of a backing-only analysis uses the variants ({@link backingOnlyWords}), so the summary, the
 * method, the results, the XLSX/CSV labels, the short form and the PPTX all say "backing drives".
 */
import type { ReportKey } from './keys.ts';
import type { ReportModel } from './types.ts';

/** The keys that name the application (or what it was delivered), each with its backing-only variant. */
export const BACKING_ONLY_VARIANTS = {
  'card.delivered': 'bo.card.delivered',
  'm.appFacing': 'bo.m.appFacing',
  'def.latency': 'bo.def.latency',
  'def.iopsPerSpindleShort': 'bo.def.iopsPerSpindleShort',
  'def.throughput': 'bo.def.throughput',
  'def.totalIos': 'bo.def.totalIos',
  'fig.iopsPerSpindle': 'bo.fig.iopsPerSpindle',
  'fig.iopsPerSpindleShort': 'bo.fig.iopsPerSpindleShort',
  'fig.deliveredIops': 'bo.fig.deliveredIops',
  'sum.normalizedIops': 'bo.sum.normalizedIops',
  'rw.intro': 'bo.rw.intro',
  't.hourlyCaption': 'bo.t.hourlyCaption',
} as const;

/** Text keys of the variants; part of REPORT_KEYS (keys.ts). */
export const BACKING_ONLY_KEYS = Object.values(BACKING_ONLY_VARIANTS);

const VARIANT: ReadonlyMap<string, ReportKey> = new Map(Object.entries(BACKING_ONLY_VARIANTS) as [string, ReportKey][]);

/**
 * The model with every message whose key has a backing-only variant switched to it (in place: the
 * model was just built and nothing else holds it). Messages are objects with a string `key`;
 * numbers and series are left as they are.
 */
export function backingOnlyWords(model: ReportModel): ReportModel {
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      // a chart's points are arrays of numbers: nothing to switch in them
      if (x.length > 0 && typeof x[0] !== 'object') return;
      for (const y of x) visit(y);
      return;
    }
    const o = x as Record<string, unknown>;
    const key = o['key'];
    if (typeof key === 'string') {
      const v = VARIANT.get(key);
      if (v !== undefined) o['key'] = v;
    }
    for (const y of Object.values(o)) visit(y);
  };
  visit(model);
  return model;
}
