/**
 * `cacheproof analyze CAPTURE --json` run in this process (the CLI's own entry, `runCli`): the
 * analysis the dashboard and the report read, parsed; a failure or any standard error fails the test.
 */
import { expect } from 'vitest';
import type { AnalysisReport } from '@cacheproof/engine';
import { runCli } from '../../src/cli/main.ts';

export async function analyzeJson(capture: string): Promise<AnalysisReport> {
  let out = '';
  let err = '';
  const code = await runCli(['analyze', capture, '--json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as AnalysisReport;
}
