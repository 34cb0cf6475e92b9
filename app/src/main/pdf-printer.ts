/**
 * The Electron shell's PDF printer (host/report/pdf.ts {@link PdfPrinter}): the report's HTML
 * printed by Electron's own Chromium with `webContents.printToPDF`, so the app needs no separately
 * installed browser. Per job:
 *
 * 1. the HTML, with its page footer ({@link printableHtml}), is written to a file with a random
 *    name in a private temporary folder (mode 0700, removed afterwards): a report embeds its fonts
 *    and can be several MB, more than a data: URL should carry;
 * 2. a hidden, sandboxed, context-isolated window with no preload and **JavaScript disabled**
 *    loads it, in its own in-memory session whose requests are cancelled unless they are that
 *    file or a data: URL (the report's fonts and images), and whose permission requests are refused;
 * 3. the layout is measured at the printable width with the same expression as the headless
 *    Chromium printer ({@link measureExpression}), evaluated through the window's DevTools
 *    protocol (`webContents.debugger`, `Runtime.evaluate`), which runs even though the page's
 *    own scripts cannot: JavaScript stays off for the document, and its CSP stays as written.
 *    (`webContents.executeJavaScript` would need JavaScript on for the whole page.) Dialogs the
 *    document tries to open are recorded the same way (`Page.javascriptDialogOpening`);
 * 4. `printToPDF` with the paper and 15 mm margins (18 mm at the foot, where the document's own
 *    margin boxes draw the footer, as for the Chromium printer).
 *
 * The Electron API is passed in (constructor and session), so that this module imports only
 * Electron's types: the window options and the print options are checked by tests without a
 * runtime. The window's security settings are the app's own ({@link createSecureWindow}).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindow as ElectronBrowserWindow, PrintToPDFOptions, Session } from 'electron';
import { CONTENT_WIDTH_PX, type Paper } from '../host/report/html.ts';
import { LOADED_FONTS_EXPRESSION, measureExpression, PDF_MARGINS_MM, printableHtml, type Overflow, type PdfPrinter, type PrintJob, type PrintResult } from '../host/report/pdf.ts';
import { createSecureWindow, type BrowserWindowCtor } from './secure-window.ts';

export type { BrowserWindowCtor } from './secure-window.ts';

/** The in-memory session (no `persist:` prefix) the print windows use: nothing of the app's own session is shared. */
export const PRINT_PARTITION = 'cacheproof-report-print';

/** Height of the hidden window, px; only the width matters (the layout is measured at the printable width). */
const WINDOW_HEIGHT_PX = 1100;

/** The hidden window a report is printed in (see the module comment for why each setting). */
export function createPrintWindow(BrowserWindow: BrowserWindowCtor, paper: Paper): ElectronBrowserWindow {
  return createSecureWindow(
    BrowserWindow,
    { width: Math.floor(CONTENT_WIDTH_PX[paper]), height: WINDOW_HEIGHT_PX, useContentSize: true, paintWhenInitiallyHidden: true, title: 'CacheProof report' },
    { partition: PRINT_PARTITION, javascript: false, backgroundThrottling: false },
  );
}

const MM_PER_INCH = 25.4;

/** `webContents.printToPDF` options for a job: the same page as the headless Chromium printer (Electron takes margins in inches; the footer is the document's own). */
export function printToPdfOptions(job: Pick<PrintJob, 'paper'>): PrintToPDFOptions {
  return {
    pageSize: job.paper === 'a4' ? 'A4' : 'Letter',
    landscape: false,
    printBackground: true,
    preferCSSPageSize: false,
    margins: {
      top: PDF_MARGINS_MM.top / MM_PER_INCH,
      bottom: PDF_MARGINS_MM.bottom / MM_PER_INCH,
      left: PDF_MARGINS_MM.left / MM_PER_INCH,
      right: PDF_MARGINS_MM.right / MM_PER_INCH,
    },
    displayHeaderFooter: false,
    generateTaggedPDF: true,
    generateDocumentOutline: true,
  };
}

/** The requests a print window may make: its own report file, and data: URLs (embedded fonts, images). */
export function isAllowedPrintRequest(url: string, reportFiles: ReadonlySet<string>): boolean {
  return url.startsWith('data:') || reportFiles.has(url);
}

/** The part of the DevTools protocol the printer uses: Electron's `webContents.debugger` and Playwright's CDPSession both fit it. */
export interface DevTools {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Calls `handler` with the parameters of every `event`. */
  on(event: string, handler: (params: Record<string, unknown>) => void): void;
}

/**
 * Before the report loads: print media (as the headless printer emulates it) and a record of any
 * JavaScript dialog (there should be none: the report has no script and JavaScript is off).
 */
export async function watchPage(dt: DevTools): Promise<string[]> {
  const dialogs: string[] = [];
  dt.on('Page.javascriptDialogOpening', (p) => {
    dialogs.push(typeof p['message'] === 'string' ? p['message'] : '');
    void dt.send('Page.handleJavaScriptDialog', { accept: false }).catch(() => undefined);
  });
  await dt.send('Page.enable');
  await dt.send('Emulation.setEmulatedMedia', { media: 'print' });
  return dialogs;
}

/** Evaluates an expression in the page through DevTools (awaiting a promise) and returns its value. */
async function evaluate(dt: DevTools, expression: string): Promise<unknown> {
  const r = (await dt.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as { result?: { value?: unknown }; exceptionDetails?: { text?: string; exception?: { description?: string } } };
  if (r.exceptionDetails !== undefined) throw new Error(`measuring the report's layout failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text ?? 'exception'}`);
  return r.result?.value;
}

/** After the report loaded: waits for its fonts, then measures it at the paper's printable width. */
export async function measureLoaded(dt: DevTools, paper: Paper): Promise<Overflow[]> {
  await evaluate(dt, 'document.fonts.ready.then(() => true)');
  const v = await evaluate(dt, measureExpression(paper));
  if (!Array.isArray(v)) throw new Error('measuring the report\'s layout gave no result');
  return v as Overflow[];
}

export interface ElectronPrinterDeps {
  BrowserWindow: BrowserWindowCtor;
  /** `session.fromPartition(PRINT_PARTITION)`. */
  session: Session;
  /** Where the private temporary folders go (default the OS's). */
  tmpRoot?: string;
}

/** A {@link PdfPrinter} on Electron's `webContents.printToPDF` (see the module comment). */
export function electronPrinter(deps: ElectronPrinterDeps): PdfPrinter {
  /** file: URLs of the reports being printed: the only files a print window may load. */
  const reportFiles = new Set<string>();
  const live = new Set<ElectronBrowserWindow>();
  let sessionReady = false;
  const guardSession = (): void => {
    if (sessionReady) return;
    sessionReady = true;
    deps.session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedPrintRequest(details.url, reportFiles) }));
    deps.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    deps.session.setPermissionCheckHandler(() => false);
  };

  return {
    async print(job: PrintJob): Promise<PrintResult> {
      guardSession();
      const dir = mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'cacheproof-print-'));
      const file = join(dir, `${randomUUID()}.html`);
      const url = pathToFileURL(file).href;
      let win: ElectronBrowserWindow | null = null;
      try {
        writeFileSync(file, printableHtml(job), { encoding: 'utf8', mode: 0o600, flag: 'wx' });
        reportFiles.add(url);
        win = createPrintWindow(deps.BrowserWindow, job.paper);
        live.add(win);
        const wc = win.webContents;
        wc.setWindowOpenHandler(() => ({ action: 'deny' }));
        wc.on('will-navigate', (event) => event.preventDefault());
        const dbg = wc.debugger;
        dbg.attach('1.3');
        const dt: DevTools = {
          send: (method, params) => dbg.sendCommand(method, params) as Promise<unknown>,
          on: (event, handler) => {
            dbg.on('message', (_e, method, params: Record<string, unknown>) => {
              if (method === event) handler(params);
            });
          },
        };
        const dialogs = await watchPage(dt);
        await wc.loadURL(url);
        const overflow = await measureLoaded(dt, job.paper);
        const fonts = await evaluate(dt, LOADED_FONTS_EXPRESSION);
        const pdf = await wc.printToPDF(printToPdfOptions(job));
        return { pdf, overflow, dialogs, fonts: Array.isArray(fonts) ? fonts.map(String) : [] };
      } finally {
        reportFiles.delete(url);
        if (win !== null) {
          live.delete(win);
          if (!win.isDestroyed()) {
            if (win.webContents.debugger.isAttached()) win.webContents.debugger.detach();
            win.destroy();
          }
        }
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async close(): Promise<void> {
      for (const w of live) if (!w.isDestroyed()) w.destroy();
      live.clear();
    },
  };
}
