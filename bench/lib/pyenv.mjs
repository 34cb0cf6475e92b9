// A Python virtual environment of a benchmark's peers (pandas, DuckDB), installed from PyPI on
// first use. A peer that cannot be installed is said, and the benchmark goes on without it.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { root } from './synthetic.mjs';

/**
 * The python of the virtual environment `venv` with `modules` importable (installed with pip
 * when missing), and each module's version; or `{ error }` saying why it could not be made.
 *
 * @example
 * const env = pythonWith(join(here, '.venv'), ['pandas']);
 * if ('error' in env) console.log(env.error); else env.versions.pandas // '2.2.3'
 */
export function pythonWith(venv, modules) {
  const py = join(venv, 'bin', 'python');
  const importable = () => existsSync(py) && spawnSync(py, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore' }).status === 0;
  if (!importable()) {
    console.log(`installing ${modules.join(' and ')} from PyPI into ${relative(root, venv)} …`);
    const v = spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    if (v.status !== 0) return { error: `${modules.join(' and ')} could not be installed: python3 -m venv failed (apt-get install python3-venv)` };
    const p = spawnSync(join(venv, 'bin', 'pip'), ['install', '--quiet', ...modules], { encoding: 'utf8' });
    if (!importable()) return { error: `${modules.join(' and ')} could not be installed: ${(p.stderr || p.stdout).trim().split('\n').slice(-3).join(' / ')}` };
  }
  const r = spawnSync(py, ['-c', `from importlib.metadata import version; print(${modules.map((m) => `version('${m}')`).join(', ')})`], { encoding: 'utf8' });
  const versions = Object.fromEntries(modules.map((m, i) => [m, r.stdout.trim().split(' ')[i] ?? '?']));
  return { py, versions };
}
