// Builds the example scenario from the drive catalog, one source of truth for its figures:
// engine/src/plan/template.ts, samples/scenarios/example.tco.json and the "Complete example"
// block of docs/tco-scenario.md, from samples/catalog/drives.json and EXAMPLE_RECIPE
// (engine/src/plan/recipe.ts), with the engine's buildExampleFiles (bundled in memory by esbuild).
// Usage: node scripts/gen-scenarios.mjs [--check]
//   --check  writes nothing; exit 1 and names each file that differs from what the catalog gives.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: { check } } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const FILES = {
  templateTs: 'engine/src/plan/template.ts',
  exampleJson: 'samples/scenarios/example.tco.json',
  doc: 'docs/tco-scenario.md',
};

const bundle = await build({
  entryPoints: [join(root, 'engine/src/plan/generate.ts')],
  bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning',
});
const engine = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);

const catalogPath = join(root, 'samples/catalog/drives.json');
let catalog;
try {
  catalog = JSON.parse(readFileSync(catalogPath, 'utf8'));
} catch (e) {
  console.error(`samples/catalog/drives.json: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(3);
}
const r = engine.buildExampleFiles(catalog, readFileSync(join(root, FILES.doc), 'utf8'));
if (!r.ok) {
  console.error(`samples/catalog/drives.json: ${r.error.message}`);
  process.exit(3);
}
let drift = 0;
for (const [key, rel] of Object.entries(FILES)) {
  const path = join(root, rel);
  const now = readFileSync(path, 'utf8');
  if (now === r.value[key]) continue;
  if (check) {
    console.error(`${rel}: differs from what samples/catalog/drives.json and EXAMPLE_RECIPE give; run node scripts/gen-scenarios.mjs`);
    drift++;
  } else {
    writeFileSync(path, r.value[key]);
    console.log(`wrote ${rel}`);
  }
}
if (drift > 0) process.exit(1);
if (!check) console.log('example scenario files are up to date with the catalog');
