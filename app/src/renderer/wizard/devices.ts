/**
 * Step 1, Devices: the probe's device list (`devices.list`) as a stacking diagram (a device →
 * the device it is built on: sysfs slaves for dm/bcache/md, or the file a loop device reads and
 * the device that file lives on) and as a table where the person picks the front device (one)
 * and the backing devices (any). Partitions are listed under their disk, each a choice of its
 * own; devices of size 0 (unattached loop devices, empty card readers) are folded away.
 */
import type { DeviceEntry, ErrorCode } from '../../shared/contract.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { StepCtx, StepView } from './index.ts';
import { chosenDevices } from './state.ts';
import { fmtBytes, fmtList } from '../../shared/units.ts';
import { countedTwice, guessBacking, lowersOf, notCounted, stackTops, tableOrder } from './stacking.ts';
import { common } from '../../shared/i18n/common.ts';

/** Stands for a piece of data (a path) inside a translated sentence; see withData. */
const MARK = '\u0000';

/** A translated sentence with its MARK replaced by the data, marked translate="no" (it is not text of ours). */
function withData(sentence: string, data: string): (Node | string)[] {
  const [before = '', after = ''] = sentence.split(MARK);
  return [before, el('code', { translate: 'no' }, data), after];
}

/** The last list the probe gave, kept while the wizard is open (Refresh asks again). */
let cached: DeviceEntry[] | null = null;
let showEmpty = false;

/** The step's state and drawing: the list shown, the person's choice, the devices left out. */
class DevicesView {
  readonly body: HTMLElement;
  readonly chosen: HTMLElement;
  disposed = false;
  /** Devices the probe leaves out because they hold a backing loop's image (name → loop). */
  private skipped = new Map<string, string[]>();

  constructor(private readonly s: StepCtx) {
    this.body = el('div', { class: 'wiz-devices', 'aria-busy': 'true' }, el('p', { role: 'status' }, s.w('dev.loading')));
    this.chosen = el('p', { class: 'wiz-chosen', 'data-testid': TID.wizChosen, 'aria-live': 'polite' });
  }

  private kind(d: DeviceEntry): string {
    return this.s.w(`kind.${d.kind}`);
  }

  private size(d: DeviceEntry): string {
    return d.sizeBytes === null ? translate(common, this.s.ctx.lang, 'notAvailable') : fmtBytes(this.s.ctx.lang, d.sizeBytes);
  }

  private role(d: DeviceEntry): string {
    return d.role === 'other' ? '' : this.s.w(`role.${d.role}`);
  }

  private skipText(d: DeviceEntry): string {
    const loops = this.skipped.get(d.name) ?? [];
    return loops.length === 0 ? '' : loops.length === 1 ? this.s.w('dev.notCounted', { loop: loops[0] ?? '' }) : this.s.w('dev.notCountedMany', { loops: loops.join(', ') });
  }

  describeChoice(): void {
    const { draft, w } = this.s;
    const lang = this.s.ctx.lang;
    const parts: string[] = [];
    if (draft.front !== null) parts.push(w('dev.asFront', { name: draft.front }));
    const backing = draft.backing.filter((b) => b !== draft.front);
    if (backing.length > 0) parts.push(w('dev.asBacking', { names: fmtList(lang, backing) }));
    this.chosen.textContent = parts.length === 0 ? w('dev.noneChosen') : w('dev.chosen', { what: fmtList(lang, parts) });
  }

  /** One box of the diagram: "loop7 · loop device · 1.1 GB · model · detected: front". */
  private box(name: string, byName: Map<string, DeviceEntry>): HTMLElement {
    const w = this.s.w;
    const d = byName.get(name);
    if (d === undefined) return el('span', { class: 'dev-box' }, el('strong', { translate: 'no' }, name));
    const facts = [this.kind(d), this.size(d), d.isPartition && d.parent !== null ? w('dev.partitionOf', { disk: d.parent }) : ''].filter((x) => x.length > 0);
    const r = this.role(d);
    return el('span', { class: `dev-box role-${d.role}` }, el('strong', { translate: 'no' }, d.name), ` · ${facts.join(' · ')}`,
      d.model === null ? '' : el('span', { translate: 'no' }, ` · ${d.model}`),
      r ? el('span', { class: 'badge' }, w('dev.detected', { role: r })) : '',
      this.skipText(d) ? el('span', { class: 'badge not-counted' }, this.skipText(d)) : '');
  }

  private stackItem(name: string, byName: Map<string, DeviceEntry>, seen: Set<string>): HTMLElement {
    const w = this.s.w;
    const li = el('li', {}, this.box(name, byName));
    const d = byName.get(name);
    if (d === undefined || seen.has(name) || seen.size > 16) return li;
    const next = new Set(seen).add(name);
    const lowers = lowersOf(d);
    if (lowers.length > 0) {
      const ul = el('ul', {});
      for (const l of lowers) {
        const sub = this.stackItem(l.name, byName, next);
        sub.prepend(el('span', { class: 'dev-via' }, el('span', { 'aria-hidden': 'true' }, '↳ '), ...(l.file === null ? [w('dev.builtOn')] : withData(w('dev.fileOn', { file: MARK }), l.file))));
        ul.append(sub);
      }
      li.append(ul);
    }
    return li;
  }

  /** The stacking diagram: each device on top of a stack, and what it is built on. */
  private diagram(devices: DeviceEntry[], byName: Map<string, DeviceEntry>): HTMLElement {
    const w = this.s.w;
    const tops = stackTops(devices);
    const diagram = el('section', { class: 'wiz-stacks', 'aria-labelledby': 'wiz-stacks-title', 'data-testid': TID.wizStacks },
      el('h4', { id: 'wiz-stacks-title' }, w('dev.stacksTitle')));
    if (tops.length === 0) diagram.append(el('p', { class: 'help' }, w('dev.noStacks')));
    else {
      const ul = el('ul', { class: 'stack-diagram' });
      for (const t of tops) ul.append(this.stackItem(t.name, byName, new Set()));
      diagram.append(el('p', { class: 'help' }, w('dev.stacksHelp')), ul);
    }
    return diagram;
  }

  /** One table row with its front radio and backing checkbox. */
  private row(d: DeviceEntry, nested: boolean, radio: HTMLInputElement, check: HTMLInputElement): HTMLElement {
    const w = this.s.w;
    const nameCell = el('th', { scope: 'row', class: nested ? 'nested' : '' }, nested ? el('span', { 'aria-hidden': 'true' }, '↳ ') : '', el('span', { translate: 'no' }, d.name));
    if (nested && d.parent !== null) nameCell.append(el('span', { class: 'visually-hidden' }, ` (${w('dev.partitionOf', { disk: d.parent })})`));
    return el('tr', { 'data-device': d.name, 'data-testid': `${TID.wizDeviceRow}-${d.name}` },
      nameCell,
      el('td', {}, this.kind(d)),
      el('td', { class: 'num' }, this.size(d)),
      el('td', { translate: 'no' }, d.model ?? '—'),
      el('td', {}, this.role(d) || this.skipText(d) || '—'),
      el('td', { class: 'pick' }, radio),
      el('td', { class: 'pick' }, check));
  }

  /** The table where the person picks the front (one, or none) and the backing devices; `sync` draws the choice. */
  private table(rows: ReturnType<typeof tableOrder>): { table: HTMLElement; noneRadio: HTMLInputElement; sync: () => void } {
    const { draft, w } = this.s;
    const radios = new Map<string, HTMLInputElement>();
    const boxes = new Map<string, HTMLInputElement>();
    const noneRadio = el('input', { type: 'radio', name: 'wiz-front', id: 'wiz-front-none', value: '', 'data-testid': TID.wizFrontNone });
    const sync = (): void => {
      noneRadio.checked = draft.front === null;
      for (const [name, r] of radios) r.checked = draft.front === name;
      for (const [name, b] of boxes) {
        b.checked = draft.backing.includes(name);
        b.disabled = draft.front === name;
      }
      this.describeChoice();
      this.s.changed();
    };
    noneRadio.addEventListener('change', () => {
      if (noneRadio.checked) draft.front = null;
      sync();
    });
    const tbody = el('tbody', {});
    for (const { device: d, nested } of rows) {
      const radio = el('input', { type: 'radio', name: 'wiz-front', value: d.name, 'aria-label': w('dev.frontFor', { name: d.name }) });
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        draft.front = d.name;
        draft.backing = draft.backing.filter((b) => b !== d.name);
        sync();
      });
      const check = el('input', { type: 'checkbox', value: d.name, 'aria-label': w('dev.backingFor', { name: d.name }) });
      check.addEventListener('change', () => {
        draft.backing = check.checked ? [...draft.backing.filter((b) => b !== d.name), d.name] : draft.backing.filter((b) => b !== d.name);
        sync();
      });
      radios.set(d.name, radio);
      boxes.set(d.name, check);
      tbody.append(this.row(d, nested, radio, check));
    }
    const head = el('tr', {}, ...(['dev.col.device', 'dev.col.kind', 'dev.col.size', 'dev.col.model', 'dev.col.role', 'dev.col.front', 'dev.col.backing'] as const)
      .map((k) => el('th', { scope: 'col' }, w(k))));
    const table = el('table', { class: 'wiz-table', 'data-testid': TID.wizDevices },
      el('caption', {}, w('dev.tableCaption')), el('thead', {}, head), tbody);
    return { table, noneRadio, sync };
  }

  render(devices: DeviceEntry[]): void {
    const { draft, w } = this.s;
    const lang = this.s.ctx.lang;
    const names = new Set(devices.map((d) => d.name));
    // A device chosen earlier that is gone now is no longer chosen.
    if (draft.front !== null && !names.has(draft.front)) draft.front = null;
    draft.backing = draft.backing.filter((b) => names.has(b) && b !== draft.front);
    const byName = new Map(devices.map((d) => [d.name, d] as const));
    this.skipped = notCounted(devices);
    const diagram = this.diagram(devices, byName);
    // Accept the probe's guess.
    const guessedFront = devices.find((d) => d.role === 'front')?.name ?? null;
    const guessedBacking = guessBacking(devices, guessedFront);
    const accept = el('button', { type: 'button', 'data-testid': TID.wizAcceptRoles }, w('dev.accept'));
    const guessText = fmtList(lang, [
      ...(guessedFront === null ? [] : [w('dev.asFront', { name: guessedFront })]),
      ...(guessedBacking.length === 0 ? [] : [w('dev.asBacking', { names: fmtList(lang, guessedBacking) })]),
    ]);
    const empty = devices.filter((d) => d.sizeBytes === 0 && d.name !== draft.front && !draft.backing.includes(d.name));
    const emptyNames = new Set(empty.map((d) => d.name));
    const { table, noneRadio, sync } = this.table(tableOrder(devices).filter((r) => showEmpty || !emptyNames.has(r.device.name)));
    const toggle = el('input', { type: 'checkbox', id: 'wiz-show-empty' });
    toggle.checked = showEmpty;
    toggle.addEventListener('change', () => {
      showEmpty = toggle.checked;
      this.render(devices);
    });
    const refreshBtn = el('button', { type: 'button', 'data-testid': TID.wizRefresh }, w('dev.refresh'));
    refreshBtn.addEventListener('click', () => void this.load(true));
    this.body.removeAttribute('aria-busy');
    this.body.replaceChildren(
      el('p', { class: 'intro' }, w('dev.intro')),
      diagram,
      guessText.length > 0
        ? el('div', { class: 'wiz-guess' }, el('p', {}, w('dev.guess', { what: guessText })), accept)
        : el('p', { class: 'help' }, w('dev.noGuess')),
      el('div', { class: 'wiz-front-none' }, noneRadio, el('label', { for: 'wiz-front-none' }, w('dev.frontNone'))),
      el('div', { class: 'table-wrap' }, table),
      el('div', { class: 'wiz-table-tools' },
        empty.length > 0 ? el('span', {}, toggle, el('label', { for: 'wiz-show-empty' }, w('dev.showEmpty', { n: empty.length }))) : '',
        refreshBtn),
      this.chosen);
    accept.addEventListener('click', () => {
      draft.front = guessedFront;
      draft.backing = guessedBacking;
      sync();
    });
    sync();
  }

  private showError(code: ErrorCode): void {
    const w = this.s.w;
    const retry = el('button', { type: 'button', 'data-testid': TID.wizRefresh }, w('dev.retry'));
    retry.addEventListener('click', () => void this.load(true));
    this.body.removeAttribute('aria-busy');
    this.body.replaceChildren(
      el('div', { class: 'error', role: 'alert', 'data-testid': TID.wizError },
        el('p', { class: 'err-what' }, w('dev.failed')),
        el('p', {}, errorText(this.s.ctx.lang, code))),
      retry,
      this.chosen);
    this.describeChoice();
  }

  /** The probe's list (`devices.list`), or the one kept unless `fresh`. */
  async load(fresh: boolean): Promise<void> {
    if (cached !== null && !fresh) {
      this.render(cached);
      return;
    }
    this.body.setAttribute('aria-busy', 'true');
    const r = await this.s.ctx.api.listDevices();
    if (this.disposed) return;
    if (r.ok) {
      cached = r.value;
      this.render(r.value);
    } else {
      this.showError(r.error.code);
    }
    this.s.changed();
  }
}

export function devicesStep(s: StepCtx): StepView {
  const { ctx, draft, w } = s;
  const v = new DevicesView(s);
  v.describeChoice();
  void v.load(false);
  return {
    node: el('div', {}, v.body),
    blocker: () => {
      if (chosenDevices(draft).length === 0) return translate(common, ctx.lang, 'err.no-devices-chosen');
      const twice = cached === null ? null : countedTwice(cached, draft.backing.filter((b) => b !== draft.front));
      return twice === null ? null : w('dev.twice', twice);
    },
    dispose: () => { v.disposed = true; },
  };
}
