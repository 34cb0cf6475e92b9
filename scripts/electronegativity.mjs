// Runs the Electronegativity scan over app/src and fails on any high- or medium-severity finding.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './ensure.mjs';

const outDir = join(root, 'test-results');
mkdirSync(outDir, { recursive: true });
const out = join(outDir, 'electronegativity.csv');
rmSync(out, { force: true });
const r = spawnSync(join(root, 'node_modules', '.bin', 'electronegativity'), ['-i', join(root, 'app', 'src'), '-o', out, '-r', '-v', 'false'], {
  cwd: root, encoding: 'utf8', env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
});
if (r.status !== 0) {
  process.stderr.write(r.stdout + r.stderr);
  console.error('electronegativity: the scan itself failed.');
  process.exit(1);
}
const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1).filter(Boolean);
// CSV columns: issue, filename, location, severity, confidence, …
const findings = rows.map((line) => line.split(',')).map((c) => ({ issue: c[0], file: c[1], location: c[2], severity: (c[3] ?? '').toUpperCase(), confidence: c[4] }));
const serious = findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
for (const f of findings) console.log(`electronegativity: ${f.severity} ${f.issue} ${f.file}:${f.location} (${f.confidence})`);
console.log(`electronegativity: ${findings.length} findings, ${serious.length} of high or medium severity.`);
process.exit(serious.length > 0 ? 1 : 0);
