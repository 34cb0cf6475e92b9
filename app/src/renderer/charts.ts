/**
 * Chart.js set-up for every screen: registers only the components the app uses (tree-shaken
 * build), the date-fns adapter behind the `time` scale, LTTB decimation, zoom/pan
 * (chartjs-plugin-zoom), our phase-shading plugin (draw/phase-shading.ts) and the axis-title exposure (axis-titles.ts), and applies the theme's colours.
 * Imported once by main.ts; screens import `Chart` from 'chart.js' as usual.
 */
import {
  BarController, BarElement, CategoryScale, Chart, Decimation, Filler, Legend, LinearScale, LineController, LineElement,
  LogarithmicScale, PointElement, TimeScale, Title, Tooltip,
} from 'chart.js';
import 'chartjs-adapter-date-fns';
import zoomPlugin from 'chartjs-plugin-zoom';
import { phaseShading } from './draw/phase-shading.ts';
import { axisTitles } from './axis-titles.ts';

Chart.register(
  LineController, LineElement, PointElement, BarController, BarElement, Filler,
  LinearScale, LogarithmicScale, CategoryScale, TimeScale,
  Title, Tooltip, Legend, Decimation, zoomPlugin, phaseShading, axisTitles,
);

/** The value of a CSS custom property on :root (the theme's colours live in styles.css). */
export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v.length > 0 ? v : fallback;
}

/** Points Chart.js's default text, grid and font at the current theme. Call after the theme changes, before drawing. */
export function applyChartTheme(): void {
  Chart.defaults.color = cssVar('--fg', '#1b1f24');
  Chart.defaults.borderColor = cssVar('--grid', 'rgba(0,0,0,0.1)');
  Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily || 'system-ui, sans-serif';
  Chart.defaults.plugins.tooltip.backgroundColor = cssVar('--tooltip-bg', 'rgba(0,0,0,0.85)');
  Chart.defaults.plugins.tooltip.titleColor = cssVar('--tooltip-fg', '#ffffff');
  Chart.defaults.plugins.tooltip.bodyColor = cssVar('--tooltip-fg', '#ffffff');
  Chart.defaults.plugins.tooltip.footerColor = cssVar('--tooltip-fg', '#ffffff');
}

export { firstLayoutPadding, type LineLook } from './draw/layout-padding.ts';

/**
 * The legend of a chart that marks points on its lines (a peak, a chosen size): each marker shows
 * its own point, each line a short line in its dash — not the filled box Chart.js draws for every
 * dataset by default, which reads as a bar.
 *
 * @example
 * options.plugins.legend = legendWithMarkers(new Set([0])) // dataset 0 is the peak marker
 */
export function legendWithMarkers(markers: ReadonlySet<number>) {
  return {
    position: 'bottom' as const,
    labels: {
      usePointStyle: true,
      generateLabels: (chart: Chart) => Chart.defaults.plugins.legend.labels.generateLabels(chart).map((l) => {
        const i = l.datasetIndex ?? -1;
        if (markers.has(i)) return l;
        // with point styles the default item takes its look from the first point: the line's own dash and width instead
        const ds = chart.data.datasets[i] as { borderDash?: number[]; borderWidth?: number } | undefined;
        return { ...l, pointStyle: 'line' as const, lineDash: ds?.borderDash ?? [], lineWidth: ds?.borderWidth ?? 2 };
      }),
    },
  };
}
