/**
 * The Prometheus part of Import a log (kind `prometheus`, docs/import.md): the server's URL, the
 * host selector, the range in UTC, the step, how the fleet is read — every series pulled (one
 * capture per host or one fleet capture) or its figures computed by the server (`--fleet-summary`:
 * PromQL pushdown, docs/import.md § Fleet summary) — and the
 * connection (a CA file, no certificate check, a user with a password file, or a token file:
 * secrets are read from files by the probe, never typed here).
 */
import type { PrometheusRange } from '../../shared/contract.ts';
import type { ImportKey } from '../../shared/i18n/import.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';

/** What was typed survives leaving the screen and coming back. */
const typed = { url: '', hosts: '', from: '', to: '', step: '', perHost: true, summary: false, caFile: '', insecure: false, user: '', passwordFile: '', tokenFile: '' };

/** A date and time as typed: ISO 8601; without an offset it is UTC (as the help says). NaN when it is not one, null when empty. */
export function parseUtc(text: string): number | null {
  const t = text.trim();
  if (t.length === 0) return null;
  const withZone = /[zZ]|[+-]\d\d:?\d\d$/u.test(t) ? t : `${t}Z`;
  const ms = Date.parse(withZone);
  return Number.isFinite(ms) ? ms : Number.NaN;
}

export interface PrometheusFields {
  node: HTMLElement;
  /** The range as typed, or the sentence that says what is wrong. */
  read(): PrometheusRange | string;
  /** Whether the fleet's figures are computed by the server (no preview: the import opens the fleet view). */
  summary(): boolean;
}

/** The fields, filled with what was typed last. */
function promInputs() {
  const input = (id: string, testId: string | null, value: string, type = 'text'): HTMLInputElement =>
    el('input', { id, type, spellcheck: 'false', autocomplete: 'off', value, ...(testId === null ? {} : { 'data-testid': testId }) });
  const url = input('import-prom-url', TID.importPromUrl, typed.url, 'url');
  url.setAttribute('aria-describedby', 'import-prom-url-help');
  const hosts = input('import-prom-hosts', TID.importPromHosts, typed.hosts);
  hosts.setAttribute('aria-describedby', 'import-prom-hosts-help');
  const from = input('import-prom-from', TID.importPromFrom, typed.from);
  const to = input('import-prom-to', TID.importPromTo, typed.to);
  for (const x of [from, to]) x.setAttribute('aria-describedby', 'import-prom-range-help');
  const step = input('import-prom-step', TID.importPromStep, typed.step);
  step.setAttribute('inputmode', 'decimal');
  step.setAttribute('aria-describedby', 'import-prom-step-help');
  const perHost = el('input', { id: 'import-prom-per-host', type: 'radio', name: 'import-prom-output', value: 'per-host', 'data-testid': TID.importPromPerHost });
  const fleet = el('input', { id: 'import-prom-fleet', type: 'radio', name: 'import-prom-output', value: 'fleet', 'data-testid': TID.importPromFleet });
  const pull = el('input', { id: 'import-prom-pull', type: 'radio', name: 'import-prom-method', value: 'pull', 'data-testid': TID.importPromPull, 'aria-describedby': 'import-prom-method-help' });
  const summary = el('input', { id: 'import-prom-summary', type: 'radio', name: 'import-prom-method', value: 'summary', 'data-testid': TID.importPromSummary, 'aria-describedby': 'import-prom-method-help' });
  pull.checked = !typed.summary;
  summary.checked = typed.summary;
  perHost.checked = typed.perHost;
  fleet.checked = !typed.perHost;
  const caFile = input('import-prom-ca', null, typed.caFile);
  const insecure = el('input', { id: 'import-prom-insecure', type: 'checkbox' });
  insecure.checked = typed.insecure;
  const user = input('import-prom-user', null, typed.user);
  const passwordFile = input('import-prom-password-file', null, typed.passwordFile);
  const tokenFile = input('import-prom-token-file', null, typed.tokenFile);
  for (const x of [caFile, user, passwordFile, tokenFile]) x.setAttribute('aria-describedby', 'import-prom-secret-help');
  return { url, hosts, from, to, step, perHost, fleet, pull, summary, caFile, insecure, user, passwordFile, tokenFile };
}

type PromInputs = ReturnType<typeof promInputs>;

/** The fieldset: server, hosts, range, step, method, output and the connection's details. */
function promNode(u: (key: ImportKey) => string, f: PromInputs, output: HTMLElement): HTMLElement {
  return el('fieldset', { class: 'import-prom' },
    el('legend', {}, u('prom.legend')),
    el('label', { for: 'import-prom-url' }, u('prom.url')), f.url,
    el('p', { class: 'help', id: 'import-prom-url-help' }, u('prom.urlHelp')),
    el('label', { for: 'import-prom-hosts' }, u('prom.hosts')), f.hosts,
    el('p', { class: 'help', id: 'import-prom-hosts-help' }, u('prom.hostsHelp')),
    el('label', { for: 'import-prom-from' }, u('prom.from')), f.from,
    el('label', { for: 'import-prom-to' }, u('prom.to')), f.to,
    el('p', { class: 'help', id: 'import-prom-range-help' }, u('prom.rangeHelp')),
    el('label', { for: 'import-prom-step' }, u('prom.step')), f.step,
    el('p', { class: 'help', id: 'import-prom-step-help' }, u('prom.stepHelp')),
    el('fieldset', { class: 'radios import-method' }, el('legend', {}, u('prom.method')),
      el('label', {}, f.pull, ' ', u('prom.pull')),
      el('label', {}, f.summary, ' ', u('prom.summary')),
      el('p', { class: 'help', id: 'import-prom-method-help' }, u('prom.methodHelp'))),
    output,
    el('details', {},
      el('summary', {}, u('prom.conn')),
      el('label', { for: 'import-prom-ca' }, u('prom.caFile')), f.caFile,
      el('label', {}, f.insecure, ' ', u('prom.insecure')),
      el('label', { for: 'import-prom-user' }, u('prom.user')), f.user,
      el('label', { for: 'import-prom-password-file' }, u('prom.passwordFile')), f.passwordFile,
      el('label', { for: 'import-prom-token-file' }, u('prom.tokenFile')), f.tokenFile,
      el('p', { class: 'help', id: 'import-prom-secret-help' }, u('prom.secretHelp'))));
}

/** The range as typed, or the sentence that says what is wrong. */
function readRange(u: (key: ImportKey) => string, f: PromInputs): PrometheusRange | string {
  const opt = (x: HTMLInputElement): string | undefined => (x.value.trim() === '' ? undefined : x.value.trim());
  const base = f.url.value.trim();
  if (!/^https?:\/\/\S+$/u.test(base)) return u('prom.urlBad');
  const a = parseUtc(f.from.value), b = parseUtc(f.to.value);
  if (a === null || b === null || Number.isNaN(a) || Number.isNaN(b) || b <= a) return u('prom.rangeBad');
  let stepS: number | undefined;
  if (f.step.value.trim() !== '') {
    stepS = Number(f.step.value.trim().replace(',', '.'));
    if (!(stepS > 0) || stepS > 86_400) return u('prom.stepBad');
  }
  const r: PrometheusRange = {
    url: base, fromMs: a, toMs: b, perHost: f.perHost.checked,
    ...(f.summary.checked ? { summary: true } : {}),
    ...(opt(f.hosts) === undefined ? {} : { hosts: opt(f.hosts) as string }),
    ...(stepS === undefined ? {} : { stepS }),
    ...(opt(f.caFile) === undefined ? {} : { caFile: opt(f.caFile) as string }),
    ...(f.insecure.checked ? { insecure: true } : {}),
    ...(opt(f.user) === undefined ? {} : { user: opt(f.user) as string }),
    ...(opt(f.passwordFile) === undefined ? {} : { passwordFile: opt(f.passwordFile) as string }),
    ...(opt(f.tokenFile) === undefined ? {} : { tokenFile: opt(f.tokenFile) as string }),
  };
  return r;
}

export function prometheusFields(u: (key: ImportKey) => string, onInput: () => void): PrometheusFields {
  const f = promInputs();
  // one capture per host or one fleet capture: only when every series is pulled
  const output = el('fieldset', { class: 'radios' }, el('legend', {}, u('prom.output')),
    el('label', {}, f.perHost, ' ', u('prom.perHost')),
    el('label', {}, f.fleet, ' ', u('prom.fleet')));
  output.hidden = typed.summary;
  const remember = (): void => {
    Object.assign(typed, {
      url: f.url.value, hosts: f.hosts.value, from: f.from.value, to: f.to.value, step: f.step.value, perHost: f.perHost.checked, summary: f.summary.checked, caFile: f.caFile.value,
      insecure: f.insecure.checked, user: f.user.value, passwordFile: f.passwordFile.value, tokenFile: f.tokenFile.value,
    });
    output.hidden = f.summary.checked;
    onInput();
  };
  for (const x of [f.url, f.hosts, f.from, f.to, f.step, f.pull, f.summary, f.perHost, f.fleet, f.caFile, f.insecure, f.user, f.passwordFile, f.tokenFile]) {
    x.addEventListener('input', remember);
    x.addEventListener('change', remember);
  }
  return {
    node: promNode(u, f, output),
    summary: () => f.summary.checked,
    read: () => readRange(u, f),
  };
}
