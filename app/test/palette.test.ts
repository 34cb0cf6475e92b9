/**
 * One palette (app/src/shared/palette.ts): the renderer and the report draw from the same array,
 * indexed by the engine's meanings (engine/src/report/colors.ts), and the shaded windows never
 * take a series' hue.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COLOR, CONFIG_COLORS, COST_COLOR, configColor, configDashed } from '@cacheproof/engine/report';
import { COST_STACKS, LINE_IDS } from '@cacheproof/engine/plan';
import { PALETTE, PHASE_TINT, TARGET_LINE, paletteColor } from '../src/shared/palette.ts';
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
  it('gives each TCO configuration a colour of its own and cost items the cost ramp', () => {
    // six configurations, six colours, none of them a role's, a window's, a category's or a cost item's
    const configs = CONFIG_COLORS.map((_, i) => paletteColor(configColor(i)));
    expect(new Set(configs).size).toBe(CONFIG_COLORS.length);
    const notConfig = Object.entries(COLOR).filter(([k]) => !k.startsWith('config')).map(([, i]) => paletteColor(i));
    for (const c of configs) expect(notConfig).not.toContain(c);
    expect(CONFIG_COLORS.every((_, i) => !configDashed(i))).toBe(true);
    // a seventh repeats the first's colour, dashed
    expect(configColor(CONFIG_COLORS.length)).toBe(configColor(0));
    expect(configDashed(CONFIG_COLORS.length)).toBe(true);
    expect(TARGET_LINE).not.toBe(paletteColor(COLOR.backing));
    expect(PALETTE.map((c) => c.toUpperCase())).not.toContain(TARGET_LINE.toUpperCase());
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
  it('is where every chart module takes its colours from: no chart draws a hue of its own', () => {
    const root = resolve(__dirname, '../..');
    const files = (dir: string): string[] => readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []);
    const all = [...files('app/src/renderer'), ...files('app/src/host/report'), ...files('app/src/shared'), ...files('engine/src/report')]
      .filter((f) => !f.includes('/i18n/') && !/(palette|colors|types)\.ts$/u.test(f));
    const read = (f: string): string => readFileSync(join(root, f), 'utf8');
    // the modules that draw charts: Chart.js canvases, the report's chart specs and its SVG/PPTX drawing
    const chartModules = all.filter((f) => /new Chart(<|\()|kind: '(line|bar|stacked-bar)'|addChart\(|<path class="series"/u.test(read(f)));
    expect(chartModules.length).toBeGreaterThanOrEqual(10);
    for (const f of chartModules) {
      const src = read(f);
      // a series' colour is a palette index by meaning (engine colors.ts) or the palette's colour of one
      expect(/palette\.ts'|from '\.\/colors\.ts'|@cacheproof\/engine\/report'/u.test(src), `${f} takes its colours from the palette`).toBe(true);
      expect(src, `${f}: a series colour given as a bare number`).not.toMatch(/\bcolor: \d/u);
      // any colour written in the module is a neutral grey (axes, text, backgrounds): every hue is the palette's
      for (const lit of src.match(/#[0-9a-f]{6}\b|#[0-9a-f]{3}\b|rgba?\([\d ,.]+\)/giu) ?? []) {
        const rgb = lit.startsWith('#')
          ? (lit.length === 4 ? [1, 2, 3].map((k) => parseInt((lit[k] as string).repeat(2), 16)) : [1, 3, 5].map((k) => parseInt(lit.slice(k, k + 2), 16)))
          : (lit.match(/[\d.]+/gu) ?? []).slice(0, 3).map(Number);
        expect(Math.max(...rgb) - Math.min(...rgb), `${f}: ${lit} is a hue outside the palette`).toBeLessThanOrEqual(24);
      }
    }
  });
});
