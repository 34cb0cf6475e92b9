// Home's recent analyses keep workload profiles too (issue 37): one entry per profile route, beside
// the analysis of the same capture, with the engine's IOPS as headline; a stored route that is not
// a profile's is dropped (localStorage is not trusted).
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisView, ProfileView } from '../src/shared/contract.ts';
import { recentCaptures, rememberRecent, rememberRecentProfile } from '../src/renderer/home/recent.ts';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  (globalThis as unknown as { localStorage: Pick<Storage, 'getItem' | 'setItem'> }).localStorage = {
    getItem: (k) => store.get(k) ?? null,
    setItem: (k, v) => { store.set(k, v); },
  };
});

const profileView = {
  captureFile: '/data/imports/srv7.capture', name: 'srv7.capture', host: { hostname: 'SRV7' },
  profile: { window: { startMs: 1000, endMs: 5000 }, appFacing: { means: { iops: 412.5 }, percentiles: { iops: { p95: 480.25 } } } },
} as unknown as ProfileView;

const analysisView = {
  captureFile: '/data/imports/srv7.capture', name: 'srv7.capture', host: { hostname: 'SRV7' }, isSample: false,
  phases: [{ startMs: 1000, endMs: 5000 }], series: [], result: { benefit: { iosSavedPercent: { value: 40 } } },
} as unknown as AnalysisView;

describe('recent workload profiles', () => {
  it('keeps a profile with its route, host, window and the engine\'s IOPS, beside the analysis of the same capture', () => {
    rememberRecent(analysisView, 1);
    rememberRecentProfile(profileView, 'profile-file/%2Fdata%2Fimports%2Fsrv7.capture', 2);
    rememberRecentProfile(profileView, 'profile-file/%2Fdata%2Fimports%2Fsrv7.capture', 3);
    const list = recentCaptures();
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      captureFile: '/data/imports/srv7.capture', name: 'srv7.capture', hostname: 'SRV7', startMs: 1000, endMs: 5000, iosSavedPercent: null,
      isSample: false, openedMs: 3, profile: { route: 'profile-file/%2Fdata%2Fimports%2Fsrv7.capture', meanIops: 412.5, p95Iops: 480.25 },
    });
    expect(list[1]?.profile).toBeNull();
    expect(list[1]?.iosSavedPercent).toBe(40);
  });

  it('drops a stored route that is not a profile\'s', () => {
    store.set('cacheproof.recent', JSON.stringify([{ captureFile: '/x', name: 'x', openedMs: 1, profile: { route: 'results/abc', meanIops: 1 } }]));
    expect(recentCaptures()[0]?.profile).toBeNull();
  });
});
