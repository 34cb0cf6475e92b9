/**
 * Import a log (`#/import`): choose the format and the files (paths, as Home's Open a capture:
 * the browser host has no native file dialog), optionally the files after the switch or the
 * switch time, see what the probe recognized (`import.preview`: files, format, encoding, time
 * zone, devices with their proposed roles, which the person may change, and what each sits on (the
 * device stack: one layer is counted), time range, interval, counters, what was not imported, notes),
 * then import with a progress bar (`import.start` / `import.progress`) and open the dashboard
 * of the new capture. A Prometheus fleet may instead be computed by its server (`--fleet-summary`:
 * no preview, the fleet view of the summary opens). The preview's sentences (notes, needs, reasons,
 * time-zone sources, phases) are the probe's codes with values (`said`), written in the person's
 * language by said.ts. Nothing typed is lost on a failure; the probe's sentence (file, line,
 * column) is shown as it wrote it.
 */
import { type ImportKind, type ImportPreview, type ImportRequest, type Said } from '../../shared/contract.ts';
import { DEVICE_ROLES } from '../../shared/analysis-schema.ts';
import { importUi, type ImportKey } from '../../shared/i18n/import.ts';
import { importTraceUi } from '../../shared/i18n/import-trace.ts';
import { LOCALE, translate } from '../../shared/i18n/types.ts';
import type { Result } from '../../shared/result.ts';
import { TID } from '../../shared/testids.ts';
import { msToSeconds, utcOffsetLabel } from '../../shared/units.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx, Screen } from '../screen.ts';
import { parseUtc, prometheusFields } from './prometheus.ts';
import { timeFields } from './time-fields.ts';
import { saidNode } from './said.ts';
import { kindSelect, traceChosen, traceFields, tracePreview } from './trace.ts';

/** What was typed survives leaving the screen and coming back. */
const typed = { kind: 'perfmon' as ImportKind, files: '', after: '', switchAt: '' };

const ROLES = DEVICE_ROLES;
type DeviceRole = (typeof DEVICE_ROLES)[number];

const paths = (text: string): string[] => text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l.length > 0);

/** A switch time as typed: ISO 8601; without an offset it is UTC (as the help says). */
export const parseSwitchAt = parseUtc;

// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function importScreen(ctx: Ctx): Screen {
  const lang = ctx.lang;
  const u = (key: ImportKey, params?: Record<string, string | number>): string => translate(importUi, lang, key, params);
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const dateFmt = new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
  const numFmt = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 3 });
  const intFmt = new Intl.NumberFormat(LOCALE[lang]);

  const kind = kindSelect(lang, typed.kind);
  const files = el('textarea', { id: 'import-files', rows: '3', spellcheck: 'false', 'data-testid': TID.importFiles, 'aria-describedby': 'import-files-help' });
  files.value = typed.files;
  const after = el('textarea', { id: 'import-after', rows: '2', spellcheck: 'false', 'data-testid': TID.importAfter, 'aria-describedby': 'import-after-help' });
  after.value = typed.after;
  const switchAt = el('input', { id: 'import-switch-at', type: 'text', spellcheck: 'false', autocomplete: 'off', 'data-testid': TID.importSwitchAt, value: typed.switchAt, 'aria-describedby': 'import-switch-help' });

  const previewBtn = el('button', { type: 'submit', 'data-testid': TID.importPreviewBtn }, u('preview'));
  const startBtn = el('button', { type: 'button', class: 'primary', 'data-testid': TID.importStart, disabled: '' }, u('import'));
  const status = el('p', { role: 'status', class: 'help' });
  const progress = el('progress', { max: '100', value: '0', 'data-testid': TID.importProgress, 'aria-label': u('importing'), hidden: '' });
  const errorBox = el('div', { class: 'error', role: 'alert', 'data-testid': TID.importError, hidden: '' });
  const previewBox = el('section', { class: 'import-preview', 'data-testid': TID.importPreview, 'aria-labelledby': 'import-pv-title', hidden: '' });

  /** The request the current preview was made for (Import is for exactly that). */
  let previewed: string | null = null;
  /** Whether the last preview had a switch (a measure window): the import then opens as an analysis, else as a workload profile. */
  let previewedSwitch = false;
  /** Whether the last preview was of a block trace (its import ends with the capture and its prediction). */
  let previewedTrace = false;

  const showError = (what: string, code: Parameters<typeof errorText>[1], message?: string, extra?: string): void => {
    errorBox.replaceChildren(el('p', { class: 'err-what' }, what), el('p', {}, errorText(lang, code)));
    // The probe's own sentence names the file, line and column (English, as the probe wrote it).
    if (message !== undefined && message.length > 0) errorBox.append(el('p', { class: 'probe-says', translate: 'no' }, message));
    if (extra !== undefined) errorBox.append(el('p', {}, extra));
    errorBox.hidden = false;
  };

  /** Roles the person changed in the preview's device table. */
  const roles = new Map<string, DeviceRole>();

  /** The request as typed; `withChoice` false: a trace's without the cache to predict (what the preview reads does not depend on it). */
  const request = (withChoice = true): ImportRequest | string => {
    const sw = parseSwitchAt(switchAt.value);
    if (sw !== null && Number.isNaN(sw)) return u('switchBad');
    if (kind.value === 'prometheus') {
      const range = prom.read();
      if (typeof range === 'string') return range;
      // the server's figures of the whole range: no switch, no roles (a fleet summary has neither)
      if (range.summary === true) return { kind: 'prometheus', files: [], prometheus: range };
      const rs = [...roles].map(([device, role]) => ({ device, role }));
      return { kind: 'prometheus', files: [], prometheus: range, ...(sw !== null ? { switchAtMs: sw } : {}), ...(rs.length > 0 ? { roles: rs } : {}) };
    }
    const f = paths(files.value);
    if (f.length === 0) return u('filesEmpty');
    if (traceChosen(kind.value)) {
      // a block trace: one file, and the cache to predict once it is imported
      if (f.length > 1) return translate(importTraceUi, lang, 'oneFile');
      const st = trace.start();
      if (st !== null && Number.isNaN(st)) return translate(importTraceUi, lang, 'startBad');
      const read = { kind: kind.value as ImportKind, files: f, ...(st !== null ? { traceStartMs: st } : {}) };
      // the preview reads the trace without a cache size; the import predicts the cache chosen
      if (!withChoice) return read;
      const c = trace.choice();
      if (!c.ok) {
        trace.paint();
        return translate(importTraceUi, lang, 'choiceBad');
      }
      return { ...read, prediction: c.choice };
    }
    const a = paths(after.value);
    if (sw !== null && a.length > 0) return u('switchAndAfter');
    const rs = [...roles].map(([device, role]) => ({ device, role }));
    // what the files do not say about their times (an offset from UTC, iostat's interval and start)
    const t = times.read();
    if (typeof t === 'string') return t;
    return { kind: kind.value as ImportKind, files: f, ...(a.length > 0 ? { after: a } : {}), ...(sw !== null ? { switchAtMs: sw } : {}), ...(rs.length > 0 ? { roles: rs } : {}), ...t };
  };

  /** What is being read, in words: the files, or the server. */
  const whatOf = (r: ImportRequest): string => (r.prometheus === undefined ? [...r.files, ...(r.after ?? [])].join(', ') : u('prom.server', { url: r.prometheus.url }));

  const remember = (): void => {
    typed.kind = kind.value as ImportKind;
    typed.files = files.value;
    typed.after = after.value;
    typed.switchAt = switchAt.value;
    if (previewed !== null) {
      const r = request(false);
      if (typeof r === 'string' || JSON.stringify(r) !== previewed) {
        startBtn.disabled = true;
        status.textContent = u('stale');
      }
    }
    showMethod();
  };
  for (const x of [kind, files, after, switchAt]) x.addEventListener('input', remember);
  kind.addEventListener('change', remember);
  // a Prometheus server instead of files
  const prom = prometheusFields((k) => u(k), remember);
  // a block trace: the cache to predict instead of the after files and the switch
  const trace = traceFields(lang, remember);
  const times = timeFields((k) => u(k), remember);
  const filesLabel = el('label', { for: 'import-files' }, u('files'));
  const filesHelp = el('p', { class: 'help', id: 'import-files-help' }, u('filesHelp'));
  const afterFields = el('div', {},
    el('label', { for: 'import-after' }, u('after')), after,
    el('p', { class: 'help', id: 'import-after-help' }, u('afterHelp')));
  const switchFields = el('div', {},
    el('label', { for: 'import-switch-at' }, u('switchAt')), switchAt,
    el('p', { class: 'help', id: 'import-switch-help' }, u('switchAtHelp')));
  const fileFields = el('div', { class: 'import-files' }, filesLabel, files, filesHelp, afterFields);
  const showKind = (): void => {
    const isProm = kind.value === 'prometheus';
    const isTrace = traceChosen(kind.value);
    fileFields.hidden = isProm;
    prom.node.hidden = !isProm;
    afterFields.hidden = isTrace;
    switchFields.hidden = isTrace;
    trace.node.hidden = !isTrace;
    // a file log's times (offset, iostat's interval and start); a trace and a server have their own
    times.node.hidden = isProm || isTrace;
    filesLabel.textContent = isTrace ? translate(importTraceUi, lang, 'file') : u('files');
    filesHelp.textContent = isTrace ? translate(importTraceUi, lang, 'fileHelp') : u('filesHelp');
  };
  /** Whether the fleet's figures are to be computed by the server (no preview; Import computes and opens the fleet view). */
  const summaryChosen = (): boolean => kind.value === 'prometheus' && prom.summary();
  /** An import is running: its buttons stay disabled whatever is typed. */
  let running = false;
  function showMethod(): void {
    const s = summaryChosen();
    previewBtn.hidden = s;
    switchFields.hidden = s || traceChosen(kind.value);
    if (s) previewBox.hidden = true;
    startBtn.textContent = s ? u('prom.compute') : u('import');
    if (s && !running) {
      startBtn.disabled = false;
      if (status.textContent === u('stale')) status.textContent = '';
    }
    if (!s && previewed === null) startBtn.disabled = true;
  }
  kind.addEventListener('change', showKind);
  kind.addEventListener('change', showMethod);
  showKind();

  /** A titled list; a string item is the probe's English (an older probe without `said`), not translated. */
  const list = (title: ImportKey, testId: string | null, items: (string | Node)[]): HTMLElement | null => {
    if (items.length === 0) return null;
    const ul = el('ul', testId === null ? {} : { 'data-testid': testId });
    for (const i of items) ul.append(typeof i === 'string' ? el('li', { translate: 'no' }, i) : el('li', {}, i));
    return el('div', {}, el('h4', {}, u(title)), ul);
  };

  const drawPreview = (p: ImportPreview): void => {
    if (p.trace !== undefined) {
      previewBox.setAttribute('data-ready', String(p.ready));
      previewBox.replaceChildren(el('h3', { id: 'import-pv-title' }, u('pv.title')), ...tracePreview(lang, p, intFmt));
      previewBox.hidden = false;
      return;
    }
    const fileRows = el('tbody', {});
    // the probe's sentences in the person's language (codes with values), or its English when it sent none
    const said = p.said;
    const say = (english: string, s: Said | undefined): Node => (s === undefined ? el('span', { translate: 'no' }, english) : saidNode(lang, s));
    for (const [i, f] of p.files.entries()) {
      const tz = f.timeZone ?? (f.utcOffsetMin === null ? '—' : utcOffsetLabel(f.utcOffsetMin));
      fileRows.append(el('tr', {},
        el('th', { scope: 'row', translate: 'no' }, f.name),
        el('td', { translate: 'no' }, f.format),
        el('td', { translate: 'no' }, f.encoding),
        el('td', {}, el('span', { translate: 'no' }, tz), ' (', say(f.timeZoneSource, said?.files[i]?.timeZoneSource), ')'),
        el('td', { class: 'num' }, intFmt.format(f.samples)),
        el('td', { translate: 'no' }, f.hosts.join(', '))));
    }
    const devRows = el('tbody', {});
    for (const [i, d] of p.devices.entries()) {
      const pick = el('select', { 'aria-label': `${u('pv.role')}: ${d.name}` });
      for (const r of ROLES) {
        const o = el('option', { value: r }, u(`role.${r}`));
        if (r === d.role) o.selected = true;
        pick.append(o);
      }
      pick.addEventListener('change', () => {
        roles.set(d.name, pick.value as DeviceRole);
        remember();
      });
      // what the device sits on: its edge of the device stack (with how it is known), else the probe's pairing
      const at = p.stack.findIndex((e) => e.holder === d.name);
      const edge = at < 0 ? undefined : p.stack[at];
      const on = edge?.on ?? d.on;
      devRows.append(el('tr', { 'data-device': d.name, 'data-role': d.role, ...(on === null ? {} : { 'data-on': on }), ...(edge === undefined ? {} : { 'data-stack': edge.kind }) },
        el('th', { scope: 'row', translate: 'no' }, d.name),
        el('td', {}, pick),
        el('td', {}, ...(edge === undefined ? [el('span', { translate: 'no' }, d.on ?? '—')] : [el('span', { translate: 'no' }, edge.on), ' (', say(edge.kind, said?.stack[at]), ')'])),
        el('td', {}, say(d.reason, said?.devices[i]))));
    }
    const range = p.timeRange === null ? '—' : `${dateFmt.format(new Date(p.timeRange.startUtcMs))} – ${dateFmt.format(new Date(p.timeRange.endUtcMs))}`;
    const hasSwitch = p.phases.some((ph) => ph.name === 'measure');
    const phases = p.phases.map((ph, i) => el('span', {}, say(ph.name, said?.phases[i]), `: ${dateFmt.format(new Date(ph.startUtcMs))} – ${dateFmt.format(new Date(ph.endUtcMs))}`));
    previewBox.setAttribute('data-ready', String(p.ready));
    previewBox.replaceChildren(
      el('h3', { id: 'import-pv-title' }, u('pv.title')),
      el('table', { class: 'home-table' },
        el('thead', {}, el('tr', {}, ...(['pv.file', 'pv.format', 'pv.encoding', 'pv.timeZone', 'pv.samples', 'pv.hosts'] as const).map((k) => el('th', { scope: 'col' }, u(k))))),
        fileRows),
      el('h4', {}, u('pv.devices')),
      el('table', { class: 'home-table', 'data-testid': TID.importDevices },
        el('thead', {}, el('tr', {}, ...(['pv.device', 'pv.role', 'pv.on', 'pv.reason'] as const).map((k) => el('th', { scope: 'col' }, u(k))))),
        devRows),
      el('dl', { class: 'import-facts' },
        el('dt', {}, u('pv.range')), el('dd', { 'data-testid': TID.importRange }, range),
        el('dt', {}, u('pv.interval')), el('dd', { 'data-testid': TID.importInterval, 'data-ms': String(p.intervalMs ?? '') }, p.intervalMs === null ? '—' : u('pv.intervalValue', { seconds: numFmt.format(msToSeconds(p.intervalMs)) })),
        el('dt', {}, u('pv.intervals')), el('dd', { class: 'num' }, intFmt.format(p.intervals))),
      ...[
        list('pv.phases', null, phases),
        list('pv.counters', TID.importCounters, p.counters.map((c) => `${c.source} → ${c.field}`)),
        list('pv.unmapped', null, p.unmapped.map((x, i) => { const s = said?.unmapped[i]; return s === undefined ? `${x.what}: ${x.why}` : el('span', {}, saidNode(lang, s.what), u('pv.because'), saidNode(lang, s.why)); })),
        list('pv.notes', TID.importNotes, p.notes.map((n, i) => { const s = said?.notes[i]; return s === undefined ? n : saidNode(lang, s); })),
        list('pv.needs', null, p.needs.map((n, i) => { const s = said?.needs[i]; return s === undefined ? n : saidNode(lang, s); })),
      ].filter((x): x is HTMLElement => x !== null),
      // a partial log (queue length or busy time only) is refused here: nothing could be analysed from it
      p.partial == null
        ? el('p', { class: p.ready ? 'help' : 'err-what' }, p.ready ? (hasSwitch ? u('pv.ready') : u('pv.noSwitch')) : u('pv.notReady'))
        : partialRefusal(p.partial));
    previewBox.hidden = false;
  };

  /** Why a partial log is refused, in the person's language, with what to collect and the commands that log it (the source's own names). */
  const partialRefusal = (x: NonNullable<ImportPreview['partial']>): HTMLElement => el('div', { class: 'err-what', role: 'alert', 'data-testid': TID.importRefusal },
    el('p', {}, u('pv.partial', { has: u(`has.${x.has}`), missing: x.missing.map((k) => u(`miss.${k}`)).join(', ') })),
    el('p', {}, u('pv.partialNeeds', { needed: x.needed })),
    el('p', {}, u('pv.partialHow')),
    el('pre', { translate: 'no' }, x.commands.join('\n')));

  const form = el('form', { class: 'import-form', novalidate: '', 'aria-labelledby': 'import-title' },
    el('label', { for: 'import-kind' }, u('kind')), kind,
    fileFields, prom.node, trace.node, switchFields, times.node,
    el('div', { class: 'home-actions' }, previewBtn, startBtn, progress),
    status);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (summaryChosen()) {
      if (!running) startBtn.click();
      return;
    }
    errorBox.hidden = true;
    // a block trace's preview needs no cache size: only its import does
    const r = request(false);
    if (typeof r === 'string') {
      errorBox.replaceChildren(el('p', {}, r));
      errorBox.hidden = false;
      return;
    }
    previewBtn.disabled = true;
    startBtn.disabled = true;
    status.textContent = u('previewing');
    const key = JSON.stringify(request(false));
    void ctx.api.previewImport(r).then((res) => {
      if (disposed) return;
      previewBtn.disabled = false;
      status.textContent = '';
      if (!res.ok) {
        previewed = null;
        // a refused role set (one that counts a device and the device under it): the last preview
        // stays, marked not ready, so the person can change the roles it names
        if (roles.size === 0) previewBox.hidden = true;
        else previewBox.setAttribute('data-ready', 'false');
        showError(u(res.error.code === 'import-choice-refused' ? 'previewRefused' : 'previewFailed', { what: whatOf(r) }), res.error.code, res.error.message);
        return;
      }
      previewed = key;
      previewedSwitch = res.value.phases.some((ph) => ph.name === 'measure');
      previewedTrace = res.value.trace !== undefined;
      drawPreview(res.value);
      // with no switch the whole log is a baseline: it imports, and opens as a workload profile
      startBtn.disabled = !res.value.ready || res.value.analysable === false;
    });
  });

  const openCapture = (path: string): void => {
    status.textContent = u('analyzing');
    void ctx.api.openCapture(path).then((res) => {
      if (disposed) return;
      progress.hidden = true;
      status.textContent = '';
      previewBtn.disabled = false;
      if (res.ok) {
        ctx.remember(res.value);
        ctx.go(`results/${encodeURIComponent(res.value.id)}`);
        return;
      }
      showError(u('openFailed'), res.error.code, res.error.message, u('savedAt', { path }));
    });
  };

  /** An import that could not start or stopped: the progress goes, both buttons come back, and the error shows. */
  const importFailed = (what: string, error: { code: Parameters<typeof errorText>[1]; message: string }): void => {
    running = false;
    progress.hidden = true;
    status.textContent = '';
    previewBtn.disabled = false;
    startBtn.disabled = false;
    showError(u('importFailed', { what }), error.code, error.message);
  };

  const poll = (jobId: string, what: string): void => {
    void ctx.api.importProgress(jobId).then((res: Result<{ percent: number; done: boolean; capturePath: string | null; captureDir?: string | null | undefined; summaryPath?: string | null | undefined; hosts?: string[] | undefined }>) => {
      if (disposed) return;
      if (!res.ok) {
        importFailed(what, res.error);
        return;
      }
      progress.value = res.value.percent;
      // the fleet's figures computed by its server: the fleet view of the summary
      const summary = res.value.summaryPath ?? null;
      if (res.value.done && summary !== null) {
        ctx.go(`fleet/${encodeURIComponent(summary)}`);
        return;
      }
      // a fleet (one capture per host, or one capture of several hosts): the fleet view
      const dir = res.value.captureDir ?? null;
      if (res.value.done && (dir !== null || (res.value.capturePath !== null && (res.value.hosts?.length ?? 0) > 1))) {
        ctx.go(`fleet/${encodeURIComponent(dir ?? (res.value.capturePath as string))}`);
        return;
      }
      if (res.value.done && res.value.capturePath !== null) {
        // a block trace has no switch: the workload without a cache, with its prediction
        if (previewedSwitch && !previewedTrace) openCapture(res.value.capturePath);
        else ctx.go(`profile-file/${encodeURIComponent(res.value.capturePath)}`);
        return;
      }
      timer = setTimeout(() => poll(jobId, what), 250);
    });
  };

  startBtn.addEventListener('click', () => {
    const r = request();
    // a trace's cache to predict may change after its preview; it must be valid
    if (typeof r === 'string' && traceChosen(kind.value) && JSON.stringify(request(false)) === previewed) {
      errorBox.replaceChildren(el('p', {}, r));
      errorBox.hidden = false;
      return;
    }
    const server = summaryChosen();
    if (typeof r === 'string' && server) {
      errorBox.replaceChildren(el('p', {}, r));
      errorBox.hidden = false;
      return;
    }
    if (typeof r === 'string' || (!server && JSON.stringify(request(false)) !== previewed)) {
      status.textContent = u('stale');
      startBtn.disabled = true;
      return;
    }
    errorBox.hidden = true;
    running = true;
    startBtn.disabled = true;
    previewBtn.disabled = true;
    progress.value = 0;
    progress.hidden = false;
    status.textContent = server ? u('prom.computing') : r.prediction === undefined ? u('importing') : translate(importTraceUi, lang, 'predicting');
    const what = whatOf(r);
    void ctx.api.startImport(r).then((res) => {
      if (disposed) return;
      if (!res.ok) {
        importFailed(what, res.error);
        return;
      }
      poll(res.value, what);
    });
  });

  const node = el('div', { class: 'home import', 'data-testid': TID.importScreen },
    el('h2', { id: 'import-title' }, u('title')),
    el('p', { class: 'intro' }, u('intro')),
    form, errorBox, previewBox);
  return {
    node,
    dispose: () => {
      disposed = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
