import { defineConfig } from '@playwright/test';

/** End-to-end specs drive the browser host in Debian's Chromium (no browser download). */
export default defineConfig({
  testDir: './specs',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time: each worker starts its own browser host on its own data folder
  // (fixtures.ts, worker scope), and the lab specs wait on real I/O while screens.spec.ts, the
  // longest file, renders beside them. Files stay whole in one worker (fullyParallel: false).
  workers: 2,
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
