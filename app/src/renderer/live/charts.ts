/**
 * The Live screen's three charts (IOPS, MB/s, latency; one line per recorded device) and their
 * text summaries. Points arrive from `run.series` as interval end times (UTC ms) with the
 * engine's iostat figures; the caller decides which window they cover (the last hour while
 * live, an earlier hour when the person scrolls back).
 */
import { Chart, type TooltipItem } from 'chart.js';
import type { LiveSeries } from '../../shared/contract.ts';
import { live, type LiveKey } from '../../shared/i18n/live.ts';
import { LOCALE, translate, type Lang } from '../../shared/i18n/types.ts';
import { cssVar, firstLayoutPadding } from '../charts.ts';
import { wholeSecondTicks } from '@cacheproof/engine';
import { roleColor } from '@cacheproof/engine/report';
import { PHASE_TINT, paletteColor } from '../../shared/palette.ts';
import { el } from '../dom.ts';
import { fmtNumber, fmtTime } from '../format.ts';

export type Metric = 'iops' | 'mbps' | 'latencyMs';

/** One device's points in the window shown. */
export interface DeviceBuffer {
  device: string;
  role: string;
  t: number[];
  iops: (number | null)[];
  mbps: (number | null)[];
  latencyMs: (number | null)[];
  /** The device's means over the hour shown, from the host (the engine's window summary): never averaged here. */
  means: LiveSeries['series'][number]['means'];
}

export interface ChartSpec {
  metric: Metric;
  testId: string;
  title: LiveKey;
  unit: LiveKey;
  axis: LiveKey;
  /** Decimals for a value, by its size whatever its sign. */
  digits: (v: number) => number;
}

export const CHARTS: readonly ChartSpec[] = [
  { metric: 'iops', testId: 'live-chart-iops', title: 'chart.iops', unit: 'unit.iops', axis: 'axis.iops', digits: (v) => (v > -10 && v < 10 ? 1 : 0) },
  { metric: 'mbps', testId: 'live-chart-mbps', title: 'chart.mbps', unit: 'unit.mbps', axis: 'axis.mbps', digits: (v) => (v > -10 && v < 10 ? 2 : 1) },
  { metric: 'latencyMs', testId: 'live-chart-latency', title: 'chart.latency', unit: 'unit.ms', axis: 'axis.ms', digits: (v) => (v > -1 && v < 1 ? 3 : v > -10 && v < 10 ? 2 : 1) },
];

/** The phase's band colour in the current theme (styles.css), as the results dashboard shades them. */
function phaseColor(name: string): string {
  if (name === 'baseline') return cssVar('--phase-baseline', PHASE_TINT.baseline.light);
  if (name === 'warmup') return cssVar('--phase-warmup', PHASE_TINT.warmup.light);
  if (name === 'measure') return cssVar('--phase-measure', PHASE_TINT.measure.light);
  return 'rgba(0,0,0,0)';
}

const PHASE_KEYS: Record<string, LiveKey> = { baseline: 'phase.baseline', switch: 'phase.switch', warmup: 'phase.warmup', measure: 'phase.measure' };

/** One live chart with its summary paragraph. */
export class LiveChart {
  readonly box: HTMLElement;
  readonly summary: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private chart: Chart<'line'> | null = null;

  constructor(
    readonly spec: ChartSpec,
    private readonly lang: Lang,
    private readonly palette: readonly string[],
  ) {
    const title = this.t(spec.title);
    this.canvas = el('canvas', { role: 'img', 'aria-label': title, 'aria-describedby': `${spec.testId}-summary` });
    this.box = el('div', { class: 'chart-box live-chart', 'data-testid': spec.testId }, this.canvas);
    this.summary = el('p', { class: 'sr-summary', id: `${spec.testId}-summary`, 'data-testid': `${spec.testId}-summary` });
  }

  private t(key: LiveKey, params?: Record<string, string | number>): string {
    return translate(live, this.lang, key, params);
  }

  private fmt(v: number): string {
    return this.t(this.spec.unit, { value: fmtNumber(this.lang, v, this.spec.digits(v)) });
  }

  private roleLabel(role: string): string {
    // named for what its colour says (a cache device is the cache's green, and says "cache")
    return role === 'front' ? this.t('role.front') : role === 'backing' ? this.t('role.backing') : role === 'cache' ? this.t('role.cache') : this.t('role.other');
  }

  /** Draws (or redraws) the window [fromMs, toMs] with these device buffers and phases. */
  update(buffers: readonly DeviceBuffer[], phases: LiveSeries['phases'], fromMs: number, toMs: number, intervalText: string): void {
    const metric = this.spec.metric;
    // a device's colour is its role's (shared/palette.ts, as on the dashboard and in the report); a second device of a role is dashed
    const seen = new Set<number>();
    const datasets = buffers.map((b) => {
      const c = roleColor(b.role);
      const dashed = seen.has(c);
      seen.add(c);
      return { b, color: paletteColor(c, this.palette), dash: dashed ? [5, 3] : [] };
    }).map(({ b, color, dash }) => ({
      label: `${b.device} (${this.roleLabel(b.role)})`,
      data: b.t.map((x, j) => ({ x, y: b[metric][j] ?? null })) as { x: number; y: number | null }[],
      borderColor: color,
      backgroundColor: color,
      borderDash: dash,
      borderWidth: 1.5,
      // A point with no neighbour (the first interval, or one between gaps) has no line to show it: draw it as a dot.
      pointRadius: (c: { dataIndex: number }) => (b[metric][c.dataIndex - 1] == null && b[metric][c.dataIndex + 1] == null ? 3 : 0),
      spanGaps: false,
    }));
    const bands = phases
      .filter((p) => p.name !== 'switch')
      .map((p) => ({ startMs: p.startMs, endMs: p.endMs ?? toMs, color: phaseColor(p.name), label: this.t(PHASE_KEYS[p.name] ?? 'phase.baseline') }));
    const markers = phases.filter((p) => p.name === 'switch').map((p) => ({ atMs: p.startMs, label: this.t('phase.switch') }));
    if (this.chart === null) {
      this.chart = new Chart(this.canvas, {
        type: 'line',
        data: { datasets: datasets as never },
        options: {
          locale: LOCALE[this.lang],
          animation: false,
          parsing: false,
          maintainAspectRatio: false,
          // the plot area Chart.js settles on, from the first layout: it stays put as intervals arrive
          layout: { padding: firstLayoutPadding([{ borderWidth: 1.5, pointRadius: 3 }]) },
          interaction: { mode: 'nearest', axis: 'x', intersect: false },
          scales: {
            x: { type: 'linear', min: fromMs, max: toMs, title: { display: true, text: this.t('chart.axisTime') }, ticks: { callback: (value) => fmtTime(this.lang, Number(value)), maxTicksLimit: 7 } },
            y: { type: 'linear', beginAtZero: true, title: { display: true, text: this.t(this.spec.axis) } },
          },
          plugins: {
            title: { display: true, text: this.t(this.spec.title) },
            tooltip: {
              callbacks: {
                title: (items: TooltipItem<'line'>[]) => this.t('atUtc', { time: fmtTime(this.lang, Number(items[0]?.parsed.x ?? 0)) }),
                label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${this.fmt(Number(item.parsed.y))}`,
              },
            },
            // Labels in the theme's colours (the plugin's defaults are the light theme's).
            phaseShading: { bands, markers, textColor: cssVar('--muted', '#57606a'), labelBackground: cssVar('--label-bg', 'rgba(255,255,255,0.85)') },
          } as never,
        },
      });
    } else {
      this.chart.data.datasets = datasets as never;
      const x = this.chart.options.scales?.['x'];
      if (x) {
        x.min = fromMs;
        x.max = toMs;
        // Whole seconds on the axis: no more ticks than seconds shown (no repeated labels).
        if (x.ticks) x.ticks.maxTicksLimit = wholeSecondTicks(fromMs, toMs);
      }
      const shading = (this.chart.options.plugins as Record<string, { bands: unknown; markers: unknown } | undefined>)['phaseShading'];
      if (shading) {
        shading.bands = bands;
        shading.markers = markers;
      }
      this.chart.update('none');
    }
    this.summary.textContent = this.t('chart.summary', {
      chart: this.t(this.spec.title),
      from: fmtTime(this.lang, fromMs),
      to: fmtTime(this.lang, toMs),
      interval: intervalText,
      text: this.describe(buffers),
    });
  }

  private describe(buffers: readonly DeviceBuffer[]): string {
    const metric = this.spec.metric;
    const parts = buffers.map((b) => {
      const vals = b[metric].filter((v): v is number => v !== null);
      const mean = b.means[metric];
      if (vals.length === 0 || mean === null) return `${b.device} (${this.roleLabel(b.role)}): ${this.t('chart.noData')}`;
      return this.t('chart.device', { device: b.device, role: this.roleLabel(b.role), last: this.fmt(vals[vals.length - 1] ?? 0), mean: this.fmt(mean) });
    });
    return parts.length > 0 ? parts.join('; ') : this.t('chart.noData');
  }

  destroy(): void {
    this.chart?.destroy();
    this.chart = null;
  }
}
