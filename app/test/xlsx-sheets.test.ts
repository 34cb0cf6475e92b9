/**
 * XLSX sheet names (#28): chosen to fit Excel's 31 characters and stay distinct in every
 * language — the sample exported with its prefilled TCO scenario (several configurations whose
 * labels share a long prefix), read back from the written workbook.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { exportReport } from '../src/host/report/export.ts';
import { sheetName } from '../src/host/report/xlsx.ts';
import { LANGS } from '../src/shared/i18n/types.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-xlsx-sheets-'));
let scenario: unknown = null;

beforeAll(async () => {
  const path = join(dir, 'prefilled.tco.json');
  const code = await runCli(['tco', '--from-capture', sample, '--out', path], { stdout: () => {}, stderr: () => {} });
  expect(code).toBe(0);
  scenario = JSON.parse(readFileSync(path, 'utf8'));
});

describe('XLSX sheet names', () => {
  for (const lang of LANGS) {
    it(`${lang}: every sheet name fits 31 characters whole, and no two are the same`, async () => {
      const out = join(dir, `sample-${lang}.xlsx`);
      await exportReport({
        format: 'xlsx', lang, paper: 'a4', out,
        load: { capturePath: sample, cover: { title: 'Cache PoC' }, scenario: { json: scenario, file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 21) },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(out);
      const names = wb.worksheets.map((w) => w.name);
      // the TCO line items are there, one sheet per configuration
      expect(names.length).toBeGreaterThan(10);
      for (const n of names) {
        expect(n.length, n).toBeLessThanOrEqual(31);
        expect(n, n).not.toMatch(/~\d+$|_ |[[\]:*?/\\]/u);
        // not cut inside a word: the last word is one the catalogs wrote (a table name ends in a whole word or a number)
        expect(n.trim(), n).toBe(n);
      }
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      // the old cut names
      expect(names.join('|')).not.toMatch(/Per device_ means over each win|Line items_/u);
    });
  }

  it('takes the first name that fits and is free, never a cut one while a whole one fits', () => {
    const used = new Set<string>();
    expect(sheetName(['Items – HDD in RAID 10 + read cache in RAM', 'Items – configuration 3'], used)).toBe('Items – configuration 3');
    expect(sheetName(['Per device', 'Per device: means over each window'], used)).toBe('Per device');
    expect(sheetName(['Per device', 'Per device: means over each window'], used)).toBe('Per device 2');
    expect(sheetName(['A very long name that goes on and on past the limit'], used)).toBe('A very long name that goes on');
    expect(sheetName(['A very long name that goes on and on past the limit'], used)).toBe('A very long name that goes on 2');
    expect(sheetName(['Line items: HDD'], used)).toBe('Line items – HDD');
  });
});
