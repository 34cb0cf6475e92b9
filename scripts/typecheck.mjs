// `npm run typecheck` and npm test's type checks: the four TypeScript projects (engine, the app's
// Node side, its renderer, the end-to-end specs), each checked as `tsc -p PROJECT` checks it, in
// one process. The projects share most of their files (the engine and app/src/shared are in three
// of them, lib.dom.d.ts and @types/node in two), and each file is read and parsed once here
// instead of once per project: four tsc processes spent about a third of their time doing that
// again. Prints tsc's diagnostics, with the project they came from; exits 1 if any project has one.
// Usage: npm run typecheck -- [PROJECT…]   (default: the four; a PROJECT is one of PROJECTS)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { commandLine } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PROJECTS = ['engine/tsconfig.json', 'app/tsconfig.node.json', 'app/tsconfig.web.json', 'e2e/tsconfig.json'];

/** One parse of each file for every project: the projects share tsconfig.base.json's target, so a file parses the same in each. */
function sharedHost(options, parsed) {
  const host = ts.createCompilerHost(options, true);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
    const key = `${typeof languageVersion === 'object' ? JSON.stringify(languageVersion) : languageVersion}\u0000${fileName}`;
    let file = fresh ? undefined : parsed.get(key);
    if (file === undefined) {
      file = read(fileName, languageVersion, onError, fresh);
      if (file !== undefined) parsed.set(key, file);
    }
    return file;
  };
  return host;
}

/** The diagnostics `tsc -p project` prints for one project (its config's own errors included). */
function check(project, parsed) {
  const path = join(root, project);
  const config = ts.getParsedCommandLineOfConfigFile(path, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (config === undefined) throw new Error(`${project}: cannot read the config`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences, host: sharedHost(config.options, parsed), configFileParsingDiagnostics: config.errors });
  return [...config.errors, ...ts.getPreEmitDiagnostics(program)];
}

const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const { positionals } = commandLine('npm run typecheck --', {}, { positionals: 'PROJECT', choices: PROJECTS });
  const projects = positionals.length > 0 ? positionals : PROJECTS;
  const parsed = new Map();
  let failed = 0;
  for (const project of projects) {
    const t0 = Date.now();
    const diagnostics = check(project, parsed);
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    if (diagnostics.length > 0) {
      failed += 1;
      process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
      process.stdout.write(`\ntypecheck ${project}: ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'} (${seconds} s)\n`);
    } else {
      process.stdout.write(`typecheck ${project}: ok (${seconds} s)\n`);
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}
