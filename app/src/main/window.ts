/**
 * The BrowserWindow options of CacheProof's Electron shell, as a pure function so a test can
 * check every security setting without an Electron runtime.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 900,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'CacheProof',
    backgroundColor: '#ffffff',
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
      spellcheck: false,
      safeDialogs: true,
    },
  };
}

/** The renderer is loaded from this origin only; anything else is refused. */
export function isAppUrl(url: string, rendererIndexUrl: string): boolean {
  try {
    const u = new URL(url);
    const app = new URL(rendererIndexUrl);
    return u.protocol === 'file:' && u.pathname === app.pathname;
  } catch {
    return false;
  }
}
