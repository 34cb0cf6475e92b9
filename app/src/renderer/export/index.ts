/**
 * The Export screen: cover fields, the report's language, format and paper, an option to include
 * the TCO section, a live preview (the report's own HTML in a sandboxed iframe without scripts;
 * its stylesheet is adopted from here because the app's CSP forbids inline styles), and an export
 * job with a progress bar. The finished files are saved straight from the host's disk: the browser
 * window downloads them from the browser host (`reportFileHref`), the Electron app asks where to
 * save each (`report.save`, a Save dialog). Their bytes never pass through this page.
 */
import { reportFileHref, type ReportCover, type ReportFile, type ReportRequest, type ScenarioDraft } from '../../shared/contract.ts';
import { common, type CommonKey } from '../../shared/i18n/common.ts';
import { exportUi, type ExportKey } from '../../shared/i18n/report.ts';
import { LANGS, translate, type Lang } from '../../shared/i18n/types.ts';
import { fmtPercentUpTo } from '../../shared/i18n/numbers.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import type { Ctx, Screen } from '../screen.ts';
import { plansSaved } from '../planner/state.ts';
import type { AnalysisView } from '../../shared/contract.ts';

const LANG_NAMES: Record<Lang, string> = { en: 'English', fr: 'Français', es: 'Español', ru: 'Русский' };
const COVER_FIELDS = ['title', 'customer', 'server', 'author', 'date'] as const;
type CoverField = (typeof COVER_FIELDS)[number];

/** What the person typed, kept per analysis while the window is open. */
const remembered = new Map<string, { cover: Partial<Record<CoverField, string>>; lang: Lang; format: ReportRequest['format']; paper: ReportRequest['paper']; form: 'full' | 'short'; tco: boolean }>();

/** What the Export screen's parts share: its analysis, the choices kept for it, the preview's and the job's elements, and whether it was left. */
interface ExportScreenState {
  ctx: Ctx;
  view: Pick<AnalysisView, 'id'>;
  profile: boolean;
  ui: (key: ExportKey, p?: Record<string, string | number>) => string;
  choices: NonNullable<ReturnType<typeof remembered.get>>;
  disposed: boolean;
  /** The preview asked for after a pause in typing, while it waits. */
  timer: ReturnType<typeof setTimeout> | null;
  previewSeq: number;
  /** aria-busy until the newest preview asked for has loaded: readers (and tests) know which form they see */
  loadedSeq: number;
  css: string;
  scenario: ScenarioDraft | null;
  /** Which scenario prints: the Planner's edited one, or its unedited prefill (said in the hint and in the report). */
  origin: 'planner' | 'prefilled';
  tcoHint: HTMLElement;
  error: HTMLElement;
  frame: HTMLIFrameElement;
  previewStatus: HTMLElement;
  progress: HTMLProgressElement;
  stage: HTMLElement;
  downloads: HTMLElement;
  start: HTMLButtonElement;
}

/**
 * `profile`: the view is a workload profile's (`ProfileView.id`): the host writes the
 * workload-profile report. Its plan choice prints the sizing, the TCO and drive life and the
 * decision block from the same scenario as `cacheproof report --profile` (the Planner's, else the
 * prefill), so that the app's report of a capture reads as the command line's.
 */
export function exportScreen(ctx: Ctx, view: Pick<AnalysisView, 'id'>, profile = false): Screen {
  const ui = (key: ExportKey, p?: Record<string, string | number>): string => translate(exportUi, ctx.lang, key, p);
  const choices = remembered.get(view.id) ?? { cover: {}, lang: ctx.lang, format: 'pdf' as const, paper: 'a4' as const, form: 'full' as const, tco: true };
  remembered.set(view.id, choices);
  const s: ExportScreenState = {
    ctx, view, profile, ui, choices, disposed: false, timer: null, previewSeq: 0, loadedSeq: 0, css: '', scenario: null, origin: 'prefilled',
    tcoHint: el('small', { id: 'export-tco-hint', 'data-testid': TID.exportTcoHint }, ui('h.tco')),
    error: el('div', { class: 'error', role: 'alert', 'data-testid': TID.exportError, hidden: '' }),
    frame: previewFrame(ui),
    previewStatus: el('p', { class: 'hint', role: 'status' }, ui('previewLoading')),
    progress: el('progress', { max: '100', value: '0', 'data-testid': TID.exportProgress, 'aria-label': ui('progress'), hidden: '' }),
    stage: el('span', { 'data-testid': TID.exportStage, role: 'status' }),
    downloads: el('div', { class: 'downloads' }),
    start: el('button', { type: 'button', class: 'primary', 'data-testid': TID.exportStart }, ui('start')),
  };
  followPreviewLoads(s);
  s.start.addEventListener('click', () => void runExportJob(s));
  const form = (f: HTMLFormElement): HTMLFormElement => {
    f.addEventListener('submit', (e) => e.preventDefault());
    return f;
  };
  const node = el('div', { class: 'export', 'data-testid': TID.export },
    // a workload profile's own words: no "proof of concept", no verdict or TCO it does not have
    el('h3', {}, ui(profile ? 'p.title' : 'title')),
    el('p', { class: 'hint' }, ui(profile ? 'p.intro' : 'intro')),
    el('div', { class: 'export-layout' },
      form(el('form', { class: 'export-form', novalidate: '' },
        el('fieldset', {}, el('legend', {}, ui('cover')), ...COVER_FIELDS.map((name) => coverField(s, name))),
        exportOptions(s),
        el('div', { class: 'actions' }, s.start, s.progress, s.stage),
        s.error,
        s.downloads,
      )),
      el('section', { class: 'export-preview-box', 'aria-label': ui('preview') }, el('h4', {}, ui('preview')), s.previewStatus, s.frame),
    ),
  );
  void refreshPreview(s);
  return {
    node,
    dispose: () => {
      s.disposed = true;
      if (s.timer !== null) clearTimeout(s.timer);
    },
  };
}

/** Shows an error by its code, in the screen's language, or hides it (null). */
function showExportError(s: ExportScreenState, code: string | null): void {
  const { error } = s;
  if (code === null) {
    error.hidden = true;
    error.textContent = '';
    return;
  }
  const key = `err.${code}` as CommonKey;
  error.textContent = translate(common, s.ctx.lang, key in common.en ? key : 'err.internal');
  error.hidden = false;
}

/** One cover field: typing in it keeps the text for this analysis and asks for a new preview. */
function coverField(s: ExportScreenState, name: CoverField): HTMLElement {
  const { ui, profile } = s;
  const id = `export-${name}`;
  const input = el('input', { id, type: name === 'date' ? 'date' : 'text', maxlength: '200', 'data-testid': `${TID.exportCover}-${name}`, autocomplete: 'off' });
  input.value = s.choices.cover[name] ?? '';
  input.addEventListener('input', () => {
    s.choices.cover[name] = input.value;
    schedulePreview(s);
  });
  const hint = name === 'title' ? ui(profile ? 'p.h.title' : 'h.title') : name === 'server' ? ui('h.server') : null;
  const label = el('label', { for: id }, ui(`f.${name}`));
  return el('div', { class: 'field' }, label, input, ...(hint === null ? [] : [el('small', { id: `${id}-hint` }, hint)]));
}

/** A labelled select with its options, the current value chosen. */
function selectField(id: string, testId: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void): HTMLElement {
  const s = el('select', { id, 'data-testid': testId });
  for (const [v, text] of options) {
    const o = el('option', { value: v }, text);
    if (v === value) o.selected = true;
    s.append(o);
  }
  s.addEventListener('change', () => onChange(s.value));
  return el('div', { class: 'field' }, el('label', { for: id }, label), s);
}

/** The report's options: language, format, full or short form, paper, and the TCO section (a profile's: sizing, TCO and drive life). */
function exportOptions(s: ExportScreenState): HTMLElement {
  const { ui, profile, choices: state } = s;
  const tcoBox = el('input', { id: 'export-tco', type: 'checkbox', 'data-testid': TID.exportTco, 'aria-describedby': 'export-tco-hint' });
  tcoBox.checked = state.tco;
  tcoBox.addEventListener('change', () => {
    state.tco = tcoBox.checked;
    schedulePreview(s);
  });
  return el('fieldset', {}, el('legend', {}, ui('options')),
    selectField('export-lang', TID.exportLang, ui('f.lang'), LANGS.map((l) => [l, LANG_NAMES[l]]), state.lang, (v) => {
      state.lang = v as Lang;
      schedulePreview(s);
    }),
    selectField('export-format', TID.exportFormat, ui('f.format'), (['pdf', 'html', 'xlsx', 'csv', 'pptx'] as const).map((f) => [f, ui(profile && f === 'pptx' ? 'p.fmt.pptx' : `fmt.${f}`)]), state.format, (v) => {
      state.format = v as ReportRequest['format'];
    }),
    selectField('export-form', TID.exportForm, ui('f.form'), (['full', 'short'] as const).map((f) => [f, ui(`form.${f}`)]), state.form, (v) => {
      state.form = v === 'short' ? 'short' : 'full';
      schedulePreview(s);
    }),
    el('small', { class: 'hint', id: 'export-form-hint' }, ui('h.form')),
    selectField('export-paper', TID.exportPaper, ui('f.paper'), (['a4', 'letter'] as const).map((p) => [p, ui(`paper.${p}`)]), state.paper, (v) => {
      state.paper = v as ReportRequest['paper'];
    }),
    el('div', { class: 'field check' }, tcoBox, el('label', { for: 'export-tco' }, ui(profile ? 'p.f.tco' : 'f.tco')), s.tcoHint),
  );
}

/** The preview: the report's own HTML in a sandboxed iframe without scripts, busy until its first preview loads. */
function previewFrame(ui: ExportScreenState['ui']): HTMLIFrameElement {
  const frame = el('iframe', { class: 'export-preview', sandbox: 'allow-same-origin', title: ui('preview'), 'data-testid': TID.exportPreview });
  frame.setAttribute('aria-busy', 'true');
  return frame;
}

function previewBusy(s: ExportScreenState, on: boolean): void {
  s.frame.setAttribute('aria-busy', on ? 'true' : 'false');
}

/** When a preview has loaded: no longer busy if it is the newest asked for, and its stylesheet adopted (the app's CSP forbids inline styles). */
function followPreviewLoads(s: ExportScreenState): void {
  const { frame } = s;
  frame.addEventListener('load', () => {
    if (s.loadedSeq === s.previewSeq && s.timer === null) previewBusy(s, false);
    const doc = frame.contentDocument;
    const win = frame.contentWindow as (Window & typeof globalThis) | null;
    if (doc === null || win === null || s.css === '') return;
    const sheet = new win.CSSStyleSheet();
    sheet.replaceSync(s.css);
    doc.adoptedStyleSheets = [sheet];
  });
}

/** The cover as typed, blank fields left out. */
function coverOf(s: ExportScreenState): ReportCover {
  const c: ReportCover = {};
  for (const f of COVER_FIELDS) {
    const v = s.choices.cover[f]?.trim();
    if (v !== undefined && v !== '') c[f] = v;
  }
  return c;
}

/** The scenario the TCO section prints, when it is ticked: the Planner's saved one, else the prefill, else none (the hint says which). */
async function scenarioFor(s: ExportScreenState): Promise<ScenarioDraft | null> {
  const { ctx, view, ui, tcoHint } = s;
  if (!s.choices.tco) return null;
  if (s.scenario !== null) return s.scenario;
  // The Planner's edited scenario saved with this analysis (after any save on its way), else the prefill.
  await plansSaved();
  const saved = await ctx.api.savedPlan(view.id);
  if (saved.ok && saved.value !== null) {
    s.scenario = saved.value;
    s.origin = 'planner';
    tcoHint.textContent = ui('h.tcoPlanner');
    return s.scenario;
  }
  const r = await ctx.api.planFromAnalysis(view.id);
  if (!r.ok) {
    // ticked by default: a capture with nothing to plan from exports without TCO, and the hint says why
    tcoHint.textContent = ui('h.tcoNone');
    return null;
  }
  s.scenario = r.value;
  s.origin = 'prefilled';
  tcoHint.textContent = ui('h.tcoPrefilled');
  return s.scenario;
}

async function reportRequest(s: ExportScreenState): Promise<Omit<ReportRequest, 'format'>> {
  const sc = await scenarioFor(s);
  const state = s.choices;
  return { analysisId: s.view.id, lang: state.lang, paper: state.paper, form: state.form, cover: coverOf(s), scenario: sc, ...(sc === null ? {} : { scenarioOrigin: s.origin }) };
}

/** Asks the host for the preview of the current choices; an answer to an older request is dropped. */
async function refreshPreview(s: ExportScreenState): Promise<void> {
  const { ctx, ui, previewStatus } = s;
  const seq = ++s.previewSeq;
  previewBusy(s, true);
  previewStatus.textContent = ui('previewLoading');
  const r = await ctx.api.previewReport(await reportRequest(s));
  if (s.disposed || seq !== s.previewSeq) return;
  if (!r.ok) {
    showExportError(s, r.error.code);
    previewStatus.textContent = '';
    previewBusy(s, false);
    return;
  }
  showExportError(s, null);
  s.css = r.value.css;
  s.loadedSeq = seq;
  s.frame.srcdoc = r.value.html;
  previewStatus.textContent = '';
}

/** A new preview after a pause in typing. */
function schedulePreview(s: ExportScreenState): void {
  if (s.timer !== null) clearTimeout(s.timer);
  previewBusy(s, true);
  s.timer = setTimeout(() => {
    s.timer = null;
    void refreshPreview(s);
  }, 350);
}

/** The browser window: a download link to the host's file (clicked once at the end of the job). */
function downloadLink(s: ExportScreenState, jobId: string, f: ReportFile): HTMLAnchorElement {
  return el('a', { href: reportFileHref(jobId, f.index), download: f.name, 'data-testid': TID.exportDownload, 'data-name': f.name }, s.ui('download', { name: f.name }));
}

/** The Electron app: a Save dialog per file, the host copies the file where the person chooses. */
function saveButton(s: ExportScreenState, jobId: string, f: ReportFile): HTMLButtonElement {
  const b = el('button', { type: 'button', 'data-testid': TID.exportDownload, 'data-name': f.name }, s.ui('saveAs', { name: f.name }));
  b.addEventListener('click', () => void (async () => {
    const r = await s.ctx.api.saveReportFile(jobId, f.index);
    if (!r.ok) showExportError(s, r.error.code);
    else if (r.value !== null) b.after(el('span', { class: 'hint' }, ` ${s.ui('savedTo', { path: r.value })}`));
  })());
  return b;
}

/** Starts an export job and follows it to its files; the start button is refused while it runs. */
async function runExportJob(s: ExportScreenState): Promise<void> {
  const { ctx, start, progress } = s;
  showExportError(s, null);
  s.downloads.replaceChildren();
  start.disabled = true;
  progress.hidden = false;
  progress.value = 0;
  try {
    const req = { ...(await reportRequest(s)), format: s.choices.format };
    const r = await ctx.api.startReport(req);
    if (!r.ok) {
      showExportError(s, r.error.code);
      return;
    }
    await pollReportJob(s, r.value);
  } finally {
    start.disabled = false;
  }
}

/** Asks how far the job is every quarter second, shows its stage and percent, and offers its files once done. */
async function pollReportJob(s: ExportScreenState, jobId: string): Promise<void> {
  const { ctx, ui, downloads } = s;
  for (;;) {
    await new Promise((res) => setTimeout(res, 250));
    if (s.disposed) return;
    const p = await ctx.api.reportProgress(jobId);
    if (!p.ok) {
      showExportError(s, p.error.code);
      return;
    }
    s.progress.value = p.value.percent;
    const stageKey = `stage.${p.value.stage}` as ExportKey;
    s.stage.textContent = `${stageKey in exportUi.en ? ui(stageKey) : p.value.stage} · ${fmtPercentUpTo(ctx.lang, p.value.percent, 0)}`;
    if (p.value.done) {
      const files = p.value.files ?? [];
      if (ctx.info?.shell === 'electron') {
        downloads.replaceChildren(el('p', {}, ui('ready', { files: files.map((f) => f.name).join(', ') })), ...files.map((f) => el('p', {}, saveButton(s, jobId, f))));
        return;
      }
      const links = files.map((f) => downloadLink(s, jobId, f));
      downloads.replaceChildren(el('p', {}, ui('saved', { files: links.map((a) => a.download).join(', ') })), ...links.map((a) => el('p', {}, a)));
      for (const a of links) a.click();
      return;
    }
  }
}
