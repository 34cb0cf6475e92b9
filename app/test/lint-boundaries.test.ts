/**
 * Proves the room boundaries of ARCHITECTURE.md are lint errors: each case lints a small
 * source as if it stood in a given room and expects the rule to fire (or not).
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const eslint = new ESLint({ cwd: root });

async function errors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('room boundaries are lint errors', () => {
  it.each([
    ['engine imports node:fs', 'engine/src/metrics/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    ['engine imports fs without the node: prefix', 'engine/src/bad.ts', "import * as fs from 'fs';\nexport const x = fs;\n", 'no-restricted-imports'],
    ['engine imports electron', 'engine/src/bad.ts', "import { app } from 'electron';\nexport const x = app;\n", 'no-restricted-imports'],
    ['engine imports better-sqlite3', 'engine/src/bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n", 'no-restricted-imports'],
    ['engine imports app code', 'engine/src/bad.ts', "import { HostError } from '../../app/src/host/errors.ts';\nexport const x = HostError;\n", 'no-restricted-imports'],
    ['engine reads the clock', 'engine/src/bad.ts', 'export const now = Date.now();\n', 'no-restricted-properties'],
    ['engine uses unseeded randomness', 'engine/src/bad.ts', 'export const r = Math.random();\n', 'no-restricted-properties'],
    ['engine touches the DOM', 'engine/src/bad.ts', 'export const d = document.title;\n', 'no-restricted-globals'],
    ['renderer imports host code', 'app/src/renderer/bad.ts', "import { openCapture } from '../host/capture/reader.ts';\nexport const x = openCapture;\n", 'no-restricted-imports'],
    ['renderer imports node:fs', 'app/src/renderer/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    ['renderer imports electron', 'app/src/renderer/bad.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n", 'no-restricted-imports'],
    ['host imports electron', 'app/src/host/bad.ts', "import { app } from 'electron';\nexport const x = app;\n", 'no-restricted-imports'],
    ['host imports the renderer', 'app/src/host/bad.ts', "import { httpApi } from '../renderer/api-http.ts';\nexport const x = httpApi;\n", 'no-restricted-imports'],
    ['shared imports host code', 'app/src/shared/bad.ts', "import { HostError } from '../host/errors.ts';\nexport const x = HostError;\n", 'no-restricted-imports'],
    ['preload imports node:fs', 'app/src/preload/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'no-restricted-imports'],
    ['raw ipcMain outside the transport wrapper', 'app/src/main/other.ts', "import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n", 'no-restricted-syntax'],
    ['raw ipcRenderer outside the transport wrapper', 'app/src/preload/other.ts', "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;\n", 'no-restricted-syntax'],
    ['browser host imports the renderer', 'app/src/browser-host/bad.ts', "import { httpApi } from '../renderer/api-http.ts';\nexport const x = httpApi;\n", 'no-restricted-imports'],
    ['host reads SQLite outside its capture readers', 'app/src/host/runs/bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n", 'no-restricted-imports'],
    ['cli opens SQLite itself', 'app/src/cli/bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n", 'no-restricted-imports'],
    ['cli imports electron', 'app/src/cli/bad.ts', "import { app } from 'electron';\nexport const x = app;\n", 'no-restricted-imports'],
    ['e2e reaches into host internals', 'e2e/specs/bad.spec.ts', "import { openCapture } from '../../app/src/host/capture/reader.ts';\nexport const x = openCapture;\n", 'no-restricted-imports'],
    ['e2e imports the app\'s unit-test helpers', 'e2e/fixtures.ts', "import { x } from '../app/test/support/helpers.ts';\nexport const y = x;\n", 'no-restricted-imports'],
    ['the Electron main process computes a figure', 'app/src/main/bad.ts', "import { analyze } from '@cacheproof/engine';\nexport const x = analyze;\n", 'no-restricted-imports'],
    ['the browser host computes a figure', 'app/src/browser-host/bad.ts', "import { analyze } from '@cacheproof/engine';\nexport const x = analyze;\n", 'no-restricted-imports'],
    ['the browser host reaches the engine by path', 'app/src/browser-host/bad.ts', "import { analyze } from '../../../engine/src/index.ts';\nexport const x = analyze;\n", 'no-restricted-imports'],
  ])('%s', async (_name, file, code, rule) => {
    const found = await errors(file, code);
    expect(found.some((m) => m.startsWith(`${rule}:`)), found.join('\n')).toBe(true);
  });

  it.each([
    ['engine importing its own modules', 'engine/src/ok.ts', "import type { IntervalRecord } from './records/types.ts';\nexport type X = IntervalRecord;\n"],
    ['renderer importing shared and engine', 'app/src/renderer/ok.ts', "import { TID } from '../shared/testids.ts';\nimport type { IntervalRecord } from '@cacheproof/engine';\nexport type X = IntervalRecord;\nexport const y = TID;\n"],
    ['host importing node and engine', 'app/src/host/ok.ts', "import { readFileSync } from 'node:fs';\nimport type { IntervalRecord } from '@cacheproof/engine';\nexport type X = IntervalRecord;\nexport const y = readFileSync;\n"],
    ['the capture readers opening SQLite', 'app/src/host/capture/ok.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n"],
    ['ipcMain inside the transport wrapper', 'app/src/main/ipc.ts', "import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n"],
    ['e2e using the shared test data writer', 'e2e/fixtures.ts', "import { writeSyntheticCapture } from '../test/support/synthetic-capture.ts';\nexport const x = writeSyntheticCapture;\n"],
  ])('allows %s', async (_name, file, code) => {
    expect(await errors(file, code)).toEqual([]);
  });
});

describe('units stay small enough to change safely (max-lines 500)', () => {
  /** A source of `n` lines (blank lines and comments count too). */
  const lines = (n: number): string => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? '' : i % 3 === 1 ? `// line ${i + 1}` : `export const v${i} = ${i};`)).join('\n') + '\n';

  it.each([
    ['an engine module of 501 lines', 'engine/src/report/big.ts'],
    ['a renderer module of 501 lines', 'app/src/renderer/planner/big.ts'],
    ['a host module of 501 lines', 'app/src/host/big.ts'],
  ])('refuses %s', async (_name, file) => {
    const found = await errors(file, lines(501));
    expect(found.some((m) => m.startsWith('max-lines:')), found.join('\n')).toBe(true);
  });

  it.each([
    ['a module of exactly 500 lines', 'engine/src/report/ok.ts', 500],
    ['an i18n catalog of 900 lines', 'app/src/shared/i18n/big.ts', 900],
    ['a test of 900 lines', 'engine/src/report/big.test.ts', 900],
    ['an app test of 900 lines', 'app/test/big.test.ts', 900],
  ])('allows %s', async (_name, file, n) => {
    expect((await errors(file, lines(n))).filter((m) => m.startsWith('max-lines:'))).toEqual([]);
  });
});
