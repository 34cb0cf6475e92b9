import { describe, expect, it } from 'vitest';
import { scenarioFromMeasurement } from '../plan/measured.ts';
import { planScenario } from '../plan/plan.ts';
import { inputProvenance } from '../plan/provenance.ts';
import { LAB_SAMPLE_WORKLOAD } from '../plan/sample-workload.fixture.ts';
import { spindleCount } from '../plan/sizing.ts';
import type { ReportTco } from './input.ts';
import { planSections, sizingSection } from './sizing-section.ts';

function tcoOf(): ReportTco {
  const s = scenarioFromMeasurement(LAB_SAMPLE_WORKLOAD);
  const r = planScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return { scenarioFile: 'sample.tco.json', scenario: s, plan: r.value, sources: inputProvenance(s, LAB_SAMPLE_WORKLOAD, true) };
}

describe('the sizing section', () => {
  const t = tcoOf();
  const { section, summary } = sizingSection(t);

  it('states the basis with the peak beside it, and per configuration the drives for IOPS, for capacity and to buy, as the plan sized them', () => {
    const basis = section.blocks[0];
    expect(basis?.type === 'paragraph' ? basis.text.key : null).toBe('sz.basis');
    const p = basis?.type === 'paragraph' ? basis.text.p : undefined;
    expect(p?.['peak']).toMatchObject({ v: LAB_SAMPLE_WORKLOAD.iopsPeak });
    expect(p?.['basis']).toMatchObject({ k: 'msg', m: { key: 'basis.p95' } });
    const table = section.blocks.find((b) => b.type === 'table');
    const rows = table?.type === 'table' ? table.table.rows : [];
    expect(rows).toHaveLength(t.plan.configurations.length);
    t.plan.configurations.forEach((c, i) => {
      const cells = rows[i]?.cells ?? [];
      expect(cells[3]).toMatchObject({ v: c.sizing.countForIops });
      expect(cells[4]).toMatchObject({ v: c.sizing.countForCapacity });
      expect(cells[5]).toMatchObject({ v: c.sizing.driveCount });
      expect(cells[6]).toMatchObject({ k: 'msg', m: { key: `binding.${c.sizing.binding}` } });
      expect(summary.find((r) => r.id === `sizing.${c.id}.forIops`)?.value).toBe(c.sizing.countForIops);
    });
    // why: one sentence per configuration, keyed by what decides
    const why = section.blocks.find((b) => b.type === 'notes');
    expect(why?.type === 'notes' ? why.items.map((v) => (v.k === 'msg' ? v.m.key : '')) : []).toEqual(t.plan.configurations.map((c) => `sz.why.${c.sizing.binding}`));
  });

  it('says how the RAM cache was sized (the prefill\'s rule) and where the hit shares come from', () => {
    const notes = section.blocks.filter((b) => b.type === 'notes').flatMap((b) => (b.type === 'notes' ? b.items : []));
    const keys = notes.map((v) => (v.k === 'msg' ? v.m.key : ''));
    expect(keys.some((k) => k.startsWith('sz.cacheRule.'))).toBe(true);
    expect(keys.filter((k) => k === 'sz.hits')).toHaveLength(t.scenario.configurations.filter((c) => c.cache !== undefined).length);
  });

  it('is followed by the TCO section; none without a plan', () => {
    expect(planSections(t).sections.map((s) => s.id)).toEqual(['sizing', 'tco']);
    expect(planSections(null).sections).toEqual([]);
  });
});

describe('spindleCount', () => {
  it('returns both counts and the one that decides: capacity when the IOPS need fewer drives', () => {
    const s = spindleCount({ backEndIops: 150, driveIops: 75, capacityBytes: 26e12, driveCapacityBytes: 20e12, raid: { level: '5', groupSize: 5 } });
    expect(s).toMatchObject({ countForIops: 2, countForCapacity: 5, driveCount: 5, binding: 'capacity' });
  });
});
