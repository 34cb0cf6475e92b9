import type { CostStackId } from '../plan/result.ts';

/**
 * What each colour means, everywhere a series is drawn (the dashboard, the live screen, the
 * report's SVG charts and its PowerPoint chart): a chart series carries one of these indices into
 * the app's one palette (app/src/shared/palette.ts, Okabe–Ito), never a hue of its own. A colour is
 * never the only carrier of meaning: every series also has its name in the legend, and a second
 * device of the same role is dashed.
 */
export const COLOR = {
  /** Application-facing (front) devices. */
  front: 0,
  /** Backing drives. */
  backing: 1,
  /** Cache devices. */
  cache: 2,
  /** Devices of no role. */
  other: 3,
  /** The baseline window (cache off): before/after bars and the shaded baseline. */
  before: 4,
  /** The measure window (cache on). */
  after: 5,
  /** Categories that are neither a role nor a window (a marked point, the −20 % side of a sensitivity bar). */
  category1: 6,
  /** A second such category (the chosen size on the miss-ratio curve, the +20 % side). */
  category2: 7,
  /** Cost items of a TCO chart (plan `COST_STACKS`), a sand-to-brown ramp used for nothing else: system, cache and licence… */
  costPurchase: 8,
  /** …the backing drives… */
  costDrives: 9,
  /** …enclosures… */
  costEnclosures: 10,
  /** …power and cooling… */
  costPower: 11,
  /** …failures and wear-out… */
  costFailures: 12,
  /** …and support. */
  costSupport: 13,
  /**
   * TCO configurations, by their place in the scenario (the Planner's cost, cumulative and spindle
   * charts, the report's TCO charts): six hues used for nothing else, so no two configurations of a
   * chart share a colour (a seventh and beyond repeat them, dashed).
   */
  config0: 14,
  config1: 15,
  config2: 16,
  config3: 17,
  config4: 18,
  config5: 19,
} as const;

/** The configuration colours in order ({@link configColor}). */
export const CONFIG_COLORS = [COLOR.config0, COLOR.config1, COLOR.config2, COLOR.config3, COLOR.config4, COLOR.config5] as const;

/** The colour of a TCO cost stack (plan `COST_STACKS`). */
export const COST_COLOR = {
  purchase: COLOR.costPurchase, drives: COLOR.costDrives, enclosures: COLOR.costEnclosures,
  power: COLOR.costPower, failures: COLOR.costFailures, support: COLOR.costSupport,
} as const satisfies Record<CostStackId, number>;

/**
 * The colour of the scenario's `index`th TCO configuration: each of the first six its own hue (a
 * configuration is not a device role, so it never takes the front's, backing's or cache's colour).
 */
export function configColor(index: number): number {
  return CONFIG_COLORS[((index % CONFIG_COLORS.length) + CONFIG_COLORS.length) % CONFIG_COLORS.length] as number;
}

/** Whether the `index`th configuration's line is dashed: it repeats the colour of an earlier one (beyond six). */
export function configDashed(index: number): boolean {
  return index >= CONFIG_COLORS.length;
}

/**
 * Lines that may coincide (the backing drives' and the front's before the switch, when the backing
 * drives carry the front's I/O) are drawn the same way everywhere: the backing line wide and
 * beneath, the front line narrow and on top, so both stay visible where their values are equal.
 * The width, px, of the line beneath on paper (the report's SVG and the PowerPoint chart, in pt):
 * three times the normal 1.4 px.
 */
export const UNDER_WIDTH = 4.2;

/**
 * The same on screen (the dashboard's time charts, where lines are 2 px): the front line's width
 * and the backing line's beneath it (also dashed there, the screen's second cue).
 */
export const SCREEN_LINE_WIDTH = 2;
export const SCREEN_UNDER_WIDTH = 5;

/** The colour index of a device role. */
export function roleColor(role: string): number {
  return role === 'front' ? COLOR.front : role === 'backing' ? COLOR.backing : role === 'cache' ? COLOR.cache : COLOR.other;
}

/**
 * The line of each replacement policy on the miss-ratio curve (the dashboard and the report):
 * LRU keeps the front's colour (it is the front devices' reads), the other policies take the
 * palette's remaining hues as categories, and the chosen size stays `category2`. Each line also
 * has its own dash pattern ({@link policyDash}) and its name in the legend.
 */
export const POLICY_COLOR: Readonly<Record<string, number>> = { lru: COLOR.front, fifo: COLOR.category1, clock: COLOR.cache, arc: COLOR.other, '2q': COLOR.after, s3fifo: COLOR.backing };

/** The colour index of a policy's curve. */
export function policyColor(policy: string): number {
  return POLICY_COLOR[policy] ?? COLOR.other;
}

/** The dash pattern of a policy's curve (px on, px off; solid for LRU). */
export function policyDash(policy: string): number[] {
  const order = ['lru', 'fifo', 'clock', 'arc', '2q', 's3fifo'];
  const i = Math.max(0, order.indexOf(policy));
  return [[], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [10, 4]][i] ?? [];
}
