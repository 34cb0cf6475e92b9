/** The adapter's actions as timeline markers (dashboard/engine.ts engineMarkers): one per action, at its first step, labelled with the mode it left. */
import { describe, expect, it } from 'vitest';
import type { AnalysisReport, EngineActionRow } from '@cacheproof/engine';
import { engineMarkers, headlineKind } from '../src/renderer/dashboard/engine-words.ts';
import { words } from '../src/renderer/dashboard/text.ts';

const action = (startMs: number, a: string, ok: boolean, modeAfter: string | null): EngineActionRow => ({
  start: new Date(startMs).toISOString(), end: new Date(startMs).toISOString(), startMs, action: a, step: `step ${a}`, ok, exitStatus: ok ? 0 : 1, modeBefore: 'x', modeAfter, output: '', reasons: {},
});
const share = (enginePercent: number | null) => ({ enginePercent, countersPercent: 50, differencePoints: enginePercent === null ? null : enginePercent - 50, exceeds: false, engineHits: null, engineTotal: null, reasons: {} });
const report = (actions: EngineActionRow[], engine: { reads: number | null; writes: number | null; all: number | null } = { reads: null, writes: null, all: null }): AnalysisReport => ({
  cacheEngine: { reasons: {}, comparison: { adapter: 'opencas', device: 'cas1-1', window: { start: '', end: '', seconds: 1 }, method: 'cumulative-difference-in-measure-window', thresholdPoints: 5,
    shares: { reads: share(engine.reads), writes: share(engine.writes), all: share(engine.all) }, notes: [], counters: [], actions, samples: 0 } },
} as unknown as AnalysisReport);

describe('engine markers on the timeline', () => {
  it('one marker per action at its first step, with the mode it left the engine in, or that it failed', () => {
    const r = report([action(1000, 'enable', true, 'wb'), action(1500, 'enable', true, 'wt'), action(9000, 'restore', false, 'wt')]);
    expect(engineMarkers(r, words('en'))).toEqual([{ atMs: 1000, label: 'switch on: wt' }, { atMs: 9000, label: 'restore failed' }]);
    expect(engineMarkers(r, words('fr'))[0]?.label).toBe('activation : wt');
  });
  it('none without an adapter', () => {
    expect(engineMarkers({ cacheEngine: { comparison: null, reasons: { comparison: 'no-adapter' } } } as unknown as AnalysisReport, words('en'))).toEqual([]);
  });
  it('the card leads with all I/O when the engine gives it, else the kind it has', () => {
    expect(headlineKind(report([], { reads: 90, writes: 20, all: 80 }).cacheEngine.comparison as NonNullable<AnalysisReport['cacheEngine']['comparison']>)).toBe('all');
    expect(headlineKind(report([], { reads: 90, writes: null, all: null }).cacheEngine.comparison as NonNullable<AnalysisReport['cacheEngine']['comparison']>)).toBe('reads');
    expect(headlineKind(report([]).cacheEngine.comparison as NonNullable<AnalysisReport['cacheEngine']['comparison']>)).toBe('all');
  });
});
