/**
 * The Planner's inputs: workload, energy, drive models, configurations, each bound to a JSON path
 * of the scenario draft. Labels are kept to name fields in error sentences.
 */
import {
  BYTES_PER_TB,
  DRIVE_FIGURES,
  IOPS_BASES,
  SEGMENTS,
  catalogDriveDraft,
  isExamplePrice,
  jsonPath,
  type CatalogFigure,
  type DriveCatalog,
  type DriveFigure,
} from '@cacheproof/engine/plan';
import { fmtBytes, fmtDecimal, fmtInput, fmtPercentUpTo, parseLocaleNumber } from '../../shared/i18n/numbers.ts';
import { TID } from '../../shared/testids.ts';
import { planner, type PlannerKey } from '../../shared/i18n/planner.ts';
import { tco, type TcoKey } from '../../shared/i18n/tco.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { el } from '../dom.ts';
import { configEditors } from './configs.ts';
import { getAt, setAt, type Json, type Path, type PlannerState } from './state.ts';
import { bytesConv, percentOf, PERCENT_CONV } from '../../shared/units.ts';

/** Default energy forms when a person switches between them (the documented example's values). */
const DEFAULT_METERED = { usdPerKwh: 0.15, pue: 1.5 };
const DEFAULT_PER_DRIVE = { usdPerDrivePerYear: 20 };
export interface Conv {
  toUi(v: number): number;
  fromUi(x: number): number;
}
export const IDENT: Conv = { toUi: (v) => v, fromUi: (x) => x };
export const PERCENT: Conv = PERCENT_CONV;
const TB: Conv = bytesConv(BYTES_PER_TB);
const KIB: Conv = bytesConv(1024);


/** The catalog drive last picked (kept across rebuilds of the form). */
let pickedCatalogId: string | null = null;

export function idFor(pathText: string): string {
  return `pl-${pathText.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

/** The inputs: workload, energy, drive models, configurations. Labels are kept to name fields in errors. */
export class PlannerForm {
  private readonly labels = new Map<string, string>();
  readonly p: (key: PlannerKey, params?: Record<string, string | number>) => string;
  readonly tc: (key: TcoKey, params?: Record<string, string | number>) => string;

  constructor(
    readonly lang: Lang,
    readonly st: PlannerState,
    private readonly onInput: () => void,
    readonly onStructure: () => void,
    /** The drive catalog (plan.catalog, checked by parseCatalog), or a sentence saying why there is none. */
    readonly catalog: DriveCatalog | string | null = null,
  ) {
    this.p = (key, params) => translate(planner, lang, key, params);
    this.tc = (key, params) => translate(tco, lang, key, params);
  }

  labelFor(pathText: string): string | null {
    return this.labels.get(pathText) ?? null;
  }

  get draft(): Json {
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
    // Text, not type=number: the number is shown and read in the page's language (`0,15` in French), not the browser's.
    const input = el('input', { id, type: 'text', inputmode: opts.step === '1' ? 'numeric' : 'decimal', 'aria-describedby': `${id}-help`, autocomplete: 'off', spellcheck: 'false' });
    input.value = typeof v === 'number' ? fmtInput(this.lang, conv.toUi(v)) : typeof v === 'string' ? v : '';
    input.addEventListener('input', () => {
      const raw = input.value.trim();
      const n = parseLocaleNumber(this.lang, raw);
      // what is not a number stays as typed: the plan names the field and says what it expects
      setAt(this.draft, path, raw === '' ? undefined : n !== null ? conv.fromUi(n) : raw);
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

    // the configuration being edited first, beside the results; the workload and energy they share under it
    form.append(configEditors(this, configs), workload, energy);
    return form;
  }

  /** The drive models and the catalog (shared by every configuration), in a form of their own below the editor and the results: wide tables need the page's width. */
  drivesElement(): HTMLElement {
    const form = el('form', { class: 'pl-form pl-form-drives', novalidate: '' });
    form.addEventListener('submit', (e) => e.preventDefault());
    form.append(this.drivesTable(), this.catalogPicker());
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
      // SSDs only (an HDD row leaves it empty): needed for a cache SSD, typed when the catalog gives none.
      ['enduranceTbw', 'fig.enduranceTbw', 'unit.tb', IDENT],
    ];
    const head = el('tr', {}, el('th', { scope: 'col' }, p('col.drive')), ...cols.map(([, label, unit]) => el('th', { scope: 'col' }, `${p(label)} (${p(unit)})`)), el('td', {}));
    const configs = Array.isArray(this.draft['configurations']) ? (this.draft['configurations'] as Json[]) : [];
    const used = new Set<string>();
    for (const c of configs) {
      used.add(String(getAt(c, ['backing', 'driveId']) ?? ''));
      const cache = getAt(c, ['cache', 'driveId']);
      if (typeof cache === 'string') used.add(cache);
    }

    const body = el('tbody', {});
    for (const [i, drive] of drives.entries()) {
      const row = el('tr', {}, el('th', { scope: 'row' }, String(drive['label'] ?? drive['id'] ?? '')));
      for (const [key, label, unit, conv] of cols) {
        if (key === 'enduranceTbw' && drive['class'] === 'hdd') {
          row.append(el('td', {}));
          continue;
        }
        const path = ['drives', i, key] as const;
        const pathText = jsonPath(path);
        const id = idFor(pathText);
        const name = `${String(drive['label'] ?? '')} — ${p(label)} (${p(unit)})`;
        this.labels.set(pathText, name);
        const v = getAt(this.draft, path);
        const input = el('input', { id, type: 'text', inputmode: 'decimal', 'aria-label': name, 'aria-describedby': 'pl-drives-help', autocomplete: 'off', spellcheck: 'false' });
        input.value = typeof v === 'number' ? fmtInput(this.lang, conv.toUi(v)) : '';
        input.addEventListener('input', () => {
          const raw = input.value.trim();
          const n = parseLocaleNumber(this.lang, raw);
          setAt(this.draft, path, raw === '' ? undefined : n !== null ? conv.fromUi(n) : raw);
          this.onInput();
        });
        row.append(el('td', {}, input));
      }
      const driveId = String(drive['id'] ?? '');
      const driveLabel = String(drive['label'] ?? driveId);
      const remove = el('button', { type: 'button', 'data-testid': `${TID.plannerRemoveDrive}-${driveId}`, 'aria-label': `${p('removeDrive')}: ${driveLabel}` }, p('removeDrive'));
      if (used.has(driveId) || drives.length <= 1) {
        remove.disabled = true;
        remove.title = p('driveInUse', { label: driveLabel });
      }
      remove.addEventListener('click', () => {
        drives.splice(i, 1);
        this.onStructure();
      });
      row.append(el('td', {}, remove));
      body.append(row);
    }
    return el('fieldset', { class: 'pl-group' }, el('legend', {}, p('sec.drives')),
      el('div', { class: 'pl-table-wrap' }, el('table', { class: 'pl-drives' }, el('thead', {}, head), body)),
      el('p', { class: 'pl-help', id: 'pl-drives-help' }, p('h.drives')));
  }

  /** A catalog drive named in the screen's language: vendor, model, capacity (locale units), interface. */
  private catalogName(d: DriveCatalog['drives'][number]): string {
    const cap = d.capacityBytes.value === null ? '' : ` · ${fmtBytes(this.lang, d.capacityBytes.value)}`;
    return `${d.vendor} ${d.model}${cap} · ${d.interface.toUpperCase()}`;
  }

  /** A catalog figure's value in its unit, or why it is absent. */
  private figureText(name: DriveFigure, f: CatalogFigure): string {
    if (f.value === null) return this.p('fig.absent');
    if (name === 'capacityBytes') return fmtBytes(this.lang, f.value);
    if (name === 'afr') return fmtPercentUpTo(this.lang, percentOf(f.value), 3);
    return fmtDecimal(this.lang, f.value, 2);
  }

  /** Pick a drive from the catalog (its figures, sources and dates shown) or add one to type in. */
  private catalogPicker(): HTMLElement {
    const p = this.p;
    const box = el('fieldset', { class: 'pl-group pl-catalog' }, el('legend', {}, p('sec.catalog')));
    const cat = this.catalog;
    if (cat === null) box.append(el('p', { role: 'status' }, p('catalogLoading')));
    else if (typeof cat === 'string') box.append(el('p', { class: 'error', role: 'alert' }, p('catalogFailed', { detail: cat })));
    else {
      const select = el('select', { id: 'pl-catalog', 'data-testid': TID.plannerCatalog, 'aria-describedby': 'pl-catalog-help' });
      for (const seg of SEGMENTS) {
        const group = el('optgroup', { label: p(`seg.${seg}`) });
        for (const d of cat.drives.filter((x) => x.segment === seg)) group.append(el('option', { value: d.id }, this.catalogName(d)));
        if (group.childElementCount > 0) select.append(group);
      }
      select.value = pickedCatalogId !== null && cat.drives.some((d) => d.id === pickedCatalogId) ? pickedCatalogId : (cat.drives[0]?.id ?? '');
      const figures = el('div', { class: 'pl-table-wrap' });
      const show = (): void => {
        const d = cat.drives.find((x) => x.id === select.value);
        figures.replaceChildren();
        if (d === undefined) return;
        const body = el('tbody', {});
        for (const name of DRIVE_FIGURES) {
          const f = d[name];
          if (f === undefined) continue;
          const price = name === 'priceUsd' && isExamplePrice(d.priceUsd) ? ` (${p('fig.examplePrice')})` : '';
          // Two columns (the form is narrow): the figure, then its value, its source and the date the source gives.
          body.append(el('tr', { 'data-figure': name },
            el('th', { scope: 'row' }, p(`fig.${name}`)),
            el('td', {},
              el('strong', { class: 'pl-fig-value' }, this.figureText(name, f) + price),
              // The catalog's citation (or why the figure is absent), shown as written: data, not UI text.
              el('span', { class: 'pl-fig-source', translate: 'no', lang: 'en' }, 'source' in f ? f.source : f.reason, ...('url' in f && f.url !== undefined ? [' ', el('a', { href: f.url, rel: 'noreferrer noopener', target: '_blank' }, f.url)] : [])),
              el('span', { class: 'pl-fig-date' }, `${p('col.date')}: ${f.date}`))));
        }
        figures.append(el('table', { class: 'pl-table pl-figures', 'data-testid': TID.plannerCatalogFigures },
          el('caption', {}, p('catalogCaption', { label: this.catalogName(d) })),
          el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, p('col.figure')), el('th', { scope: 'col' }, `${p('col.value')} · ${p('col.source')}`))),
          body));
      };
      select.addEventListener('change', () => {
        pickedCatalogId = select.value;
        show();
      });
      show();
      const add = el('button', { type: 'button', 'data-testid': TID.plannerCatalogAdd }, p('addFromCatalog'));
      add.addEventListener('click', () => {
        const d = cat.drives.find((x) => x.id === select.value);
        if (d === undefined) return;
        // The catalog's sourced figures; a figure it does not give is left out, so the check names the field to type in.
        const model = catalogDriveDraft(cat, d.id);
        if (model === null) return;
        pickedCatalogId = d.id;
        const drives = Array.isArray(this.draft['drives']) ? (this.draft['drives'] as Json[]) : [];
        if (!drives.some((x) => x['id'] === d.id)) drives.push({ ...model.drive });
        this.draft['drives'] = drives;
        if (isExamplePrice(d.priceUsd) && this.draft['priceKind'] === undefined) this.draft['priceKind'] = 'example';
        this.onStructure();
      });
      const typed = el('button', { type: 'button', 'data-testid': TID.plannerAddTypedDrive }, p('addTyped'));
      typed.addEventListener('click', () => {
        const drives = Array.isArray(this.draft['drives']) ? (this.draft['drives'] as Json[]) : [];
        const first = drives[0];
        let n = drives.length + 1;
        while (drives.some((x) => x['id'] === `drive-${n}`)) n++;
        const copy: Json = first === undefined ? {} : (JSON.parse(JSON.stringify(first)) as Json);
        delete copy['notes'];
        drives.push({ ...copy, id: `drive-${n}`, label: p('newDrive', { n }) });
        this.draft['drives'] = drives;
        this.onStructure();
      });
      box.append(
        el('div', { class: 'pl-field' }, el('label', { for: 'pl-catalog' }, p('f.catalog')), select, el('p', { class: 'pl-help', id: 'pl-catalog-help' }, p('h.catalog'))),
        figures, el('div', { class: 'pl-actions' }, add, typed),
      );
    }
    return box;
  }

}
