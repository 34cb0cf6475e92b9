import { describe, expect, it } from 'vitest';
import { isAppUrl, windowOptions } from '../src/main/window.ts';

describe('Electron BrowserWindow options', () => {
  const opts = windowOptions('/opt/cacheproof/preload.cjs');
  it('isolates and sandboxes the renderer with no Node', () => {
    expect(opts.webPreferences).toMatchObject({
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
