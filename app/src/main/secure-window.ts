/**
 * The one place the Electron shell creates a BrowserWindow, so that every window of the app (the
 * main window, the hidden report-print windows) gets the same security settings: context
 * isolation and sandbox on, no Node anywhere, web security on, no insecure content, no
 * experimental features, no <webview>, no navigation by drag and drop, no auxclick, safe dialogs.
 * A caller chooses only its size and title and the few web preferences that really differ
 * between windows ({@link WindowContent}); the security settings come after those in the object
 * literal, so nothing a caller passes can weaken them. The options stay an object literal at the
 * `new BrowserWindow(…)` site, where Electronegativity reads them.
 *
 * The constructor is passed in so that tests can check the exact options without an Electron
 * runtime.
 */
import type { BrowserWindow as ElectronBrowserWindow, BrowserWindowConstructorOptions, WebPreferences } from 'electron';

export type BrowserWindowCtor = new (options: BrowserWindowConstructorOptions) => ElectronBrowserWindow;

/** What a window may choose about itself: size, title and painting; never a web preference. */
export type WindowFrame = Pick<BrowserWindowConstructorOptions, 'width' | 'height' | 'minWidth' | 'minHeight' | 'useContentSize' | 'paintWhenInitiallyHidden' | 'title'>;

/**
 * The web preferences that differ between the app's windows; none of them is a security setting.
 * Only the main window has a preload (app/src/preload/preload.ts), which exposes only the
 * task-shaped functions of apiFrom() on contextBridge; Electronegativity does not see it through
 * the spread below, so that review is kept here.
 */
export type WindowContent = Pick<WebPreferences, 'preload' | 'partition' | 'javascript' | 'backgroundThrottling'>;

/** A hidden window (shown by its owner when ready) with the app's security settings. */
export function createSecureWindow(BrowserWindow: BrowserWindowCtor, frame: WindowFrame, content: WindowContent): ElectronBrowserWindow {
  return new BrowserWindow({
    ...frame,
    show: false,
    webPreferences: {
      ...content,
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
