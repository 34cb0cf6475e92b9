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

/**
 * `profile`: the view is a workload profile's (`ProfileView.id`): the host writes the
 * workload-profile report, which has no TCO section (nothing before/after to cost), so the TCO
 * choice is not offered.
 */
// eslint-disable-next-line max-lines-per-function -- issue 38: to split into parts of at most 80 lines
export function exportScreen(ctx: Ctx, view: Pick<AnalysisView, 'id'>, profile = false): Screen {
  const ui = (key: ExportKey, p?: Record<string, string | number>): string => translate(exportUi, ctx.lang, key, p);
  const state = remembered.get(view.id) ?? { cover: {}, lang: ctx.lang, format: 'pdf' as const, paper: 'a4' as const, form: 'full' as const, tco: !profile };
  remembered.set(view.id, state);
  let disposed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let previewSeq = 0;
  let scenario: ScenarioDraft | null = null;
  /** Which scenario prints: the Planner's edited one, or its unedited prefill (said in the hint and in the report). */
  let origin: 'planner' | 'prefilled' = 'prefilled';
  const tcoHint = el('small', { id: 'export-tco-hint', 'data-testid': TID.exportTcoHint }, ui('h.tco'));

  const error = el('div', { class: 'error', role: 'alert', 'data-testid': TID.exportError, hidden: '' });
  const showError = (code: string | null): void => {
    if (code === null) {
      error.hidden = true;
      error.textContent = '';
      return;
    }
    const key = `err.${code}` as CommonKey;
    error.textContent = translate(common, ctx.lang, key in common.en ? key : 'err.internal');
    error.hidden = false;
  };

  const field = (name: CoverField): HTMLElement => {
    const id = `export-${name}`;
    const input = el('input', { id, type: name === 'date' ? 'date' : 'text', maxlength: '200', 'data-testid': `${TID.exportCover}-${name}`, autocomplete: 'off' });
    input.value = state.cover[name] ?? '';
    input.addEventListener('input', () => {
      state.cover[name] = input.value;
      schedule();
    });
    const hint = name === 'title' ? ui(profile ? 'p.h.title' : 'h.title') : name === 'server' ? ui('h.server') : null;
    const label = el('label', { for: id }, ui(`f.${name}`));
    return el('div', { class: 'field' }, label, input, ...(hint === null ? [] : [el('small', { id: `${id}-hint` }, hint)]));
  };

  const select = (id: string, testId: string, label: string, options: [string, string][], value: string, onChange: (v: string) => void): HTMLElement => {
    const s = el('select', { id, 'data-testid': testId });
    for (const [v, text] of options) {
      const o = el('option', { value: v }, text);
      if (v === value) o.selected = true;
      s.append(o);
    }
    s.addEventListener('change', () => onChange(s.value));
    return el('div', { class: 'field' }, el('label', { for: id }, label), s);
  };

  const tcoBox = el('input', { id: 'export-tco', type: 'checkbox', 'data-testid': TID.exportTco, 'aria-describedby': 'export-tco-hint' });
  tcoBox.checked = state.tco;
  tcoBox.addEventListener('change', () => {
    state.tco = tcoBox.checked;
    schedule();
  });

  const frame = el('iframe', { class: 'export-preview', sandbox: 'allow-same-origin', title: ui('preview'), 'data-testid': TID.exportPreview });
  const previewStatus = el('p', { class: 'hint', role: 'status' }, ui('previewLoading'));
  let css = '';
  // aria-busy until the newest preview asked for has loaded: readers (and tests) know which form they see
  let loadedSeq = 0;
  const busy = (on: boolean): void => frame.setAttribute('aria-busy', on ? 'true' : 'false');
  busy(true);
  frame.addEventListener('load', () => {
    if (loadedSeq === previewSeq && timer === null) busy(false);
    const doc = frame.contentDocument;
    const win = frame.contentWindow as (Window & typeof globalThis) | null;
    if (doc === null || win === null || css === '') return;
    const sheet = new win.CSSStyleSheet();
    sheet.replaceSync(css);
    doc.adoptedStyleSheets = [sheet];
  });

  const progress = el('progress', { max: '100', value: '0', 'data-testid': TID.exportProgress, 'aria-label': ui('progress'), hidden: '' });
  const stage = el('span', { 'data-testid': TID.exportStage, role: 'status' });
  const downloads = el('div', { class: 'downloads' });
  const start = el('button', { type: 'button', class: 'primary', 'data-testid': TID.exportStart }, ui('start'));

  const cover = (): ReportCover => {
    const c: ReportCover = {};
    for (const f of COVER_FIELDS) {
      const v = state.cover[f]?.trim();
      if (v !== undefined && v !== '') c[f] = v;
    }
    return c;
  };

  const scenarioFor = async (): Promise<ScenarioDraft | null> => {
    if (!state.tco) return null;
    if (scenario !== null) return scenario;
    // The Planner's edited scenario saved with this analysis (after any save on its way), else the prefill.
    await plansSaved();
    const saved = await ctx.api.savedPlan(view.id);
    if (saved.ok && saved.value !== null) {
      scenario = saved.value;
      origin = 'planner';
      tcoHint.textContent = ui('h.tcoPlanner');
      return scenario;
    }
    const r = await ctx.api.planFromAnalysis(view.id);
    if (!r.ok) {
      // ticked by default: a capture with nothing to plan from exports without TCO, and the hint says why
      tcoHint.textContent = ui('h.tcoNone');
      return null;
    }
    scenario = r.value;
    origin = 'prefilled';
    tcoHint.textContent = ui('h.tcoPrefilled');
    return scenario;
  };

  const request = async (): Promise<Omit<ReportRequest, 'format'>> => {
    const s = await scenarioFor();
    return { analysisId: view.id, lang: state.lang, paper: state.paper, form: state.form, cover: cover(), scenario: s, ...(s === null ? {} : { scenarioOrigin: origin }) };
  };

  const refresh = async (): Promise<void> => {
    const seq = ++previewSeq;
    busy(true);
    previewStatus.textContent = ui('previewLoading');
    const r = await ctx.api.previewReport(await request());
    if (disposed || seq !== previewSeq) return;
    if (!r.ok) {
      showError(r.error.code);
      previewStatus.textContent = '';
      busy(false);
      return;
    }
    showError(null);
    css = r.value.css;
    loadedSeq = seq;
    frame.srcdoc = r.value.html;
    previewStatus.textContent = '';
  };

  function schedule(): void {
    if (timer !== null) clearTimeout(timer);
    busy(true);
    timer = setTimeout(() => {
      timer = null;
      void refresh();
    }, 350);
  }

  /** The browser window: a download link to the host's file (clicked once at the end of the job). */
  const link = (jobId: string, f: ReportFile): HTMLAnchorElement =>
    el('a', { href: reportFileHref(jobId, f.index), download: f.name, 'data-testid': TID.exportDownload, 'data-name': f.name }, ui('download', { name: f.name }));

  /** The Electron app: a Save dialog per file, the host copies the file where the person chooses. */
  const saveButton = (jobId: string, f: ReportFile): HTMLButtonElement => {
    const b = el('button', { type: 'button', 'data-testid': TID.exportDownload, 'data-name': f.name }, ui('saveAs', { name: f.name }));
    b.addEventListener('click', () => void (async () => {
      const r = await ctx.api.saveReportFile(jobId, f.index);
      if (!r.ok) showError(r.error.code);
      else if (r.value !== null) b.after(el('span', { class: 'hint' }, ` ${ui('savedTo', { path: r.value })}`));
    })());
    return b;
  };

  start.addEventListener('click', () => void (async () => {
    showError(null);
    downloads.replaceChildren();
    start.disabled = true;
    progress.hidden = false;
    progress.value = 0;
    try {
      const req = { ...(await request()), format: state.format };
      const r = await ctx.api.startReport(req);
      if (!r.ok) {
        showError(r.error.code);
        return;
      }
      for (;;) {
        await new Promise((res) => setTimeout(res, 250));
        if (disposed) return;
        const p = await ctx.api.reportProgress(r.value);
        if (!p.ok) {
          showError(p.error.code);
          return;
        }
        progress.value = p.value.percent;
        const stageKey = `stage.${p.value.stage}` as ExportKey;
        stage.textContent = `${stageKey in exportUi.en ? ui(stageKey) : p.value.stage} · ${fmtPercentUpTo(ctx.lang, p.value.percent, 0)}`;
        if (p.value.done) {
          const files = p.value.files ?? [];
          if (ctx.info?.shell === 'electron') {
            downloads.replaceChildren(el('p', {}, ui('ready', { files: files.map((f) => f.name).join(', ') })), ...files.map((f) => el('p', {}, saveButton(r.value, f))));
            return;
          }
          const links = files.map((f) => link(r.value, f));
          downloads.replaceChildren(el('p', {}, ui('saved', { files: links.map((a) => a.download).join(', ') })), ...links.map((a) => el('p', {}, a)));
          for (const a of links) a.click();
          return;
        }
      }
    } finally {
      start.disabled = false;
    }
  })());

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
        el('fieldset', {}, el('legend', {}, ui('cover')), ...COVER_FIELDS.map(field)),
        el('fieldset', {}, el('legend', {}, ui('options')),
          select('export-lang', TID.exportLang, ui('f.lang'), LANGS.map((l) => [l, LANG_NAMES[l]]), state.lang, (v) => {
            state.lang = v as Lang;
            schedule();
          }),
          select('export-format', TID.exportFormat, ui('f.format'), (['pdf', 'html', 'xlsx', 'csv', 'pptx'] as const).map((f) => [f, ui(profile && f === 'pptx' ? 'p.fmt.pptx' : `fmt.${f}`)]), state.format, (v) => {
            state.format = v as ReportRequest['format'];
          }),
          select('export-form', TID.exportForm, ui('f.form'), (['full', 'short'] as const).map((f) => [f, ui(`form.${f}`)]), state.form, (v) => {
            state.form = v === 'short' ? 'short' : 'full';
            schedule();
          }),
          el('small', { class: 'hint', id: 'export-form-hint' }, ui('h.form')),
          select('export-paper', TID.exportPaper, ui('f.paper'), (['a4', 'letter'] as const).map((p) => [p, ui(`paper.${p}`)]), state.paper, (v) => {
            state.paper = v as ReportRequest['paper'];
          }),
          ...(profile ? [] : [el('div', { class: 'field check' }, tcoBox, el('label', { for: 'export-tco' }, ui('f.tco')), tcoHint)]),
        ),
        el('div', { class: 'actions' }, start, progress, stage),
        error,
        downloads,
      )),
      el('section', { class: 'export-preview-box', 'aria-label': ui('preview') }, el('h4', {}, ui('preview')), previewStatus, frame),
    ),
  );
  void refresh();
  return {
    node,
    dispose: () => {
      disposed = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
