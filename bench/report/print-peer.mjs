// The PDF report's printing floor (bench/report/run.mjs): Debian's Chromium alone printing the
// report's own HTML (`cacheproof report --format html` of the same capture, made once beforehand,
// not timed) to PDF, headless, as a new process each time: `chromium --headless --print-to-pdf`.
// It does less than `cacheproof report --format pdf`: no reading, hashing or analysis of the
// capture, no model, no drawing of the charts into the page (they are in the HTML already).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from '../lib/synthetic.mjs';

// the flags of the app's own printing (e2e/playwright.config.ts, bench/dashboard)
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-pdf-header-footer'];

/** Median seconds of `runs` prints of the report's HTML, and its page count; null when a step failed. */
export function chromiumPrintPeer(cli, capture, dir, runs = 3) {
  const html = join(dir, 'peer.html');
  const made = spawnSync(process.execPath, [cli, 'report', capture, '--format', 'html', '--out', html], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (made.status !== 0 || !existsSync(html)) return null;
  const times = [];
  let pages = '?';
  for (let i = 0; i < runs; i++) {
    const pdf = join(dir, `peer-${i}.pdf`);
    const t = performance.now();
    const r = spawnSync('chromium', [...FLAGS, `--print-to-pdf=${pdf}`, pathToFileURL(html).href], { stdio: 'ignore' });
    times.push((performance.now() - t) / 1000);
    if (r.status !== 0 || !existsSync(pdf)) return null;
    try {
      pages = /Pages:\s+(\d+)/.exec(spawnSync('pdfinfo', [pdf], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
    } catch {
      // pdfinfo missing: page count unknown
    }
  }
  return { seconds: median(times), pages };
}
