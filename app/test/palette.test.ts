/**
 * One palette (app/src/shared/palette.ts): the renderer and the report draw from the same array,
 * indexed by the engine's meanings (engine/src/report/colors.ts), and the shaded windows never
 * take a series' hue.
 */
import { describe, expect, it } from 'vitest';
import { COLOR } from '@cacheproof/engine/report';
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
});
