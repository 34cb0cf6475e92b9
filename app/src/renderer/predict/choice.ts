/**
 * The cache a person asks to predict, as typed (the wizard's Plan step and the dashboard's
 * "Predict another cache" share it): a size with its unit, and a device preset
 * (samples/catalog/cache-devices.json) or a read latency typed in µs, each number read in the
 * language it was typed in when it was typed (fields.ts), as the wizard's custom targets are.
 * `choiceOf` turns it into the contract's `PredictionChoice` or says which field is wrong. Pure
 * (no DOM): fields.ts draws it.
 */
import { CACHE_BYTES_MAX, CACHE_BYTES_MIN, CACHE_DEVICE_IDS, type CacheDeviceId, type PredictionChoice } from '../../shared/contract-predict.ts';
import { fmtInput, parseLocaleNumber } from '../../shared/i18n/numbers.ts';
import type { Lang } from '../../shared/i18n/types.ts';
import { bytesInUnit, isWholeUnits, unitToBytes } from '../../shared/units.ts';

/** Size units offered: binary (RAM is sold so) and decimal (SSDs are). */
export const SIZE_UNITS = { MiB: 1_048_576, GiB: 1_073_741_824, TiB: 1_099_511_627_776, GB: 1e9, TB: 1e12 } as const;
export type SizeUnit = keyof typeof SIZE_UNITS;
/** The largest read latency accepted, µs (10 s: the probe's bound). */
export const MAX_LATENCY_US = 10_000_000;

export interface ChoiceDraft {
  /** As typed, and its value read in the language it was typed in (null: not a number). */
  sizeText: string;
  size: number | null;
  unit: SizeUnit;
  device: CacheDeviceId | 'typed';
  /** As typed, µs (used when `device` is `typed`), and its value. */
  latencyText: string;
  latency: number | null;
}

export type ChoiceError = 'size-empty' | 'size-nan' | 'size-range' | 'latency-empty' | 'latency-nan' | 'latency-range';

export function defaultChoiceDraft(): ChoiceDraft {
  return { sizeText: '', size: null, unit: 'GiB', device: 'nvme', latencyText: '', latency: null };
}

function isUnit(u: unknown): u is SizeUnit {
  return typeof u === 'string' && Object.prototype.hasOwnProperty.call(SIZE_UNITS, u);
}

/** A stored draft, field by field (anything malformed falls back to the default). */
export function choiceDraft(v: unknown): ChoiceDraft {
  const d = defaultChoiceDraft();
  if (v === null || typeof v !== 'object') return d;
  const o = v as Record<string, unknown>;
  const value = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  return {
    sizeText: typeof o['sizeText'] === 'string' ? o['sizeText'].slice(0, 32) : d.sizeText,
    size: value(o['size']),
    unit: isUnit(o['unit']) ? o['unit'] : d.unit,
    device: o['device'] === 'typed' || (CACHE_DEVICE_IDS as readonly unknown[]).includes(o['device']) ? (o['device'] as ChoiceDraft['device']) : d.device,
    latencyText: typeof o['latencyText'] === 'string' ? o['latencyText'].slice(0, 32) : d.latencyText,
    latency: value(o['latency']),
  };
}

/** The draft of an existing choice (the dashboard starts from the stored prediction's): the largest unit that gives a whole number, else MiB. */
export function draftOfChoice(lang: Lang, cacheBytes: number, device: { preset: string; readLatencyUs: number } | null): ChoiceDraft {
  const units: SizeUnit[] = ['TiB', 'GiB', 'TB', 'GB', 'MiB'];
  const unit = units.find((u) => isWholeUnits(cacheBytes, SIZE_UNITS[u])) ?? 'MiB';
  const preset = CACHE_DEVICE_IDS.find((x) => x === device?.preset);
  const typed = device !== null && preset === undefined;
  return {
    sizeText: fmtInput(lang, bytesInUnit(cacheBytes, SIZE_UNITS[unit])),
    size: bytesInUnit(cacheBytes, SIZE_UNITS[unit]),
    unit,
    device: preset ?? (device === null ? 'nvme' : 'typed'),
    latencyText: typed ? fmtInput(lang, device.readLatencyUs) : '',
    latency: typed ? device.readLatencyUs : null,
  };
}

/** The draft after the person typed `text` in a field, its value read in `lang`. */
export function typed(lang: Lang, d: ChoiceDraft, field: 'size' | 'latency', text: string): void {
  if (field === 'size') {
    d.sizeText = text;
    d.size = parseLocaleNumber(lang, text);
  } else {
    d.latencyText = text;
    d.latency = parseLocaleNumber(lang, text);
  }
}

/** The choice the draft gives, or the error of each wrong field. */
export function choiceOf(d: ChoiceDraft): { ok: true; choice: PredictionChoice } | { ok: false; errors: { size?: ChoiceError; latency?: ChoiceError } } {
  const errors: { size?: ChoiceError; latency?: ChoiceError } = {};
  let cacheBytes = 0;
  if (d.sizeText.trim() === '') errors.size = 'size-empty';
  else {
    const n = d.size;
    if (n === null) errors.size = 'size-nan';
    else {
      cacheBytes = unitToBytes(n, SIZE_UNITS[d.unit]);
      if (!(cacheBytes >= CACHE_BYTES_MIN && cacheBytes <= CACHE_BYTES_MAX)) errors.size = 'size-range';
    }
  }
  let latencyUs = 0;
  if (d.device === 'typed') {
    if (d.latencyText.trim() === '') errors.latency = 'latency-empty';
    else {
      const n = d.latency;
      if (n === null) errors.latency = 'latency-nan';
      else if (!(n > 0 && n <= MAX_LATENCY_US)) errors.latency = 'latency-range';
      else latencyUs = n;
    }
  }
  if (errors.size !== undefined || errors.latency !== undefined) return { ok: false, errors };
  return { ok: true, choice: { cacheBytes, cacheDevice: d.device === 'typed' ? { latencyUs } : { preset: d.device } } };
}
