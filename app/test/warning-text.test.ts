import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, ANALYSIS_WARNING_CODES, CAPTURE_WARNING_CODES, WARNING_CODES, type AnalysisReport } from '@cacheproof/engine';
import { synthCapture } from '../../engine/src/benefit/testkit.ts';
import { LANGS } from '../src/shared/i18n/types.ts';
import { warningCatalog, warningText, warningWords } from '../src/shared/i18n/warnings.ts';

const root = join(import.meta.dirname, '..', '..');
const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

describe('warning strings', () => {
  it('has a sentence for every warning code the engine can emit, in every language, with the same placeholders as English', () => {
    expect(WARNING_CODES.length).toBe(ANALYSIS_WARNING_CODES.length + CAPTURE_WARNING_CODES.length);
    for (const code of WARNING_CODES) {
      const en = (warningCatalog.en as Record<string, string | undefined>)[code];
      expect(en, `en: ${code}`).toBeTruthy();
      for (const lang of LANGS) {
        const s = (warningCatalog[lang] as Record<string, string | undefined>)[code];
        expect(s, `${lang}: ${code}`).toBeTruthy();
        expect(placeholders(s as string), `${lang}: ${code}`).toEqual(placeholders(en as string));
        if (lang !== 'en') expect(s, `${lang}: ${code} is still English`).not.toBe(en);
      }
    }
    for (const lang of LANGS) expect(Object.keys(warningCatalog[lang]).sort()).toEqual([...WARNING_CODES].sort());
    for (const lang of LANGS) expect(Object.keys(warningWords[lang]).sort()).toEqual(Object.keys(warningWords.en).sort());
  });

  it('lists every code the probe writes to a capture (read from native/probe/src and native/crates)', () => {
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        // import/said.rs: the codes of the import preview's sentences (i18n/probe-said.ts), not warnings a capture holds
        else if (e.name.endsWith('.rs') && e.name !== 'said.rs') files.push(join(d, e.name));
      }
    };
    walk(join(root, 'native', 'probe', 'src'));
    walk(join(root, 'native', 'crates'));
    const found = new Set<string>();
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/\bcode:\s*"([a-z-]+)"/g)) found.add(m[1] as string);
      for (const m of src.matchAll(/\.warn\(\s*[^,]+,\s*"([a-z-]+)"/g)) found.add(m[1] as string);
      for (const m of src.matchAll(/let code = if[^{]*\{\s*"([a-z-]+)"\s*\}\s*else\s*\{\s*"([a-z-]+)"/g)) { found.add(m[1] as string); found.add(m[2] as string); }
    }
    expect([...found]).toEqual(expect.arrayContaining(['reset', 'gap', 'wrap', 'disk-full', 'error', 'resumed', 'early-switch']));
    for (const code of found) expect(CAPTURE_WARNING_CODES as readonly string[], `probe code "${code}" has no strings`).toContain(code);
  });

  it('translates what a real analysis emits, with numbers in the locale format', () => {
    // short windows, a backing device missing data for part of the measure window, drift
    const data = synthCapture({ baselineS: 1200, measureS: 600, iopsBefore: 100, iopsAfter: 400, missRatio: 0.05, backing: ['b0', 'b1'] });
    const lastStart = Math.max(...data.intervals.map((r) => r.startMs));
    data.intervals = data.intervals.filter((r) => !(r.device === 'b1' && r.startMs > lastStart - 200_000));
    const r = analyze(data);
    expect(r.ok).toBe(true);
    const report = r as AnalysisReport;
    const codes = report.warnings.map((w) => w.code);
    expect(codes).toContain('short-window');
    expect(codes).toContain('unequal-windows');
    expect(codes).toContain('low-coverage');
    expect(codes).toContain('workload-drift');
    for (const w of report.warnings) {
      expect(ANALYSIS_WARNING_CODES as readonly string[]).toContain(w.code);
      for (const lang of LANGS) {
        const s = warningText(w, lang);
        expect(s, `${lang} ${w.code}`).not.toMatch(/[{}]/);
        if (lang !== 'en') expect(s).not.toBe(w.message);
      }
    }
    const find = (code: string): AnalysisReport['warnings'][number] => {
      const w = report.warnings.find((x) => x.code === code);
      if (w === undefined) throw new Error(`no ${code} warning`);
      return w;
    };
    const low = find('low-coverage');
    const pct = low.params?.['coveragePercent'] as number;
    expect(warningText(low, 'fr')).toContain(`${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(pct)} % de la fenêtre de mesure`);
    expect(warningText(low, 'en')).toContain(`b1 has data for only ${new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(pct)}% of the measure window`);
    expect(warningText(low, 'ru')).toContain('окна «измерение»');
    const drift = find('workload-drift');
    expect(warningText(drift, 'es')).toContain('tasa de E/S');
    // a caller-provided formatter is used for every number
    expect(warningText(low, 'en', (v, d) => `<${v.toFixed(d)}>`)).toContain(`<${pct.toFixed(1)}>`);
  });

  it('falls back to the English message for an unknown code or a missing parameter, and names a device the sentence does not', () => {
    expect(warningText({ code: 'from-a-newer-probe', message: 'Something new happened.' }, 'ru')).toBe('Something new happened.');
    expect(warningText({ code: 'low-coverage', message: 'Device x has data for only 5% of the measure window.', params: { window: 'measure' } }, 'fr'))
      .toBe('Device x has data for only 5% of the measure window.');
    expect(warningText({ code: 'wrap', message: 'a counter of sdb went backwards', device: 'sdb' }, 'es')).toBe('sdb: Un contador de disco retrocedió sin reinicio (desbordamiento); ese intervalo no tiene tasas.');
    expect(warningText({ code: 'error', message: 'disk I/O error' }, 'fr')).toBe('L’enregistrement s’est arrêté sur une erreur : disk I/O error');
  });
});
