/**
 * The capture's intervals as the exporters read them, without one object per interval held in
 * memory: the reader keeps them as per-device typed-array columns (engine DeviceColumns), and a
 * record is built for the moment it is used (engine `recordAt`). A 2 × 24 h capture at 1 s of 16
 * devices is 2.8 million intervals: as records that is over a gigabyte, as columns ~320 MB.
 */
import { columnsFromRecords, recordAt, type CaptureData, type DeviceColumns, type IntervalRecord } from '@cacheproof/engine';

/** The capture's columns (the reader's), or columns built from its records when it has none. */
export function captureColumns(data: CaptureData): readonly DeviceColumns[] {
  return data.columns ?? columnsFromRecords(data.intervals);
}

/**
 * A read-only array view of the records of `cols`, device after device, each record built when
 * it is read (index access, `length`, iteration). For engine functions that take records
 * (`reportSeries`) and read them in one or two passes. Example: `recordsView(cols)[0].startMs`.
 */
export function recordsView(cols: readonly DeviceColumns[]): readonly IntervalRecord[] {
  const starts: number[] = [];
  let total = 0;
  for (const c of cols) {
    starts.push(total);
    total += c.n;
  }
  let ci = 0;
  const at = (k: number): IntervalRecord | undefined => {
    if (!(k >= 0 && k < total)) return undefined;
    let start = starts[ci] as number;
    let c = cols[ci] as DeviceColumns;
    if (k < start || k >= start + c.n) {
      // sequential reads stay on one device; a jump finds its device by binary search
      let lo = 0;
      let hi = cols.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= k) lo = mid;
        else hi = mid - 1;
      }
      while ((cols[lo] as DeviceColumns).n === 0 && lo < cols.length - 1) lo++;
      ci = lo;
      start = starts[ci] as number;
      c = cols[ci] as DeviceColumns;
    }
    return recordAt(c, k - start);
  };
  return new Proxy([] as IntervalRecord[], {
    get(target, prop, receiver) {
      if (prop === 'length') return total;
      if (typeof prop === 'string') {
        const code = prop.charCodeAt(0);
        if (code >= 48 && code <= 57) {
          const k = Number(prop);
          if (Number.isInteger(k)) return at(k);
        }
      }
      if (prop === Symbol.iterator) {
        return function* iterate(): Generator<IntervalRecord> {
          for (let k = 0; k < total; k++) yield at(k) as IntervalRecord;
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Calls `visit` with every record of the devices named in `order` (in that order), one record alive at a time. */
export function forEachRecord(cols: readonly DeviceColumns[], order: readonly string[], visit: (r: IntervalRecord) => void): void {
  const byName = new Map(cols.map((c) => [c.device, c]));
  for (const name of order) {
    const c = byName.get(name);
    if (c === undefined) continue;
    for (let i = 0; i < c.n; i++) visit(recordAt(c, i));
  }
}

/** Number of intervals of the devices named in `order`. */
export function countRecords(cols: readonly DeviceColumns[], order: readonly string[]): number {
  const wanted = new Set(order);
  let n = 0;
  for (const c of cols) if (wanted.has(c.device)) n += c.n;
  return n;
}
