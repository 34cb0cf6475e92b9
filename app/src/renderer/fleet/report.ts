/**
 * The fleet report from the fleet view (a fleet with no switch): a button starts the export job
 * (`fleet.report`), its progress is polled (`report.progress`), and the file is then downloaded
 * by the browser window (`reportFileHref`) or saved where the person chooses in the Electron app
 * (`report.save`), as the Export screen does. The report is the host's (docs/report.md § The fleet report).
 */
import { reportFileHref, type ReportFile } from '../../shared/contract.ts';
import { fleet as catalog, type FleetKey } from '../../shared/i18n/fleet.ts';
import { exportUi, type ExportKey } from '../../shared/i18n/report.ts';
import { translate } from '../../shared/i18n/types.ts';
import { TID } from '../../shared/testids.ts';
import { el } from '../dom.ts';
import { errorText } from '../error-text.ts';
import type { Ctx } from '../screen.ts';

/** The fleet report's button and what it says while the job runs; `alive()` false once the screen is gone. */
export function fleetReportBox(ctx: Ctx, path: string, alive: () => boolean): HTMLElement {
  const lang = ctx.lang;
  const t = (k: FleetKey): string => translate(catalog, lang, k);
  const ui = (k: ExportKey, p?: Record<string, string | number>): string => translate(exportUi, lang, k, p);
  const button = el('button', { type: 'button', 'data-testid': TID.fleetReport }, t('report.pdf'));
  const status = el('p', { role: 'status', class: 'help', 'data-testid': TID.fleetReportStatus });
  const files = el('div', {});
  const show = (f: ReportFile, jobId: string): HTMLElement => {
    if (ctx.info?.shell !== 'electron') {
      const a = el('a', { href: reportFileHref(jobId, f.index), download: f.name, 'data-name': f.name }, ui('download', { name: f.name }));
      return el('p', {}, a);
    }
    const b = el('button', { type: 'button', 'data-name': f.name }, ui('saveAs', { name: f.name }));
    b.addEventListener('click', () => void ctx.api.saveReportFile(jobId, f.index).then((r) => {
      if (!r.ok) status.textContent = errorText(lang, r.error.code);
      else if (r.value !== null) b.after(el('span', { class: 'hint' }, ` ${ui('savedTo', { path: r.value })}`));
    }));
    return el('p', {}, b);
  };
  button.addEventListener('click', () => void (async () => {
    button.disabled = true;
    files.replaceChildren();
    status.textContent = t('report.running');
    try {
      const r = await ctx.api.startFleetReport({ path, lang, format: 'pdf', paper: 'a4' });
      if (!r.ok) {
        status.textContent = errorText(lang, r.error.code);
        return;
      }
      for (;;) {
        await new Promise((res) => setTimeout(res, 250));
        if (!alive()) return;
        const p = await ctx.api.reportProgress(r.value);
        if (!p.ok) {
          status.textContent = errorText(lang, p.error.code);
          return;
        }
        if (!p.value.done) continue;
        const list = p.value.files ?? [];
        status.textContent = ui(ctx.info?.shell === 'electron' ? 'ready' : 'saved', { files: list.map((f) => f.name).join(', ') });
        const shown = list.map((f) => show(f, r.value));
        files.replaceChildren(...shown);
        if (ctx.info?.shell !== 'electron') for (const s of shown) s.querySelector('a')?.click();
        return;
      }
    } finally {
      button.disabled = false;
    }
  })());
  return el('div', { class: 'actions fleet-report' }, button, status, files);
}
