/**
 * The Planner's inputs: workload, energy, drive models, configurations, each bound to a JSON path
 * of the scenario draft. Labels are kept to name fields in error sentences.
 */
import {
  BYTES_PER_TB,
  IOPS_BASES,
  RAID_LEVELS,
  jsonPath,
  raidGroupProblem,
  type RaidLevel,
} from '@cacheproof/engine/plan';
import { planner, type PlannerKey } from '../../shared/i18n/planner.ts';
import { tco, type TcoKey } from '../../shared/i18n/tco.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';
import { getAt, setAt, type Json, type Path, type PlannerState } from './state.ts';

/** Default energy forms when a person switches between them (the documented example's values). */
const DEFAULT_METERED = { usdPerKwh: 0.15, pue: 1.5 };
const DEFAULT_PER_DRIVE = { usdPerDrivePerYear: 20 };
/** Group size chosen when a new RAID level does not accept the current one. */
const DEFAULT_GROUP: Record<RaidLevel, number> = { '0': 4, '1': 2, '10': 4, '5': 5, '6': 6, custom: 4 };
interface Conv {
  toUi(v: number): number;
  fromUi(x: number): number;
}
const IDENT: Conv = { toUi: (v) => v, fromUi: (x) => x };
const PERCENT: Conv = { toUi: (v) => v * 100, fromUi: (x) => x / 100 };
const TB: Conv = { toUi: (v) => v / BYTES_PER_TB, fromUi: (x) => x * BYTES_PER_TB };
const KIB: Conv = { toUi: (v) => v / 1024, fromUi: (x) => x * 1024 };

/** A number as an input shows it: at most 6 significant digits (a measured 80.0230946 % reads 80.0231). */
function shown(x: number): string {
  return String(Number(x.toPrecision(6)));
}

export function idFor(pathText: string): string {
  return `pl-${pathText.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/** The inputs: workload, energy, drive models, configurations. Labels are kept to name fields in errors. */
export class PlannerForm {
  private readonly labels = new Map<string, string>();
  private readonly p: (key: PlannerKey, params?: Record<string, string | number>) => string;
  private readonly tc: (key: TcoKey, params?: Record<string, string | number>) => string;

  constructor(
    lang: Lang,
    private readonly st: PlannerState,
    private readonly onInput: () => void,
    private readonly onStructure: () => void,
  ) {
    this.p = (key, params) => translate(planner, lang, key, params);
    this.tc = (key, params) => translate(tco, lang, key, params);
  }

  labelFor(pathText: string): string | null {
    return this.labels.get(pathText) ?? null;
  }

  private get draft(): Json {
    return this.st.draft ?? {};
  }

  private help(id: string, text: string): HTMLElement {
    return el('p', { class: 'pl-help', id: `${id}-help` }, text);
  }

  /** A number input bound to a JSON path; `conv` converts between the file's unit and the shown one. */
  numberField(path: Path, label: string, unit: string, help: string, conv: Conv = IDENT, opts: { optional?: boolean; step?: string; prefix?: string } = {}): HTMLElement {
    const pathText = jsonPath(path);
    const id = idFor(pathText);
    this.labels.set(pathText, opts.prefix === undefined ? label : `${opts.prefix} — ${label}`);
    const v = getAt(this.draft, path);
    const input = el('input', { id, type: 'number', step: opts.step ?? 'any', inputmode: 'decimal', 'aria-describedby': `${id}-help`, autocomplete: 'off' });
    input.value = typeof v === 'number' ? shown(conv.toUi(v)) : typeof v === 'string' ? v : '';
    input.addEventListener('input', () => {
      const raw = input.value.trim();
      const n = Number(raw);
      setAt(this.draft, path, raw === '' ? undefined : Number.isFinite(n) ? conv.fromUi(n) : raw);
      this.onInput();
    });
    return el('div', { class: 'pl-field' }, el('label', { for: id }, label, ' ', el('span', { class: 'pl-unit' }, `(${unit})`)), input, this.help(id, help));
  }

  /** A select bound to a JSON path; changing it rebuilds the form (other fields may appear). */
  selectField(path: Path, label: string, help: string, options: readonly (readonly [string, string])[], onChange?: (value: string) => void, prefix?: string): HTMLElement {
    const pathText = jsonPath(path);
    const id = idFor(pathText);
    this.labels.set(pathText, prefix === undefined ? label : `${prefix} — ${label}`);
    const current = String(getAt(this.draft, path) ?? '');
    const select = el('select', { id, 'aria-describedby': `${id}-help` });
    for (const [value, text] of options) {
      const o = el('option', { value }, text);
      if (value === current) o.selected = true;
      select.append(o);
    }
    select.addEventListener('change', () => {
      if (onChange) onChange(select.value);
      else setAt(this.draft, path, select.value);
      this.onStructure();
    });
    return el('div', { class: 'pl-field' }, el('label', { for: id }, label), select, this.help(id, help));
  }

  element(): HTMLElement {
    const p = this.p;
    const d = this.draft;
    const form = el('form', { class: 'pl-form', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());

    // Workload.
    const basis = String(getAt(d, ['workload', 'iops', 'basis']) ?? 'p95');
    const basisName = (b: string): string => this.tc(`basis.${b}` as TcoKey);
    const workload = el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.workload')),
      this.numberField(['years'], p('f.years'), p('unit.years'), p('h.years'), IDENT, { step: '1' }),
      this.selectField(['workload', 'iops', 'basis'], p('f.basis'), p('h.basis'), IOPS_BASES.map((b) => [b, basisName(b)] as const), (value) => {
        const iops = (getAt(d, ['workload', 'iops']) ?? {}) as Json;
        if (typeof iops[value] !== 'number') setAt(d, ['workload', 'iops', value], iops[basis]);
        setAt(d, ['workload', 'iops', 'basis'], value);
      }),
      this.numberField(['workload', 'iops', basis], p('f.iopsTarget', { basis: basisName(basis) }), p('unit.iops'), p('h.iopsTarget')),
      this.numberField(['workload', 'readShare'], p('f.readShare'), p('unit.percent'), p('h.readShare'), PERCENT),
      this.numberField(['workload', 'avgRequestBytes'], p('f.requestSize'), p('unit.kib'), p('h.requestSize'), KIB),
      this.numberField(['workload', 'capacityBytes'], p('f.capacity'), p('unit.tb'), p('h.capacity'), TB),
      this.numberField(['workload', 'growth', 'capacityPerYear'], p('f.capGrowth'), p('unit.percentPerYear'), p('h.capGrowth'), PERCENT),
      this.numberField(['workload', 'growth', 'iopsPerYear'], p('f.iopsGrowth'), p('unit.percentPerYear'), p('h.iopsGrowth'), PERCENT),
      this.selectField(['workload', 'sizeFor'], p('f.sizeFor'), p('h.sizeFor'), [['final-year', p('opt.finalYear')], ['first-year', p('opt.firstYear')]]),
    );

    // Energy and reference.
    const metered = getAt(d, ['energy', 'usdPerDrivePerYear']) === undefined;
    const configs = Array.isArray(d['configurations']) ? (d['configurations'] as Json[]) : [];
    const energy = el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.energy')),
      this.selectField(['energy', 'mode'], p('f.energyMode'), p('h.energyMode'), [['metered', p('opt.metered')], ['perDrive', p('opt.perDrive')]], (value) => {
        d['energy'] = value === 'metered' ? { ...DEFAULT_METERED } : { ...DEFAULT_PER_DRIVE };
      }),
      ...(metered
        ? [
            this.numberField(['energy', 'usdPerKwh'], p('f.usdPerKwh'), p('unit.usdPerKwh'), p('h.usdPerKwh')),
            this.numberField(['energy', 'pue'], p('f.pue'), p('unit.factor'), p('h.pue')),
          ]
        : [this.numberField(['energy', 'usdPerDrivePerYear'], p('f.usdPerDrive'), p('unit.usdPerDriveYear'), p('h.usdPerDrive'))]),
      this.selectField(['referenceId'], p('f.reference'), p('h.reference'), configs.map((c) => [String(c['id']), String(c['label'])] as const)),
    );
    // The energy form select reflects the form in use, not a field of the file.
    const modeSelect = energy.querySelector<HTMLSelectElement>(`#${idFor('energy.mode')}`);
    if (modeSelect) modeSelect.value = metered ? 'metered' : 'perDrive';
    const refSelect = energy.querySelector<HTMLSelectElement>(`#${idFor('referenceId')}`);
    if (refSelect && getAt(d, ['referenceId']) === undefined && configs[0]) refSelect.value = String(configs[0]['id']);

    form.append(workload, energy, this.drivesTable(), this.configurations(configs));
    return form;
  }

  private drivesTable(): HTMLElement {
    const p = this.p;
    const drives = Array.isArray(this.draft['drives']) ? (this.draft['drives'] as Json[]) : [];
    const cols: [string, PlannerKey, PlannerKey, Conv][] = [
      ['priceUsd', 'f.drivePrice', 'unit.usd', IDENT],
      ['iops', 'f.driveIops', 'unit.iops', IDENT],
      ['capacityBytes', 'f.driveCapacity', 'unit.tb', TB],
      ['watts', 'f.driveWatts', 'unit.watts', IDENT],
      ['afr', 'f.driveAfr', 'unit.percentPerYear', PERCENT],
    ];
    const head = el('tr', {}, el('th', { scope: 'col' }, p('col.drive')), ...cols.map(([, label, unit]) => el('th', { scope: 'col' }, `${p(label)} (${p(unit)})`)));
    const body = el('tbody', {});
    for (const [i, drive] of drives.entries()) {
      const row = el('tr', {}, el('th', { scope: 'row' }, String(drive['label'] ?? drive['id'] ?? '')));
      for (const [key, label, unit, conv] of cols) {
        const path = ['drives', i, key] as const;
        const pathText = jsonPath(path);
        const id = idFor(pathText);
        const name = `${String(drive['label'] ?? '')} — ${p(label)} (${p(unit)})`;
        this.labels.set(pathText, name);
        const v = getAt(this.draft, path);
        const input = el('input', { id, type: 'number', step: 'any', inputmode: 'decimal', 'aria-label': name, 'aria-describedby': 'pl-drives-help', autocomplete: 'off' });
        input.value = typeof v === 'number' ? shown(conv.toUi(v)) : '';
        input.addEventListener('input', () => {
          const raw = input.value.trim();
          const n = Number(raw);
          setAt(this.draft, path, raw === '' ? undefined : Number.isFinite(n) ? conv.fromUi(n) : raw);
          this.onInput();
        });
        row.append(el('td', {}, input));
      }
      body.append(row);
    }
    return el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.drives')),
      el('div', { class: 'pl-table-wrap' }, el('table', { class: 'pl-drives' }, el('thead', {}, head), body)),
      el('p', { class: 'pl-help', id: 'pl-drives-help' }, p('h.drives')));
  }

  private configurations(configs: Json[]): HTMLElement {
    const p = this.p;
    const d = this.draft;
    const drives = Array.isArray(d['drives']) ? (d['drives'] as Json[]) : [];
    const driveOptions = (filter: (x: Json) => boolean): (readonly [string, string])[] => drives.filter(filter).map((x) => [String(x['id']), String(x['label'])] as const);
    const raidOptions = RAID_LEVELS.map((l) => [l, l === 'custom' ? p('opt.raidCustom') : p('opt.raid', { level: l })] as const);
    const out = el('div', { class: 'pl-configs' }, el('h3', {}, p('sec.configs')));
    for (const [i, c] of configs.entries()) {
      const label = String(c['label'] ?? c['id'] ?? '');
      const at = ['configurations', i] as const;
      const raidPath = [...at, 'backing', 'raid'] as const;
      const level = String(getAt(d, [...raidPath, 'level']) ?? '');
      const setRaid = (raidAt: Path) => (value: string): void => {
        const raid = (getAt(d, raidAt) ?? {}) as Json;
        const lvl = value as RaidLevel;
        raid['level'] = lvl;
        if (lvl === 'custom') {
          raid['writePenalty'] ??= 2;
          raid['redundantDrivesPerGroup'] ??= 1;
        } else {
          delete raid['writePenalty'];
          delete raid['redundantDrivesPerGroup'];
        }
        const groupSize = typeof raid['groupSize'] === 'number' ? raid['groupSize'] : 0;
        if (raidGroupProblem({ level: lvl, groupSize, writePenalty: 2, redundantDrivesPerGroup: 1 }, '') !== null) raid['groupSize'] = DEFAULT_GROUP[lvl];
        setAt(d, raidAt, raid);
      };
      const fs = el('fieldset', { class: 'pl-group pl-config' }, el('legend', {}, label),
        this.selectField([...at, 'backing', 'driveId'], p('f.backingDrive'), p('h.backingDrive'), driveOptions(() => true), undefined, label),
        this.selectField([...raidPath, 'level'], p('f.raid'), p('h.raid'), raidOptions, setRaid(raidPath), label),
        this.numberField([...raidPath, 'groupSize'], p('f.groupSize'), p('unit.drives'), p('h.groupSize'), IDENT, { step: '1', prefix: label }),
      );
      if (level === 'custom')
        fs.append(
          this.numberField([...raidPath, 'writePenalty'], p('f.writePenalty'), p('unit.factor'), p('h.writePenalty'), IDENT, { prefix: label }),
          this.numberField([...raidPath, 'redundantDrivesPerGroup'], p('f.redundant'), p('unit.drives'), p('h.redundant'), IDENT, { step: '1', prefix: label }),
        );
      fs.append(
        this.numberField([...at, 'backing', 'count'], p('f.count'), p('unit.drives'), p('h.count'), IDENT, { step: '1', optional: true, prefix: label }),
        this.numberField([...at, 'system', 'baseCostUsd'], p('f.baseCost'), p('unit.usd'), p('h.baseCost'), IDENT, { prefix: label }),
        this.numberField([...at, 'supportUsdPerYear'], p('f.support'), p('unit.usdPerYear'), p('h.support'), IDENT, { prefix: label }),
      );
      const cache = c['cache'] as Json | undefined;
      if (cache !== undefined && cache !== null) {
        const cp = [...at, 'cache'] as const;
        const ssd = cache['kind'] === 'ssd';
        const box = el('fieldset', { class: 'pl-group pl-cache' }, el('legend', {}, ssd ? p('cacheSsdTitle') : p('cacheRamTitle')));
        if (ssd)
          box.append(
            this.selectField([...cp, 'driveId'], p('f.cacheDrive'), p('h.cacheDrive'), driveOptions((x) => x['class'] !== 'hdd'), undefined, label),
            this.numberField([...cp, 'count'], p('f.cacheCount'), p('unit.drives'), p('h.cacheCount'), IDENT, { step: '1', prefix: label }),
            this.selectField([...cp, 'raid', 'level'], p('f.raid'), p('h.raid'), raidOptions, setRaid([...cp, 'raid']), label),
          );
        const hitInput = (key: 'readHitShare' | 'writeHitShare', f: PlannerKey, h: PlannerKey): HTMLElement => {
          const field = this.numberField([...cp, key], p(f), p('unit.percent'), p(h), PERCENT, { prefix: label });
          // A typed hit share is no longer the measured one.
          field.querySelector('input')?.addEventListener('input', () => setAt(d, [...cp, 'hitShareSource'], 'assumed'), { capture: true });
          return field;
        };
        const source = String(getAt(d, [...cp, 'hitShareSource']) ?? 'assumed');
        box.append(
          this.selectField([...cp, 'mode'], p('f.cacheMode'), p('h.cacheMode'), [['write-back', this.tc('mode.write-back')], ['write-through', this.tc('mode.write-through')]], undefined, label),
          hitInput('readHitShare', 'f.readHit', 'h.readHit'),
          hitInput('writeHitShare', 'f.writeHit', 'h.writeHit'),
          el('p', { class: 'pl-help' }, p('hitSource', { source: this.tc(`source.${source}` as TcoKey) })),
          this.numberField([...cp, 'licenseUsd'], p('f.license'), p('unit.usd'), p('h.license'), IDENT, { prefix: label }),
        );
        fs.append(box);
      } else fs.append(el('p', { class: 'pl-help' }, p('noCache')));
      out.append(fs);
    }
    return out;
  }
}
