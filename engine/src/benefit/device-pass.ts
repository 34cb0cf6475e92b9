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
  /** Called after the pass, in pass order, for each of `devices` that `claim` did not take. */
  get: (device: string) => DeviceSummaries;
  /**
   * Optional: called once when the pass reaches a device of `devices` with its columns loaded;
   * true when the other side has not begun it and the pass now summarizes it itself (no `get`
   * for it), so that the two sides share the devices as they go, whichever gets there first.
   */
  claim?: (device: string) => boolean;
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

/**
 * A device's window summaries read from a source: window by window when the source can
 * (`loadRange`: one window's intervals held at a time), else from the whole device. The same
 * summaries as {@link deviceWindowSummaries} of the whole device.
 */
export function sourceWindowSummaries(source: ColumnSource, device: string, windows: Record<Win, TimeWindow>): DeviceSummaries {
  const loadRange = source.loadRange;
  if (loadRange === undefined) return deviceWindowSummaries(source.load(device), windows);
  const one = (k: Win): WindowSummary => summarizeSeries(deviceWindowView(loadRange(device, windows[k]), windows[k]));
  return { baseline: one('baseline'), measure: one('measure') };
}

/** Stands in a device's entry until the summaries computed elsewhere replace it (never returned). */
const EMPTY = null as unknown as WindowSummary;

/** The devices in the order {@link analyze}'s pass visits them. */
export function passOrder(dev: AnalysisDevices): string[] {
  return [...dev.front, ...dev.backing, ...dev.cache, ...dev.other];
}

/** What the pass makes of a window's front and backing series once both are complete (analyze's window digest); the series are dropped after it. */
export type GroupDigest<T> = (k: Win, front: Series | null, backing: Series) => T;

/** What the one pass over the devices keeps: per-device window summaries and the digest of the analysed groups' series in each window. */
export interface DevicePass<T> {
  perDevice: DeviceWindows[];
  /** The digest of each window's front and backing series. */
  windows: Record<Win, T>;
  /** The front and backing groups' request sizes from the interval counters, per window (each member's intervals, metrics/request-size.ts). */
  sizes: { front: Record<Win, OpSizeCounts> | null; backing: Record<Win, OpSizeCounts> };
}

/** The state of one pass: the groups' builders and sizes, the per-device entries, the devices summarized elsewhere. */
interface PassState {
  dev: AnalysisDevices;
  wins: Record<Win, TimeWindow>;
  frontSet: ReadonlySet<string>;
  backingSet: ReadonlySet<string>;
  sizes: DevicePass<unknown>['sizes'];
  perDevice: DeviceWindows[];
  elsewhere: SummariesElsewhere | null;
  /** Whether each device reached so far is summarized elsewhere ({@link summarizedElsewhere}). */
  decided: Map<string, boolean>;
}

/** Whether the device's summaries come from elsewhere: one of the hook's devices that it did not let this pass claim (asked once, when the pass first reaches it). */
function summarizedElsewhere(st: PassState, name: string): boolean {
  let away = st.decided.get(name);
  if (away === undefined) {
    away = st.elsewhere?.devices.has(name) === true && st.elsewhere.claim?.(name) !== true;
    st.decided.set(name, away);
  }
  return away;
}

function passState(source: ColumnSource, dev: AnalysisDevices, wins: Record<Win, TimeWindow>, hooks: AnalyzeHooks): PassState {
  const sizesOf = (): Record<Win, OpSizeCounts> => ({ baseline: emptySizeCounts(), measure: emptySizeCounts() });
  return {
    dev, wins, frontSet: new Set(dev.front), backingSet: new Set(dev.backing),
    sizes: { front: dev.front.length > 0 ? sizesOf() : null, backing: sizesOf() },
    perDevice: [],
    decided: new Map(),
    elsewhere: hooks.summariesElsewhere?.(wins, passOrder(dev).filter((n) => dev.present.has(n))) ?? null,
  };
}

/** Window `k`'s builders of the front (null without front devices) and backing series. */
function windowBuilders(dev: AnalysisDevices, window: TimeWindow): { front: GroupSeriesBuilder | null; backing: GroupSeriesBuilder } {
  return { front: dev.front.length > 0 ? new GroupSeriesBuilder(window, dev.front.length) : null, backing: new GroupSeriesBuilder(window, dev.backing.length) };
}

/** A device's share of window `k`: joined into its group's builder and its group's request sizes. */
function addToGroup(st: PassState, name: string, c: DeviceColumns, k: Win, b: ReturnType<typeof windowBuilders>): void {
  const inFront = st.frontSet.has(name), inBacking = st.backingSet.has(name);
  const group = inFront ? b.front : inBacking ? b.backing : null;
  group?.add(c);
  const sized = inFront ? st.sizes.front : inBacking ? st.sizes.backing : null;
  if (sized !== null) addIntervalSizes(sized[k], c, st.wins[k]);
}

/** The per-device entries with the summaries computed elsewhere put in (in pass order, as the hook asks). */
function withElsewhere(st: PassState): DeviceWindows[] {
  if (st.elsewhere === null) return st.perDevice;
  const elsewhere = st.elsewhere;
  return st.perDevice.map((d) => {
    if (st.decided.get(d.device) !== true) return d;
    const sums = elsewhere.get(d.device);
    return { device: d.device, role: d.role, baseline: sums.baseline, measure: sums.measure };
  });
}

/**
 * Step 3: one pass over the devices, each loaded once and dropped: its window summaries, its
 * share of the front or backing group's series (joined member by member) and request sizes, and
 * the caller's hook; then each window's `digest` of the two groups' series.
 * When the source reads a device by window (`loadRange`) and no `onDevice` hook needs every
 * interval, the pass goes window by window ({@link windowByWindow}); else device by device
 * ({@link deviceByDevice}). The same result either way.
 */
export function devicePass<T>(source: ColumnSource, dev: AnalysisDevices, wins: Record<Win, TimeWindow>, hooks: AnalyzeHooks, digest: GroupDigest<T>): DevicePass<T> {
  return hooks.onDevice === undefined && source.loadRange !== undefined
    ? windowByWindow(source, passState(source, dev, wins, hooks), digest)
    : deviceByDevice(source, passState(source, dev, wins, hooks), hooks, digest);
}

/**
 * The pass device by device: each device loaded whole, once.
 * Memory: one device's intervals plus the analysed groups' slots in the two windows.
 */
function deviceByDevice<T>(source: ColumnSource, st: PassState, hooks: AnalyzeHooks, digest: GroupDigest<T>): DevicePass<T> {
  const { dev, wins } = st;
  const b = { baseline: windowBuilders(dev, wins.baseline), measure: windowBuilders(dev, wins.measure) };
  const visited = new Set<string>();
  const visit = (name: string): DeviceColumns => {
    visited.add(name);
    const c = dev.present.has(name) ? source.load(name) : allocColumns(name, 0);
    if (c.n > 0) hooks.onDevice?.(c);
    return c;
  };
  for (const name of passOrder(dev)) {
    const c = visit(name);
    const role = dev.roles.get(name) ?? 'other';
    const sums = summarizedElsewhere(st, name) ? { baseline: EMPTY, measure: EMPTY } : deviceWindowSummaries(c, wins);
    st.perDevice.push({ device: name, role, baseline: sums.baseline, measure: sums.measure });
    for (const k of WINS) addToGroup(st, name, c, k, b[k]);
  }
  // devices with intervals but no role entry are in `other` already; any left (none today) still reach the hook
  for (const d of source.devices) if (d.n > 0 && !visited.has(d.device)) visit(d.device);
  const windows = {
    baseline: digest('baseline', b.baseline.front?.finish() ?? null, b.baseline.backing.finish()),
    measure: digest('measure', b.measure.front?.finish() ?? null, b.measure.backing.finish()),
  };
  return { perDevice: withElsewhere(st), windows, sizes: st.sizes };
}

/**
 * The pass window by window: each device's intervals of the baseline read (`loadRange`),
 * summarized and joined, then the baseline's digest, its series dropped; then the same for the
 * measure window. Memory: one device's intervals of one window plus the analysed groups' slots
 * in one window.
 */
function windowByWindow<T>(source: ColumnSource, st: PassState, digest: GroupDigest<T>): DevicePass<T> {
  const { dev, wins } = st;
  const loadRange = source.loadRange as NonNullable<ColumnSource['loadRange']>;
  const names = passOrder(dev);
  for (const name of names) st.perDevice.push({ device: name, role: dev.roles.get(name) ?? 'other', baseline: EMPTY, measure: EMPTY });
  const digestOf = (k: Win): T => {
    const b = windowBuilders(dev, wins[k]);
    names.forEach((name, at) => {
      const away = summarizedElsewhere(st, name);
      // a device summarized elsewhere and in neither group has nothing to do here: not read
      if (away && !st.frontSet.has(name) && !st.backingSet.has(name)) return;
      const c = dev.present.has(name) ? loadRange(name, wins[k]) : allocColumns(name, 0);
      if (!away) (st.perDevice[at] as DeviceWindows)[k] = summarizeSeries(deviceWindowView(c, wins[k]));
      addToGroup(st, name, c, k, b);
    });
    return digest(k, b.front?.finish() ?? null, b.backing.finish());
  };
  const baseline = digestOf('baseline');
  const measure = digestOf('measure');
  return { perDevice: withElsewhere(st), windows: { baseline, measure }, sizes: st.sizes };
}
