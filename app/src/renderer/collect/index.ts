/**
 * Collect on another machine (`#/collect`): for a server where the probe cannot run, the exact
 * commands that record its disks with what it has — Windows Performance Monitor (`logman`, or
 * `typeperf`) or Linux `iostat` — a ready script to download, and what to send back for Import a
 * log. The commands come from app/src/shared/collect.ts (one implementation, tested by parsing
 * them back); this screen only shows them (docs/collect.md).
 */
import { collectCommands, collectProblems, COLLECT_OS, type CollectOs, type CollectPlan } from '../../shared/collect.ts';
import { collectUi, type CollectKey } from '../../shared/i18n/collect.ts';
import { translate, type Lang } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { fmtNumber } from '../format.ts';
import type { Ctx, Screen } from '../screen.ts';

/** What was typed, kept while the window is open. */
const typed: CollectPlan = { os: 'windows', name: 'cacheproof', intervalS: 15, baselineH: 24, measureH: 24, folder: 'C:\\PerfLogs\\CacheProof' };

type Words = (key: CollectKey, p?: Record<string, string | number>) => string;

/** The plan's fields, filled with what was typed last. */
function collectFields(u: Words) {
  const os = el('select', { id: 'collect-os', 'data-testid': TID.collectOs });
  for (const o of COLLECT_OS) {
    const opt = el('option', { value: o }, u(`os.${o}`));
    if (o === typed.os) opt.selected = true;
    os.append(opt);
  }
  const input = (id: string, testId: string | null, value: string, extra: Record<string, string> = {}): HTMLInputElement =>
    el('input', { id, type: 'text', spellcheck: 'false', autocomplete: 'off', value, ...(testId === null ? {} : { 'data-testid': testId }), ...extra });
  const name = input('collect-name', null, typed.name);
  const interval = input('collect-interval', TID.collectInterval, String(typed.intervalS), { inputmode: 'numeric' });
  const baseline = input('collect-baseline', null, String(typed.baselineH), { inputmode: 'decimal' });
  const measure = input('collect-measure', TID.collectMeasure, String(typed.measureH), { inputmode: 'decimal', 'aria-describedby': 'collect-measure-help' });
  const folder = input('collect-folder', TID.collectFolder, typed.folder);
  const form = el('form', { class: 'import-form', novalidate: '', 'aria-labelledby': 'collect-title' },
    el('label', { for: 'collect-os' }, u('os')), os,
    el('label', { for: 'collect-name' }, u('name')), name,
    el('label', { for: 'collect-interval' }, u('interval')), interval,
    el('label', { for: 'collect-baseline' }, u('baseline')), baseline,
    el('label', { for: 'collect-measure' }, u('measure')), measure,
    el('p', { class: 'help', id: 'collect-measure-help' }, u('measureHelp')),
    el('label', { for: 'collect-folder' }, u('folder')), folder);
  form.addEventListener('submit', (e) => e.preventDefault());
  return { form, os, name, interval, baseline, measure, folder };
}

/** The commands for a valid plan: the steps, the script to download (at `url`), what to send back and how to import it. */
function commandsView(lang: Lang, u: Words, plan: CollectPlan, c: ReturnType<typeof collectCommands>, url: string): HTMLElement[] {
  const code = (text: string): HTMLElement => el('pre', { class: 'command', translate: 'no' }, el('code', {}, text));
  const stepTitle = (s: (typeof c.steps)[number]): string =>
    s.step === 'create' ? u('step.create', { window: u(`window.${s.window}`) })
      : s.step === 'start' ? u('step.start')
        : s.step === 'typeperf' ? u('step.typeperf')
          : u('step.iostat', { window: u(`window.${s.window}`) });
  return [
    el('h3', {}, u('steps')),
    el('p', { class: 'help' }, [u('samples', { count: fmtNumber(lang, c.samples.baseline), hours: fmtNumber(lang, plan.baselineH, 1) }),
      ...(plan.measureH > 0 ? [u('samples', { count: fmtNumber(lang, c.samples.measure), hours: fmtNumber(lang, plan.measureH, 1) })] : [])].join('; ')),
    el('ol', { 'data-testid': TID.collectSteps }, ...c.steps.map((s) => el('li', { 'data-step': s.step, 'data-window': s.window }, el('p', {}, stepTitle(s)), code(s.command)))),
    ...(plan.os === 'windows' ? [el('p', { class: 'help' }, u('fallback'))] : []),
    el('h3', {}, u('script')),
    el('p', {}, el('a', { href: url, download: c.scriptName, 'data-testid': TID.collectDownload }, u('download', { file: c.scriptName }))),
    el('pre', { class: 'command', translate: 'no', 'data-testid': TID.collectScript }, el('code', {}, c.script)),
    el('h3', {}, u('sendBack')),
    el('ul', {}, ...c.sendBack.map((f) => el('li', { translate: 'no' }, f))),
    el('p', {}, u('importWith', { command: c.importCommand })),
  ];
}

export function collectScreen(ctx: Ctx): Screen {
  const lang = ctx.lang;
  const u: Words = (key, p) => translate(collectUi, lang, key, p);
  let url: string | null = null;
  const f = collectFields(u);
  const out = el('div', { 'aria-live': 'polite' });
  const numberIn = (v: string): number => Number(v.trim().replace(',', '.'));
  const draw = (): void => {
    const plan: CollectPlan = {
      os: f.os.value as CollectOs, name: f.name.value.trim(), intervalS: numberIn(f.interval.value),
      baselineH: numberIn(f.baseline.value), measureH: numberIn(f.measure.value), folder: f.folder.value.trim(),
    };
    Object.assign(typed, plan);
    if (url !== null) URL.revokeObjectURL(url);
    url = null;
    const problems = collectProblems(plan);
    if (problems.length > 0) {
      out.replaceChildren(el('div', { class: 'error', role: 'alert', 'data-testid': TID.collectProblems },
        el('p', {}, u('invalid')), el('ul', {}, ...problems.map((p) => el('li', {}, u(`problem.${p.problem}`))))));
      return;
    }
    const c = collectCommands(plan);
    url = URL.createObjectURL(new Blob([c.script], { type: 'text/plain' }));
    out.replaceChildren(...commandsView(lang, u, plan, c, url));
  };
  f.os.addEventListener('change', () => {
    // the folder's form follows the system (a Windows path on Linux is refused, and the reverse)
    if (f.os.value === 'linux' && /^[A-Za-z]:\\/u.test(f.folder.value)) f.folder.value = '/var/tmp/cacheproof';
    if (f.os.value === 'windows' && f.folder.value.startsWith('/')) f.folder.value = 'C:\\PerfLogs\\CacheProof';
    draw();
  });
  for (const x of [f.name, f.interval, f.baseline, f.measure, f.folder]) x.addEventListener('input', draw);
  const back = el('button', { type: 'button' }, u('back'));
  back.addEventListener('click', () => ctx.go(''));
  draw();
  const node = el('div', { class: 'home collect', 'data-testid': TID.collectScreen },
    el('h2', { id: 'collect-title' }, u('title')),
    el('p', { class: 'intro' }, u('intro')),
    f.form, out, el('div', { class: 'actions' }, back));
  return {
    node,
    dispose: () => {
      if (url !== null) URL.revokeObjectURL(url);
    },
  };
}
