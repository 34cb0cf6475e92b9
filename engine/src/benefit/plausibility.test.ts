/**
 * Plausibility checks (issue 36) on generated captures: short logs, growth from under a day, a
 * prediction from few requests, rates beyond the catalog's fastest drive (per interval and over a
 * trace's own span), a partial busiest hour and a peak on the range's last interval.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import { profileWorkload } from './profile.ts';
import type { WorkloadProfile } from './profile.ts';
import { synthCapture, T0 } from './testkit.ts';
import type { RateLimit } from './plausibility.ts';
import { edgePeakWarnings, traceSpanWarnings } from './plausibility.ts';
import type { StoredPrediction } from './prediction.ts';
import type { CaptureData, VolumeCapacityRow } from '../records/types.ts';
import { catalogRateLimit } from '../plan/fastest.ts';
import { parseCatalog } from '../plan/catalog.ts';
import catalogJson from '../../../samples/catalog/drives.json';

const LIMIT: RateLimit = { driveId: 'fast', driveLabel: 'Fast NVMe', driveIops: 650_000, limitIops: 6_500_000, mbps: { driveLabel: 'Fast NVMe', driveMBps: 4400, limitMBps: 44_000 } };

/** A baseline alone of `seconds` at 1 s steps (or `stepMs`), 250 IOPS. */
function baselineOf(seconds: number, stepMs = 1000): CaptureData {
  const data = synthCapture({ baselineS: seconds, measureS: 0, stepMs, iopsBefore: 250, backing: ['sda'] });
  data.phases = [{ name: 'baseline', startMs: T0, endMs: null }];
  return data;
}

function profile(data: CaptureData, limit: RateLimit = LIMIT): WorkloadProfile {
  const p = profileWorkload(data, { rateLimit: limit });
  if (!p.ok) throw new Error(p.error.message);
  return p;
}

const codes = (p: { warnings: { code: string }[] }): string[] => p.warnings.map((w) => w.code);

describe('a log too short for a daily figure', () => {
  it.each([[10, 'very-short-log'], [60, 'very-short-log'], [600, 'very-short-log'], [7200, 'short-log']])('%i s of data: %s with its length', (seconds, code) => {
    const p = profile(baselineOf(seconds, seconds >= 600 ? 10_000 : 1000));
    const w = p.warnings.find((x) => x.code === code);
    expect(w?.params).toEqual({ seconds });
    expect(codes(p)).not.toContain(code === 'short-log' ? 'very-short-log' : 'short-log');
  });

  it('a day of data raises neither', () => {
    const p = profile(baselineOf(86_400, 60_000));
    expect(codes(p)).not.toContain('short-log');
    expect(codes(p)).not.toContain('very-short-log');
  });

  it('an analysis with a window under an hour says so, on top of short-window', () => {
    const r = analyze(synthCapture({ baselineS: 600, measureS: 600, iopsBefore: 200, iopsAfter: 200 }));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.warnings.find((w) => w.code === 'very-short-window')?.params).toEqual({ baselineSeconds: 600, measureSeconds: 540 }); // the default warm-up leaves 540 s
    expect(codes(r)).toContain('short-window');
  });
});

describe('capacity growth from less than a day', () => {
  const rows = (spanMs: number): VolumeCapacityRow[] => [0, spanMs].map((t, i) => ({
    volume: 'C:', utcMs: T0 + t, device: null, mount: null, sizeBytes: 500e9, freeBytes: 200e9 - i * 1e6, source: 'perfmon',
  }));

  it('a 60 s fit is withheld and carries capacity-short-fit with its span in hours', () => {
    const data = baselineOf(60);
    data.volumes = rows(60_000);
    const p = profile(data);
    expect([p.capacity.volumes[0]?.growthBytesPerDay, p.capacity.volumes[0]?.daysToFull]).toEqual([null, null]); // withheld, and said so
    const w = p.warnings.find((x) => x.code === 'capacity-short-fit');
    expect(w?.params?.['volume']).toBe('C:');
    expect(w?.params?.['fitHours']).toBeCloseTo(60 / 3600, 12);
  });

  it('a two-day fit does not', () => {
    const data = baselineOf(60);
    data.volumes = rows(2 * 86_400_000);
    expect(codes(profile(data))).not.toContain('capacity-short-fit');
  });
});

describe('a prediction from few requests', () => {
  const stored = (reads: number, writesCount: number): StoredPrediction => ({
    window: 'baseline', windowStartUtcMs: T0, windowEndUtcMs: T0 + 60_000, warmupS: 0, devices: ['sda'], policy: 'lru', method: 'exact-stack', writes: 'bypass',
    blockBytes: 4096, cacheBytes: 1 << 20, footprintBytes: 40960, sampleRate: 1, reads, writesCount, readHitRatio: 0.2, iosSavedPercent: 10,
    iosSavedUncertaintyPp: 5, curve: [], sizeAnswers: [], skipped: 0, notes: [],
  });

  it('10 requests warn, in the profile and the analysis; 1,000 do not', () => {
    const data = baselineOf(60);
    data.prediction = stored(5, 5);
    expect(profile(data).warnings.find((w) => w.code === 'prediction-few-requests')?.params).toEqual({ requests: 10, minimumRequests: 1000 });
    const run = synthCapture({ baselineS: 60, measureS: 60 });
    run.prediction = stored(5, 5);
    const r = analyze(run);
    if (!r.ok) throw new Error(r.error.message);
    expect(codes(r)).toContain('prediction-few-requests');
    data.prediction = stored(700, 300);
    expect(codes(profile(data))).not.toContain('prediction-few-requests');
  });
});

describe('rates no device reaches', () => {
  it('the limit is 10 × the shipped catalog\'s highest sourced IOPS', () => {
    const c = parseCatalog(catalogJson);
    if (!c.ok) throw new Error(c.error.message);
    let most = 0;
    for (const d of c.value.drives) for (const f of [d.randomReadIops4k, d.randomWriteIops4k, d.iops]) most = Math.max(most, f.value ?? 0);
    const l = catalogRateLimit(c.value);
    expect(l?.driveIops).toBe(most);
    expect(l?.limitIops).toBe(10 * most);
    // the fastest sourced sequential read, × 10
    let mb = 0;
    for (const d of c.value.drives) mb = Math.max(mb, d.seqReadMBps?.value ?? 0);
    expect(mb).toBeGreaterThan(0);
    expect(l?.mbps).toMatchObject({ driveMBps: mb, limitMBps: 10 * mb });
  });

  it('an interval whose MB/s no drive streams warns with the rate and the limit, though its IOPS are plausible', () => {
    const data = baselineOf(10);
    const r = data.intervals.find((x) => x.device === 'loop0' && x.startMs === T0 + 3000);
    if (r === undefined) throw new Error('no interval');
    // 1,000 reads of 64 MB in 1 s: 64,000 MB/s at 1,000 IOPS
    r.reads = 1000;
    r.readBytes = 64e9;
    const p = profile(data);
    expect(codes(p)).not.toContain('implausible-iops');
    const w = p.warnings.find((x) => x.code === 'implausible-mbps');
    expect(w?.params?.['limitMBps']).toBe(44_000);
    expect(w?.params?.['count']).toBe(1);
    expect(Number(w?.params?.['mbps'])).toBeGreaterThan(64_000);
    r.readBytes = 40e9;
    expect(codes(profile(data))).not.toContain('implausible-mbps');
  });

  it('a trace whose bytes no drive streams collapsed, though its IOPS are plausible', () => {
    // 10,000 requests of 1 MiB within 100 ms: 100,000 IOPS, 104,858 MB/s
    const span = { requests: 10_000, bytes: 10_000 * 1_048_576, firstIssueNs: 0, lastIssueNs: 100_000_000 };
    expect(traceSpanWarnings('vscsi', span, 1, LIMIT)[0]?.code).toBe('trace-times-collapsed');
    expect(traceSpanWarnings('vscsi', { ...span, lastIssueNs: 60e9 }, 1, LIMIT)).toEqual([]);
  });

  it('an interval over the limit warns with the rate and the limit; none under it', () => {
    const data = baselineOf(10);
    const r = data.intervals.find((x) => x.device === 'loop0' && x.startMs === T0 + 3000);
    if (r === undefined) throw new Error('no interval');
    r.reads = 7_000_000;
    const w = profile(data).warnings.find((x) => x.code === 'implausible-iops');
    expect(w?.params).toMatchObject({ devices: 'loop0', iops: 7_000_075, limitIops: 6_500_000, count: 1 });
    r.reads = 6_000_000;
    expect(codes(profile(data))).not.toContain('implausible-iops');
    r.reads = 7_000_000;
    const unchecked = profileWorkload(data); // no catalog given: no check
    if (!unchecked.ok) throw new Error(unchecked.error.message);
    expect(codes(unchecked)).not.toContain('implausible-iops');
  });

  it('the before/after analysis checks both windows\' application-facing intervals', () => {
    const run = synthCapture({ baselineS: 120, measureS: 120, iopsBefore: 200, iopsAfter: 200 });
    const r0 = analyze(run, { rateLimit: LIMIT });
    if (!r0.ok) throw new Error(r0.error.message);
    expect(codes(r0)).not.toContain('implausible-iops');
    const hot = run.intervals.find((x) => x.device === 'loop0' && x.startMs === T0 + 200_000); // in the measure window
    if (hot === undefined) throw new Error('no interval');
    hot.writes = 9_000_000;
    const r = analyze(run, { rateLimit: LIMIT });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.warnings.filter((w) => w.code === 'implausible-iops').map((w) => w.params?.['count'])).toEqual([1]);
  });

  it('the before/after analysis warns a trace whose times collapsed in a window, as the profile does', () => {
    const run = synthCapture({ baselineS: 120, measureS: 120, iopsBefore: 200, iopsAfter: 200 });
    const collapsed = { requests: 113_872, bytes: 4_205_978_112, firstIssueNs: 0, lastIssueNs: 7_200_000 };
    run.traceSizes = { sampleRate: 1, sizes: () => [], span: (_d, startMs) => (startMs < T0 + 120_000 ? collapsed : null) };
    const r = analyze(run, { rateLimit: LIMIT });
    if (!r.ok) throw new Error(r.error.message);
    const w = r.warnings.filter((x) => x.code === 'trace-times-collapsed');
    expect(w.map((x) => x.params?.['requests'])).toEqual([113_872]);
    // the same requests over their real two minutes: nothing to say
    run.traceSizes = { sampleRate: 1, sizes: () => [], span: () => ({ ...collapsed, lastIssueNs: 120e9 }) };
    const ok = analyze(run, { rateLimit: LIMIT });
    if (!ok.ok) throw new Error(ok.error.message);
    expect(codes(ok)).not.toContain('trace-times-collapsed');
  });

  it('a trace whose 113,872 requests span 7.2 ms collapsed; the same over 2 h did not', () => {
    const span = { requests: 113_872, bytes: 4_205_978_112, firstIssueNs: 0, lastIssueNs: 7_200_000 };
    const w = traceSpanWarnings('vscsi', span, 1, LIMIT)[0];
    expect(w?.code).toBe('trace-times-collapsed');
    expect(w?.params?.['iops']).toBeCloseTo(113_872 / 0.0072, 3);
    expect(w?.params?.['spanMs']).toBe(7.2);
    expect(traceSpanWarnings('vscsi', { ...span, lastIssueNs: 7200e9 }, 1, LIMIT)).toEqual([]);
    // the profile asks the capture's trace for the span of each device
    const data = baselineOf(10);
    data.traceSizes = { sampleRate: 1, sizes: () => [], span: (d) => (d === 'sda' ? span : null) };
    expect(profile(data).warnings.filter((x) => x.code === 'trace-times-collapsed').map((x) => x.device)).toEqual(['sda']);
  });
});

describe('the busiest hour and the peak', () => {
  it('20 minutes of data make a partial busiest hour', () => {
    const p = profile(baselineOf(1200, 10_000));
    expect(p.warnings.find((w) => w.code === 'busiest-hour-partial')?.params?.['coveredMinutes']).toBeCloseTo(20, 9);
    expect(codes(profile(baselineOf(7200, 10_000)))).not.toContain('busiest-hour-partial');
    // 55 minutes (a log that starts five minutes into its busiest hour, or samples' jitter) is not partial
    expect(codes(profile(baselineOf(55 * 60, 10_000)))).not.toContain('busiest-hour-partial');
    expect(profile(baselineOf(53 * 60, 10_000)).warnings.find((w) => w.code === 'busiest-hour-partial')?.params?.['coveredMinutes']).toBeCloseTo(53, 9);
  });

  it('a peak on the last interval is flagged, one inside the range is not', () => {
    const data = baselineOf(10);
    const last = data.intervals.filter((x) => x.device === 'loop0').at(-1);
    if (last === undefined) throw new Error('no interval');
    last.writes = (last.writes as number) + 1000;
    expect(profile(data).warnings.find((w) => w.code === 'peak-at-range-end')?.params?.['end']).toBe(new Date(T0 + 10_000).toISOString());
    last.writes = (last.writes as number) - 1000;
    expect(codes(profile(data))).not.toContain('peak-at-range-end');
    expect(edgePeakWarnings({ n: 0 } as never, String)).toEqual([]);
  });
});
