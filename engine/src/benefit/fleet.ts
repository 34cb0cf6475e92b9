/**
 * Fleets: a capture that holds several hosts (`cacheproof-probe import prometheus` of a host
 * selector that matched several instances writes meta `fleet`, docs/capture-schema.md), read
 * host by host. Each host is analysed as a capture of that host alone would be
 * ({@link hostCapture}: its devices, named as its own capture names them, and their intervals),
 * by the one {@link analyze} or {@link profileWorkload}; the fleet table's figures are read from
 * those results ({@link fleetFiguresOfAnalysis}, {@link fleetFiguresOfProfile}), never computed
 * a second time.
 */
import type { CaptureData } from '../records/types.ts';
import type { ColumnSource } from '../records/source.ts';
import type { HealthGrade } from './health.ts';
import type { WorkloadProfile } from './profile.ts';
import type { AnalysisReport } from './result.ts';

/** One host of a fleet capture and its devices, as the capture names them (`web1:9100/sda`). */
export interface FleetHost {
  host: string;
  devices: string[];
}

/**
 * The hosts of a fleet capture from its `meta.fleet` (a JSON array of `{host, devices}`), or
 * null when the capture is not a fleet (no meta, one host, or not readable as such).
 *
 * @example
 * parseFleet('[{"host":"a:9100","devices":["a:9100/sda"]},{"host":"b:9100","devices":["b:9100/sda"]}]')
 * // [{ host: 'a:9100', devices: ['a:9100/sda'] }, { host: 'b:9100', devices: ['b:9100/sda'] }]
 */
export function parseFleet(json: string | null | undefined): FleetHost[] | null {
  if (json === null || json === undefined) return null;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(v)) return null;
  const out: FleetHost[] = [];
  for (const h of v) {
    if (h === null || typeof h !== 'object') return null;
    const { host, devices } = h as { host?: unknown; devices?: unknown };
    if (typeof host !== 'string' || !Array.isArray(devices) || !devices.every((d) => typeof d === 'string')) return null;
    out.push({ host, devices: devices as string[] });
  }
  return out.length > 1 ? out : null;
}

/**
 * A device's name in its host's own capture: the fleet's `HOST/NAME` (Prometheus) or
 * `HOST\NAME` (a PerfMon log of several computers) without the host.
 *
 * @example hostDeviceName('web1:9100', 'web1:9100/sda') // 'sda'
 */
export function hostDeviceName(host: string, name: string): string {
  for (const p of [`${host}/`, `${host}\\`]) if (name.startsWith(p)) return name.slice(p.length);
  return name;
}

/** A host's devices among a fleet capture's (any list of named things), named as its own capture names them. */
export function hostDevices<T extends { name: string }>(devices: readonly T[], host: FleetHost): T[] {
  const own = new Set(host.devices);
  return devices.filter((d) => own.has(d.name)).map((d) => ({ ...d, name: hostDeviceName(host.host, d.name) }));
}

/**
 * A fleet capture restricted to one host: what an import of that host alone writes (the probe's
 * `--out-dir`): its devices with their roles, named without the host, their intervals (records,
 * columns and the one-device-at-a-time source alike), the capture's phases, the warnings about
 * its devices (and those about no device), and the host as the capture's hostname. The cache
 * engine's records and a trace prediction belong to a one-host recording, not to a fleet: none.
 * Pure; the intervals are not copied.
 */
export function hostCapture(data: CaptureData, host: FleetHost): CaptureData {
  const own = new Map(host.devices.map((d) => [d, hostDeviceName(host.host, d)]));
  const back = new Map([...own].map(([fleet, mine]) => [mine, fleet]));
  const rename = <T extends { device: string }>(x: T): T => ({ ...x, device: own.get(x.device) as string });
  const src = data.source;
  const source: ColumnSource | undefined = src === undefined ? undefined : {
    devices: src.devices.filter((e) => own.has(e.device)).map(rename),
    load: (device) => {
      const c = src.load(back.get(device) ?? `\u0000${device}`);
      return { ...c, device };
    },
  };
  return {
    ...data,
    host: { hostname: host.host, kernel: data.host.kernel },
    devices: hostDevices(data.devices, host),
    intervals: data.intervals.filter((r) => own.has(r.device)).map(rename),
    columns: data.columns?.filter((c) => own.has(c.device)).map(rename),
    source,
    warnings: data.warnings.filter((w) => w.device === undefined || own.has(w.device)).map((w) => (w.device === undefined ? w : rename(w as typeof w & { device: string }))),
    engine: undefined,
    prediction: null,
    traceLatency: null,
    // its volumes, named without the host as its devices are
    volumes: data.volumes?.filter((v) => hostDeviceName(host.host, v.volume) !== v.volume)
      .map((v) => ({ ...v, volume: hostDeviceName(host.host, v.volume), device: v.device === null ? null : (own.get(v.device) ?? null) })),
    // its layers, between its own devices, named as its devices are
    stack: data.stack?.filter((e) => own.has(e.holder) && own.has(e.slave)).map((e) => ({ ...e, holder: own.get(e.holder) as string, slave: own.get(e.slave) as string })),
  };
}

/**
 * The figures of one host in the fleet table, each the very value its dashboard shows: from the
 * before/after analysis, or (a log with no switch) from the workload profile of its window.
 */
export interface FleetFigures {
  kind: 'analysis' | 'profile';
  /** I/Os saved from the backing drives, percent (analysis only). */
  iosSavedPercent: number | null;
  /** Average response time at the application-facing devices, ms: before and after (a profile: its window, in `before`). */
  latencyBeforeMs: number | null;
  latencyAfterMs: number | null;
  /** I/Os per second the application-facing devices delivered, before and after (a profile: its window). */
  iopsBefore: number | null;
  iopsAfter: number | null;
  /** MB/s (10⁶ bytes) read and written at the application-facing devices, before and after. */
  mbpsBefore: number | null;
  mbpsAfter: number | null;
  /** Health against the latency targets: the baseline and the measure window (a profile: its window, in `healthBefore`). */
  healthBefore: HealthGrade;
  healthAfter: HealthGrade | null;
  /** The targets' preset (`generic`, `sqlserver-data`, … or `custom`). */
  healthPreset: string;
  /** Seconds of the window(s): baseline and measure (a profile: its window). */
  secondsBefore: number;
  secondsAfter: number | null;
}

/** A host's figures from its analysis (`cacheproof analyze --json` of its capture). */
export function fleetFiguresOfAnalysis(r: AnalysisReport): FleetFigures {
  const b = r.benefit;
  return {
    kind: 'analysis',
    iosSavedPercent: b.iosSavedPercent.value,
    latencyBeforeMs: b.latencyMs.before,
    latencyAfterMs: b.latencyMs.after,
    iopsBefore: b.deliveredIops.before,
    iopsAfter: b.deliveredIops.after,
    mbpsBefore: b.throughputMBps.before,
    mbpsAfter: b.throughputMBps.after,
    healthBefore: r.health.baseline.grade,
    healthAfter: r.health.measure.grade,
    healthPreset: r.health.preset,
    secondsBefore: r.windows.baseline.seconds,
    secondsAfter: r.windows.measure.seconds,
  };
}

/** A host's figures from its workload profile (a log with no switch): its one window. */
export function fleetFiguresOfProfile(p: WorkloadProfile): FleetFigures {
  const m = p.appFacing.means;
  return {
    kind: 'profile',
    iosSavedPercent: null,
    latencyBeforeMs: m.awaitMs,
    latencyAfterMs: null,
    iopsBefore: m.iops,
    iopsAfter: null,
    mbpsBefore: m.mbps,
    mbpsAfter: null,
    healthBefore: p.health.window.grade,
    healthAfter: null,
    healthPreset: p.health.preset,
    secondsBefore: p.window.seconds,
    secondsAfter: null,
  };
}
