/**
 * `cacheproof analyze CAPTURE --profile`: the baseline alone as a workload profile (engine
 * `profileWorkload`), drawn as the Workload profile screen draws it (app/src/renderer/profile/):
 * the same words (catalog `profile`), the same figures at the same precision. For a log imported
 * with no switch, or a run stopped before it: capacity planning without a cache. The profile's
 * warnings (role overrides, plausibility: docs/metrics.md § Warnings) follow the tables, as the
 * analysis text lists its own.
 */
import type { WorkloadProfile } from '@cacheproof/engine';
import { profile as catalog, type ProfileKey } from '../shared/i18n/profile.ts';
import { fmtDuration, fmtNumber, fmtPercent, fmtUtc } from '../shared/i18n/numbers.ts';
import { translate, type Lang } from '../shared/i18n/types.ts';
import { table } from './analyze.ts';
import { analysis as analysisCatalog } from '../shared/i18n/analysis.ts';
import { warningText } from '../shared/i18n/warnings.ts';
import { reportText } from '../shared/i18n/report.ts';
import { upperLayerMsg } from '@cacheproof/engine/report';

export function formatProfileText(p: WorkloadProfile, captureFile: string, sampleIntervalMs: number | null, lang: Lang, imported: boolean): string {
  const t = (key: ProfileKey, params?: Record<string, string | number>): string => translate(catalog, lang, key, params);
  const num = (v: number | null, digits: number): string => (v === null ? t('na') : fmtNumber(lang, v, digits));
  const group = p.devices.appFacing === 'front' ? p.devices.front : p.devices.backing;
  const m = p.appFacing.means;
  const interval = sampleIntervalMs === null ? t('na') : fmtNumber(lang, sampleIntervalMs / 1000, 0);
  const lines = [
    t('title', { name: captureFile }),
    t('badge'),
    t(imported ? 'introImport' : 'intro'),
    t('window', { start: fmtUtc(lang, p.window.startMs), end: fmtUtc(lang, p.window.endMs), duration: fmtDuration(lang, p.window.seconds) }),
    t('devices', { devices: `${group.join(', ') || t('none')} (${t(p.devices.appFacing)})` }),
    '',
  ];
  const cards: string[][] = [
    [t('card.iops'), `${num(m.iops, 1)} ${t('unit.iops')}`],
    [t('card.p95', { interval }), `${num(p.appFacing.percentiles.iops?.p95 ?? null, 1)} ${t('unit.iops')}`],
    [t('card.mbps'), `${num(m.mbps, 2)} ${t('unit.mbps')}`],
    [t('card.latency'), `${num(m.awaitMs, 3)} ${t('unit.ms')}`],
    [t('card.readShare'), m.readSharePercent === null ? t('na') : fmtPercent(lang, m.readSharePercent)],
    [t('card.requestSize'), m.avgRequestBytes === null ? t('na') : `${fmtNumber(lang, m.avgRequestBytes / 1024, 1)} ${t('unit.kib')}`],
  ];
  const role = (r: string): string => t((`role.${r}` as ProfileKey) in catalog.en ? (`role.${r}` as ProfileKey) : 'role.other');
  const devices: string[][] = [(['col.device', 'col.role', 'col.iops', 'col.mbps', 'col.latency', 'col.readShare', 'col.coverage'] as const).map((k) => t(k))];
  for (const d of p.perDevice) {
    const s = d.summary.means;
    devices.push([d.device, role(d.role), num(s.iops, 1), num(s.mbps, 2), num(s.awaitMs, 3), s.readSharePercent === null ? t('na') : fmtPercent(lang, s.readSharePercent), fmtNumber(lang, d.summary.okIntervals)]);
  }
  const w = (key: 'warnings' | 'none'): string => translate(analysisCatalog, lang, key);
  const warnings = [`${w('warnings')}: ${p.warnings.length === 0 ? w('none') : ''}`, ...p.warnings.map((x) => `  - ${warningText(x, lang)}`)];
  // the volumes above the counted disks: what the applications saw, beside the disks, not added (report/profile-layer.ts)
  const upper = upperLayerMsg(p);
  const upperLines = upper === null ? '' : `${reportText(upper, lang)}\n\n`;
  return `${lines.join('\n')}\n${table(cards)}\n${t('table.caption')}\n${table(devices)}\n${upperLines}${warnings.join('\n')}\n\n${t('method')}\n`;
}
