/**
 * The probe's sentences in four languages (issue 37): every code native/crates/import/src/said.rs
 * declares is in the catalog app/src/shared/i18n/probe-said.ts in en, fr, es and ru with the same
 * values, the English is the probe's template word for word, and the screen's writer
 * (renderer/import/said.ts) gives, in English, exactly the sentence the probe writes for the same
 * values (the probe's `Said::text`: each `{name}` replaced by its value).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Said } from '../app/src/shared/contract.ts';
import { probeSaid } from '../app/src/shared/i18n/probe-said.ts';
import { LANGS } from '../app/src/shared/i18n/types.ts';
import { saidText } from '../app/src/shared/i18n/said-text.ts';

const SOURCE = join(import.meta.dirname, '..', 'native', 'crates', 'import', 'src', 'said.rs');

/** The probe's table: `("code", "template"),` lines, the Rust string literal unescaped. */
function probeTable(): Map<string, string> {
  const rs = readFileSync(SOURCE, 'utf8');
  const table = new Map<string, string>();
  for (const m of rs.matchAll(/^ {4}\("([a-z0-9-]+)", "((?:[^"\\]|\\.)*)"\),$/gmu)) {
    table.set(m[1] as string, (m[2] as string).replace(/\\(.)/gu, '$1'));
  }
  return table;
}

const names = (t: string): string[] => [...new Set([...t.matchAll(/\{(\w+)\}/gu)].map((m) => m[1] as string))].sort();

/** The probe's English for a code and values: its template with each value as written. */
const probeText = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/gu, (w, k: string) => values[k] ?? w);

describe('probe sentences (said.rs ↔ i18n/probe-said.ts)', () => {
  const table = probeTable();

  it('reads the probe\'s table', () => {
    expect(table.size).toBeGreaterThan(60);
    expect(table.get('iostat-first-since-boot')).toBe('iostat\'s first report covers the time since boot: like every first sample, it gives no interval');
    expect(table.get('why-not-counter-path')).toBe('not a counter path (\\\\HOST\\Object(Instance)\\Counter)');
  });

  it('has every code in every language, with the same values, and nothing else', () => {
    for (const lang of LANGS) {
      const cat: Record<string, string> = probeSaid[lang];
      expect(Object.keys(cat).sort(), lang).toEqual([...table.keys()].sort());
      for (const [code, template] of table) {
        expect(names(cat[code] ?? ''), `${lang} ${code}`).toEqual(names(template));
        if (lang !== 'en' && template.length > 0 && names(template).join() !== 'text') {
          // a real translation, not the English left in place (a few are only values, names or the same word: '{file}: {said}', --utc-offset, BOM, partition)
          if (!['in-file', 'stack-edge', 'tz-given', 'enc-bom', 'enc-http', 'what-metric', 'kind-partition'].includes(code)) expect(cat[code], `${lang} ${code}`).not.toBe(template);
        }
      }
    }
  });

  it('writes in English exactly what the probe writes, for sample values', () => {
    for (const [code, template] of table) {
      const values: Record<string, string> = {};
      for (const n of names(template)) values[n] = n === 'n' ? '12' : `x-${n}`;
      const said: Said = { code, values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, /^\d+$/u.test(v) ? Number(v) : v])) };
      expect(saidText('en', said), code).toBe(probeText(template, values));
      expect(probeSaid.en[code as keyof typeof probeSaid.en], code).toBe(template);
    }
  });

  it('translates inner sentences and writes numbers in the locale', () => {
    const edge = (holder: string, on: string, kind: string): Said => ({ code: 'stack-edge', values: { holder, on, kind: { code: kind, values: {} } } });
    const said: Said = { code: 'stack-one-layer', values: { edges: [edge('vg-data', 'sdb', 'kind-from-numbers'), edge('sda1', 'sda', 'kind-partition')] } };
    expect(saidText('en', said)).toBe(table.get('stack-one-layer')?.replace('{edges}', 'vg-data on sdb (from the numbers), sda1 on sda (partition)'));
    expect(saidText('ru', said)).toBe('стек устройств (vg-data на sdb (по цифрам), sda1 на sda (раздел)): учитывается один уровень — целые диски; раздел или том на диске показан, но повторно не учитывается');
    const line: Said = { code: 'sar-restart', values: { line: 12345 } };
    expect(saidText('fr', line)).toBe('ligne 12\u202f345 : le système a redémarré ; l’intervalle qui le traverse est un trou');
  });
});
