/**
 * Devices' window summaries on a second thread, shared as the two threads claim them
 * (host/summaries-thread.ts): the analysis is the same, figure for figure, as the one on one thread, whether the devices come from the capture's
 * interval blocks or from the columnar files of its rows; a worker that fails leaves its devices
 * to the calling thread and the analysis is still the same; an idle worker is reused.
 * The worker bundle is built from the sources under test; the blocks come from the real probe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { analyze, type AnalysisResult } from '@cacheproof/engine';
import { openCaptureColumnar, type ColumnarCapture } from '../src/host/capture/columnar.ts';
import { summariesHelper } from '../src/host/summaries-thread.ts';
import { findRepoRoot, probePath } from '../src/host/paths.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';

const root = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-summaries-'));
// inside the checkout, so that the bundle's require('better-sqlite3') finds node_modules
const workerFile = join(root, 'node_modules', '.cache', 'cacheproof-test', `summaries-worker-${process.pid}.cjs`);
const rowsCapture = join(dir, 'rows.capture');
const blocksCapture = join(dir, 'blocks.capture');
const probeBin = probePath(findRepoRoot(__dirname));
if (probeBin === null) throw new Error('cacheproof-probe is not built: npm test builds it (cargo build --release --manifest-path native/Cargo.toml)');

beforeAll(async () => {
  mkdirSync(join(root, 'node_modules', '.cache', 'cacheproof-test'), { recursive: true });
  await build({
    entryPoints: [join(root, 'app/src/host/analysis-worker.ts')], outfile: workerFile, bundle: true, platform: 'node', format: 'cjs',
    target: 'node20', external: ['better-sqlite3'], define: { __CACHEPROOF_VERSION__: '"test"' }, logLevel: 'warning',
  });
  // 1 front, 5 backing, 1 other device; 2 × 1 h + 5 min at 1 s; one device with gaps
  writeSyntheticCapture({ path: rowsCapture, windowSeconds: 3600, warmupSeconds: 300, intervalMs: 1000, backingDevices: 5, extraDevices: 1, missShare: 0.2 });
  copyFileSync(rowsCapture, blocksCapture);
  execFileSync(probeBin as string, ['index', blocksCapture, '--json']);
}, 120_000);
afterAll(() => {
  rmSync(workerFile, { force: true });
  rmSync(`${workerFile}.map`, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The analysis with the summaries on a second thread (`workerFile`), or all here (null); how many
 * devices were left to be summarized after the pass (by the worker or this thread) and how many the pass asked about.
 */
function analyzed(cap: ColumnarCapture, file: string | null): { result: AnalysisResult; taken: number; asked: number } {
  const helper = summariesHelper(cap, file, 0);
  let elsewhere: ReturnType<typeof helper.hook> = null;
  let asked = 0;
  try {
    const result = analyze(cap.data, { seed: 7 }, {
      summariesElsewhere: (w, d) => {
        elsewhere = helper.hook(w, d);
        asked = d.length;
        return elsewhere;
      },
    });
    return { result, taken: (elsewhere as ReturnType<typeof helper.hook>)?.devices.size ?? 0, asked };
  } finally {
    helper.release();
  }
}

describe('window summaries on a second thread', () => {
  for (const [label, path] of [['interval blocks', blocksCapture], ['columnar files of the rows', rowsCapture]] as const) {
    it(`give the same analysis as one thread (${label})`, () => {
      const cap = openCaptureColumnar(path);
      try {
        expect(cap.fromBlocks).toBe(label === 'interval blocks');
        const here = analyzed(cap, null);
        expect(here.taken).toBe(0);
        expect(here.result.ok).toBe(true);
        for (let k = 0; k < 2; k++) {
          const there = analyzed(cap, workerFile);
          // 7 devices, all summarized after the pass, shared as the two threads claim them (the worker from the last)
          expect(there.asked).toBe(7);
          expect(there.taken).toBe(7);
          expect(JSON.stringify(there.result)).toBe(JSON.stringify(here.result));
        }
      } finally {
        cap.close();
      }
    }, 60_000);
  }

  it('a worker that cannot open the devices leaves them to this thread: the same analysis', () => {
    const cap = openCaptureColumnar(blocksCapture);
    try {
      const here = analyzed(cap, null);
      const broken: ColumnarCapture = { ...cap, reopen: { kind: 'blocks', path: join(dir, 'gone.capture') } };
      const there = analyzed(broken, workerFile);
      // it fails before it claims a device: this thread summarizes them all after the pass
      expect(there.taken).toBe(7);
      expect(JSON.stringify(there.result)).toBe(JSON.stringify(here.result));
    } finally {
      cap.close();
    }
  }, 60_000);

  it('stays on one thread for a small capture, without a worker bundle, or with a single device', () => {
    const cap = openCaptureColumnar(blocksCapture);
    try {
      expect(summariesHelper(cap, workerFile).hook({ baseline: { startMs: 0, endMs: 1 }, measure: { startMs: 1, endMs: 2 } }, ['a', 'b'])).toBeNull();
      expect(summariesHelper(cap, null, 0).hook({ baseline: { startMs: 0, endMs: 1 }, measure: { startMs: 1, endMs: 2 } }, ['a', 'b'])).toBeNull();
      expect(summariesHelper(cap, workerFile, 0).hook({ baseline: { startMs: 0, endMs: 1 }, measure: { startMs: 1, endMs: 2 } }, ['a'])).toBeNull();
    } finally {
      cap.close();
    }
  });
});
