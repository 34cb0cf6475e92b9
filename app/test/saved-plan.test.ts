/**
 * The Planner's edited scenario saved with the analysis (plan.saved / plan.save, host/saved-plans.ts):
 * saved in the data folder per capture, found again by a new host (a reload, a reopened app),
 * refused with a sentence naming the field when invalid (the saved one kept), forgotten on reset;
 * and plan.catalog gives the shipped catalog, which the engine accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCatalog } from '@cacheproof/engine/plan';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-saved-plan-'));
const capture = join(dir, 'synthetic.capture');
const data = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeSyntheticCapture({ path: capture, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, missShare: 0.1 });
});

/** A new host on the same data folder (as after a reload or a restart). */
function host(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: capture, probe: null, dataDir: data }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function openId(d: ReturnType<typeof createDispatch>): Promise<string> {
  const view = await d('analysis.openSample', {});
  if (!view.ok) throw new Error(view.error.message);
  return (view.value as { id: string }).id;
}

describe('plan.saved and plan.save', () => {
  it('saves an edited scenario per capture; a new host finds it; an invalid one is refused naming the field; null forgets it', async () => {
    const d = host();
    const id = await openId(d);
    expect(await d('plan.saved', { analysisId: id })).toEqual({ ok: true, value: { scenario: null } });
    const pre = await d('plan.fromAnalysis', { analysisId: id });
    if (!pre.ok) throw new Error(pre.error.message);
    const edited = JSON.parse(JSON.stringify((pre.value as { scenario: Record<string, unknown> }).scenario)) as { workload: { capacityBytes: number }; title: string };
    edited.workload.capacityBytes = 40e12;
    edited.title = 'Edited in the Planner';
    expect(await d('plan.save', { analysisId: id, scenario: edited })).toEqual({ ok: true, value: { saved: true } });
    // one file per capture, named by its SHA-256, a plain scenario file
    const files = readdirSync(join(data, 'plans'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.tco\.json$/);
    expect(JSON.parse(readFileSync(join(data, 'plans', files[0] ?? ''), 'utf8'))).toEqual(edited);

    const again = host();
    const id2 = await openId(again);
    expect(await again('plan.saved', { analysisId: id2 })).toEqual({ ok: true, value: { scenario: edited } });

    const bad = JSON.parse(JSON.stringify(edited)) as { workload: { capacityBytes: number } };
    bad.workload.capacityBytes = -1;
    const refused = await again('plan.save', { analysisId: id2, scenario: bad });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('plan-scenario-invalid');
      expect(refused.error.message).toContain('workload.capacityBytes');
    }
    expect(await again('plan.saved', { analysisId: id2 })).toEqual({ ok: true, value: { scenario: edited } });

    expect(await again('plan.save', { analysisId: id2, scenario: null })).toEqual({ ok: true, value: { saved: false } });
    expect(existsSync(join(data, 'plans', files[0] ?? ''))).toBe(false);
    expect(await again('plan.saved', { analysisId: id2 })).toEqual({ ok: true, value: { scenario: null } });
  });

  it('an analysis not opened in this session is capture-not-found', async () => {
    const r = await host()('plan.saved', { analysisId: 'nope' });
    expect(r.ok ? null : r.error.code).toBe('capture-not-found');
  });
});

describe('plan.catalog', () => {
  it('gives the shipped drive catalog, which the engine accepts', async () => {
    const r = await host()('plan.catalog', {});
    if (!r.ok) throw new Error(r.error.message);
    const catalog = (r.value as { catalog: unknown }).catalog;
    expect(catalog).toEqual(JSON.parse(readFileSync(join(__dirname, '../../samples/catalog/drives.json'), 'utf8')));
    expect(parseCatalog(catalog).ok).toBe(true);
  });
});
