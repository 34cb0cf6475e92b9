/**
 * Every figure and its words are computed in the engine; screens, the report and the CLI draw
 * them (docs/ARCHITECTURE "Data rules", issue #24). This guard reads the renderer, the CLI and the
 * report model and fails when one of the derivations moved into the engine comes back beside it:
 * each rule names the engine function to call instead. Each rule is first shown to catch the code
 * it replaced, so the guard cannot pass by matching nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..');

interface Rule {
  what: string;
  /** Folders (from the checkout) whose .ts files are read, tests aside. */
  under: string[];
  /** Files allowed to match (the engine's one implementation, or a screen that legitimately runs the planner). */
  allow?: string[];
  re: RegExp;
  /** The code this rule replaced (what the review found), which it must catch. */
  old: string;
  instead: string;
}

const UI = ['app/src/renderer', 'app/src/cli', 'app/src/host/report'];
const RULES: Rule[] = [
  {
    what: 'response-time change worded outside the engine',
    under: [...UI, 'engine/src/report'],
    allow: ['engine/src/report/latency-change.ts'],
    re: /reductionPercent\s*[<>]=?\s*0|1\s*\/\s*(?:speed\b|[\w.]*\.speedup\b)|msgv\('speedup'[^)]*l\.speedup/,
    old: "lat.reductionPercent < 0 ? w.d('increase', { value: w.pct(-lat.reductionPercent) }) : w.d('reduction', { value: w.pct(lat.reductionPercent) }), speed < 1 ? w.d('slowdown', { value: w.num(1 / speed) })",
    instead: 'latencyChange / latencyChangeVal (engine/src/report/latency-change.ts)',
  },
  {
    what: 'a plan computed on the dashboard (its cache configuration picked there)',
    under: ['app/src/renderer'],
    allow: ['app/src/renderer/planner/state.ts'],
    re: /\bplanScenario\(|sort\([^;]*savings/,
    old: 'const plan = parsed.ok ? planScenario(parsed.value) : parsed; return [...withCache].sort((a, b) => savings(b.id) - savings(a.id))[0] ?? null;',
    instead: 'planCacheLife / bestCacheConfig (engine/src/plan/best-cache.ts)',
  },
  {
    what: 'a cost stack summed outside the engine',
    under: [...UI, 'engine/src/report'],
    re: /lines\.filter\([^;]*\)\.reduce\(/,
    old: 'data: r.configurations.map((c) => c.lines.filter((l) => (st.lines as readonly string[]).includes(l.id)).reduce((a, l) => a + l.costUsd, 0)),',
    instead: 'stackCostUsd (engine/src/plan/result.ts)',
  },
  {
    what: 'a RAM cache priced or powered by typed figures',
    under: ['app/src/renderer'],
    re: /kind: 'ram'[^}]*(?:costUsd|watts|capacityBytes):\s*[\d(]/,
    old: "c['cache'] = { kind: 'ram', capacityBytes: 16 * 32 * 2 ** 30, costUsd: 1536, watts: 80, mode: 'write-through', licenseUsd: 0 };",
    instead: 'ramCacheDraft → ramCacheFromCatalog (engine/src/plan/recipe.ts, catalog.ts)',
  },
  {
    what: 'the worst health span taken over the spans listed',
    under: UI,
    re: /spans\.reduce\(|Math\.max\([^)]*\.worstMs/,
    old: 'const worst = c.spans.reduce((m, s) => Math.max(m, s.worstMs), -Infinity);',
    instead: 'HealthCheck.worstMs (engine/src/benefit/health.ts)',
  },
  {
    what: 'I/Os served by the cache (front − backing) computed on screen',
    under: UI,
    re: /Math\.max\(0,\s*(?:fr|front\w*|f)\s*-\s*(?:bk|backing\w*|b)\)|means\.(?:reads|writes)PerSec/,
    old: 'const served = (fr: number | null, bk: number | null): number | null => (fr === null || bk === null ? null : Math.max(0, fr - bk)); const fRead = windows.map((k) => front[k].means.readsPerSec);',
    instead: 'ioSplit (engine/src/benefit/io-split.ts)',
  },
  {
    what: 'a miss ratio converted from a hit ratio outside the engine function',
    under: [...UI, 'engine/src/report'],
    re: /1\s*-\s*\(?[\w.?[\]\s]*[hH]itRatio/,
    old: 'points: c.curve.map((x) => ({ x: x.bytes, y: 100 * (1 - x.readHitRatio) }))',
    instead: 'readMissPercent / missRatioCurve (engine/src/benefit/miss-ratio.ts)',
  },
  {
    what: 'an average of the points drawn',
    under: UI,
    re: /reduce\([^;]*\+[^;]*\)\s*\/\s*[\w.]+\.length/,
    old: 'const mean = vals.reduce((a, v) => a + v, 0) / vals.length;',
    instead: 'the engine window means the host sends (run.series `means`; summarizeSeries)',
  },
];

function tsFiles(dir: string): string[] {
  const abs = join(root, dir);
  const out: string[] = [];
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(relative(root, p)));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

/** `file:line` of every line matching the rule in its folders, allowed files aside. */
export function offences(rule: Rule, read: (file: string) => string = (f) => readFileSync(join(root, f), 'utf8')): string[] {
  const hits: string[] = [];
  for (const file of rule.under.flatMap(tsFiles)) {
    if (rule.allow?.includes(file)) continue;
    read(file).split('\n').forEach((line, i) => {
      if (rule.re.test(line)) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return hits;
}

describe('figures and their words are computed in the engine only', () => {
  for (const rule of RULES) {
    it(`${rule.what} — use ${rule.instead}`, () => {
      // the rule catches the code it replaced
      expect(rule.re.test(rule.old)).toBe(true);
      expect(offences(rule)).toEqual([]);
    });
  }
});
