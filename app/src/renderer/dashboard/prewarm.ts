/**
 * While the host analyses a capture being opened, the window has nothing to do: it draws one
 * throwaway line chart on a time axis and one bar chart on a canvas outside the document and
 * destroys them, so that the code the dashboard's charts run (Chart.js, its time adapter, the
 * app's plugins) is compiled before the analysis arrives. Measured with bench/dashboard: the first
 * charts of a dashboard cost several times the later ones in a fresh window, most of it compiling.
 * Its colours are the palette's, as every chart module's (app/test/palette.test.ts). Nothing of it
 * is shown or kept; it runs once per window, on two tasks of its own after the open
 * request has gone.
 */
import { Chart } from 'chart.js';
import { paletteColor } from '../../shared/palette.ts';
import { el } from '../dom.ts';

let warmed = false;

/** The data of the throwaway charts: a few points a minute apart (no figure of any capture). */
const LINE_POINTS = [
  { x: 1_700_000_000_000, y: 1 }, { x: 1_700_000_060_000, y: 3 }, { x: 1_700_000_120_000, y: 2 }, { x: 1_700_000_180_000, y: 4 },
];

function throwaway(draw: (canvas: HTMLCanvasElement) => Chart): void {
  const canvas = el('canvas', { width: '640', height: '320' });
  draw(canvas).destroy();
}

/** The throwaway line chart: a time axis, a dashed line, decimation on (as the dashboard's time charts). */
function warmLine(): void {
  throwaway((canvas) => new Chart(canvas, {
    type: 'line',
    data: { datasets: [{ label: 'warm-up', data: LINE_POINTS, pointRadius: 0, borderDash: [6, 3], borderColor: paletteColor(0) }] },
    options: {
      animation: false, parsing: false, normalized: true, responsive: false,
      scales: { x: { type: 'time', title: { display: true, text: 'time' } }, y: { type: 'linear', beginAtZero: true, title: { display: true, text: 'y' } } },
      plugins: { legend: { position: 'bottom' }, decimation: { enabled: true, algorithm: 'lttb', samples: 800, threshold: 1000 } },
    },
  }));
}

/** The throwaway bar chart (as the dashboard's before/after figures). */
function warmBars(): void {
  throwaway((canvas) => new Chart(canvas, {
    type: 'bar',
    data: { labels: ['a', 'b'], datasets: [{ label: 'warm-up', data: [1, 2], backgroundColor: paletteColor(0) }] },
    options: { animation: false, responsive: false, plugins: { legend: { position: 'bottom' } } },
  }));
}

/**
 * Draws and destroys the throwaway charts once per window, each on a task of its own (a reply
 * that arrives meanwhile waits for one throwaway chart at most).
 */
export function prewarmCharts(): void {
  if (warmed) return;
  warmed = true;
  const step = (warm: () => void): void => {
    try {
      warm();
    } catch {
      // a warm-up only: the dashboard draws its charts whatever happens here
    }
  };
  setTimeout(() => {
    step(warmLine);
    setTimeout(() => step(warmBars), 0);
  }, 0);
}
