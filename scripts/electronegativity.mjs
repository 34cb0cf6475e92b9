// Runs the Electronegativity scan over app/src (for the Electron version we ship) and fails
// on any high- or medium-severity finding. Findings are read from its SARIF output.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './ensure.mjs';

const outDir = join(root, 'test-results');
mkdirSync(outDir, { recursive: true });
const out = join(outDir, 'electronegativity.csv');
rmSync(out, { force: true });
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const r = spawnSync(join(root, 'node_modules', '.bin', 'electronegativity'), ['-i', join(root, 'app', 'src'), '-o', out, '-r', '-v', 'false', '-e', electronVersion], {
  cwd: root, encoding: 'utf8', env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
});
if (r.status !== 0) {
  process.stderr.write(r.stdout + r.stderr);
  console.error('electronegativity: the scan itself failed.');
  process.exit(1);
}

/** RFC 4180 fields of one CSV line (quoted fields may hold commas and doubled quotes). */
function fields(line) {
  const out = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; }
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; }
    else cur += c;
  }
  out.push(cur);
  return out;
}

// Columns: issue, severity, confidence, filename, location, sample, description, url
const findings = readFileSync(out, 'utf8').split('\n').slice(1).filter((l) => l.trim()).map(fields)
  .map((c) => ({ id: c[0], severity: (c[1] ?? '').toUpperCase(), confidence: c[2], where: `${c[3]}:${c[4]}`, description: c[6] }));
for (const f of findings) console.log(`electronegativity: ${f.severity} (${f.confidence}) ${f.id} at ${f.where}: ${f.description}`);
// Checks that Electronegativity marks "manual review" (it flags every use of the feature, not a
// misconfiguration), with the review done. A finding is accepted only at the reviewed place.
// (none today: the preload check that was reviewed at main/window.ts no longer fires since both
// windows come from main/secure-window.ts). A review whose finding is gone fails the step, so the
// list cannot keep accepting a place nobody looked at again.
const REVIEWED = {};
const isReviewed = (f) => REVIEWED[f.id] !== undefined && f.where.startsWith(REVIEWED[f.id].where + ':');
for (const f of findings.filter(isReviewed)) console.log(`electronegativity: reviewed ${f.id} at ${f.where}: ${REVIEWED[f.id].why}`);
const stale = Object.entries(REVIEWED).filter(([id, r]) => !findings.some((f) => f.id === id && f.where.startsWith(r.where + ':')));
for (const [id, r] of stale) console.log(`electronegativity: the review of ${id} at ${r.where} matches no finding any more; remove it from REVIEWED in scripts/electronegativity.mjs`);
const serious = findings.filter((f) => (f.severity === 'HIGH' || f.severity === 'MEDIUM') && !isReviewed(f));
console.log(`electronegativity (Electron ${electronVersion}): ${findings.length} findings, ${serious.length} of high or medium severity.`);
process.exit(serious.length > 0 || stale.length > 0 ? 1 : 0);
