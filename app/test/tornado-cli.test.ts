/**
 * The savings tornado (engine savingsSensitivity) against the CLI: for every input, the test
 * edits the scenario file itself (its own ±20 % edit of the JSON, not the engine's), runs
 * `cacheproof tco FILE --json` on each edited file and reads the savings; the input whose ±20 %
 * change moves the savings most must be the tornado's first bar, and every bar's savings must be
 * the CLI's. Scenarios: the shipped example and a variant where the energy price dominates.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TORNADO_INPUTS, type TornadoInput } from '@cacheproof/engine/plan';
import { EXIT, type CliIO } from '../src/cli/io.ts';
import { tco } from '../src/cli/tco.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const EXAMPLE = join(__dirname, '../../samples/scenarios/example.tco.json');
const dir = mkdtempSync(join(tmpdir(), 'cp-tornado-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runTco(scenario: Json, name: string): Promise<Json> {
  const file = join(dir, `${name}.tco.json`);
  writeFileSync(file, JSON.stringify(scenario));
  const io = { out: '', err: '', stdout: (s: string) => void (io.out += s), stderr: (s: string) => void (io.err += s) } satisfies CliIO & { out: string; err: string };
  const code = await tco([file, '--json'], io);
  if (code !== EXIT.ok) return { failed: io.err };
  return JSON.parse(io.out) as Json;
}

/** The test's own edit of one input by `factor` (a plain reading of docs/metrics.md "Savings sensitivity"). */
function edited(base: Json, input: TornadoInput, factor: number, configId: string): Json {
  const s = JSON.parse(JSON.stringify(base)) as Json;
  const conf = s.configurations.find((c: Json) => c.id === configId);
  const ref = s.configurations.find((c: Json) => c.id === (s.referenceId ?? s.configurations[0].id));
  const drive = (id: string): Json => s.drives.find((d: Json) => d.id === id);
  const price = (d: Json): void => {
    if (typeof d.priceUsd === 'object') d.priceUsd.value *= factor;
    else d.priceUsd *= factor;
  };
  if (input === 'energyPrice') {
    if ('usdPerKwh' in s.energy) s.energy.usdPerKwh *= factor;
    else s.energy.usdPerDrivePerYear *= factor;
  } else if (input === 'backingDrivePrice') {
    for (const id of new Set([conf.backing.driveId, ref.backing.driveId])) price(drive(id as string));
  } else if (input === 'cacheDrivePrice') {
    if (conf.cache.kind === 'ssd') price(drive(conf.cache.driveId as string));
    else conf.cache.costUsd *= factor;
  } else if (input === 'hitShare') {
    conf.cache.readHitShare = Math.min(1, conf.cache.readHitShare * factor);
    conf.cache.writeHitShare = Math.min(1, (conf.cache.writeHitShare ?? 0) * factor);
  } else if (input === 'capacityGrowth') {
    s.workload.growth = { iopsPerYear: 0, ...s.workload.growth, capacityPerYear: (s.workload.growth?.capacityPerYear ?? 0) * factor };
  } else if (input === 'iopsGrowth') {
    s.workload.growth = { capacityPerYear: 0, ...s.workload.growth, iopsPerYear: (s.workload.growth?.iopsPerYear ?? 0) * factor };
  } else if (input === 'iopsTarget') {
    s.workload.iops[s.workload.iops.basis] *= factor;
  } else s.workload.capacityBytes *= factor;
  return s;
}

async function check(base: Json, name: string): Promise<TornadoInput> {
  const out = await runTco(base, name);
  expect(out['failed'], 'the scenario as given plans').toBeUndefined();
  const sens = out['sensitivity'] as Json;
  expect(sens, 'tco --json prints the tornado').not.toBeNull();
  const configId = sens['configId'] as string;
  const savingsOf = (r: Json): number | null => (r['result'] === undefined ? null : (r['result'].comparisons.find((c: Json) => c.id === configId).savingsUsd as number));
  expect(sens['baseSavingsUsd']).toBeCloseTo(savingsOf(out) ?? NaN, 6);
  const swings = new Map<TornadoInput, number>();
  const hasCache = base['configurations'].find((c: Json) => c.id === configId).cache !== undefined;
  for (const input of TORNADO_INPUTS) {
    if (!hasCache && (input === 'cacheDrivePrice' || input === 'hitShare')) continue;
    const low = savingsOf(await runTco(edited(base, input, 0.8, configId), `${name}-${input}-low`));
    const high = savingsOf(await runTco(edited(base, input, 1.2, configId), `${name}-${input}-high`));
    const bar = (sens['bars'] as Json[]).find((b) => b['input'] === input);
    expect(bar, `a bar for ${input}`).toBeDefined();
    if (low === null || high === null) {
      expect(bar?.['swingUsd']).toBeNull();
      continue;
    }
    expect(bar?.['savingsLowUsd']).toBeCloseTo(low, 4);
    expect(bar?.['savingsHighUsd']).toBeCloseTo(high, 4);
    swings.set(input, Math.abs(high - low));
  }
  const [largest] = [...swings.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  expect((sens['bars'] as Json[])[0]?.['input']).toBe(largest);
  return largest as TornadoInput;
}

describe('the savings tornado is what tco --json gives at ±20 % of each input', () => {
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Json;

  it('the shipped example: the largest bar is the input whose ±20 % moves the CLI savings most', async () => {
    expect(await check(example, 'example')).toBeDefined();
  });

  it('all-HDD against all-flash (no cache): another input is the largest, still the CLI\'s', async () => {
    const s = JSON.parse(JSON.stringify(example)) as Json;
    s.configurations = s.configurations.filter((c: Json) => c.id === 'all-hdd' || c.id === 'all-flash-nvme');
    s.workload.capacityBytes *= 3;
    const first = await check(example, 'example-again');
    const second = await check(s, 'energy');
    expect(second).not.toBe(first);
  });
});
