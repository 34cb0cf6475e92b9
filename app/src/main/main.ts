/**
 * The Electron shell: one window, the contract over IPC, strict security settings
 * (docs/ipc.md). Started by `npm start` when an Electron runtime is available.
 */
import { installBugReporter, reportBug } from '../host/bugs.ts';
import { app, BrowserWindow, dialog, Menu, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { registerContract } from './ipc.ts';
import { createMainWindow, isAppUrl } from './window.ts';
import { electronPrinter, PRINT_PARTITION } from './pdf-printer.ts';
import { createDispatch } from '../host/dispatch.ts';
import { createHandlers } from '../host/services.ts';
import { findRepoRoot, probePath, samplePath } from '../host/paths.ts';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function start(): void {
  const root = findRepoRoot(__dirname);
  const sample = root ? samplePath(root) : null;
  const indexFile = join(__dirname, 'renderer', 'index.html');
  const indexUrl = pathToFileURL(indexFile).toString();
  // Reports print to PDF in hidden windows of this Electron (pdf-printer.ts), not a separate Chromium.
  const pdfPrinter = electronPrinter({ BrowserWindow, session: session.fromPartition(PRINT_PARTITION) });
  app.on('will-quit', () => void pdfPrinter.close());
  const dispatch = createDispatch(
    createHandlers({
      shell: 'electron', sample: sample && existsSync(sample) ? sample : null, probe: probePath(root), pdfPrinter,
      // exports are saved straight from the host's file to where the person chooses (report.save)
      saveDialog: async (suggestedName) => {
        const win = BrowserWindow.getFocusedWindow();
        const options = { defaultPath: join(app.getPath('documents'), suggestedName) };
        const r = win === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(win, options);
        return r.canceled || r.filePath === undefined || r.filePath === '' ? null : r.filePath;
      },
    }),
    reportBug,
  );
  registerContract(dispatch, indexUrl);

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  // No remote content, ever: only our own files load.
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => {
    // blob: URLs are made by the app's own page (the Planner's scenario export download).
    callback({ cancel: !details.url.startsWith('file:') && !details.url.startsWith('devtools:') && !details.url.startsWith('blob:') });
  });

  Menu.setApplicationMenu(null);
  const win = createMainWindow(BrowserWindow, join(__dirname, 'preload.cjs'));
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, indexUrl)) event.preventDefault();
  });
  // CacheProof opens no other windows, and hands no URL to the system.
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(indexUrl);
}

installBugReporter('electron-main');
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});
app.on('window-all-closed', () => app.quit());
void app.whenReady().then(start);
