/**
 * The results dashboard: headline cards with unit, window, device and 95% interval, the mode
 * badge, the IOPS chart with phases shaded, and the warnings. Every figure comes from the
 * engine's analyze output in `AnalysisView.result`.
 */
import { Chart, type TooltipItem } from 'chart.js';
import type { AnalysisView } from '../../shared/contract.ts';
import { common, type CommonKey } from '../../shared/i18n/common.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { at, fmtNumber, fmtPercent, fmtTime, numAt } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';

let lang: Lang = 'en';
let PALETTE: readonly string[] = [];
let chart: Chart<'line'> | null = null;
const t = (key: CommonKey, params?: Record<string, string | number>): string => translate(common, lang, key, params);

function card(testId: string, title: string, definition: string, value: string, ...subs: string[]): HTMLElement {
  return el('section', { class: 'card', 'data-testid': testId, title: definition, tabindex: '0', 'aria-label': `${title}: ${value}. ${subs.join(' ')}` },
    el('h3', {}, title),
    el('div', { class: 'value' }, value),
    ...subs.map((s) => el('div', { class: 'sub' }, s)));
}

function ci(result: unknown, path: string, fmt: (n: number) => string): string | null {
  const v = at(result, path);
  if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number') return t('ci95', { low: fmt(v[0]), high: fmt(v[1]) });
  const lo = numAt(result, `${path}.low`);
  const hi = numAt(result, `${path}.high`);
  return lo !== null && hi !== null ? t('ci95', { low: fmt(lo), high: fmt(hi) }) : null;
}

function windowLabel(result: unknown): string {
  const b0 = at(result, 'windows.baseline.start');
  const b1 = at(result, 'windows.baseline.end');
  const m0 = at(result, 'windows.measure.start');
  const m1 = at(result, 'windows.measure.end');
  if (typeof b0 !== 'string' || typeof b1 !== 'string' || typeof m0 !== 'string' || typeof m1 !== 'string') return '';
  const f = (s: string): string => fmtTime(lang, Date.parse(s));
  return `${t('window')}: ${t('before')} ${f(b0)}–${f(b1)}, ${t('after')} ${f(m0)}–${f(m1)} UTC`;
}

function cards(v: AnalysisView): HTMLElement {
  const r = v.result;
  const na = t('notAvailable');
  const pct = (n: number): string => fmtPercent(lang, n, 1);
  const ms = (n: number): string => `${fmtNumber(lang, n, n < 10 ? 3 : 1)} ms`;
  const front = String(at(r, 'devices.front') ?? '');
  const backing = at(r, 'devices.backing');
  const backingText = Array.isArray(backing) ? backing.join(', ') : String(backing ?? '');
  const win = windowLabel(r);

  const saved = numAt(r, 'benefit.iosSavedPercent.value');
  const before = numAt(r, 'benefit.iosToBacking.before');
  const after = numAt(r, 'benefit.iosToBacking.after');
  const latB = numAt(r, 'benefit.latencyMs.before');
  const latA = numAt(r, 'benefit.latencyMs.after');
  const red = numAt(r, 'benefit.latencyMs.reductionPercent');
  const spd = numAt(r, 'benefit.latencyMs.speedup');
  const nB = numAt(r, 'benefit.normalizedIops.before');
  const nA = numAt(r, 'benefit.normalizedIops.after');
  const tB = numAt(r, 'benefit.throughputMBps.before');
  const tA = numAt(r, 'benefit.throughputMBps.after');
  const cR = numAt(r, 'benefit.cacheServedPercent.reads');
  const cW = numAt(r, 'benefit.cacheServedPercent.writes');

  return el('div', { class: 'cards' },
    card(TID.cardIosSaved, t('iosSaved'), t('iosSavedDef'), saved === null ? na : pct(saved),
      `${t('before')} ${before === null ? na : fmtNumber(lang, before)} → ${t('after')} ${after === null ? na : fmtNumber(lang, after)} I/O`,
      ci(r, 'benefit.iosSavedPercent.ci95', pct) ?? '', `${t('device')}: ${backingText}`, win),
    card(TID.cardLatency, t('latency'), t('latencyDef'), `${latB === null ? na : ms(latB)} → ${latA === null ? na : ms(latA)}`,
      [red === null ? null : t('reduction', { value: pct(red) }), spd === null ? null : t('speedup', { value: fmtNumber(lang, spd, 1) })].filter((s) => s !== null).join(' · '),
      ci(r, 'benefit.latencyMs.reductionPercentCi95', pct) ?? ci(r, 'benefit.latencyMs.ci95', pct) ?? '', `${t('device')}: ${front}`, win),
    card(TID.cardNormalizedIops, t('normalizedIops'), t('normalizedIopsDef'),
      `${nB === null ? na : fmtNumber(lang, nB)} → ${nA === null ? na : fmtNumber(lang, nA)} IOPS`, `${t('device')}: ${front}`, win),
    card(TID.cardThroughput, t('throughput'), t('throughputDef'),
      `${tB === null ? na : fmtNumber(lang, tB, 2)} → ${tA === null ? na : fmtNumber(lang, tA, 2)} MB/s`, `${t('device')}: ${front}`, win),
    card(TID.cardCacheServed, t('cacheServed'), t('cacheServedDef'),
      `${t('reads')} ${cR === null ? na : pct(cR)} · ${t('writes')} ${cW === null ? na : pct(cW)}`, `${t('device')}: ${front} / ${backingText}`, win),
  );
}

function phaseColor(name: string): string {
  if (name === 'baseline') return 'rgba(213,94,0,0.08)';
  if (name === 'warmup') return 'rgba(128,128,128,0.15)';
  if (name === 'measure') return 'rgba(0,158,115,0.10)';
  return 'rgba(0,0,0,0)';
}

function phaseLabel(name: string): string {
  if (name === 'baseline' || name === 'measure' || name === 'warmup' || name === 'switch') return t(name);
  return name;
}

function drawChart(canvas: HTMLCanvasElement, v: AnalysisView): string {
  chart?.destroy();
  const lastT = v.series.reduce((m, s) => Math.max(m, s.t[s.t.length - 1] ?? 0), 0);
  const datasets = v.series.map((s, i) => ({
    label: `${s.device} (${s.role})`,
    data: s.t.map((x, j) => ({ x, y: s.iops[j] ?? null })) as { x: number; y: number | null }[],
    borderColor: PALETTE[i % PALETTE.length] ?? '#000',
    borderWidth: 1.5,
    pointRadius: 0,
    spanGaps: false,
  }));
  chart = new Chart(canvas, {
    type: 'line',
    data: { datasets: datasets as never },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: { type: 'linear', title: { display: true, text: t('axisTime') }, ticks: { callback: (value) => fmtTime(lang, Number(value)), maxTicksLimit: 8 } },
        y: { type: 'linear', beginAtZero: true, title: { display: true, text: t('axisIops') } },
      },
      plugins: {
        title: { display: true, text: t('chartIopsTitle') },
        decimation: { enabled: true, algorithm: 'lttb', samples: 800 },
        tooltip: { callbacks: { title: (items: TooltipItem<'line'>[]) => fmtTime(lang, Number(items[0]?.parsed.x ?? 0)) + ' UTC', label: (item: TooltipItem<'line'>) => `${item.dataset.label ?? ''}: ${fmtNumber(lang, Number(item.parsed.y), 0)} IOPS` } },
        phaseShading: { bands: v.phases.filter((p) => p.name !== 'switch').map((p) => ({ startMs: p.startMs, endMs: p.endMs ?? lastT, color: phaseColor(p.name), label: phaseLabel(p.name) })) },
      } as never,
    },
  });
  return v.series
    .map((s) => {
      const vals = s.iops.filter((x): x is number => x !== null);
      const mean = vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : 0;
      return `${s.device} (${s.role}): mean ${fmtNumber(lang, mean, 0)} IOPS, max ${fmtNumber(lang, vals.length ? Math.max(...vals) : 0, 0)} IOPS`;
    })
    .join('; ');
}

/** The dashboard for one analysis (the caller puts the title and the screen tabs above it). */
export function dashboardScreen(ctx: Ctx, v: AnalysisView): Screen {
  lang = ctx.lang;
  PALETTE = ctx.palette;
  const mode = String(v.result.mode);
  const node = el('div', { class: 'dashboard' },
    el('p', {}, el('span', { class: 'badge mode', 'data-testid': TID.modeBadge }, mode === 'backing-only' ? t('modeBackingOnly') : t('modeFrontBacking')),
      ` ${t('host')}: ${v.host.hostname ?? '?'} (${v.host.kernel ?? '?'})`),
    cards(v),
  );
  const canvas = el('canvas', { role: 'img', 'aria-label': t('chartIopsTitle') });
  const box = el('div', { class: 'chart-box', 'data-testid': TID.chartIops }, canvas);
  const summary = el('p', { class: 'sr-summary', 'data-testid': TID.chartSummary });
  node.append(box, summary);
  // The canvas must be in the document for Chart.js to size it: draw on the next frame.
  requestAnimationFrame(() => {
    summary.textContent = t('chartSummary', { text: drawChart(canvas, v) });
  });
  const warnings = at(v.result, 'warnings');
  const list = el('ul', { class: 'warnings', 'data-testid': TID.warnings });
  if (Array.isArray(warnings) && warnings.length > 0) {
    for (const w of warnings) list.append(el('li', {}, String(at(w, 'message') ?? at(w, 'code') ?? '')));
  } else list.append(el('li', {}, t('noWarnings')));
  node.append(el('h3', {}, t('warnings')), list);
  return {
    node,
    dispose: () => {
      chart?.destroy();
      chart = null;
    },
  };
}
