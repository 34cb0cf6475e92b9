/**
 * The Electron shell's PDF printer (app/src/main/pdf-printer.ts):
 * - the hidden window's options and the printToPDF options, recorded without a runtime;
 * - its DevTools half (print media, dialog watch, fonts, layout measure) driven against this
 *   machine's Chromium with scripts disabled by `Emulation.setScriptExecutionDisabled`, which sets
 *   the same Blink setting as the window's `webPreferences.javascript: false`;
 * - the whole printer in a real Electron, only when an Electron runtime starts (Electron 45
 *   downloads its runtime on first use; this machine has no internet): skipped with the reason otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindowConstructorOptions, PrintToPDFOptions, Session } from 'electron';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { createPrintWindow, electronPrinter, isAllowedPrintRequest, measureLoaded, PRINT_PARTITION, printToPdfOptions, watchPage, type BrowserWindowCtor, type DevTools, type ElectronPrinterDeps } from '../src/main/pdf-printer.ts';
import { CONTENT_WIDTH_PX } from '../src/host/report/html.ts';
import { CHROMIUM_ARGS, findChromium, printableHtml, type PrintJob } from '../src/host/report/pdf.ts';
import { exportReport } from '../src/host/report/export.ts';
import { formatVal, rt } from '../src/shared/i18n/report.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-electron-printer-test-'));
const chromiumPath = findChromium();
const XSS = '<img src=x onerror=alert(1)>';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sample's report as the printer gets it (HTML written by the real exporter). */
let job: PrintJob;
let reportFile = '';
beforeAll(async () => {
  reportFile = join(dir, 'sample.html');
  const res = await exportReport({
    format: 'html', lang: 'fr', paper: 'a4', out: reportFile,
    load: { capturePath: sample, cover: { customer: 'ACME', title: 'Cache PoC' }, scenario: null, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 0, 5) },
  });
  job = { html: readFileSync(reportFile, 'utf8'), paper: 'a4', footerLeft: formatVal(res.model.footer, 'fr'), pageOf: rt('x.pageOf', 'fr'), lang: 'fr' };
});

describe('the print window and the print options (no runtime needed)', () => {
  const seen: BrowserWindowConstructorOptions[] = [];
  const Recorder = function (this: unknown, options: BrowserWindowConstructorOptions) {
    seen.push(options);
  } as unknown as BrowserWindowCtor;

  it('is hidden, sandboxed, context-isolated, without preload or JavaScript, in its own session, as wide as the printable column', () => {
    createPrintWindow(Recorder, 'a4');
    createPrintWindow(Recorder, 'letter');
    const [a4, letter] = seen;
    expect(a4?.show).toBe(false);
    expect(a4?.webPreferences).toMatchObject({
      partition: PRINT_PARTITION,
      javascript: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
    expect(a4?.webPreferences?.preload).toBeUndefined();
    expect(PRINT_PARTITION.startsWith('persist:')).toBe(false);
    expect(a4?.useContentSize).toBe(true);
    expect(a4?.width).toBe(680); // 180 mm at 96 px per inch
    expect(letter?.width).toBe(Math.floor(CONTENT_WIDTH_PX.letter));
    expect(letter?.width).toBe(702); // 185.9 mm
  });

  it('prints A4 or Letter with 15 mm margins (18 mm at the foot), backgrounds and an outline; the footer is the document\'s own', () => {
    const a4 = printToPdfOptions({ paper: 'a4' });
    expect(a4.pageSize).toBe('A4');
    expect(printToPdfOptions({ paper: 'letter' }).pageSize).toBe('Letter');
    expect(a4.printBackground).toBe(true);
    expect(a4.landscape).toBe(false);
    expect(a4.margins?.top).toBeCloseTo(15 / 25.4, 10);
    expect(a4.margins?.left).toBeCloseTo(15 / 25.4, 10);
    expect(a4.margins?.right).toBeCloseTo(15 / 25.4, 10);
    expect(a4.margins?.bottom).toBeCloseTo(18 / 25.4, 10);
    expect(a4.displayHeaderFooter).toBe(false);
    expect(a4.generateDocumentOutline).toBe(true);
    expect(a4.generateTaggedPDF).toBe(true);
  });

  it('gives the printed document "Page n of N" and the report name, escaped, as its page footer', () => {
    const html = printableHtml({ html: '<!doctype html><html><head><title>t</title></head><body>x</body></html>', footerLeft: `${XSS} </style><b>"\\ — PoC`, pageOf: 'Page {page} sur {pages}', paper: 'a4' });
    const style = /<style>(.*)<\/style><\/head>/su.exec(html)?.[1] ?? '';
    expect(style).toContain('@bottom-right { content: "Page " counter(page) " sur " counter(pages);');
    expect(style).toContain('@bottom-left { content: "\\3c img src=x onerror=alert(1)\\3e  \\3c /style\\3e \\3c b\\3e \\22 \\5c  — PoC";');
    expect(style).not.toMatch(/[<>]/u);
    expect(html.endsWith('</style></head><body>x</body></html>')).toBe(true);
  });

  it('lets a print window load only its own report file and data: URLs', () => {
    const own = pathToFileURL('/tmp/cacheproof-print-x/3f1c.html').href;
    const files = new Set([own]);
    expect(isAllowedPrintRequest(own, files)).toBe(true);
    expect(isAllowedPrintRequest('data:font/ttf;base64,AAAA', files)).toBe(true);
    expect(isAllowedPrintRequest('file:///etc/passwd', files)).toBe(false);
    expect(isAllowedPrintRequest('https://example.com/x.png', files)).toBe(false);
    expect(isAllowedPrintRequest(pathToFileURL('/tmp/cacheproof-print-x/other.html').href, files)).toBe(false);
  });
});

/** Playwright's DevTools session in the shape the printer drives. */
function devTools(cdp: CDPSession): DevTools {
  return {
    send: (method, params) => cdp.send(method as never, params as never) as Promise<unknown>,
    on: (event, handler) => cdp.on(event as never, handler as never),
  };
}

describe.skipIf(skipped('electron-printer DevTools half', (chromiumPath === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null)))('the printer\'s DevTools half, against Chromium with scripts disabled (needs /usr/bin/chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath ?? '', args: CHROMIUM_ARGS });
  });
  afterAll(async () => browser.close());

  /** Loads a file as the Electron printer does (file URL, scripts off unless told), returning the DevTools half's findings. */
  async function load(file: string, paper: 'a4' | 'letter', scripts = false): Promise<{ overflow: Awaited<ReturnType<typeof measureLoaded>>; dialogs: string[]; title: unknown }> {
    const context = await browser.newContext({ viewport: { width: Math.floor(CONTENT_WIDTH_PX[paper]), height: 1100 } });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      if (!scripts) await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      const dt = devTools(cdp);
      const dialogs = await watchPage(dt);
      await page.goto(pathToFileURL(file).href);
      const overflow = await measureLoaded(dt, paper);
      const title = ((await cdp.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true })) as { result: { value: unknown } }).result.value;
      const media = ((await cdp.send('Runtime.evaluate', { expression: 'matchMedia("print").matches', returnByValue: true })) as { result: { value: unknown } }).result.value;
      expect(media, 'print media is emulated before measuring').toBe(true);
      return { overflow, dialogs, title };
    } finally {
      await context.close();
    }
  }

  it('measures the real report with JavaScript off: nothing wider than A4 or Letter, no dialog', async () => {
    for (const paper of ['a4', 'letter'] as const) {
      const r = await load(reportFile, paper);
      expect(r.overflow, paper).toEqual([]);
      expect(r.dialogs).toEqual([]);
      expect(String(r.title)).toContain('Cache PoC');
    }
  });

  it('reports a table wider than the column, and a page\'s script neither runs nor opens a dialog (it does with scripts on: the watch works)', async () => {
    const file = join(dir, 'wide.html');
    writeFileSync(
      file,
      `<!doctype html><html><head><title>before</title></head><body><main class="report"><h1>t</h1>` +
        `<table class="data" data-table="too-wide"><tr><td><div style="width:2000px">x</div></td></tr></table>` +
        `<script>document.title = 'ran'; alert('from script')</script></main></body></html>`,
    );
    const off = await load(file, 'a4');
    expect(off.overflow.map((o) => o.id)).toContain('too-wide');
    expect(off.overflow.find((o) => o.id === 'too-wide')?.limitWidth).toBe(680);
    expect(off.title).toBe('before');
    expect(off.dialogs).toEqual([]);
    const on = await load(file, 'a4', true);
    expect(on.title).toBe('ran');
    expect(on.dialogs).toEqual(['from script']);
  });
});

/**
 * Electron's API as the printer uses it, played by this machine's Chromium, so that the printer's
 * whole sequence runs here: the window's `javascript: false` becomes `Emulation.setScriptExecutionDisabled`
 * (the same Blink setting), `debugger` is a DevTools session, the session's request filter sees
 * every request, and `printToPDF` translates its options to `Page.printToPDF` as Electron 45's
 * lib/browser/api/web-contents.ts does (paper sizes in inches, margins passed through).
 */
function chromiumAsElectron(browser: Browser): { deps: ElectronPrinterDeps; windows: BrowserWindowConstructorOptions[]; requests: { url: string; cancel: boolean }[]; prepare(): Promise<void> } {
  const windows: BrowserWindowConstructorOptions[] = [];
  const requests: { url: string; cancel: boolean }[] = [];
  let filter: ((details: { url: string }, callback: (r: { cancel: boolean }) => void) => void) | null = null;
  const ask = (url: string): boolean => {
    let cancel = true;
    filter?.({ url }, (r) => (cancel = r.cancel));
    requests.push({ url, cancel });
    return cancel;
  };
  let next: { context: BrowserContext; page: Page; cdp: CDPSession } | null = null;
  const PAPER: Record<string, { width: number; height: number }> = { A4: { width: 8.27, height: 11.7 }, Letter: { width: 8.5, height: 11 } };
  const BrowserWindow = function (this: unknown, options: BrowserWindowConstructorOptions) {
    windows.push(options);
    const p = next;
    if (p === null) throw new Error('prepare() a page first');
    next = null;
    let destroyed = false;
    let attached = false;
    const listeners: ((e: unknown, method: string, params: unknown) => void)[] = [];
    // The window's content size is the viewport; javascript: false is the Blink setting DevTools sets.
    const scriptsOff = Promise.all([
      p.page.setViewportSize({ width: options.width ?? 800, height: options.height ?? 600 }),
      options.webPreferences?.javascript === false ? p.cdp.send('Emulation.setScriptExecutionDisabled', { value: true }) : undefined,
    ]);
    // A window destroyed before anything awaited this (a refused load) closes its page under it:
    // that rejection is the window's end, not an unhandled error; callers that await it still see it.
    scriptsOff.catch(() => undefined);
    return {
      isDestroyed: () => destroyed,
      destroy: () => {
        destroyed = true;
        p.context.close().catch(() => undefined);
      },
      webContents: {
        setWindowOpenHandler: () => undefined,
        on: () => undefined,
        debugger: {
          attach: () => {
            attached = true;
            for (const ev of ['Page.javascriptDialogOpening']) p.cdp.on(ev as never, ((params: unknown) => listeners.forEach((l) => l({}, ev, params))) as never);
          },
          isAttached: () => attached,
          detach: () => (attached = false),
          on: (_: 'message', l: (e: unknown, method: string, params: unknown) => void) => listeners.push(l),
          sendCommand: async (method: string, params?: object) => {
            await scriptsOff;
            return p.cdp.send(method as never, params as never);
          },
        },
        loadURL: async (url: string) => {
          await scriptsOff;
          if (ask(url)) throw new Error(`ERR_BLOCKED_BY_CLIENT (${url})`);
          await p.context.route('**/*', (route) => (ask(route.request().url()) ? route.abort() : route.continue()));
          await p.page.goto(url);
        },
        printToPDF: async (o: PrintToPDFOptions) => {
          const size = PAPER[String(o.pageSize)];
          if (size === undefined) throw new Error(`paper ${String(o.pageSize)}`);
          const r = (await p.cdp.send('Page.printToPDF', {
            landscape: o.landscape, displayHeaderFooter: o.displayHeaderFooter, headerTemplate: o.headerTemplate, footerTemplate: o.footerTemplate, printBackground: o.printBackground,
            paperWidth: size.width, paperHeight: size.height, marginTop: o.margins?.top, marginBottom: o.margins?.bottom, marginLeft: o.margins?.left, marginRight: o.margins?.right,
            preferCSSPageSize: o.preferCSSPageSize, generateTaggedPDF: o.generateTaggedPDF, generateDocumentOutline: o.generateDocumentOutline,
          } as never)) as { data: string };
          return Buffer.from(r.data, 'base64');
        },
      },
    };
  } as unknown as BrowserWindowCtor;
  const session = {
    webRequest: { onBeforeRequest: (l: typeof filter) => (filter = l) },
    setPermissionRequestHandler: () => undefined,
    setPermissionCheckHandler: () => undefined,
  } as unknown as Session;
  return {
    deps: { BrowserWindow, session, tmpRoot: dir },
    windows,
    requests,
    async prepare() {
      const context = await browser.newContext();
      const page = await context.newPage();
      next = { context, page, cdp: await context.newCDPSession(page) };
    },
  };
}

describe.skipIf(skipped('electron-printer whole printer', (chromiumPath === null ? 'Chromium is not installed (/usr/bin/chromium; CACHEPROOF_CHROMIUM)' : null) ?? (spawnSync('pdftotext', ['-v']).error !== undefined ? 'poppler-utils (pdftotext) is not installed' : null)))('the whole printer, with Chromium playing Electron\'s part (needs Chromium and poppler-utils)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath ?? '', args: CHROMIUM_ARGS });
  });
  afterAll(async () => browser.close());

  it('prints the report with its footer on every page, measures it, lets no request out but its own file and data:, and leaves no temporary file', async () => {
    const fake = chromiumAsElectron(browser);
    const printer = electronPrinter(fake.deps);
    await fake.prepare();
    const before = readdirSync(dir).filter((f) => f.startsWith('cacheproof-print-'));
    const r = await printer.print(job);
    expect(r.overflow).toEqual([]);
    expect(r.dialogs).toEqual([]);
    expect(fake.windows[0]?.webPreferences?.javascript).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('cacheproof-print-'))).toEqual(before);
    const own = fake.requests[0];
    expect(own?.url).toMatch(/^file:\/\/.*\/cacheproof-print-[^/]+\/[0-9a-f-]{36}\.html$/);
    expect(own?.cancel).toBe(false);
    const out = join(dir, 'fake-electron.pdf');
    writeFileSync(out, r.pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
    expect(pages).toBeGreaterThan(3);
    const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
    for (let n = 1; n <= pages; n++) expect(text).toContain(`Page ${n} sur ${pages}`);
    expect(text).toContain('ACME');
    const [w, h] = (/Page size:\s+([\d.]+) x ([\d.]+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.slice(1) ?? []).map(Number);
    expect(Math.abs((w ?? 0) - 595) < 2 && Math.abs((h ?? 0) - 842) < 2, `A4 is 595 × 842 pt, got ${w} × ${h}`).toBe(true);

    // A document that reaches out: its requests are cancelled, its script does not run.
    const leaky = `<!doctype html><html><head><title>t</title><link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head><body><main class="report"><p>x</p><img src="file:///etc/hostname"><script>alert(1)</script></main></body></html>`;
    await fake.prepare();
    const r2 = await printer.print({ ...job, html: leaky });
    expect(r2.dialogs).toEqual([]);
    const outside = fake.requests.slice(1).filter((q) => !q.url.startsWith('file:') || q.url.endsWith('/etc/hostname'));
    expect(outside.map((q) => q.url)).toEqual(expect.arrayContaining(['http://127.0.0.1:9/x.css']));
    expect(outside.every((q) => q.cancel)).toBe(true);
    await printer.close();
  });

  it('keeps "Page n of N" on every page when the report\'s name is too long to sit beside it: the name wraps in the footer', async () => {
    const fake = chromiumAsElectron(browser);
    const printer = electronPrinter(fake.deps);
    await fake.prepare();
    const name = `${'ACME Corporation International Holdings '.repeat(4)}· Cache proof of concept for the second datacenter`;
    const r = await printer.print({ ...job, footerLeft: name });
    await printer.close();
    const out = join(dir, 'long-footer.pdf');
    writeFileSync(out, r.pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
    for (let n = 1; n <= pages; n++) {
      const page = execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), out, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
      expect(page, `page ${n}`).toContain(`Page ${n} sur ${pages}`);
      expect(page, `page ${n}`).toContain('second datacenter');
    }
  });
});

/** The Electron runtime, or why there is none (never triggers its download). */
function electronRuntime(): { exe: string } | { reason: string } {
  const pkg = join(root, 'node_modules', 'electron');
  const pathTxt = join(pkg, 'path.txt');
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const rel = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : null;
  if (override === undefined && rel === null) return { reason: 'node_modules/electron holds no runtime (Electron 45 downloads it on first use, which needs the internet; or set ELECTRON_OVERRIDE_DIST_PATH)' };
  const exe = override !== undefined ? join(override, rel ?? 'electron') : join(pkg, 'dist', rel ?? 'electron');
  if (!existsSync(exe)) return { reason: `the Electron runtime ${exe} is missing` };
  if (!process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'] && spawnSync('sh', ['-c', 'command -v xvfb-run'], { stdio: 'ignore' }).status !== 0) return { reason: 'no display and no xvfb-run to give Electron one' };
  return { exe };
}

/** Electron's command line: under xvfb-run when there is no display; no Chromium sandbox as root. */
function electronCommand(exe: string, args: string[]): [string, string[]] {
  const base = [exe, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ...args];
  return process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY'] ? [base[0] as string, base.slice(1)] : ['xvfb-run', ['-a', ...base]];
}

const runtime = electronRuntime();
/** Whether the runtime actually starts (a main process that quits once ready). */
function electronStarts(): string | null {
  if ('reason' in runtime) return runtime.reason;
  const probe = join(dir, 'probe-main.cjs');
  writeFileSync(probe, "const { app } = require('electron'); app.whenReady().then(() => { process.stdout.write('electron-ready\\n'); app.exit(0); });\n");
  const [cmd, args] = electronCommand(runtime.exe, [probe]);
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.stdout?.includes('electron-ready')) return null;
  return `Electron (${runtime.exe}) did not start: ${(r.stderr || r.error?.message || `exit ${r.status}`).split('\n').find((l) => l.trim() !== '') ?? 'no output'}`;
}
const noElectron = electronStarts();
if (noElectron !== null) console.log(`SKIP electron-printer (Electron runtime): ${noElectron}`);

describe.skipIf(noElectron !== null)('the printer in a real Electron (only where an Electron runtime starts)', () => {
  it('prints the sample report to a PDF: nothing overflows, no dialog, the headline figure and the page footer are in it', async () => {
    const { build } = await import('esbuild');
    const bundle = join(dir, 'electron-print-main.cjs');
    await build({
      entryPoints: [join(__dirname, 'support', 'electron-print-main.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
      external: ['electron', 'better-sqlite3', 'exceljs', 'playwright-core'], define: { __CACHEPROOF_VERSION__: JSON.stringify('test') }, logLevel: 'warning',
    });
    const jobFile = join(dir, 'job.json');
    const out = join(dir, 'electron.pdf');
    const resultFile = join(dir, 'electron-result.json');
    writeFileSync(jobFile, JSON.stringify(job));
    const [cmd, args] = electronCommand((runtime as { exe: string }).exe, [bundle, jobFile, out, resultFile]);
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { overflow?: unknown[]; dialogs?: string[]; bytes?: number; error?: string };
    expect(result.error, r.stderr).toBeUndefined();
    expect(r.status).toBe(0);
    expect(result.overflow).toEqual([]);
    expect(result.dialogs).toEqual([]);
    const pdf = readFileSync(out);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(result.bytes);
    if (spawnSync('pdftotext', ['-v']).error === undefined) {
      const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
      expect(text).toContain('ACME');
      expect(text).toMatch(/Page 1 sur \d+/);
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [out], { encoding: 'utf8' }))?.[1]);
      expect(pages).toBeGreaterThan(3);
    }
  });
});
