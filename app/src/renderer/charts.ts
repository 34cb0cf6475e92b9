/**
 * Chart.js set-up for every screen: registers only the components the app uses (tree-shaken
 * build), the date-fns adapter behind the `time` scale, LTTB decimation, zoom/pan
 * (chartjs-plugin-zoom) and our phase-shading plugin, and applies the theme's colours.
 * Imported once by main.ts; screens import `Chart` from 'chart.js' as usual.
 */
import {
  BarController, BarElement, CategoryScale, Chart, Decimation, Filler, Legend, LinearScale, LineController, LineElement,
  LogarithmicScale, PointElement, TimeScale, Title, Tooltip,
} from 'chart.js';
import 'chartjs-adapter-date-fns';
import zoomPlugin from 'chartjs-plugin-zoom';
import { phaseShading } from './phase-shading.ts';

Chart.register(
  LineController, LineElement, PointElement, BarController, BarElement, Filler,
  LinearScale, LogarithmicScale, CategoryScale, TimeScale,
  Title, Tooltip, Legend, Decimation, zoomPlugin, phaseShading,
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
