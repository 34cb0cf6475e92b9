// The prediction from a block trace, end to end through the real probe and the app's reader: a
// copy of the bundled lab capture gets a baseline trace of its front device (a cyclic read of 100
// blocks, worked out by hand), `cacheproof-probe predict --store` stores the prediction in
// meta.prediction, and `cacheproof analyze --json` (the same analysis the dashboard and the
// report read) carries it beside the measured I/Os saved. A meta.prediction that is not the
// probe's JSON is a warning naming the field, and the analysis goes on. Needs the release probe.
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { runCli } from '../src/cli/main.ts';
import { warningText } from '../src/shared/i18n/warnings.ts';
import { writeTracedCapture } from '../../test/support/traced-capture.ts';
import { analyzeJson } from './support/analyze-json.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = join(import.meta.dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const reason = existsSync(probe) ? null : `${probe} is missing: build it with 'cargo build --release --manifest-path native/Cargo.toml'`;

describe.skipIf(skipped('prediction', reason))('prediction from the baseline trace in the analysis', () => {
  it('carries the probe\'s figures (hand-worked) beside the measured I/Os saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-'));
    try {
      // 100 first references, then every read re-references a block at LRU distance 99: a cache
      // of 100 blocks or more hits the 1,900 others (95 %); one of 99 blocks or fewer hits none.
      const { capture, predictStderr } = writeTracedCapture(dir, sample, probe, '1MiB');
      expect(predictStderr).toContain('is larger than the 409600 bytes the baseline\'s reads touched');
      const r = await analyzeJson(capture);
      expect(r.prediction.reasons).toEqual({});
      const pr = r.prediction.fromTrace;
      if (pr === null) throw new Error('no prediction in the analysis');
      expect(pr.source).toBe('capture-meta-prediction');
      expect(pr.window).toBe('baseline');
      expect(pr.devices).toEqual(['loop1']);
      expect(pr.cacheBytes).toBe(1048576);
      expect(pr.reads).toBe(2000);
      expect(pr.iosSavedPercent).toBeCloseTo(95, 10);
      expect(pr.readHitRatio).toBeCloseTo(0.95, 12);
      expect(pr.footprintBytes).toBe(100 * 4096);
      const answer = (pct: number): number | undefined => pr.sizeAnswers.find((a) => a.readHitPercent === pct)?.bytes;
      expect(answer(90)).toBe(100 * 4096);
      expect(answer(99), 'no size reaches 99 %: 5 % of the reads are first references').toBeUndefined();
      expect(pr.maxReadHitPercent).toBeCloseTo(95, 10);
      const curve = pr.curve;
      expect(curve.find((c) => c.bytes === 99 * 4096)?.readHitRatio ?? 0).toBe(0);
      expect(curve.filter((c) => c.bytes >= 100 * 4096).every((c) => Math.abs(c.readHitRatio - 0.95) < 1e-12)).toBe(true);
      expect(pr.notes[0]).toContain('larger than the 409600 bytes');
      const measured = r.benefit.iosSavedPercent.value ?? NaN;
      expect(pr.measuredIosSavedPercent).toBe(measured);
      expect(pr.differencePp).toBeCloseTo(95 - measured, 10);
      expect(pr.windowStart).toBe(r.windows.baseline.start);

      // the response time of every traced request, as the probe stored it: 200 µs each, in [181, 215) µs
      const tl = r.traceLatency.fromTrace;
      if (tl === null) throw new Error('no trace latency in the analysis');
      const base = tl.series.find((s) => s.device === 'loop1' && s.window === 'baseline' && s.op === 'read');
      expect(base?.completed).toBe(2000);
      expect(base?.meanUs).toBeCloseTo(200, 9);
      expect(base?.percentiles.map((x) => [x.p, Math.round(x.lowUs), Math.round(x.highUs)])).toEqual([[50, 181, 215], [95, 181, 215], [99, 181, 215], [99.9, 181, 215]]);

      // the readable table says it too, in the chosen language
      let text = '';
      expect(await runCli(['analyze', capture, '--lang', 'fr'], { stdout: (s) => (text += s), stderr: () => undefined })).toBe(0);
      expect(text.replace(/[\u00a0\u202f]/gu, ' ')).toContain(`Prédit à partir de la trace de blocs de la référence : 95,0 % d’E/S épargnées avec un cache LRU de 1,05 Mo (2 000 lectures rejouées) ; mesuré ${measured.toFixed(1).replace('.', ',')} %`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the report (HTML, English and French) has the prediction: predicted beside measured, the size answers and the miss-ratio curve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-'));
    try {
      const { capture } = writeTracedCapture(dir, sample, probe, '1MiB');
      const measured = (await analyzeJson(capture)).benefit.iosSavedPercent.value ?? NaN;
      for (const [lang, texts] of [
        ['en', ['Response time from the block trace', '181–215 µs', 'Prediction from the block trace', 'of I/Os saved; measured: ', 'A cache of 410 kB holds 90.0% of reads.', 'No cache holds more than 95.0% of reads', 'Miss-ratio curves by policy (baseline reads)', 'The 1.05 MB cache is larger than the 410 kB',
          'Cache device: NVMe SSD (Intel SSD DC P4500), 85.0 µs a read hit, from Lenovo Press product guide', 'Predicted backing I/O: 100 I/Os of the baseline’s 2,000 I/Os would still reach the backing devices',
          'Predicted average response time: 0.0908 ms (hits at the cache device’s 85.0 µs', 'against 0.2 ms without the cache; exact replay (every request traced)', 'I/Os saved at 1.05 MB by replacement policy: LRU 95.0%, FIFO 95.0%, CLOCK 95.0%, ARC 95.0%, 2Q 95.0%, S3-FIFO 95.0%.']],
        ['fr', ['Temps de réponse d’après la trace de blocs', '181–215 µs', 'Prédiction à partir de la trace de blocs', 'd’E/S économisées ; mesuré : ', 'Un cache de 410 ko sert 90,0 % des lectures.', 'Aucun cache ne sert plus de 95,0 % des lectures', 'Courbes de taux d’échec par politique (lectures de la référence)',
          'Périphérique du cache : SSD NVMe (Intel SSD DC P4500), 85,0 µs par succès de lecture', 'Temps de réponse moyen prédit : 0,0908 ms', 'rejeu exact (chaque requête tracée)']],
      ] as const) {
        const out = join(dir, `report-${lang}.html`);
        let err = '';
        const code = await runCli(['report', capture, '--format', 'html', '--out', out, '--lang', lang], { stdout: () => undefined, stderr: (s) => (err += s) });
        expect(err).toBe('');
        expect(code).toBe(0);
        const html = readFileSync(out, 'utf8').replace(/[\u00a0\u202f]/gu, ' ');
        for (const t of texts) expect(html, `${lang}: ${t}`).toContain(t);
        expect(html).toContain('data-chart="mrc"');
        // the measured figure of the same analysis, formatted as the report formats percents
        const shown = lang === 'en' ? `${measured.toFixed(1)}%` : `${measured.toFixed(1).replace('.', ',')} %`;
        expect(html).toContain(shown);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipped('prediction PDF', (spawnSync('pdftotext', ['-v']).error !== undefined ? 'poppler-utils (pdftotext) is not installed' : null)))('the PDF report holds the prediction and the miss-ratio curve\'s text (needs Chromium and poppler-utils)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-'));
    try {
      const { capture } = writeTracedCapture(dir, sample, probe, '1MiB');
      const out = join(dir, 'report.pdf');
      let err = '';
      const code = await runCli(['report', capture, '--format', 'pdf', '--out', out, '--lang', 'fr'], { stdout: () => undefined, stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' }).replace(/[\s\u00a0\u202f]+/gu, ' ');
      for (const t of ['Prédiction à partir de la trace de blocs', 'Un cache de 410 ko sert 90,0 % des lectures.', 'Courbes de taux d’échec', 'Temps de réponse d’après la trace de blocs', 'Temps de réponse moyen prédit']) expect(text, t).toContain(t);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a meta.prediction that is not the probe\'s JSON is a warning naming the field; the analysis goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-prediction-'));
    try {
      const capture = join(dir, 'bad.capture');
      copyFileSync(sample, capture);
      for (const [value, want] of [
        ['{"window": "baseline"', 'is not JSON'],
        [JSON.stringify({ window: 'baseline', iosSavedPercent: 140 }), 'has a wrong field'],
      ] as const) {
        const db = new Database(capture);
        db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('prediction', ?)").run(value);
        db.close();
        const r = await analyzeJson(capture);
        expect(r.prediction).toEqual({ fromTrace: null, reasons: { fromTrace: 'not-reported' } });
        expect(r.benefit.iosSavedPercent.value).not.toBeNull();
        const w = r.warnings.find((x) => x.code === 'prediction-unreadable');
        if (w === undefined) throw new Error('no prediction-unreadable warning');
        expect(w.source).toBe('capture');
        expect(w.message).toContain(`${capture}: meta.prediction ${want}`);
        expect(w.message).toContain('predict');
        expect(warningText(w, 'fr')).toContain('prédiction');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
