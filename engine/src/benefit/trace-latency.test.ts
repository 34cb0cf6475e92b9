import { describe, expect, it } from 'vitest';
import { traceLatencyHourly, traceLatencySection, type StoredTraceLatency, type TraceLatencyHour } from './trace-latency.ts';

const H = 3_600_000;
const pct = (p: number, lowUs: number, highUs: number): { p: number; bucket: number; lowUs: number; highUs: number } => ({ p, bucket: 0, lowUs, highUs });
const hour = (device: string, op: 'read' | 'write', k: number, p99High: number): TraceLatencyHour => ({
  device, op, startUtcMs: k * H, endUtcMs: (k + 1) * H, requests: 10 + k, completed: 10 + k, meanUs: 100,
  percentiles: [pct(50, 90, 107), pct(95, 152, 181), pct(99, p99High / 1.19, p99High), pct(99.9, 500, 609)],
});
const stored = (hours: TraceLatencyHour[] | undefined, method?: 'interval-histograms' | 'stored-requests'): StoredTraceLatency => ({
  ...(method === undefined ? {} : { method }),
  bucketsPerOctave: 4, buckets: 'rule', sampleRate: 0.25,
  series: [
    { device: 'sdb', window: 'all', op: 'read', requests: 1, completed: 1, meanUs: 1, percentiles: [], histogram: [] },
    { device: 'sda', window: 'all', op: 'read', requests: 1, completed: 1, meanUs: 1, percentiles: [], histogram: [] },
  ],
  ...(hours === undefined ? {} : { hours }),
});

describe('traceLatencyHourly (the per-hour series the dashboard and the report draw)', () => {
  it('groups the hours per device (in the order of the window series) and operation, reads first, hours ascending', () => {
    const s = stored([hour('sda', 'write', 1, 300), hour('sda', 'read', 2, 256), hour('sdb', 'read', 0, 215), hour('sda', 'read', 1, 362)], 'interval-histograms');
    const h = traceLatencyHourly(s);
    expect(h.map((x) => `${x.device}:${x.op}:${x.hours.map((p) => p.startUtcMs / H).join(',')}`)).toEqual(['sdb:read:0', 'sda:read:1,2', 'sda:write:1']);
    const p = h[1]?.hours[0];
    // each percentile as its bucket's edges; the hour drawn at its middle
    expect(p?.p99).toEqual({ lowUs: 362 / 1.19, highUs: 362 });
    expect(p?.p999).toEqual({ lowUs: 500, highUs: 609 });
    expect(p?.midUtcMs).toBe(1.5 * H);
    expect(p?.requests).toBe(11);
  });

  it('a missing percentile (an hour whose requests never completed) is null, not 0', () => {
    const h = hour('sda', 'read', 0, 100);
    h.percentiles = [];
    h.completed = 0;
    const x = traceLatencyHourly(stored([h]))[0]?.hours[0];
    expect([x?.p50, x?.p95, x?.p99, x?.p999]).toEqual([null, null, null, null]);
  });
});

describe('traceLatencySection', () => {
  it('names the method: the probe\'s, or stored requests for latency an earlier probe stored (no method, no hours: per-hour not reported)', () => {
    const now = traceLatencySection(stored([hour('sda', 'read', 0, 100)], 'interval-histograms'));
    expect(now.method).toBe('interval-histograms');
    expect(now.hourly).toHaveLength(1);
    expect(now.reasons).toEqual({});
    const old = traceLatencySection(stored(undefined));
    expect(old.method).toBe('stored-requests');
    expect(old.hourly).toEqual([]);
    expect(old.reasons).toEqual({ hourly: 'not-reported' });
    const none = traceLatencySection(null);
    expect([none.fromTrace, none.method, none.hourly]).toEqual([null, null, []]);
    expect(none.reasons).toEqual({ fromTrace: 'not-reported', method: 'not-reported' });
  });
});
