/**
 * Every chart's axis titles, beside its canvas after each draw (`data-axes`): per scale with a
 * title shown, its text (one entry per line), the font Chart.js draws it in and the length of its
 * axis. Chart.js neither wraps nor shortens an axis title, so one longer than its axis is cut at the
 * canvas edge or runs into the next chart: the e2e specs measure each line against that room.
 */
import type { Plugin } from 'chart.js';
import { toFont } from 'chart.js/helpers';

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
    for (const s of Object.values(chart.scales)) {
      const t = (s.options as { title?: { display?: boolean; text?: string | string[]; font?: Parameters<typeof toFont>[0] } }).title;
      if (t?.display !== true || t.text === undefined || t.text === '') continue;
      const lines = Array.isArray(t.text) ? t.text.map(String) : [String(t.text)];
      titles.push({ scale: s.id, lines, font: toFont(t.font ?? {}).string, room: s.isHorizontal() ? s.right - s.left : s.bottom - s.top });
    }
    chart.canvas.dataset['axes'] = JSON.stringify(titles);
  },
};
