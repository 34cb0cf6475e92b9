import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import { synthCapture } from '../benefit/testkit.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import { buildReportModel, type ReportInput } from './build.ts';
import { shortForm } from './short.ts';
import { reportSeries } from './series.ts';
import type { Block, ReportModel } from './types.ts';

function input(front: string | null): ReportInput {
  const data = synthCapture({ baselineS: 3600, measureS: 3600, warmupS: 600, stepMs: 10_000, front, backing: ['back0'], iopsBefore: 500, iopsAfter: 500, missRatio: 0.2, latBeforeMs: 6, latAfterMs: 1, noise: 0.05, seed: 7 });
  const a = analyze(data, { bootstrapReplicates: 100 });
  if (!a.ok) throw new Error(a.error.message);
  return {
    analysis: a as AnalysisReport,
    capture: { fileName: 'x.capture', sha256: 'ab'.repeat(32), sizeBytes: 1, probeVersion: '0.1.0', source: 'synthetic', schemaVersion: 1, sampleIntervalMs: 10_000, devices: data.devices },
    series: reportSeries(data.intervals, data.devices), cover: {}, appVersion: '9.9.9', generatedMs: Date.UTC(2026, 5, 1), tco: null,
  };
}

const blocks = (model: ReportModel): Block[] => model.sections.flatMap((s) => s.blocks);

describe('the headline cards', () => {
  it('are what the server did — I/Os saved, response time, throughput with the IOPS delivered, cache share — in the full and the short form; IOPS at queue depth 1 is a detail', () => {
    const full = buildReportModel(input('front0'));
    for (const model of [full, shortForm(full)]) {
      const cards = blocks(model).flatMap((b) => (b.type === 'cards' ? b.cards : []));
      expect(cards.map((c) => c.id)).toEqual(['iosSaved', 'latency', 'throughput', 'cacheServed']);
      expect(JSON.stringify(cards)).not.toContain('normalized');
      // the throughput card carries the work done (IOPS delivered)
      expect(cards.find((c) => c.id === 'throughput')?.subs.map((s) => s.key)).toContain('card.delivered');
    }
    // the queue-depth-1 figure moved to the results (beside the figures table) with its definition in the method
    const results = full.sections.find((s) => s.id === 'results')?.blocks ?? [];
    expect(results.some((b) => b.type === 'paragraph' && b.text.key === 'sum.normalizedIops')).toBe(true);
    const summary = full.sections.find((s) => s.id === 'summary')?.blocks ?? [];
    expect(JSON.stringify(summary)).not.toContain('normalizedIops');
    expect(JSON.stringify(full.sections.find((s) => s.id === 'method'))).toContain('def.normalizedIops');
  });
});
