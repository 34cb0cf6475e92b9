/**
 * One chart figure of the dashboard (title with its definition, canvas, text summary for
 * screen readers) and the scheduler that draws the charts one task each after the screen is
 * in the document, then sets the performance mark `cacheproof:dashboard-drawn` once the last
 * chart has drawn for the first time.
 */
import type { Chart, Plugin } from 'chart.js';
import { el } from '../dom.ts';

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
export function figure(testId: string, title: string, definition: string, summaryTestId = `${testId}-summary`): Figure {
  const id = `dash-fig-${++seq}`;
  const canvas = el('canvas', { role: 'img', 'aria-label': title, 'aria-describedby': `${id}-sum` });
  const summary = el('p', { class: 'sr-summary', id: `${id}-sum`, 'data-testid': summaryTestId });
  const tools = el('div', { class: 'dash-tools' });
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

/** Draws charts one per task (no long task), tracks their first draws, and destroys them on dispose. */
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
    const run = (i: number): void => {
      const task = this.tasks[i];
      if (this.disposed || !task) return;
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
      this.timers.push(window.setTimeout(() => run(i + 1), 0));
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
