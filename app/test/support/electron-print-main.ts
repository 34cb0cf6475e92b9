/**
 * An Electron main process for app/test/electron-printer.test.ts: prints one report with the
 * shell's own printer (app/src/main/pdf-printer.ts) and quits. Bundled by the test with esbuild
 * and started only when an Electron runtime is installed.
 *
 * argv: JOB.json OUT.pdf RESULT.json, where JOB.json is a host/report/pdf.ts PrintJob. RESULT.json
 * gets `{ overflow, dialogs, bytes }` or `{ error }`.
 */
import { app, BrowserWindow, session } from 'electron';
import { readFileSync, writeFileSync } from 'node:fs';
import { electronPrinter, PRINT_PARTITION } from '../../src/main/pdf-printer.ts';
import type { PrintJob } from '../../src/host/report/pdf.ts';

const [jobPath, outPath, resultPath] = process.argv.slice(-3);

async function run(): Promise<void> {
  if (jobPath === undefined || outPath === undefined || resultPath === undefined) throw new Error('usage: electron bundle.cjs JOB.json OUT.pdf RESULT.json');
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as PrintJob;
  const printer = electronPrinter({ BrowserWindow, session: session.fromPartition(PRINT_PARTITION) });
  try {
    const r = await printer.print(job);
    writeFileSync(outPath, r.pdf);
    writeFileSync(resultPath, JSON.stringify({ overflow: r.overflow, dialogs: r.dialogs, bytes: r.pdf.length }));
  } finally {
    await printer.close();
  }
}

app.on('window-all-closed', () => undefined);
void app.whenReady().then(() =>
  run().then(
    () => app.exit(0),
    (err: unknown) => {
      if (resultPath !== undefined) writeFileSync(resultPath, JSON.stringify({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
      app.exit(1);
    },
  ),
);
