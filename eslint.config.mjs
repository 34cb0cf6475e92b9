// Lint is where the rooms of ARCHITECTURE.md are enforced: every boundary below is an error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NODE_BUILTINS = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises',
  'http', 'https', 'http2', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'tls',
  'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];
const nodeBuiltins = { group: ['node:*', ...NODE_BUILTINS], message: 'This room does no I/O: no Node built-ins (ARCHITECTURE.md).' };
const electron = { group: ['electron', 'electron/*'], message: 'Electron is only for app/src/main and app/src/preload (ARCHITECTURE.md).' };
const sqlite = { group: ['better-sqlite3'], message: 'SQLite is read only by app/src/host (ARCHITECTURE.md).' };
const captureSqlite = { group: ['better-sqlite3'], message: 'Captures are read through app/src/host/capture/ only (ARCHITECTURE.md, data rules): use openCapture, readCaptureWindow or add a reader there.' };
const ours = (...rooms) => ({ group: rooms, message: `This room may not import ${rooms.join(', ')} (ARCHITECTURE.md).` });
/** The shells (Electron main, browser host) reach figures only through the host's services. */
const engineFromShell = { group: ['@cacheproof/engine', '@cacheproof/engine/*', '**/engine/**'], message: 'The shells do not compute figures: go through app/src/host services (ARCHITECTURE.md: main and browser-host import host and shared only).' };

const rawIpc = {
  selector: "ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/], MemberExpression[property.name=/^ipc(Main|Renderer)$/]",
  message: 'Raw ipcMain/ipcRenderer only inside the transport wrappers (app/src/main/ipc.ts, app/src/preload/transport.ts).',
};


/**
 * Issue 38: the renderer draws, the engine computes. Arithmetic in app/src/renderer (Math.*,
 * reduce, * / % and their assignments) is refused: a figure, a series summary, a unit conversion
 * or a nearest size belongs in engine/ (or app/src/shared for pure formatting), where screens,
 * reports and the CLI share it. Pixel layout that is not a figure (canvas geometry) lives in
 * app/src/renderer/draw/, which this rule does not cover.
 */
const noRendererArithmetic = {
  meta: { type: 'problem', schema: [], messages: { arithmetic: 'No arithmetic in the renderer ({{what}}): compute it in engine/ and draw the result (issue 38, ARCHITECTURE.md).' } },
  create(context) {
    const report = (node, what) => context.report({ node, messageId: 'arithmetic', data: { what } });
    return {
      'CallExpression[callee.object.name="Math"]': (n) => report(n, `Math.${n.callee.property.name ?? ''}`),
      'CallExpression[callee.property.name=/^reduce(Right)?$/]': (n) => report(n, n.callee.property.name),
      'BinaryExpression[operator=/^[*\\/%]$|^\\*\\*$/]': (n) => report(n, n.operator),
      'AssignmentExpression[operator=/^([*\\/%]|\\*\\*)=$/]': (n) => report(n, n.operator),
    };
  },
};
/**
 * The unit tests share one module graph per worker (vitest.config.ts, `isolate: false`): a module
 * mocked in one file would be the mock in every file the worker runs after it. Mocks of functions
 * and stubbed globals and variables are undone after each test by the config; module mocks are refused.
 */
const noModuleMock = {
  meta: { type: 'problem', schema: [], messages: { mock: 'No vi.{{what}}: the test files share one module graph (vitest.config.ts, isolate: false); pass the dependency in, or give the file a vitest project of its own with isolate: true.' } },
  create(context) {
    return {
      'CallExpression[callee.object.name="vi"][callee.property.name=/^(mock|doMock|unmock|doUnmock|hoisted)$/]': (n) => context.report({ node: n, messageId: 'mock', data: { what: n.callee.property.name } }),
    };
  },
};
const cacheproof = { rules: { 'no-renderer-arithmetic': noRendererArithmetic, 'no-module-mock': noModuleMock } };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'native/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**', 'app/test/fixtures/lint/**', '**/.venv/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', rawIpc],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'eslint.config.mjs', '*.config.ts', 'e2e/**/*.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, sqlite, ours('**/app/**', '@cacheproof/app', '@cacheproof/app/*')] }],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'require', 'fetch', 'localStorage'],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'The engine is deterministic: use a seeded generator.' },
        { object: 'Date', property: 'now', message: 'The engine reads no clock: pass the time in.' }],
    },
  },
  {
    files: ['app/src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, sqlite, ours('**/host/**', '**/main/**', '**/preload/**', '**/renderer/**', '**/browser-host/**', '**/cli/**')] }],
    },
  },
  {
    files: ['app/src/host/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [electron, captureSqlite, ours('**/renderer/**', '**/main/**', '**/preload/**', '**/browser-host/**', '**/cli/**')] }],
    },
  },
  {
    files: ['app/src/host/capture/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [electron, ours('**/renderer/**', '**/main/**', '**/preload/**', '**/browser-host/**', '**/cli/**')] }],
    },
  },
  {
    files: ['app/src/main/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [captureSqlite, engineFromShell, ours('**/renderer/**', '**/browser-host/**', '**/cli/**')] }],
    },
  },
  {
    files: ['app/src/main/ipc.ts', 'app/src/preload/transport.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['app/src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, sqlite, ours('**/host/**', '**/renderer/**', '**/main/**', '**/browser-host/**', '**/cli/**', '@cacheproof/engine')] }],
    },
  },
  {
    files: ['app/src/browser-host/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [captureSqlite, electron, engineFromShell, ours('**/renderer/**', '**/main/**', '**/preload/**', '**/cli/**')] }],
    },
  },
  {
    files: ['app/src/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, sqlite, ours('**/host/**', '**/main/**', '**/preload/**', '**/browser-host/**', '**/cli/**')] }],
      'no-restricted-globals': ['error', 'require', 'process'],
    },
  },
  {
    files: ['app/src/cli/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [captureSqlite, electron, ours('**/renderer/**', '**/main/**', '**/preload/**', '**/browser-host/**')] }],
    },
  },
  {
    // Units small enough to change safely (issue 12): no source file over 500 lines in the engine
    // or the app; the i18n catalogs (one table per language) and tests are exempt.
    files: ['engine/**/*.ts', 'app/src/**/*.ts'],
    ignores: ['app/src/shared/i18n/**', '**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ours('**/app/src/host/**', '**/app/src/main/**', '**/app/src/renderer/**', '**/app/src/browser-host/**', '**/engine/**', '**/app/test/**')] }],
    },
  },
  {
    // Issue 38: small units in both languages (clippy's too_many_lines holds the Rust to the same 80)
    files: ['engine/**/*.ts', 'app/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    files: ['**/*.test.ts'],
    plugins: { cacheproof },
    rules: { 'cacheproof/no-module-mock': 'error' },
  },
  {
    files: ['app/src/renderer/**/*.ts'],
    ignores: ['app/src/renderer/draw/**', '**/*.test.ts'],
    plugins: { cacheproof },
    rules: { 'cacheproof/no-renderer-arithmetic': 'error' },
  },
);
