/**
 * The main window of CacheProof's Electron shell. The constructor is passed in so that a test
 * can check the exact options without an Electron runtime, and so that the options stay an
 * object literal at the `new BrowserWindow(…)` site, where Electronegativity reads them.
 */
import type { BrowserWindow as ElectronBrowserWindow, BrowserWindowConstructorOptions } from 'electron';

export type BrowserWindowCtor = new (options: BrowserWindowConstructorOptions) => ElectronBrowserWindow;

export function createMainWindow(BrowserWindow: BrowserWindowCtor, preloadPath: string): ElectronBrowserWindow {
  return new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'CacheProof',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
      safeDialogs: true,
    },
  });
}

/** The renderer is loaded from this page only; anything else is refused. */
export function isAppUrl(url: string, rendererIndexUrl: string): boolean {
  try {
    const u = new URL(url);
    const app = new URL(rendererIndexUrl);
    return u.protocol === 'file:' && u.pathname === app.pathname;
  } catch {
    return false;
  }
}
