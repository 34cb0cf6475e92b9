/**
 * Health against the latency targets preset (which windows, figures and hours break them),
 * workload drift in words, and the analysis' warnings in the person's language.
 */
import { TARGET_PRESETS, type AnalysisReport, type HealthCheck, type HealthWindow, type TargetPreset, type WorkloadShape } from '@cacheproof/engine';
import { rt } from '../../shared/i18n/report.ts';
import { warningText } from '../../shared/i18n/warnings.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber } from '../format.ts';
import type { Words } from './text.ts';
import { bytesInUnit } from '../../shared/units.ts';

/** Hours listed per check before "… and N more". */
const MAX_HOURS = 6;

function gradeBadge(grade: HealthWindow['grade'], window: string, w: Words): HTMLElement {
  return el('span', { class: `badge grade grade-${grade}`, 'data-grade': grade }, w.d('health.grade', { window, grade: w.d(`grade.${grade}`) }));
}

function row(window: string, c: HealthCheck, w: Words): HTMLTableRowElement {
  const hours = c.hoursBreaking.slice(0, MAX_HOURS).map((h) => w.utc(Date.parse(h)));
  if (c.hoursBreaking.length > MAX_HOURS) hours.push(w.d('health.moreHours', { count: c.hoursBreaking.length - MAX_HOURS }));
  const result = c.meetsTarget === null ? w.reason(c.reasons['meetsTarget']) : c.meetsTarget ? w.d('health.meets') : w.d('health.breaks');
  return el('tr', { 'data-result': c.meetsTarget === null ? 'none' : c.meetsTarget ? 'meets' : 'breaks' },
    el('th', { scope: 'row' }, window),
    el('td', {}, w.d(`metric.${c.metric}`)),
    el('td', { class: 'num' }, `< ${w.ms(c.targetMs)}`),
    el('td', { class: 'num' }, w.ms(c.averageMs)),
    el('td', { class: c.meetsTarget === false ? 'bad' : '' }, result),
    el('td', { class: 'num' }, c.breakingPercent === null ? w.na : w.d('health.breakingCell', { count: fmtNumber(w.lang, c.intervalsBreaking), checked: fmtNumber(w.lang, c.intervalsChecked), percent: w.pct(c.breakingPercent) })),
    el('td', {}, hours.length > 0 ? hours.join(', ') : w.d('none')),
    el('td', { class: 'num' }, c.spansTotal === 0 ? w.d('none') : w.d('health.spansCell', { count: fmtNumber(w.lang, c.spansTotal), worst: w.ms(c.worstMs) })));
}

/** The preset's name in the person's language (the report's names, so both read the same), never its id such as `generic`. */
function presetName(p: string, w: Words): string {
  if (p === 'custom') return rt('preset.custom', w.lang);
  return Object.prototype.hasOwnProperty.call(TARGET_PRESETS, p) ? rt(`preset.${p as TargetPreset}`, w.lang) : p;
}

export function healthSection(r: AnalysisReport, w: Words): HTMLElement {
  const h = r.health;
  const targets = (['readMs', 'writeMs', 'transferMs', 'warnMs'] as const)
    .filter((k) => h.targets[k] !== undefined)
    .map((k) => w.d(`health.target.${k}`, { value: w.ms(h.targets[k] ?? null) }));
  const body = el('tbody', {});
  for (const [name, win] of [[w.d('phase.baseline'), h.baseline], [w.d('phase.measure'), h.measure]] as const) {
    for (const c of win.checks) body.append(row(name, c, w));
  }
  const section = el('section', { class: 'dash-health', 'data-testid': TID.dashHealth, 'aria-labelledby': 'dash-health-title' },
    el('h4', { id: 'dash-health-title', title: w.d('def.health') }, w.d('health.title')),
    el('p', { class: 'dash-def' }, w.d('def.health')),
    el('p', {}, w.d('health.targets', { preset: presetName(h.preset, w), targets: targets.length > 0 ? targets.join(', ') : w.d('none'), devices: h.devices.join(', ') })),
    el('p', { class: 'grades' }, gradeBadge(h.baseline.grade, w.d('phase.baseline'), w), ' ', gradeBadge(h.measure.grade, w.d('phase.measure'), w)));
  if (body.children.length === 0) section.append(el('p', {}, w.d('health.noCheck')));
  else {
    const cols = ['health.col.window', 'health.col.metric', 'health.col.target', 'health.col.average', 'health.col.result', 'health.col.breaking', 'health.col.hours', 'health.col.spans'] as const;
    section.append(el('div', { class: 'dash-table-wrap' }, el('table', { class: 'dash-table', 'aria-labelledby': 'dash-health-title' },
      el('thead', {}, el('tr', {}, ...cols.map((k) => el('th', { scope: 'col' }, w.d(k))))),
      body)));
  }
  return section;
}

function shapeValue(k: keyof WorkloadShape, v: number | null, w: Words): string {
  if (v === null) return w.na;
  if (k === 'iops') return w.iops(v);
  if (k === 'readSharePercent') return w.pct(v);
  if (k === 'meanRequestBytes') return w.bytes(v);
  return w.mbps(bytesInUnit(v, 1e6));
}

export function driftSection(r: AnalysisReport, w: Words): HTMLElement {
  const dr = r.drift;
  const list = el('ul', { class: 'dash-drift', 'data-testid': TID.dashDrift });
  if (!dr.checked) list.append(el('li', {}, w.d('drift.notChecked')));
  else {
    for (const k of ['iops', 'readSharePercent', 'meanRequestBytes', 'bytesPerSec'] as const) {
      const m = dr.metrics[k];
      const threshold = w.pct(dr.thresholdPercent);
      list.append(el('li', { class: m.exceeds ? 'exceeds' : '', 'data-exceeds': String(m.exceeds) }, w.d('drift.line', {
        metric: w.d(`drift.metric.${k}`), before: shapeValue(k, m.before, w), after: shapeValue(k, m.after, w),
        change: m.changePercent === null ? w.reason(m.reasons['changePercent']) : w.signedPct(m.changePercent),
        verdict: m.exceeds ? w.d('drift.exceeds', { threshold }) : w.d('drift.within', { threshold }),
      })));
    }
  }
  return el('section', { class: 'dash-drift-section', 'aria-labelledby': 'dash-drift-title' },
    el('h4', { id: 'dash-drift-title', title: w.d('def.drift') }, w.d('drift.title')),
    el('p', { class: 'dash-def' }, w.d('def.drift')),
    list);
}

export function warningsSection(r: AnalysisReport, w: Words): HTMLElement {
  const list = el('ul', { class: 'warnings', 'data-testid': TID.warnings });
  if (r.warnings.length === 0) list.append(el('li', {}, w.d('noWarnings')));
  for (const x of r.warnings) {
    list.append(el('li', { 'data-code': x.code }, warningText(x, w.lang)));
  }
  return el('section', { 'aria-labelledby': 'dash-warnings-title' }, el('h4', { id: 'dash-warnings-title' }, w.d('warnings')), list);
}
