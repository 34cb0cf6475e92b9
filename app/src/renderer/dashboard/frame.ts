/**
 * One chart figure of the dashboard (title with its definition, canvas, text summary for
 * screen readers) and the scheduler that draws the charts, as many per task as fit in 30 ms,
 * after the screen is in the document, then sets the performance mark `cacheproof:dashboard-drawn` once the last
 * chart has drawn for the first time.
 */
import { Chart, type Plugin } from 'chart.js';
import { chartCsv, chartPng, chartSvgDocument, download, type ChartExportFormat } from '../chart-export.ts';
import { cssVar } from '../charts.ts';
import { el } from '../dom.ts';
import { PALETTE } from '../../shared/palette.ts';
import { themedPalette } from '../theme.ts';
import type { Words } from './text.ts';

/**
 * "Export: PNG · SVG · CSV" under a chart's title (chart-export.ts): the chart as drawn, its SVG
 * redrawn by the report's renderer, or its series. Test ids `${testId}-export-png|svg|csv`.
 */
function exportControls(canvas: HTMLCanvasElement, summary: HTMLElement, testId: string, title: string, w: Words): HTMLElement {
  const status = el('span', { class: 'dash-help', role: 'status' });
  const run = async (format: ChartExportFormat): Promise<void> => {
    const chart = Chart.getChart(canvas);
    if (chart === undefined) return;
    const meta = { id: testId, title, summary: summary.textContent ?? '' };
    const stem = `cacheproof-${testId.replace(/^chart-/u, '')}`;
    try {
      if (format === 'csv') download(`${stem}.csv`, new Blob(['\ufeff', chartCsv(chart)], { type: 'text/csv;charset=utf-8' }));
      else if (format === 'svg') download(`${stem}.svg`, new Blob([chartSvgDocument(chart, meta, w.lang, [PALETTE, themedPalette()])], { type: 'image/svg+xml' }));
      else download(`${stem}.png`, await chartPng(chart, title, cssVar('--bg', '#ffffff'), cssVar('--fg', '#111111')));
      status.textContent = w.d('export.done', { format: format.toUpperCase() });
    } catch (err) {
      status.textContent = w.d('export.failed', { format: format.toUpperCase(), reason: (err as Error).message });
    }
  };
  const button = (format: ChartExportFormat): HTMLButtonElement => {
    const b = el('button', { type: 'button', 'data-testid': `${testId}-export-${format}`, 'aria-label': w.d('export.as', { title, format: format.toUpperCase() }) }, format.toUpperCase());
    b.addEventListener('click', () => void run(format));
    return b;
  };
  return el('div', { class: 'dash-export', role: 'group', 'aria-label': w.d('export.group', { title }) }, el('span', { class: 'dash-help' }, w.d('export.label')), button('png'), button('svg'), button('csv'), status);
}

export interface Figure {
  node: HTMLElement;
  canvas: HTMLCanvasElement;
  summary: HTMLElement;
  /** Where a figure puts its own controls (zoom buttons, a figure selector) or notes. */
  tools: HTMLElement;
  notes: HTMLElement;
}

let seq = 0;

/**
 * A figure: `testId` on the chart box (which holds the canvas); the summary gets
 * `summaryTestId` (default `${testId}-summary`).
 */
export function figure(testId: string, title: string, definition: string, summaryTestId = `${testId}-summary`, w?: Words): Figure {
  const id = `dash-fig-${++seq}`;
  const canvas = el('canvas', { role: 'img', 'aria-label': title, 'aria-describedby': `${id}-sum` });
  const summary = el('p', { class: 'sr-summary', id: `${id}-sum`, 'data-testid': summaryTestId });
  const tools = el('div', { class: 'dash-tools' });
  if (w !== undefined) tools.append(exportControls(canvas, summary, testId, title, w));
  const notes = el('div', { class: 'dash-notes' });
  const node = el('figure', { class: 'dash-figure', 'aria-labelledby': `${id}-title` },
    el('figcaption', {},
      el('h4', { id: `${id}-title`, title: definition }, title),
      el('p', { class: 'dash-def' }, definition)),
    tools,
    notes,
    el('div', { class: 'chart-box', 'data-testid': testId }, canvas),
    summary);
  return { node, canvas, summary, tools, notes };
}

/** How long the scheduler draws charts before it yields to the browser, ms (a chart is never cut: one task is at most this plus a chart). */
const TASK_BUDGET_MS = 30;

/** Draws charts a few per task (no long task), tracks their first draws, and destroys them on dispose. */
export class ChartScheduler {
  private charts: Chart[] = [];
  private timers: number[] = [];
  private pending = 0;
  private disposed = false;
  private tasks: { canvas: HTMLCanvasElement; draw: (firstDraw: Plugin) => Chart }[] = [];

  constructor(private readonly onAllDrawn: () => void) {}

  /** Queues a chart; `draw` must pass the given plugin in the chart's `plugins`. */
  add(canvas: HTMLCanvasElement, draw: (firstDraw: Plugin) => Chart): void {
    this.tasks.push({ canvas, draw });
  }

  /** Starts drawing once the screen has been laid out (Chart.js sizes the canvas from its box). */
  start(): void {
    this.pending = this.tasks.length;
    if (this.pending === 0) {
      this.onAllDrawn();
      return;
    }
    const drawOne = (i: number): void => {
      const task = this.tasks[i] as (typeof this.tasks)[number];
      if (task.canvas.isConnected) {
        let seen = false;
        const firstDraw: Plugin = {
          id: 'cacheproofFirstDraw',
          afterRender: () => {
            if (seen) return;
            seen = true;
            if (--this.pending === 0) this.onAllDrawn();
          },
        };
        this.charts.push(task.draw(firstDraw));
      } else if (--this.pending === 0) this.onAllDrawn();
    };
    // As many charts per task as fit in TASK_BUDGET_MS, then a yield (input, a frame): one chart a
    // task made the browser produce a frame between every two charts
    const run = (i: number): void => {
      if (this.disposed) return;
      const start = performance.now();
      let k = i;
      while (k < this.tasks.length && (k === i || performance.now() - start < TASK_BUDGET_MS)) drawOne(k++);
      if (k < this.tasks.length) this.timers.push(window.setTimeout(() => run(k), 0));
    };
    requestAnimationFrame(() => run(0));
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const c of this.charts) c.destroy();
    this.charts = [];
  }
}
