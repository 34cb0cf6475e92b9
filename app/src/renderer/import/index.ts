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
 *
 * Parts: the form's fields (importFields), the flow's state and steps (ImportFlow: the request as
 * typed, preview, import and its progress poller), and the preview drawn (preview-view.ts).
 */
import { type ImportKind, type ImportRequest } from '../../shared/contract.ts';
import { importUi, type ImportKey } from '../../shared/i18n/import.ts';
import { importTraceUi } from '../../shared/i18n/import-trace.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import type { Result } from '../../shared/result.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx, Screen } from '../screen.ts';
import { parseUtc, prometheusFields } from './prometheus.ts';
import { timeFields } from './time-fields.ts';
import { drawPreview, type DeviceRole } from './preview-view.ts';
import { kindSelect, traceChosen, traceFields } from './trace.ts';

/** What was typed survives leaving the screen and coming back. */
const typed = { kind: 'perfmon' as ImportKind, files: '', after: '', switchAt: '' };

const paths = (text: string): string[] => text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l.length > 0);

/** A switch time as typed: ISO 8601; without an offset it is UTC (as the help says). */
export const parseSwitchAt = parseUtc;

type Words = (key: ImportKey, params?: Record<string, string | number>) => string;
type ProgressReply = Result<{ percent: number; done: boolean; capturePath: string | null; captureDir?: string | null | undefined; summaryPath?: string | null | undefined; hosts?: string[] | undefined }>;

/** The form's own fields and boxes (the Prometheus, trace and time fields are added by the flow). */
function importFields(lang: Lang, u: Words) {
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
  const filesLabel = el('label', { for: 'import-files' }, u('files'));
  const filesHelp = el('p', { class: 'help', id: 'import-files-help' }, u('filesHelp'));
  const afterFields = el('div', {},
    el('label', { for: 'import-after' }, u('after')), after,
    el('p', { class: 'help', id: 'import-after-help' }, u('afterHelp')));
  const switchFields = el('div', {},
    el('label', { for: 'import-switch-at' }, u('switchAt')), switchAt,
    el('p', { class: 'help', id: 'import-switch-help' }, u('switchAtHelp')));
  const fileFields = el('div', { class: 'import-files' }, filesLabel, files, filesHelp, afterFields);
  return { kind, files, after, switchAt, previewBtn, startBtn, status, progress, errorBox, previewBox, filesLabel, filesHelp, afterFields, switchFields, fileFields };
}

/** The screen's state and its steps: the request as typed, the preview, the import and its progress. */
class ImportFlow {
  disposed = false;
  timer: ReturnType<typeof setTimeout> | null = null;
  /** The request the current preview was made for (Import is for exactly that). */
  previewed: string | null = null;
  /** Whether the last preview had a switch (a measure window): the import then opens as an analysis, else as a workload profile. */
  previewedSwitch = false;
  /** Whether the last preview was of a block trace (its import ends with the capture and its prediction). */
  previewedTrace = false;
  /** An import is running: its buttons stay disabled whatever is typed. */
  running = false;
  /** Roles the person changed in the preview's device table. */
  readonly roles = new Map<string, DeviceRole>();
  readonly v: ReturnType<typeof importFields>;
  /** A Prometheus server instead of files. */
  readonly prom: ReturnType<typeof prometheusFields>;
  /** A block trace: the cache to predict instead of the after files and the switch. */
  readonly trace: ReturnType<typeof traceFields>;
  readonly times: ReturnType<typeof timeFields>;

  constructor(readonly ctx: Ctx, readonly u: Words) {
    this.v = importFields(ctx.lang, u);
    const remember = (): void => this.remember();
    this.prom = prometheusFields((k) => u(k), remember);
    this.trace = traceFields(ctx.lang, remember);
    this.times = timeFields((k) => u(k), remember);
  }

  showError(what: string, code: Parameters<typeof errorText>[1], message?: string, extra?: string): void {
    const box = this.v.errorBox;
    box.replaceChildren(el('p', { class: 'err-what' }, what), el('p', {}, errorText(this.ctx.lang, code)));
    // The probe's own sentence names the file, line and column (English, as the probe wrote it).
    if (message !== undefined && message.length > 0) box.append(el('p', { class: 'probe-says', translate: 'no' }, message));
    if (extra !== undefined) box.append(el('p', {}, extra));
    box.hidden = false;
  }

  /** A trace's request: one file, and the cache to predict once it is imported (`withChoice` false: without it). */
  private traceRequest(f: string[], withChoice: boolean): ImportRequest | string {
    const lang = this.ctx.lang;
    if (f.length > 1) return translate(importTraceUi, lang, 'oneFile');
    const st = this.trace.start();
    if (st !== null && Number.isNaN(st)) return translate(importTraceUi, lang, 'startBad');
    const read = { kind: this.v.kind.value as ImportKind, files: f, ...(st !== null ? { traceStartMs: st } : {}) };
    // the preview reads the trace without a cache size; the import predicts the cache chosen
    if (!withChoice) return read;
    const c = this.trace.choice();
    if (!c.ok) {
      this.trace.paint();
      return translate(importTraceUi, lang, 'choiceBad');
    }
    return { ...read, prediction: c.choice };
  }

  /** The request as typed; `withChoice` false: a trace's without the cache to predict (what the preview reads does not depend on it). */
  request(withChoice = true): ImportRequest | string {
    const { v, u } = this;
    const sw = parseSwitchAt(v.switchAt.value);
    if (sw !== null && Number.isNaN(sw)) return u('switchBad');
    const rs = [...this.roles].map(([device, role]) => ({ device, role }));
    if (v.kind.value === 'prometheus') {
      const range = this.prom.read();
      if (typeof range === 'string') return range;
      // the server's figures of the whole range: no switch, no roles (a fleet summary has neither)
      if (range.summary === true) return { kind: 'prometheus', files: [], prometheus: range };
      return { kind: 'prometheus', files: [], prometheus: range, ...(sw !== null ? { switchAtMs: sw } : {}), ...(rs.length > 0 ? { roles: rs } : {}) };
    }
    const f = paths(v.files.value);
    if (f.length === 0) return u('filesEmpty');
    if (traceChosen(v.kind.value)) return this.traceRequest(f, withChoice);
    const a = paths(v.after.value);
    if (sw !== null && a.length > 0) return u('switchAndAfter');
    // what the files do not say about their times (an offset from UTC, iostat's interval and start)
    const t = this.times.read();
    if (typeof t === 'string') return t;
    return { kind: v.kind.value as ImportKind, files: f, ...(a.length > 0 ? { after: a } : {}), ...(sw !== null ? { switchAtMs: sw } : {}), ...(rs.length > 0 ? { roles: rs } : {}), ...t };
  }

  /** What is being read, in words: the files, or the server. */
  whatOf(r: ImportRequest): string {
    return r.prometheus === undefined ? [...r.files, ...(r.after ?? [])].join(', ') : this.u('prom.server', { url: r.prometheus.url });
  }

  /** Keeps what was typed; a preview made for another request is stale. */
  remember(): void {
    const { v } = this;
    typed.kind = v.kind.value as ImportKind;
    typed.files = v.files.value;
    typed.after = v.after.value;
    typed.switchAt = v.switchAt.value;
    if (this.previewed !== null) {
      const r = this.request(false);
      if (typeof r === 'string' || JSON.stringify(r) !== this.previewed) {
        v.startBtn.disabled = true;
        v.status.textContent = this.u('stale');
      }
    }
    this.showMethod();
  }

  showKind(): void {
    const { v, u } = this;
    const lang = this.ctx.lang;
    const isProm = v.kind.value === 'prometheus';
    const isTrace = traceChosen(v.kind.value);
    v.fileFields.hidden = isProm;
    this.prom.node.hidden = !isProm;
    v.afterFields.hidden = isTrace;
    v.switchFields.hidden = isTrace;
    this.trace.node.hidden = !isTrace;
    // a file log's times (offset, iostat's interval and start); a trace and a server have their own
    this.times.node.hidden = isProm || isTrace;
    v.filesLabel.textContent = isTrace ? translate(importTraceUi, lang, 'file') : u('files');
    v.filesHelp.textContent = isTrace ? translate(importTraceUi, lang, 'fileHelp') : u('filesHelp');
  }

  /** Whether the fleet's figures are to be computed by the server (no preview; Import computes and opens the fleet view). */
  summaryChosen(): boolean {
    return this.v.kind.value === 'prometheus' && this.prom.summary();
  }

  showMethod(): void {
    const { v, u } = this;
    const s = this.summaryChosen();
    v.previewBtn.hidden = s;
    v.switchFields.hidden = s || traceChosen(v.kind.value);
    if (s) v.previewBox.hidden = true;
    v.startBtn.textContent = s ? u('prom.compute') : u('import');
    if (s && !this.running) {
      v.startBtn.disabled = false;
      if (v.status.textContent === u('stale')) v.status.textContent = '';
    }
    if (!s && this.previewed === null) v.startBtn.disabled = true;
  }

  /** Preview (the form's submit): what the probe recognises in the files or the server's series. */
  preview(): void {
    const { v, u } = this;
    if (this.summaryChosen()) {
      if (!this.running) v.startBtn.click();
      return;
    }
    v.errorBox.hidden = true;
    // a block trace's preview needs no cache size: only its import does
    const r = this.request(false);
    if (typeof r === 'string') {
      v.errorBox.replaceChildren(el('p', {}, r));
      v.errorBox.hidden = false;
      return;
    }
    v.previewBtn.disabled = true;
    v.startBtn.disabled = true;
    v.status.textContent = u('previewing');
    const key = JSON.stringify(this.request(false));
    void this.ctx.api.previewImport(r).then((res) => {
      if (this.disposed) return;
      v.previewBtn.disabled = false;
      v.status.textContent = '';
      if (!res.ok) {
        this.previewed = null;
        // a refused role set (one that counts a device and the device under it): the last preview
        // stays, marked not ready, so the person can change the roles it names
        if (this.roles.size === 0) v.previewBox.hidden = true;
        else v.previewBox.setAttribute('data-ready', 'false');
        this.showError(u(res.error.code === 'import-choice-refused' ? 'previewRefused' : 'previewFailed', { what: this.whatOf(r) }), res.error.code, res.error.message);
        return;
      }
      this.previewed = key;
      this.previewedSwitch = res.value.phases.some((ph) => ph.name === 'measure');
      this.previewedTrace = res.value.trace !== undefined;
      drawPreview(v.previewBox, { lang: this.ctx.lang, u, onRole: (device, role) => { this.roles.set(device, role); this.remember(); } }, res.value);
      // with no switch the whole log is a baseline: it imports, and opens as a workload profile
      v.startBtn.disabled = !res.value.ready || res.value.analysable === false;
    });
  }

  openCapture(path: string): void {
    const { v, u } = this;
    v.status.textContent = u('analyzing');
    void this.ctx.api.openCapture(path).then((res) => {
      if (this.disposed) return;
      v.progress.hidden = true;
      v.status.textContent = '';
      v.previewBtn.disabled = false;
      if (res.ok) {
        this.ctx.remember(res.value);
        this.ctx.go(`results/${encodeURIComponent(res.value.id)}`);
        return;
      }
      this.showError(u('openFailed'), res.error.code, res.error.message, u('savedAt', { path }));
    });
  }

  /** An import that could not start or stopped: the progress goes, both buttons come back, and the error shows. */
  importFailed(what: string, error: { code: Parameters<typeof errorText>[1]; message: string }): void {
    const { v } = this;
    this.running = false;
    v.progress.hidden = true;
    v.status.textContent = '';
    v.previewBtn.disabled = false;
    v.startBtn.disabled = false;
    this.showError(this.u('importFailed', { what }), error.code, error.message);
  }

  /** The progress poller: every 250 ms until the import is done, then the view of what it made. */
  poll(jobId: string, what: string): void {
    const { ctx } = this;
    void ctx.api.importProgress(jobId).then((res: ProgressReply) => {
      if (this.disposed) return;
      if (!res.ok) {
        this.importFailed(what, res.error);
        return;
      }
      this.v.progress.value = res.value.percent;
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
        if (this.previewedSwitch && !this.previewedTrace) this.openCapture(res.value.capturePath);
        else ctx.go(`profile-file/${encodeURIComponent(res.value.capturePath)}`);
        return;
      }
      this.timer = setTimeout(() => this.poll(jobId, what), 250);
    });
  }

  /** Import: the request previewed (or the server's summary), then its progress. */
  start(): void {
    const { v, u } = this;
    const r = this.request();
    const refuse = (text: string): void => {
      v.errorBox.replaceChildren(el('p', {}, text));
      v.errorBox.hidden = false;
    };
    // a trace's cache to predict may change after its preview; it must be valid
    if (typeof r === 'string' && traceChosen(v.kind.value) && JSON.stringify(this.request(false)) === this.previewed) return refuse(r);
    const server = this.summaryChosen();
    if (typeof r === 'string' && server) return refuse(r);
    if (typeof r === 'string' || (!server && JSON.stringify(this.request(false)) !== this.previewed)) {
      v.status.textContent = u('stale');
      v.startBtn.disabled = true;
      return;
    }
    v.errorBox.hidden = true;
    this.running = true;
    v.startBtn.disabled = true;
    v.previewBtn.disabled = true;
    v.progress.value = 0;
    v.progress.hidden = false;
    v.status.textContent = server ? u('prom.computing') : r.prediction === undefined ? u('importing') : translate(importTraceUi, this.ctx.lang, 'predicting');
    const what = this.whatOf(r);
    void this.ctx.api.startImport(r).then((res) => {
      if (this.disposed) return;
      if (!res.ok) {
        this.importFailed(what, res.error);
        return;
      }
      this.poll(res.value, what);
    });
  }
}

export function importScreen(ctx: Ctx): Screen {
  const lang = ctx.lang;
  const u: Words = (key, params) => translate(importUi, lang, key, params);
  const flow = new ImportFlow(ctx, u);
  const { v } = flow;
  const remember = (): void => flow.remember();
  for (const x of [v.kind, v.files, v.after, v.switchAt]) x.addEventListener('input', remember);
  v.kind.addEventListener('change', remember);
  v.kind.addEventListener('change', () => flow.showKind());
  v.kind.addEventListener('change', () => flow.showMethod());
  flow.showKind();
  const form = el('form', { class: 'import-form', novalidate: '', 'aria-labelledby': 'import-title' },
    el('label', { for: 'import-kind' }, u('kind')), v.kind,
    v.fileFields, flow.prom.node, flow.trace.node, v.switchFields, flow.times.node,
    el('div', { class: 'home-actions' }, v.previewBtn, v.startBtn, v.progress),
    v.status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    flow.preview();
  });
  v.startBtn.addEventListener('click', () => flow.start());
  const node = el('div', { class: 'home import', 'data-testid': TID.importScreen },
    el('h2', { id: 'import-title' }, u('title')),
    el('p', { class: 'intro' }, u('intro')),
    form, v.errorBox, v.previewBox);
  return {
    node,
    dispose: () => {
      flow.disposed = true;
      if (flow.timer !== null) clearTimeout(flow.timer);
    },
  };
}
