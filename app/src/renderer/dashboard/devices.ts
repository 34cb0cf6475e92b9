/**
 * Every device's figures per window on the dashboard (the report's device table had them only on
 * paper), with the 95th percentile and the peak of its per-interval IOPS and throughput — the
 * figures Live Optics sizes on. All from the engine's window summaries (`perDevice[].baseline`,
 * `.measure`: means as ratios of sums, percentiles type 7 of the per-interval values); nothing is
 * computed here.
 */
import type { AnalysisReport, WindowSummary } from '@cacheproof/engine';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { Words } from './text.ts';

function cells(s: WindowSummary, w: Words): string[] {
  const io = s.percentiles.iops;
  const mb = s.percentiles.mbps;
  return [
    w.iops(s.means.iops), w.iops(io?.p95 ?? null), w.iops(io?.max ?? null),
    w.mbps(s.means.mbps), w.mbps(mb?.p95 ?? null), w.mbps(mb?.max ?? null),
    w.ms(s.means.awaitMs), s.means.utilPercent === null ? w.na : w.pct(s.means.utilPercent),
  ];
}

/** The per-device table: one row per device and window. */
export function devicesSection(r: AnalysisReport, w: Words): HTMLElement {
  const cols = ['devices.col.device', 'devices.col.role', 'devices.col.window', 'devices.col.iops', 'devices.col.iopsP95', 'devices.col.iopsPeak',
    'devices.col.mbps', 'devices.col.mbpsP95', 'devices.col.mbpsPeak', 'devices.col.await', 'devices.col.util'] as const;
  const body = el('tbody', {});
  for (const d of r.perDevice) {
    for (const [label, win, key] of [[w.d('phase.baseline'), d.baseline, 'baseline'], [w.d('phase.measure'), d.measure, 'measure']] as const) {
      const role = ['front', 'backing', 'cache', 'other'].includes(d.role) ? w.d(`role.${d.role as 'front'}`) : d.role;
      body.append(el('tr', { 'data-device': d.device, 'data-window': key },
        el('th', { scope: 'row' }, d.device), el('td', {}, role), el('td', {}, label),
        ...cells(win, w).map((c) => el('td', { class: 'num' }, c))));
    }
  }
  return el('section', { class: 'dash-devices', 'data-testid': TID.dashDevices, 'aria-labelledby': 'dash-devices-title' },
    el('h4', { id: 'dash-devices-title', title: w.d('def.devices') }, w.d('devices.title')),
    el('p', { class: 'dash-def' }, w.d('def.devices')),
    el('div', { class: 'dash-table-wrap' }, el('table', { class: 'dash-table', 'aria-labelledby': 'dash-devices-title' },
      el('thead', {}, el('tr', {}, ...cols.map((k) => el('th', { scope: 'col' }, w.d(k))))),
      body)));
}
