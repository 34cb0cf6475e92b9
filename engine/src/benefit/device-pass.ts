/**
 * Step 3 of {@link analyze} (benefit/analyze.ts): the one pass over the devices, each loaded once
 * and dropped, and the hooks a caller gets into it.
 */
import type { Series } from '../metrics/series.ts';
import { deviceWindowView, GroupSeriesBuilder } from '../metrics/series.ts';
import type { WindowSummary } from '../metrics/summary.ts';
import { summarizeSeries } from '../metrics/summary.ts';
import type { DeviceColumns } from '../records/columns.ts';
import { allocColumns } from '../records/columns.ts';
import type { ColumnSource } from '../records/source.ts';
import type { TimeWindow } from '../records/window.ts';
import type { DeviceWindows } from './result.ts';
import { addIntervalSizes, emptySizeCounts, type OpSizeCounts } from '../metrics/request-size.ts';
import type { AnalysisDevices } from './analyze.ts';

type Win = 'baseline' | 'measure';
const WINS: readonly Win[] = ['baseline', 'measure'];

/** Hooks into {@link analyze}'s one pass over the devices (not part of the analysis options). */
export interface AnalyzeHooks {
  /** Called once the front and backing devices are resolved, before the pass over the devices. */
  beforePass?: (devices: { front: readonly string[]; backing: readonly string[] }) => void;
  /**
   * Called once with each device's columns while the pass holds them (every device of the
   * capture with intervals, analysed or not), before they are dropped: what else needs every
   * interval (the chart lines' bucket sums) is computed here, without a second read.
   */
  onDevice?: (columns: DeviceColumns) => void;
  /**
   * Window summaries of some devices computed elsewhere (the host's second thread, while this
   * one reads the devices and joins the groups): called once before the pass with the two windows
   * and the devices with intervals in pass order; returns the devices it takes and how to get
   * each one's {@link deviceWindowSummaries} (called after the pass, in pass order), or null to
   * compute every device here. What it gives must be what `deviceWindowSummaries` gives.
   */
  summariesElsewhere?: (windows: Record<Win, TimeWindow>, devices: readonly string[]) => SummariesElsewhere | null;
}

/** The devices whose summaries {@link AnalyzeHooks.summariesElsewhere} gives, and how to get them. */
export interface SummariesElsewhere {
  devices: ReadonlySet<string>;
  get: (device: string) => DeviceSummaries;
}

/** A device's summaries over the two analysed windows. */
export type DeviceSummaries = Record<Win, WindowSummary>;

/** A device's window summaries: engine `summarizeSeries` of its intervals in each window, read in place (`deviceWindowView`; what {@link devicePass} keeps per device). */
export function deviceWindowSummaries(c: DeviceColumns, windows: Record<Win, TimeWindow>): DeviceSummaries {
  return {
    baseline: summarizeSeries(deviceWindowView(c, windows.baseline)),
    measure: summarizeSeries(deviceWindowView(c, windows.measure)),
  };
}

/** Stands in a device's entry until the summaries computed elsewhere replace it (never returned). */
const EMPTY = null as unknown as WindowSummary;

/** The devices in the order {@link analyze}'s pass visits them. */
export function passOrder(dev: AnalysisDevices): string[] {
  return [...dev.front, ...dev.backing, ...dev.cache, ...dev.other];
}

/** What the one pass over the devices keeps: per-device window summaries and the analysed groups' series. */
export interface DevicePass {
  perDevice: DeviceWindows[];
  front: Record<Win, Series | null>;
  backing: Record<Win, Series>;
  /** The front and backing groups' request sizes from the interval counters, per window (each member's intervals, metrics/request-size.ts). */
  sizes: { front: Record<Win, OpSizeCounts> | null; backing: Record<Win, OpSizeCounts> };
}

/**
 * Step 3: one pass over the devices, each loaded once and dropped: its window summaries, its
 * share of the front or backing group's series (joined member by member) and request sizes, and
 * the caller's hook.
 * Memory: one device's intervals plus the analysed groups' slots in the two windows.
 */
export function devicePass(source: ColumnSource, dev: AnalysisDevices, wins: Record<Win, TimeWindow>, hooks: AnalyzeHooks): DevicePass {
  const builders = (names: readonly string[]): Record<Win, GroupSeriesBuilder> =>
    ({ baseline: new GroupSeriesBuilder(wins.baseline, names.length), measure: new GroupSeriesBuilder(wins.measure, names.length) });
  const frontB = dev.front.length > 0 ? builders(dev.front) : null;
  const backingB = builders(dev.backing);
  const frontSet = new Set(dev.front), backingSet = new Set(dev.backing);
  const sizesOf = (): Record<Win, OpSizeCounts> => ({ baseline: emptySizeCounts(), measure: emptySizeCounts() });
  const sizes = { front: dev.front.length > 0 ? sizesOf() : null, backing: sizesOf() };
  const perDevice: DeviceWindows[] = [];
  const allNames = passOrder(dev);
  const visited = new Set<string>();
  const visit = (name: string): DeviceColumns => {
    visited.add(name);
    const c = dev.present.has(name) ? source.load(name) : allocColumns(name, 0);
    if (c.n > 0) hooks.onDevice?.(c);
    return c;
  };
  const elsewhere = hooks.summariesElsewhere?.(wins, allNames.filter((n) => dev.present.has(n))) ?? null;
  const later: { at: number; name: string }[] = [];
  for (const name of allNames) {
    const c = visit(name);
    const role = dev.roles.get(name) ?? 'other';
    if (elsewhere?.devices.has(name) === true) {
      later.push({ at: perDevice.length, name });
      perDevice.push({ device: name, role, baseline: EMPTY, measure: EMPTY });
    } else {
      const sums = deviceWindowSummaries(c, wins);
      perDevice.push({ device: name, role, baseline: sums.baseline, measure: sums.measure });
    }
    const group = frontSet.has(name) ? frontB : backingSet.has(name) ? backingB : null;
    if (group !== null) for (const k of WINS) group[k].add(c);
    const sized = frontSet.has(name) ? sizes.front : backingSet.has(name) ? sizes.backing : null;
    if (sized !== null) for (const k of WINS) addIntervalSizes(sized[k], c, wins[k]);
  }
  // devices with intervals but no role entry are in `other` already; any left (none today) still reach the hook
  for (const d of source.devices) if (d.n > 0 && !visited.has(d.device)) visit(d.device);
  for (const { at, name } of later) {
    const sums = (elsewhere as SummariesElsewhere).get(name);
    perDevice[at] = { device: name, role: (perDevice[at] as DeviceWindows).role, baseline: sums.baseline, measure: sums.measure };
  }
  return {
    perDevice,
    front: { baseline: frontB?.baseline.finish() ?? null, measure: frontB?.measure.finish() ?? null },
    backing: { baseline: backingB.baseline.finish(), measure: backingB.measure.finish() },
    sizes,
  };
}

