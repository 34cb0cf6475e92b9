/**
 * Every chart's axis titles, beside its canvas after each draw (`data-axes`): per scale with a
 * title shown, its text (one entry per line), the font Chart.js draws it in and the length of its
 * axis. Chart.js neither wraps nor shortens an axis title, so one longer than its axis is cut at the
 * canvas edge or runs into the next chart: one longer than its axis is drawn again on two lines, and
 * the e2e specs measure each line against that room.
 */
import type { Plugin } from 'chart.js';
import { toFont } from 'chart.js/helpers';
import { twoLines } from './draw/title-lines.ts';

export interface AxisTitle {
  scale: string;
  lines: string[];
  /** The CSS font Chart.js draws the title in. */
  font: string;
  /** The axis length (px): the height of a vertical scale, the width of a horizontal one. */
  room: number;
}


export const axisTitles: Plugin = {
  id: 'axisTitles',
  afterDraw(chart) {
    const titles: AxisTitle[] = [];
    let wrapped = false;
    for (const s of Object.values(chart.scales)) {
      const t = (s.options as { title?: { display?: boolean; text?: string | string[]; font?: Parameters<typeof toFont>[0] } }).title;
      if (t?.display !== true || t.text === undefined || t.text === '') continue;
      const lines = Array.isArray(t.text) ? t.text.map(String) : [String(t.text)];
      const font = toFont(t.font ?? {}).string;
      const room = s.isHorizontal() ? s.right - s.left : s.bottom - s.top;
      // a one-line title longer than its axis (a long word in a short chart: Russian, a legend of
      // several rows) is drawn again on two lines, each about half as long
      chart.ctx.save();
      chart.ctx.font = font;
      const split = lines.length === 1 && chart.ctx.measureText(lines[0] as string).width > room ? twoLines(lines[0] as string) : null;
      chart.ctx.restore();
      const own = (chart.options.scales?.[s.id] as { title?: { text?: string | string[] } } | undefined)?.title;
      if (split !== null && own !== undefined) {
        own.text = split;
        wrapped = true;
      }
      titles.push({ scale: s.id, lines, font, room });
    }
    chart.canvas.dataset['axes'] = JSON.stringify(titles);
    // (unless the chart was destroyed meanwhile: Chart.js then drops its context)
    if (wrapped) queueMicrotask(() => { if ((chart as { ctx: unknown }).ctx) chart.update('none'); });
  },
};
