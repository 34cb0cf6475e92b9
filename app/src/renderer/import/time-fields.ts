/**
 * What a log does not say about its times, typed by the person (docs/import.md): the logs' offset
 * from UTC (a PerfMon header cut before its zone reads as UTC, and the busiest hour may be off by
 * hours), the report interval and the first report's time (iostat without -t has no times). Each
 * goes to the probe as it is (`--utc-offset`, `--interval`, `--start`); empty fields send nothing.
 */
import type { ImportRequest } from '../../shared/contract.ts';
import type { ImportKey } from '../../shared/i18n/import.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { parseOffset } from '../../shared/units.ts';
import { parseUtc } from './prometheus.ts';

/** What was typed survives leaving the screen and coming back. */
const typed = { offset: '', interval: '', start: '' };

/** An interval in seconds as typed (a decimal point or comma); null when empty, NaN when not a positive number. */
export function parseSeconds(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  const s = Number(t);
  return Number.isFinite(s) && s > 0 && s <= 86_400 ? s : Number.NaN;
}

export interface TimeFields {
  node: HTMLElement;
  /** The request's time fields as typed, or the sentence that says which is wrong. */
  read(): Pick<ImportRequest, 'utcOffsetMin' | 'intervalS' | 'startMs'> | string;
}

export function timeFields(u: (key: ImportKey) => string, onInput: () => void): TimeFields {
  const input = (id: string, testId: string, value: string, help: string): HTMLInputElement => {
    const x = el('input', { id, type: 'text', spellcheck: 'false', autocomplete: 'off', value, 'data-testid': testId, 'aria-describedby': help });
    x.addEventListener('input', () => {
      typed.offset = offset.value;
      typed.interval = interval.value;
      typed.start = start.value;
      onInput();
    });
    return x;
  };
  const offset = input('import-utc-offset', TID.importUtcOffset, typed.offset, 'import-utc-offset-help');
  const interval = input('import-interval-s', TID.importIntervalTyped, typed.interval, 'import-interval-help');
  const start = input('import-start', TID.importStartTime, typed.start, 'import-start-help');
  const node = el('fieldset', { class: 'import-times' },
    el('legend', {}, u('times.legend')),
    el('label', { for: 'import-utc-offset' }, u('times.offset')), offset,
    el('p', { class: 'help', id: 'import-utc-offset-help' }, u('times.offsetHelp')),
    el('label', { for: 'import-interval-s' }, u('times.interval')), interval,
    el('p', { class: 'help', id: 'import-interval-help' }, u('times.intervalHelp')),
    el('label', { for: 'import-start' }, u('times.start')), start,
    el('p', { class: 'help', id: 'import-start-help' }, u('times.startHelp')));
  return {
    node,
    read() {
      const o = parseOffset(offset.value);
      if (o !== null && Number.isNaN(o)) return u('times.offsetBad');
      const i = parseSeconds(interval.value);
      if (i !== null && Number.isNaN(i)) return u('times.intervalBad');
      const s = parseUtc(start.value);
      if (s !== null && Number.isNaN(s)) return u('times.startBad');
      return { ...(o === null ? {} : { utcOffsetMin: o }), ...(i === null ? {} : { intervalS: i }), ...(s === null ? {} : { startMs: s }) };
    },
  };
}
