/**
 * I/O time saved on the bundled sample (samples/lab/lab-sample.capture): the engine returns the
 * backing drives' I/O time as the counters measured it in each window (`ioTimeMeasured`) beside
 * Condusiv's model (`ioTimeSaved`: I/Os kept off × the response time before), each labelled with its
 * method, and the headline (the report's card and the dashboard's words) says the measured one
 * first and the model as an estimate. The measured figure is checked against the capture's own
 * rows summed here with SQL, apart from the engine.
 */
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisReport } from '@cacheproof/engine';
import { ioTimeMsgs } from '@cacheproof/engine/report';
import { openCapture } from '../src/host/capture/reader.ts';

const sample = join(resolve(__dirname, '..', '..'), 'samples', 'lab', 'lab-sample.capture');

function report(): AnalysisReport {
  const r = analyze(openCapture(sample).data);
  if (!r.ok) throw new Error(`the sample did not analyze: ${JSON.stringify(r.error)}`);
  return r;
}

/** Seconds of I/O time per hour of the backing devices' `ok` intervals inside [start, end], summed with SQL. */
function perHourBySql(devices: string[], start: string, end: string): number {
  const db = new Database(sample, { readonly: true });
  try {
    const row = db.prepare(`SELECT SUM(i.read_time_ms + i.write_time_ms) AS ms, SUM(i.interval_ms) AS span
      FROM intervals i JOIN devices d ON d.id = i.device_id
      WHERE d.name IN (${devices.map(() => '?').join(',')}) AND i.status = 'ok' AND i.start_utc_ms >= ? AND i.end_utc_ms <= ?`)
      .get(...devices, Date.parse(start), Date.parse(end)) as { ms: number; span: number };
    // per device-second summed over devices: Σ time ÷ (Σ interval ÷ devices) × 3600 ÷ 1000
    return (row.ms / (row.span / devices.length)) * 3600;
  } finally {
    db.close();
  }
}

describe('I/O time saved on the bundled sample: measured and modelled', () => {
  const r = report();
  const measured = r.benefit.ioTimeMeasured;
  const model = r.benefit.ioTimeSaved;

  it('returns both, each labelled with its method', () => {
    expect(measured.method).toBe('summed-io-time-per-hour');
    expect(model.method).toBe('eliminated-ios-x-backing-await-before');
    expect(measured.beforePerHourSeconds).not.toBeNull();
    expect(measured.afterPerHourSeconds).not.toBeNull();
    expect(model.sharePercent).not.toBeNull();
  });

  it('the measured figure is the capture\'s summed read and write time per hour in each window (within 1 %)', () => {
    const back = r.devices.backing;
    expect(back.length).toBeGreaterThan(0);
    const before = perHourBySql(back, r.windows.baseline.start, r.windows.baseline.end);
    const after = perHourBySql(back, r.windows.measure.start, r.windows.measure.end);
    expect(measured.beforePerHourSeconds).toBeCloseTo(before, -Math.log10(before * 0.01));
    expect(measured.afterPerHourSeconds).toBeCloseTo(after, -Math.log10(after * 0.01));
    expect(measured.savedPerHourSeconds).toBeCloseTo(before - after, -Math.log10(Math.abs(before - after) * 0.02 + 1e-9));
  });

  it('the model overstates what the counters measured here, so the two are told apart', () => {
    // the response time of the I/Os that still reach the drives rose: the model's share is the drop
    // in I/Os alone, the measured share is far smaller
    expect(model.sharePercent as number).toBeGreaterThan((measured.savedPercent as number) + 20);
    expect(r.groups.backing?.measure.means.awaitMs as number).toBeGreaterThan(r.groups.backing?.baseline.means.awaitMs as number);
  });

  it('the headline says the measured figure first, the model as an estimate after it', () => {
    const msgs = ioTimeMsgs(measured, model);
    expect(msgs.map((x) => x.key)).toEqual([(measured.savedPerHourSeconds as number) < 0 ? 'iotime.measuredMore' : 'iotime.measured', 'iotime.share']);
  });
});
