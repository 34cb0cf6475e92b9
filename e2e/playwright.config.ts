import { defineConfig } from '@playwright/test';

/** End-to-end specs drive the browser host in Debian's Chromium (no browser download). */
export default defineConfig({
  testDir: './specs',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    viewport: { width: 1360, height: 900 },
    screenshot: 'only-on-failure',
  },
});
