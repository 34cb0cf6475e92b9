import { describe, expect, it } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import { createMainWindow, isAppUrl, type BrowserWindowCtor } from '../src/main/window.ts';

describe('Electron BrowserWindow options', () => {
  // Records what the shell passes to Electron's BrowserWindow constructor.
  const seen: BrowserWindowConstructorOptions[] = [];
  const Recorder = function (this: unknown, options: BrowserWindowConstructorOptions) {
    seen.push(options);
  } as unknown as BrowserWindowCtor;
  createMainWindow(Recorder, '/opt/cacheproof/preload.cjs');
  const opts = seen[0];

  it('isolates and sandboxes the renderer with no Node', () => {
    expect(seen).toHaveLength(1);
    expect(opts?.webPreferences).toMatchObject({
      preload: '/opt/cacheproof/preload.cjs',
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
  });
  it('accepts only the app’s own page as a navigation target or IPC sender', () => {
    const index = 'file:///opt/cacheproof/renderer/index.html';
    expect(isAppUrl('file:///opt/cacheproof/renderer/index.html#x', index)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', index)).toBe(false);
    expect(isAppUrl('https://evil.example/', index)).toBe(false);
    expect(isAppUrl('not a url', index)).toBe(false);
  });
});
