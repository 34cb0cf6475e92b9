/**
 * A traced run started through the contract passes the plan's trace budget to the real probe
 * (root and tracefs; skipped with a message otherwise): the capture's command line and meta hold
 * the budget, and the run's status carries the probe's trace figures (the share kept, the budget,
 * the stored bytes). A plan that keeps every request starts `--trace-sample 1`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DeviceEntry, RunPlan, RunStatus } from '../src/shared/contract.ts';
import { createDispatch, type Dispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { findRepoRoot, probePath } from '../src/host/paths.ts';
import { skipped, waitFor } from '../../test/support/testenv.ts';

const root = findRepoRoot(__dirname);
const probe = probePath(root);
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-run-budget-'));
const started: string[] = [];
const reason = probe === null ? 'the probe is not built'
  : process.getuid?.() !== 0 ? 'block tracing needs root'
    : !existsSync('/sys/kernel/tracing') ? 'no tracefs at /sys/kernel/tracing' : null;

function host(): Dispatch {
  return createDispatch(createHandlers({ shell: 'browser', sample: null, probe, dataDir: dir }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

async function call<T>(d: Dispatch, channel: string, payload: unknown): Promise<T> {
  const r = await d(channel, payload);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

afterAll(async () => {
  const d = host();
  for (const runId of started) await d('run.stop', { runId });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipped('run-trace-budget', reason))('a traced run under a budget', () => {
  it('passes the budget (or every request) to the probe and reports the trace\'s share, budget and size', async () => {
    const d = host();
    const { devices } = await call<{ devices: DeviceEntry[] }>(d, 'devices.list', {});
    const disk = devices.find((x) => !x.isPartition && x.kind !== 'loop' && (x.sizeBytes ?? 0) > 0)?.name ?? devices[0]?.name;
    if (disk === undefined) throw new Error('no block device to record');
    const plan = (over: Partial<RunPlan>): RunPlan => ({ name: 'budget', front: null, backing: [disk], baselineSeconds: 60, warmupSeconds: 0, measureSeconds: 60, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic', trace: true, ...over });
    for (const [over, flags, budget] of [
      [{ traceBudgetBytes: 100_000_000 }, '--trace --trace-budget 100000000B', '100000000'],
      [{ traceBudgetBytes: null }, '--trace --trace-sample 1', null],
    ] as const) {
      const s = await call<RunStatus>(d, 'run.start', { plan: plan(over) });
      started.push(s.id);
      let st = s;
      await waitFor(`run ${s.id} to report its trace and a sample`, 20_000, async () => {
        st = await call<RunStatus>(d, 'run.status', { runId: s.id });
        return st.trace !== null && st.samples >= 1 ? true : undefined;
      }, () => JSON.stringify(st), 250);
      const db = new Database(s.captureFile, { readonly: true });
      const meta = (k: string): string | undefined => (db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(k) as string | undefined);
      try {
        expect(meta('command')).toContain(flags);
        expect(meta('trace_budget_bytes')).toBe(budget ?? undefined);
        expect(meta('latency_histograms')).toBe('from-start');
      } finally {
        db.close();
      }
      expect(st.trace).not.toBeNull();
      expect(st.trace?.budgetBytes).toBe(budget === null ? null : Number(budget));
      expect(st.trace?.sampleRate).toBeGreaterThan(0);
      expect(st.trace?.sampleRate).toBeLessThanOrEqual(1);
      expect(st.trace?.storedBytes).toBe((st.trace?.requests ?? NaN) * 64);
      await call(d, 'run.stop', { runId: s.id });
    }
  });
});
