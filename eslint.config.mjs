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
);
