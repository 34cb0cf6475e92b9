import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScenario } from '@cacheproof/engine/plan';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { runCli } from '../src/cli/main.ts';
import { writeSyntheticCapture } from './support/synthetic-capture.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-plan-channel-'));
const capture = join(dir, 'synthetic.capture');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeSyntheticCapture({ path: capture, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, missShare: 0.1 });
});

function dispatch(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: capture, probe: null }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

describe('plan.fromAnalysis', () => {
  it('gives, for an analysis opened in this session, exactly the scenario `cacheproof tco --from-capture` writes', async () => {
    const d = dispatch();
    const view = await d('analysis.openSample', {});
    if (!view.ok) throw new Error(view.error.message);
    const id = (view.value as { id: string }).id;
    const r = await d('plan.fromAnalysis', { analysisId: id });
    if (!r.ok) throw new Error(r.error.message);
    const scenario = (r.value as { scenario: unknown }).scenario;
    expect(parseScenario(scenario).ok).toBe(true);

    const out = join(dir, 'from-capture.tco.json');
    let err = '';
    const code = await runCli(['tco', '--from-capture', capture, '--out', out], { stdout: () => undefined, stderr: (s) => (err += s) });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(scenario).toEqual(JSON.parse(readFileSync(out, 'utf8')));
  });

  it('refuses an analysis id that was not opened in this session, and a malformed request', async () => {
    const d = dispatch();
    const unknown = await d('plan.fromAnalysis', { analysisId: 'ffffffffffffffff' });
    expect(unknown.ok ? null : unknown.error.code).toBe('capture-not-found');
    const bad = await d('plan.fromAnalysis', { path: capture });
    expect(bad.ok ? null : bad.error.code).toBe('bad-request');
  });
});
