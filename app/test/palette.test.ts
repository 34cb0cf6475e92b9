/**
 * One palette (app/src/shared/palette.ts): the renderer and the report draw from the same array,
 * indexed by the engine's meanings (engine/src/report/colors.ts), and the shaded windows never
 * take a series' hue.
 */
import { describe, expect, it } from 'vitest';
import { COLOR, COST_COLOR, configColor } from '@cacheproof/engine/report';
import { COST_STACKS, LINE_IDS } from '@cacheproof/engine/plan';
import { PALETTE, PHASE_TINT, paletteColor } from '../src/shared/palette.ts';
import { REPORT_PALETTE, color } from '../src/shared/chart-svg.ts';

describe('the one palette', () => {
  it('gives each meaning its own colour, the same for the report', () => {
    expect(REPORT_PALETTE).toBe(PALETTE);
    const meanings = Object.values(COLOR).map((i) => paletteColor(i));
    expect(new Set(meanings).size).toBe(meanings.length);
    expect(paletteColor(COLOR.front)).toBe('#0072B2');
    expect(paletteColor(COLOR.backing)).toBe('#D55E00');
    for (const i of Object.values(COLOR)) expect(color(i)).toBe(paletteColor(i));
  });
  it('shades the windows in tints that are not a device role\'s hue', () => {
    const rgb = (hex: string): string => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ');
    const roles = [COLOR.front, COLOR.backing, COLOR.cache, COLOR.other].map((i) => rgb(paletteColor(i)));
    for (const tint of Object.values(PHASE_TINT)) for (const t of [tint.light, tint.dark]) for (const r of roles) expect(t).not.toContain(r);
    expect(PHASE_TINT.measure.light).toContain(rgb(paletteColor(COLOR.after)));
  });
  it('colours TCO configurations by what they are and cost items by the cost ramp, never by their order', () => {
    // a configuration with a cache is the cache's colour, one without the backing drives'
    expect(configColor('hdd-cache')).toBe(COLOR.cache);
    expect(configColor('flash-cache')).toBe(COLOR.cache);
    expect(configColor('all-hdd')).toBe(COLOR.backing);
    expect(configColor('all-flash')).toBe(COLOR.backing);
    // every cost stack has a colour of its own, none of them a role's, a window's or a category's
    const costs = COST_STACKS.map((st) => paletteColor(COST_COLOR[st.id]));
    expect(new Set(costs).size).toBe(COST_STACKS.length);
    const others = [COLOR.front, COLOR.backing, COLOR.cache, COLOR.other, COLOR.before, COLOR.after, COLOR.category1, COLOR.category2].map((i) => paletteColor(i));
    for (const c of costs) expect(others).not.toContain(c);
    // the ramp goes from light to dark in stack order (told apart by lightness, colour-blind safe)
    const luminance = (hex: string): number => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).reduce((a, v, i) => a + v * ([0.2126, 0.7152, 0.0722][i] as number), 0);
    const l = costs.map(luminance);
    for (let i = 1; i < l.length; i++) expect(l[i], costs[i]).toBeLessThan(l[i - 1] as number);
    // every line item is in exactly one stack (the Planner's bars and the report's add up to the same totals)
    const ids = COST_STACKS.flatMap((st) => [...st.lines]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(LINE_IDS));
  });
});
