import { describe, expect, it } from 'vitest';
import { profileWorkload, type WorkloadProfile } from '../benefit/profile.ts';
import { synthCapture, T0 } from '../benefit/testkit.ts';
import { buildProfileReportModel, profileVerdict } from './profile-report.ts';
import { shortForm } from './short.ts';
import type { ReportModel, Val } from './types.ts';

/** The synthetic experiment cut at the switch: a baseline alone, 250 IOPS at the front. */
function profile(targets?: { readMs: number }): WorkloadProfile {
  const data = synthCapture({ baselineS: 1800, measureS: 600, stepMs: 10_000, iopsBefore: 250, iopsAfter: 900, backing: ['sda'] });
  const base = data.phases.find((p) => p.name === 'baseline');
  const end = base?.endMs as number;
  data.intervals = data.intervals.filter((r) => r.endMs <= end);
  data.phases = [{ name: 'baseline', startMs: base?.startMs as number, endMs: null }];
  const p = profileWorkload(data, targets === undefined ? {} : { targets });
  if (!p.ok) throw new Error(p.error.message);
  return p;
}

function model(p: WorkloadProfile): ReportModel {
  return buildProfileReportModel({
    profile: p, hostname: 'db01', cover: {}, appVersion: 'test', generatedMs: Date.UTC(2026, 10, 27),
    capture: { fileName: 'db01.capture', sha256: 'ab'.repeat(32), sizeBytes: 1e6, probeVersion: null, source: 'live', schemaVersion: 6, sampleIntervalMs: 10_000, devices: [] },
  });
}

/** Every number a value carries, nested. */
function numbers(v: Val): (number | null)[] {
  if (v.k === 'num' || v.k === 'pct' || v.k === 'sig' || v.k === 'ms') return [v.v];
  if (v.k === 'msg') return Object.values(v.m.p ?? {}).flatMap(numbers);
  if (v.k === 'list') return v.items.flatMap(numbers);
  return [];
}

describe('the workload-profile report model', () => {
  it('opens on the verdict: p95, peak and mean IOPS, throughput, read share, request size and response time of the profile, at analyze --profile\'s precision', () => {
    const p = profile();
    const m = model(p);
    const verdict = m.sections[0]?.blocks[0];
    expect(verdict?.type).toBe('paragraph');
    if (verdict?.type !== 'paragraph') return;
    expect(verdict.text).toEqual(profileVerdict(p, 10_000));
    const v = verdict.text.p ?? {};
    const a = p.appFacing;
    expect(v['p95']).toEqual({ k: 'num', v: a.percentiles.iops?.p95, d: 1, unit: 'iops' });
    expect(v['peak']).toEqual({ k: 'num', v: a.percentiles.iops?.max, d: 1, unit: 'iops' });
    expect(v['mean']).toEqual({ k: 'num', v: a.means.iops, d: 1, unit: 'iops' });
    expect(v['mbps']).toEqual({ k: 'num', v: a.means.mbps, d: 2, unit: 'mbps' });
    expect(v['readShare']).toEqual({ k: 'pct', v: a.means.readSharePercent, d: 1 });
    expect(v['size']).toEqual({ k: 'num', v: (a.means.avgRequestBytes as number) / 1024, d: 1 });
    expect(v['latency']).toEqual({ k: 'num', v: a.means.awaitMs, d: 3, unit: 'ms' });
    expect(v['health']).toMatchObject({ k: 'msg', m: { key: `pr.health.${p.health.window.grade}` } });
    expect(a.means.iops).toBeCloseTo(250, 0);
  });

  it('has the figures, per-device and health tables, the method and the sources appendix; no figure NaN or infinite; a short form', () => {
    const m = model(profile());
    expect(m.sections.map((s) => s.id)).toEqual(['summary', 'results', 'method', 'caveats', 'appendix']);
    const tables = m.sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'table' ? [b.table] : []));
    expect(tables.map((t) => t.id)).toEqual(['profile-figures', 'profile-devices', 'profile-hours', 'profile-health', 'profile-slices']);
    const figures = tables[0];
    // the IOPS row: mean, p95 and peak, the profile's own numbers
    const iops = figures?.rows[0]?.cells.slice(2).map((c) => numbers(c)[0]);
    const p = profile().appFacing;
    expect(iops).toEqual([p.means.iops, p.percentiles.iops?.p95, p.percentiles.iops?.max]);
    expect(iops?.[0]).toBeCloseTo(250, 0);
    for (const t of tables) for (const r of t.rows) for (const c of r.cells) for (const x of numbers(c)) if (x !== null) expect(Number.isFinite(x)).toBe(true);
    expect(m.summary.find((s) => s.id === 'iopsP95')?.path).toBe('appFacing.percentiles.iops.p95');
    const short = shortForm(m);
    expect(short.sections[0]?.blocks[0]).toEqual(m.sections[0]?.blocks[0]);
  });

  it('targets the workload breaks: graded bad in the verdict, and the longest runs listed', () => {
    const p = profile({ readMs: 0.001 });
    expect(p.health.window.grade).toBe('bad');
    const m = model(p);
    const ids = m.sections.flatMap((s) => s.blocks).flatMap((b) => (b.type === 'table' ? [b.table.id] : []));
    expect(ids).toContain('profile-spans');
    const verdict = m.sections[0]?.blocks[0];
    expect(verdict?.type === 'paragraph' ? verdict.text.p?.['health'] : null).toMatchObject({ k: 'msg', m: { key: 'pr.health.bad' } });
  });

  it('names the busiest hour (the hour of highest IOPS, ratio of sums) and draws the heatmap with it; capacity "not in this log" without volumes', () => {
    // 26 hours at 60 s, 250 IOPS, but the hour 01:00–02:00 of the second day at three times the I/O
    const data = synthCapture({ baselineS: 26 * 3600, measureS: 600, stepMs: 60_000, iopsBefore: 250, iopsAfter: 900, backing: ['sda'] });
    const base = data.phases.find((x) => x.name === 'baseline');
    const end = base?.endMs as number;
    const hot = T0 + 25 * 3_600_000;
    data.intervals = data.intervals.filter((r) => r.endMs <= end).map((r) => (r.startMs >= hot && r.endMs <= hot + 3_600_000 ? { ...r, reads: (r.reads ?? 0) * 3, writes: (r.writes ?? 0) * 3 } : r));
    data.phases = [{ name: 'baseline', startMs: base?.startMs as number, endMs: null }];
    const p = profileWorkload(data);
    if (!p.ok) throw new Error(p.error.message);
    expect(p.hours.days).toEqual([T0, T0 + 86_400_000]);
    expect(p.hours.busiest?.startMs).toBe(hot);
    expect(p.hours.busiest?.iops).toBeCloseTo(3 * (p.hours.iops[0]?.[1] as number), 6);
    expect(p.hours.iops[1]?.[2]).toBeNull(); // the log ends at 02:00 on day two
    const m = model(p);
    const busiest = m.sections[0]?.blocks[1];
    expect(busiest).toMatchObject({ type: 'paragraph', text: { key: 'pr.busiest', p: { start: { k: 'time', ms: hot }, iops: { k: 'num', v: p.hours.busiest?.iops, d: 1 } } } });
    const heat = m.sections.flatMap((s) => s.blocks).find((b) => b.type === 'table' && b.table.id === 'profile-hours');
    if (heat?.type !== 'table') throw new Error('no heatmap');
    expect(heat.table.rows).toHaveLength(24);
    // the darkest cell is the busiest hour's: row 01:00, the second day
    const cell = heat.table.rows.flatMap((r, i) => (r.heat ?? []).map((h, j) => ({ i, j, h: h ?? -1 }))).sort((a, b) => b.h - a.h)[0];
    expect(cell).toEqual({ i: 1, j: 2, h: 1 });
    expect(heat.table.rows[1]?.cells[2]).toEqual({ k: 'num', v: p.hours.busiest?.iops, d: 1 });
    const cap = m.sections.flatMap((s) => s.blocks).find((b) => b.type === 'paragraph' && b.text.key === 'pr.cap.notInLog');
    expect(cap).toBeDefined();
    // the short form keeps the busiest hour, the figures and the heatmap
    const short = shortForm(m).sections[0]?.blocks.map((b) => (b.type === 'table' ? b.table.id : b.type === 'paragraph' ? b.text.key : b.type));
    expect(short).toEqual(['pr.verdict', 'pr.busiest', 'profile-figures', 'profile-hours']);
    expect(shortForm(m).sections.at(-1)?.blocks.at(-1)).toEqual({ type: 'paragraph', text: { key: 'pr.short.seeFull' } });
  });
});
