/**
 * The main window of CacheProof's Electron shell, created by {@link createSecureWindow} with the
 * app's security settings and the preload script as its only bridge to the host.
 */
import type { BrowserWindow as ElectronBrowserWindow } from 'electron';
import { createSecureWindow, type BrowserWindowCtor } from './secure-window.ts';

export type { BrowserWindowCtor } from './secure-window.ts';

export function createMainWindow(BrowserWindow: BrowserWindowCtor, preloadPath: string): ElectronBrowserWindow {
  return createSecureWindow(BrowserWindow, { width: 1360, height: 900, minWidth: 960, minHeight: 640, title: 'CacheProof' }, { preload: preloadPath });
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
