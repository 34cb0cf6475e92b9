/**
 * The Planner's configuration editors: one tab per configuration (the one being edited shown,
 * the others hidden), each with its backing drives, RAID, costs and cache. Chosen by its tab so
 * that, beside the results, a person compares designs while editing one of them.
 */
import { RAID_LEVELS, raidGroupProblem, ramCacheDraft, type RaidLevel } from '@cacheproof/engine/plan';
import { TID } from '../../shared/testids.ts';
import type { PlannerKey } from '../../shared/i18n/planner.ts';
import type { TcoKey } from '../../shared/i18n/tco.ts';
import { el } from '../dom.ts';
import { IDENT, PERCENT, type PlannerForm } from './form.ts';
import { predictedButton } from './predicted.ts';
import { newRamCache, ramSizeFields } from './ram-size.ts';
import { getAt, setAt, type Json, type Path, type PlannerState } from './state.ts';
import { ringIndex } from '../../shared/units.ts';

/** Group size chosen when a new RAID level does not accept the current one. */
const DEFAULT_GROUP: Record<RaidLevel, number> = { '0': 4, '1': 2, '10': 4, '5': 5, '6': 6, custom: 4 };

/** A configuration id not used yet: `config-N`. */
function freshConfigId(configs: Json[]): string {
  let n = configs.length + 1;
  while (configs.some((c) => c['id'] === `config-${n}`)) n++;
  return `config-${n}`;
}

/** The configuration being edited: the one last chosen while it exists, else the first. */
function editedConfig(st: PlannerState, configs: Json[]): string {
  const ids = configs.map((c) => String(c['id'] ?? ''));
  if (st.editing !== undefined && ids.includes(st.editing)) return st.editing;
  return ids[0] ?? '';
}

/** The tabs: one per configuration, its label; arrow keys, Home and End move between them (WAI-ARIA tabs). */
function configTabs(f: PlannerForm, configs: Json[], editing: string): HTMLElement {
  const list = el('div', { class: 'pl-tabs', role: 'tablist', 'aria-labelledby': 'pl-configs-title' });
  const choose = (id: string): void => {
    f.st.editing = id;
    f.onStructure();
    document.getElementById(`pl-tab-${id}`)?.focus();
  };
  const ids = configs.map((c) => String(c['id'] ?? ''));
  for (const c of configs) {
    const id = String(c['id'] ?? '');
    const selected = id === editing;
    const tab = el('button', {
      type: 'button', role: 'tab', id: `pl-tab-${id}`, 'data-config': id, 'aria-controls': `pl-config-${id}`,
      'aria-selected': selected ? 'true' : 'false', tabindex: selected ? '0' : '-1',
    }, String(c['label'] ?? id));
    tab.addEventListener('click', () => {
      if (!selected) choose(id);
    });
    tab.addEventListener('keydown', (e) => {
      const at = ids.indexOf(id);
      const to = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? ids[ringIndex(at, 1, ids.length)]
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? ids[ringIndex(at, -1, ids.length)]
          : e.key === 'Home' ? ids[0] : e.key === 'End' ? ids[ids.length - 1] : undefined;
      if (to === undefined) return;
      e.preventDefault();
      choose(to);
    });
    list.append(tab);
  }
  return list;
}

/** What every configuration's editor reads: the form, the draft, its configurations and drives, and the choices offered. */
interface ConfigEditorContext {
  f: PlannerForm;
  p: PlannerForm['p'];
  d: Json;
  configs: Json[];
  drives: Json[];
  driveOptions: (filter: (x: Json) => boolean) => (readonly [string, string])[];
  raidOptions: (readonly [string, string])[];
}

/** The configurations' editors (one shown, chosen by its tab) and the button that adds one. */
export function configEditors(f: PlannerForm, configs: Json[]): HTMLElement {
  const p = f.p;
  const d = f.draft;
  const drives = Array.isArray(d['drives']) ? (d['drives'] as Json[]) : [];
  const cx: ConfigEditorContext = {
    f, p, d, configs, drives,
    driveOptions: (filter) => drives.filter(filter).map((x) => [String(x['id']), String(x['label'])] as const),
    raidOptions: RAID_LEVELS.map((l) => [l, l === 'custom' ? p('opt.raidCustom') : p('opt.raid', { level: l })] as const),
  };
  const out = el('div', { class: 'pl-configs' }, el('h3', { id: 'pl-configs-title' }, p('sec.configs')));
  const editing = editedConfig(f.st, configs);
  const tabs = configTabs(f, configs, editing);
  out.append(tabs);
  for (const [i, c] of configs.entries()) {
    const id = String(c['id'] ?? '');
    // one configuration edited at a time (its tab chosen above): the others wait in the document, hidden
    // the tab's panel around the fieldset (a fieldset keeps its own role, a group named by its legend)
    const panel = el('div', { id: `pl-config-${id}`, role: 'tabpanel', 'aria-labelledby': `pl-tab-${id}` }, configFieldset(cx, i, c));
    if (id !== editing) panel.hidden = true;
    out.append(panel);
  }
  out.append(el('div', { class: 'pl-actions' }, addConfigButton(cx)));
  return out;
}

/** Sets a RAID level where `raidAt` points: a custom level gets its write penalty and redundancy, a group size the level refuses its default. */
function raidSetter(d: Json, raidAt: Path): (value: string) => void {
  return (value) => {
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
}

/** One configuration's fieldset: its actions, backing drives and RAID, costs, and its cache (or the line saying it has none). */
function configFieldset(cx: ConfigEditorContext, i: number, c: Json): HTMLElement {
  const { f, p, d } = cx;
  const label = String(c['label'] ?? c['id'] ?? '');
  const id = String(c['id'] ?? '');
  const at = ['configurations', i] as const;
  const raidPath = [...at, 'backing', 'raid'] as const;
  const level = String(getAt(d, [...raidPath, 'level']) ?? '');
  const fs = el('fieldset', { class: 'pl-group pl-config', 'data-config': id }, el('legend', {}, label), configActions(cx, i, c, label),
    f.selectField([...at, 'backing', 'driveId'], p('f.backingDrive'), p('h.backingDrive'), cx.driveOptions(() => true), undefined, label),
    f.selectField([...raidPath, 'level'], p('f.raid'), p('h.raid'), cx.raidOptions, raidSetter(d, raidPath), label),
    f.numberField([...raidPath, 'groupSize'], p('f.groupSize'), p('unit.drives'), p('h.groupSize'), IDENT, { step: '1', prefix: label }),
  );
  if (level === 'custom')
    fs.append(
      f.numberField([...raidPath, 'writePenalty'], p('f.writePenalty'), p('unit.factor'), p('h.writePenalty'), IDENT, { prefix: label }),
      f.numberField([...raidPath, 'redundantDrivesPerGroup'], p('f.redundant'), p('unit.drives'), p('h.redundant'), IDENT, { step: '1', prefix: label }),
    );
  fs.append(
    f.numberField([...at, 'backing', 'count'], p('f.count'), p('unit.drives'), p('h.count'), IDENT, { step: '1', optional: true, prefix: label }),
    f.numberField([...at, 'system', 'baseCostUsd'], p('f.baseCost'), p('unit.usd'), p('h.baseCost'), IDENT, { prefix: label }),
    f.numberField([...at, 'supportUsdPerYear'], p('f.support'), p('unit.usdPerYear'), p('h.support'), IDENT, { prefix: label }),
  );
  const cache = c['cache'] as Json | undefined;
  if (cache !== undefined && cache !== null) fs.append(cacheFieldset(cx, [...at, 'cache'], cache, label));
  else fs.append(el('p', { class: 'pl-help' }, p('noCache')));
  return fs;
}

/** A configuration's cache: its drives and RAID (SSD) or its size (RAM), mode, hit shares and their source, and license. */
function cacheFieldset(cx: ConfigEditorContext, cp: Path, cache: Json, label: string): HTMLElement {
  const { f, p, d } = cx;
  const ssd = cache['kind'] === 'ssd';
  const box = el('fieldset', { class: 'pl-group pl-cache' }, el('legend', {}, ssd ? p('cacheSsdTitle') : p('cacheRamTitle')));
  if (ssd)
    box.append(
      f.selectField([...cp, 'driveId'], p('f.cacheDrive'), p('h.cacheDrive'), cx.driveOptions((x) => x['class'] !== 'hdd'), undefined, label),
      f.numberField([...cp, 'count'], p('f.cacheCount'), p('unit.drives'), p('h.cacheCount'), IDENT, { step: '1', prefix: label }),
      f.selectField([...cp, 'raid', 'level'], p('f.raid'), p('h.raid'), cx.raidOptions, raidSetter(d, [...cp, 'raid']), label),
    );
  else box.append(...ramSizeFields(f.lang, p, d, cp, f.catalog, (path, l, u, h, conv) => f.numberField(path, l, u, h, conv, { prefix: label })));
  const hitInput = (key: 'readHitShare' | 'writeHitShare', fk: PlannerKey, h: PlannerKey): HTMLElement => {
    const field = f.numberField([...cp, key], p(fk), p('unit.percent'), p(h), PERCENT, { prefix: label });
    // A typed hit share is no longer the measured one.
    field.querySelector('input')?.addEventListener('input', () => setAt(d, [...cp, 'hitShareSource'], 'assumed'), { capture: true });
    return field;
  };
  const source = String(getAt(d, [...cp, 'hitShareSource']) ?? 'assumed');
  box.append(
    f.selectField([...cp, 'mode'], p('f.cacheMode'), p('h.cacheMode'), [['write-back', f.tc('mode.write-back')], ['write-through', f.tc('mode.write-through')]], undefined, label),
    hitInput('readHitShare', 'f.readHit', 'h.readHit'),
    hitInput('writeHitShare', 'f.writeHit', 'h.writeHit'),
    el('p', { class: 'pl-help' }, p('hitSource', { source: f.tc(`source.${source}` as TcoKey) })),
    ...[predictedButton(f.lang, f.st.predicted, cache, f.onStructure)].filter((x): x is HTMLElement => x !== null),
    f.numberField([...cp, 'licenseUsd'], p('f.license'), p('unit.usd'), p('h.license'), IDENT, { prefix: label }),
  );
  return box;
}

/** A configuration's actions: duplicate, remove (not the last one), and add an SSD or RAM cache or remove its cache. */
function configActions(cx: ConfigEditorContext, i: number, c: Json, label: string): HTMLElement {
  const { f, p, d, configs } = cx;
  const id = String(c['id'] ?? '');
  const dup = el('button', { type: 'button', 'data-testid': `${TID.plannerDuplicateConfig}-${id}` }, p('dupConfig'));
  dup.addEventListener('click', () => {
    const copy = JSON.parse(JSON.stringify(c)) as Json;
    copy['id'] = freshConfigId(configs);
    copy['label'] = p('copyOf', { label });
    configs.splice(i + 1, 0, copy);
    f.st.editing = String(copy['id']);
    f.onStructure();
  });
  const remove = el('button', { type: 'button', 'data-testid': `${TID.plannerRemoveConfig}-${id}` }, p('removeConfig'));
  if (configs.length <= 1) {
    remove.disabled = true;
    remove.title = p('lastConfig');
  }
  remove.addEventListener('click', () => {
    configs.splice(i, 1);
    // The reference goes with its configuration: savings are then measured against the first.
    if (d['referenceId'] === id) delete d['referenceId'];
    // the neighbour is edited next
    f.st.editing = String((configs[i] ?? configs[i - 1])?.['id'] ?? '');
    f.onStructure();
  });
  const actions = el('div', { class: 'pl-actions', role: 'group', 'aria-label': p('configActions', { label }) }, dup, remove);
  if (c['cache'] === undefined || c['cache'] === null) actions.append(...addCacheButtons(cx, c, id));
  else {
    const none = el('button', { type: 'button', 'data-testid': `${TID.plannerRemoveCache}-${id}` }, p('removeCache'));
    none.addEventListener('click', () => {
      delete c['cache'];
      f.onStructure();
    });
    actions.append(none);
  }
  return actions;
}

/** The buttons that give a configuration with no cache an SSD cache or a RAM cache (the latter refused while the catalog is missing). */
function addCacheButtons(cx: ConfigEditorContext, c: Json, id: string): HTMLElement[] {
  const { f, p, configs, drives } = cx;
  const ssd = el('button', { type: 'button', 'data-testid': `${TID.plannerAddSsdCache}-${id}` }, p('addSsdCache'));
  ssd.addEventListener('click', () => {
    const ssdDrive = drives.find((x) => x['class'] !== 'hdd');
    c['cache'] = {
      kind: 'ssd', driveId: String(ssdDrive?.['id'] ?? ''), count: 2, raid: { level: '1', groupSize: 2 },
      mode: 'write-back', ...hitSharesFrom(configs), fillShare: 1, writeAmplification: 1, licenseUsd: 0,
    };
    f.onStructure();
  });
  const ram = el('button', { type: 'button', 'data-testid': `${TID.plannerAddRamCache}-${id}` }, p('addRamCache'));
  // sized as another configuration's measured RAM cache, else the example's, priced per GB from the catalog by the engine
  const cat = f.catalog;
  const example = cat === null || typeof cat === 'string' ? null : ramCacheDraft(cat);
  const draft = cat === null || typeof cat === 'string' || example === null || !example.ok ? null : newRamCache(cat, configs, example.value.capacityBytes);
  if (draft === null || !draft.ok) {
    ram.disabled = true;
    ram.title = cat === null ? p('catalogLoading') : p('catalogFailed', { detail: typeof cat === 'string' ? cat : example?.ok === false ? example.error.message : draft?.ok === false ? draft.message : '' });
  }
  ram.addEventListener('click', () => {
    if (draft === null || !draft.ok) return;
    c['cache'] = { ...draft.value, mode: 'write-through', ...hitSharesFrom(configs), licenseUsd: 0 };
    f.onStructure();
  });
  return [ssd, ram];
}

/** The button that adds a new all-HDD configuration and edits it. */
function addConfigButton(cx: ConfigEditorContext): HTMLElement {
  const { f, p, d, configs, drives } = cx;
  const add = el('button', { type: 'button', 'data-testid': TID.plannerAddConfig }, p('addConfig'));
  add.addEventListener('click', () => {
    // A new all-HDD design: the reference's system, enclosure and support, the first HDD model in RAID 6 (6 drives per group).
    const base = (configs[0] ?? {}) as Json;
    const hdd = drives.find((x) => x['class'] === 'hdd') ?? drives[0];
    const n = configs.length + 1;
    const newId = freshConfigId(configs);
    configs.push({
      id: newId,
      label: p('newConfig', { n }),
      system: JSON.parse(JSON.stringify(base['system'] ?? { baseCostUsd: 0, maxEnclosures: 0 })) as Json,
      enclosure: JSON.parse(JSON.stringify(base['enclosure'] ?? { slots: 24, priceUsd: 0 })) as Json,
      backing: { driveId: String(hdd?.['id'] ?? ''), raid: { level: '6', groupSize: 6 } },
      supportUsdPerYear: typeof base['supportUsdPerYear'] === 'number' ? base['supportUsdPerYear'] : 0,
    });
    d['configurations'] = configs;
    f.st.editing = newId;
    f.onStructure();
  });
  return add;
}

/** Hit shares for a new cache: those of a cache already in the scenario (measured ones stay "measured"), else 50 % of reads, "assumed". */
function hitSharesFrom(configs: Json[]): Json {
  for (const c of configs) {
    const cache = c['cache'] as Json | undefined;
    if (cache !== undefined && cache !== null && typeof cache['readHitShare'] === 'number')
      return { readHitShare: cache['readHitShare'], writeHitShare: typeof cache['writeHitShare'] === 'number' ? cache['writeHitShare'] : 0, hitShareSource: cache['hitShareSource'] ?? 'assumed' };
  }
  return { readHitShare: 0.5, writeHitShare: 0, hitShareSource: 'assumed' };
}
