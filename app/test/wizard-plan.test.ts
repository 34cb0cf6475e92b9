/**
 * The wizard's pure parts: the capture-size estimate (against the bundled capture it was
 * measured on), typed durations, the draft → RunPlan conversion (checked with the contract's
 * own schema), the stored draft's parsing, and the Devices step's stacking and ordering.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RunPlan, type DeviceEntry } from '../src/shared/contract.ts';
import { estimateCaptureSize, plannedSamples, TRACE_BYTES_PER_REQUEST, traceBytes } from '../src/shared/estimate.ts';
import { countedTwice, guessBacking, notCounted, stackTops, tableOrder } from '../src/renderer/wizard/stacking.ts';
import { defaultDraft, durationSeconds, parseDraft, problems, toPlan } from '../src/renderer/wizard/state.ts';
import { customTargetsOf } from '../src/renderer/wizard/targets-model.ts';
import { choiceOf, defaultChoiceDraft, draftOfChoice, typed } from '../src/renderer/predict/choice.ts';
import { skipped } from '../../test/support/testenv.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'samples', 'lab', 'lab-sample.capture');

describe('capture size estimate', () => {
  it.skipIf(skipped('wizard-plan on the bundled sample', existsSync(SAMPLE) ? null : `${SAMPLE} is missing`))('reproduces the bundled lab capture it was measured on within 1 %', () => {
    const db = new Database(SAMPLE, { readonly: true });
    const samples = (db.prepare('SELECT count(*) AS n FROM samples').get() as { n: number }).n;
    const devices = (db.prepare('SELECT count(*) AS n FROM devices').get() as { n: number }).n;
    db.close();
    const bytes = statSync(SAMPLE).size;
    // 1 s interval: N samples span N − 1 seconds.
    const e = estimateCaptureSize({ deviceCount: devices, baselineSeconds: samples - 1, warmupSeconds: 0, measureSeconds: 0, intervalMs: 1000 });
    expect(e.samples).toBe(samples);
    expect(Math.abs(e.bytes - bytes) / bytes).toBeLessThan(0.01);
  });

  it('gives the documented worked example for the default plan', () => {
    const p = { deviceCount: 2, baselineSeconds: 86400, warmupSeconds: 3600, measureSeconds: 86400, intervalMs: 5000 };
    expect(plannedSamples(p)).toBe(35_281);
    expect(estimateCaptureSize(p).bytes).toBe(14_580_828);
    expect(estimateCaptureSize(p).peakBytes - estimateCaptureSize(p).bytes).toBe(4_693_568);
  });

  it('grows with devices and with samples, and a shorter interval means more samples', () => {
    const base = { deviceCount: 1, baselineSeconds: 600, warmupSeconds: 0, measureSeconds: 600, intervalMs: 5000 };
    expect(estimateCaptureSize({ ...base, deviceCount: 4 }).bytes).toBeGreaterThan(estimateCaptureSize(base).bytes);
    expect(estimateCaptureSize({ ...base, intervalMs: 1000 }).samples).toBe(1201);
    expect(estimateCaptureSize({ ...base, intervalMs: 1000 }).bytes).toBeGreaterThan(estimateCaptureSize(base).bytes);
  });
});

describe('block trace size', () => {
  it('uses a per-request size within 25 % above what a real traced capture takes (dbstat)', () => {
    const db = new Database(join(import.meta.dirname, '..', '..', 'samples', 'fixtures', 'capture-v2.sqlite'), { readonly: true });
    try {
      const bytes = db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name IN ('block_requests', 'block_requests_by_device_time')").pluck().get() as number;
      const requests = db.prepare('SELECT count(*) FROM block_requests').pluck().get() as number;
      expect(requests).toBeGreaterThan(1000);
      const perRequest = bytes / requests;
      expect(TRACE_BYTES_PER_REQUEST).toBeGreaterThanOrEqual(perRequest);
      expect(TRACE_BYTES_PER_REQUEST).toBeLessThanOrEqual(perRequest * 1.25);
    } finally {
      db.close();
    }
  });

  it('is the per-request bytes times the requests of the plan', () => {
    expect(traceBytes(1000, 3600)).toBe(1000 * 3600 * TRACE_BYTES_PER_REQUEST);
    expect(traceBytes(0, 3600)).toBe(0);
    expect(traceBytes(-5, 10)).toBe(0);
  });
});

describe('typed durations', () => {
  it('reads a decimal comma or point in the chosen unit', () => {
    expect(durationSeconds({ text: '0,5', unit: 'h' }, 1)).toEqual({ ok: true, seconds: 1800 });
    expect(durationSeconds({ text: '1.5', unit: 'min' }, 1)).toEqual({ ok: true, seconds: 90 });
    expect(durationSeconds({ text: ' 20 ', unit: 's' }, 1)).toEqual({ ok: true, seconds: 20 });
    expect(durationSeconds({ text: '0', unit: 'h' }, 0)).toEqual({ ok: true, seconds: 0 });
  });

  it('says what is wrong', () => {
    expect(durationSeconds({ text: '', unit: 's' }, 1)).toEqual({ ok: false, error: 'empty' });
    expect(durationSeconds({ text: 'abc', unit: 's' }, 1)).toEqual({ ok: false, error: 'not-a-number' });
    expect(durationSeconds({ text: '-3', unit: 'h' }, 1)).toEqual({ ok: false, error: 'negative' });
    expect(durationSeconds({ text: '0', unit: 'h' }, 1)).toEqual({ ok: false, error: 'too-short' });
    expect(durationSeconds({ text: '0.3', unit: 's' }, 1)).toEqual({ ok: false, error: 'not-whole-seconds' });
    expect(durationSeconds({ text: '721', unit: 'h' }, 1)).toEqual({ ok: false, error: 'too-long' });
    expect(durationSeconds({ text: '720', unit: 'h' }, 1)).toEqual({ ok: true, seconds: 30 * 86400 });
  });
});

describe('draft → plan', () => {
  it('refuses a draft with no device and names the step that fixes it', () => {
    const d = defaultDraft();
    expect(problems(d)).toEqual([{ step: 'devices', field: 'devices' }]);
    expect(toPlan(d, 'x')).toBeNull();
  });

  it('makes a plan the contract accepts, without the front device among the backing devices', () => {
    const d = { ...defaultDraft(), front: 'loop7', backing: ['loop6', 'loop7'], baseline: { text: '20', unit: 's' as const }, warmup: { text: '5', unit: 's' as const }, measure: { text: '20', unit: 's' as const }, intervalMs: 1000 };
    expect(problems(d)).toEqual([]);
    const plan = toPlan(d, '  trial  ');
    expect(plan).toEqual({ name: 'trial', front: 'loop7', backing: ['loop6'], baselineSeconds: 20, warmupSeconds: 5, measureSeconds: 20, intervalMs: 1000, switch: { kind: 'manual' }, targets: 'generic', trace: false });
    expect(RunPlan.safeParse(plan).success).toBe(true);
    const traced = toPlan({ ...d, trace: true, predict: false }, 'traced');
    expect(traced?.trace).toBe(true);
    expect(RunPlan.safeParse(traced).success).toBe(true);
    // A run saved before the option existed has no `trace`: still a valid plan (no trace).
    const { trace: _omitted, ...older } = plan as RunPlan;
    expect(RunPlan.safeParse(older).success).toBe(true);
    expect(toPlan(d, '   ')).toBeNull();
  });

  it('reads back a stored draft and falls back field by field on anything malformed', () => {
    expect(parseDraft('not json')).toEqual(defaultDraft());
    const d = parseDraft(JSON.stringify({ front: 'sdb', backing: ['sdc', 3], baseline: { text: '2', unit: 'weeks' }, intervalMs: 7000, targets: 'sharepoint' }));
    expect(d.front).toBe('sdb');
    expect(d.backing).toEqual(['sdc']);
    expect(d.baseline).toEqual(defaultDraft().baseline);
    expect(d.intervalMs).toBe(5000);
    expect(d.targets).toBe('sharepoint');
    expect(d.trace).toBe(false);
    expect(parseDraft(JSON.stringify({ trace: true })).trace).toBe(true);
    expect(parseDraft(JSON.stringify({ trace: 'yes' })).trace).toBe(false);
  });
});

function dev(name: string, more: Partial<DeviceEntry> = {}): DeviceEntry {
  return {
    name, majMin: '0:0', sizeBytes: 1e9, kind: 'ssd', model: null, vendor: null, isPartition: false, parent: null,
    slaves: [], holders: [], backingFile: null, backingFileDevice: null, role: 'other', roleReason: null, ...more,
  };
}

describe('devices step', () => {
  // Two labs side by side (front loop on a file on a backing loop on the disk) and a bcache set.
  const devices = [
    dev('sda', { kind: 'hdd', role: 'backing' }),
    dev('sda1', { isPartition: true, parent: 'sda' }),
    dev('loop0', { kind: 'loop', role: 'front', backingFile: '/lab0/front.img', backingFileDevice: 'loop1' }),
    dev('loop1', { kind: 'loop', role: 'backing', backingFile: '/lab0/backing.img', backingFileDevice: 'sda1' }),
    dev('loop2', { kind: 'loop', role: 'front', backingFile: '/lab1/front.img', backingFileDevice: 'loop3' }),
    dev('loop3', { kind: 'loop', role: 'backing', backingFile: '/lab1/backing.img', backingFileDevice: 'sda1' }),
    dev('bcache0', { slaves: ['sdb', 'nvme0n1'] }),
    dev('sdb', { kind: 'hdd', holders: ['bcache0'] }),
    dev('nvme0n1', { kind: 'nvme', holders: ['bcache0'], role: 'cache' }),
  ];

  it('finds the top of every stack', () => {
    expect(stackTops(devices).map((d) => d.name)).toEqual(['loop0', 'loop2', 'bcache0']);
  });

  it('lists partitions right under their disk', () => {
    expect(tableOrder(devices).slice(0, 3).map((r) => [r.device.name, r.nested])).toEqual([['sda', false], ['sda1', true], ['loop0', false]]);
    expect(tableOrder(devices)).toHaveLength(devices.length);
  });

  it('proposes the backing devices of the front device’s own stack, never one under another (its I/O would count twice)', () => {
    // sda is marked backing here (as probes before issue 26 marked it) but sits under loop3's image.
    expect(guessBacking(devices, 'loop2')).toEqual(['loop3']);
    expect(guessBacking(devices, null)).toEqual(['loop1', 'loop3']);
  });

  it('shows the disk under a backing loop’s image as not counted, and proposes only the lab’s loops', () => {
    // The lab as the probe now reports it: vda holds backing.img, the file of loop0.
    const lab = [
      dev('vda', { kind: 'hdd', roleReason: 'holds the image of loop0: not counted' }),
      dev('loop0', { kind: 'loop', role: 'backing', backingFile: '/lab/backing.img', backingFileDevice: 'vda' }),
      dev('loop1', { kind: 'loop', role: 'front', backingFile: '/lab/mnt/front.img', backingFileDevice: 'loop0' }),
    ];
    expect(guessBacking(lab, 'loop1')).toEqual(['loop0']);
    expect(notCounted(lab)).toEqual(new Map([['vda', ['loop0']]]));
    // Two labs up at once on one system disk: both images are named.
    const two = [...lab,
      dev('loop2', { kind: 'loop', role: 'backing', backingFile: '/lab2/backing.img', backingFileDevice: 'vda' }),
      dev('loop3', { kind: 'loop', role: 'front', backingFile: '/lab2/mnt/front.img', backingFileDevice: 'loop2' })];
    expect(notCounted(two)).toEqual(new Map([['vda', ['loop0', 'loop2']]]));
    // A single loop device on a file: the disk under it is its backing, and counted.
    const single = [dev('sda', { role: 'backing' }), dev('loop5', { kind: 'loop', role: 'front', backingFile: '/f.img', backingFileDevice: 'sda' })];
    expect(guessBacking(single, 'loop5')).toEqual(['sda']);
    expect(notCounted(single).size).toBe(0);
  });

  it('names the pair when the chosen backing devices count an I/O twice', () => {
    expect(countedTwice(devices, ['loop3', 'sda'])).toEqual({ lower: 'sda', upper: 'loop3' });
    expect(countedTwice(devices, ['sda1', 'sda'])).toEqual({ lower: 'sda', upper: 'sda1' });
    expect(countedTwice(devices, ['loop1', 'loop3'])).toBeNull();
    expect(countedTwice(devices, ['sdb'])).toBeNull();
  });
});

describe('the cache-engine choice in the draft', () => {
  const base = (): ReturnType<typeof defaultDraft> => ({ ...defaultDraft(), front: 'loop7', backing: ['loop6'] });
  it('manual by default; an adapter becomes the plan’s switch (device without /dev/, config only for command)', () => {
    expect(toPlan(base(), 'x')?.switch).toEqual({ kind: 'manual' });
    const d = base();
    d.engine = { kind: 'adapter', adapter: 'loop-dio', device: '/dev/loop7', config: '/ignored.json', restore: true };
    const plan = toPlan(d, 'x');
    expect(plan?.switch).toEqual({ kind: 'adapter', adapter: 'loop-dio', device: 'loop7', config: null, restore: true });
    expect(RunPlan.safeParse(plan).success).toBe(true);
  });
  it('an adapter without its device, or the command adapter without its config, is a problem of the engine step', () => {
    const d = base();
    d.engine = { kind: 'adapter', adapter: 'command', device: 'sdb', config: ' ', restore: false };
    expect(problems(d)).toEqual([{ step: 'engine', field: 'engine' }]);
    expect(toPlan(d, 'x')).toBeNull();
    d.engine.config = '/etc/cacheproof/engine.json';
    expect(toPlan(d, 'x')?.switch).toEqual({ kind: 'adapter', adapter: 'command', device: 'sdb', config: '/etc/cacheproof/engine.json', restore: false });
  });
  it('a stored draft keeps its engine choice, and anything malformed falls back field by field', () => {
    const d = base();
    d.engine = { kind: 'adapter', adapter: 'bcache', device: 'bcache0', config: '', restore: false };
    expect(parseDraft(JSON.stringify(d)).engine).toEqual(d.engine);
    expect(parseDraft(JSON.stringify({ ...d, engine: { kind: 'adapter', adapter: 'rm -rf', device: 7, restore: 'no' } })).engine)
      .toEqual({ kind: 'adapter', adapter: 'loop-dio', device: '', config: '', restore: true });
  });
});

describe('custom latency targets', () => {
  const ready = () => {
    const d = defaultDraft();
    d.backing = ['sda'];
    d.targets = 'custom';
    return d;
  };
  it('a valid set becomes the plan\'s customTargets, which the contract accepts', () => {
    const d = ready();
    d.custom = { read: { text: '12,5', ms: 12.5 }, write: { text: '5', ms: 5 }, warn: { text: '4', ms: 4 } };
    expect(problems(d)).toEqual([]);
    const plan = toPlan(d, 'custom run');
    expect(plan).toMatchObject({ targets: 'custom', customTargets: { readMs: 12.5, writeMs: 5, warnMs: 4 } });
    expect(RunPlan.safeParse(plan).success).toBe(true);
    d.custom.warn = { text: '', ms: null };
    expect(toPlan(d, 'custom run')?.customTargets).toEqual({ readMs: 12.5, writeMs: 5 });
  });
  it('each wrong field is named; the plan is not made', () => {
    const cases: [Partial<Record<'read' | 'write' | 'warn', { text: string; ms: number | null }>>, Record<string, string>][] = [
      [{ read: { text: '', ms: null } }, { read: 'empty' }],
      [{ read: { text: 'ten', ms: null } }, { read: 'not-a-number' }],
      [{ write: { text: '0', ms: 0 } }, { write: 'range' }],
      [{ write: { text: '60001', ms: 60001 } }, { write: 'range' }],
      [{ warn: { text: '20', ms: 20 } }, { warn: 'warn-above' }],
    ];
    for (const [fields, expected] of cases) {
      const d = ready();
      d.custom = { ...d.custom, ...fields };
      const r = customTargetsOf(d.custom);
      expect(r.ok ? {} : r.errors, JSON.stringify(fields)).toEqual(expected);
      expect(problems(d)).toEqual([{ step: 'plan', field: 'targets' }]);
      expect(toPlan(d, 'x')).toBeNull();
    }
  });
  it('the contract refuses custom without values and a warning level at or above a target', () => {
    const d = ready();
    const plan = toPlan(d, 'x');
    expect(plan).not.toBeNull();
    const { customTargets: _, ...bare } = plan as RunPlan;
    expect(RunPlan.safeParse(bare).success).toBe(false);
    expect(RunPlan.safeParse({ ...plan, customTargets: { readMs: 10, writeMs: 5, warnMs: 5 } }).success).toBe(false);
  });
  it('a stored draft keeps custom targets; a preset draft keeps its preset', () => {
    const d = ready();
    d.custom = { read: { text: '7', ms: 7 }, write: { text: '3,5', ms: 3.5 }, warn: { text: '', ms: null } };
    const back = parseDraft(JSON.stringify(d));
    expect(back.targets).toBe('custom');
    expect(back.custom).toEqual(d.custom);
    expect(parseDraft(JSON.stringify({ ...d, targets: 'pal' })).targets).toBe('pal');
    expect(parseDraft(JSON.stringify({ ...d, targets: 'nonsense' })).targets).toBe('generic');
  });
});

describe('the cache to predict (the trace on)', () => {
  const base = { ...defaultDraft(), front: 'loop7', backing: ['loop6'], baseline: { text: '20', unit: 's' as const }, warmup: { text: '5', unit: 's' as const }, measure: { text: '20', unit: 's' as const }, intervalMs: 1000 };

  it('is asked when the trace is on: no size is a problem of the Plan step; a size and a preset go into the plan, which the contract accepts', () => {
    expect(problems(base)).toEqual([]);
    const traced = { ...base, trace: true };
    expect(traced.predict).toBe(true);
    expect(problems(traced)).toEqual([{ step: 'plan', field: 'prediction' }]);
    expect(toPlan(traced, 'run')).toBeNull();
    const choice = defaultChoiceDraft();
    typed('fr', choice, 'size', '1,5');
    choice.unit = 'GiB';
    choice.device = 'sata-ssd';
    const plan = toPlan({ ...traced, choice }, 'run');
    expect(plan?.prediction).toEqual({ cacheBytes: 1.5 * 2 ** 30, cacheDevice: { preset: 'sata-ssd' } });
    expect(RunPlan.safeParse(plan).success).toBe(true);
    // without the trace nothing is predicted, whatever the fields hold
    expect(toPlan({ ...base, choice }, 'run')?.prediction).toBeUndefined();
    // unticked: a traced run without a prediction
    expect(toPlan({ ...traced, predict: false }, 'run')?.prediction).toBeUndefined();
    // the contract refuses a prediction without the trace
    expect(RunPlan.safeParse({ ...plan, trace: false }).success).toBe(false);
  });

  it('a typed latency, read in the language it was typed in; each wrong field is named', () => {
    const c = defaultChoiceDraft();
    typed('en', c, 'size', '64');
    c.unit = 'MiB';
    c.device = 'typed';
    expect(choiceOf(c)).toEqual({ ok: false, errors: { latency: 'latency-empty' } });
    typed('fr', c, 'latency', '12,5');
    expect(choiceOf(c)).toEqual({ ok: true, choice: { cacheBytes: 64 * 2 ** 20, cacheDevice: { latencyUs: 12.5 } } });
    typed('en', c, 'size', 'lots');
    typed('en', c, 'latency', '0');
    expect(choiceOf(c)).toEqual({ ok: false, errors: { size: 'size-nan', latency: 'latency-range' } });
    typed('en', c, 'size', '2');
    c.unit = 'MiB';
    typed('en', c, 'latency', '5');
    expect(choiceOf({ ...c, sizeText: '0.001', size: 0.001 })).toEqual({ ok: false, errors: { size: 'size-range' } });
  });

  it('a stored draft keeps the choice; the dashboard starts from the stored prediction\'s size and device', () => {
    const choice = { ...defaultChoiceDraft(), sizeText: '2', size: 2, unit: 'TiB' as const, device: 'ram' as const };
    const d = parseDraft(JSON.stringify({ ...base, trace: true, predict: true, choice }));
    expect(d.choice).toEqual(choice);
    expect(parseDraft(JSON.stringify({ ...base, choice: { unit: 'PB', device: 'floppy', size: 'x' } })).choice).toEqual(defaultChoiceDraft());
    expect(draftOfChoice('en', 1 << 20, { preset: 'nvme', readLatencyUs: 85 })).toEqual({ sizeText: '1', size: 1, unit: 'MiB', device: 'nvme', latencyText: '', latency: null });
    expect(draftOfChoice('fr', 3 * 2 ** 30, { preset: 'typed', readLatencyUs: 12.5 })).toMatchObject({ sizeText: '3', unit: 'GiB', device: 'typed', latencyText: '12,5', latency: 12.5 });
  });
});
