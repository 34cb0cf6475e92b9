import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_SCENARIO } from '@cacheproof/engine/plan';
import { formatTcoNumber } from '../shared/i18n/tco.ts';
import { LANGS } from '../shared/i18n/types.ts';
import { tco as catalog } from '../shared/i18n/tco.ts';
import { EXIT, type CliIO } from './io.ts';
import { makeTco, tco } from './tco.ts';

const EXAMPLE = join(__dirname, '../../../samples/scenarios/example.tco.json');

function recorder(): CliIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (s: string) => void (io.out += s), stderr: (s: string) => void (io.err += s) };
  return io;
}

/** Rows of the line-item table of one configuration: [label, detail, amount] split on runs of 2+ spaces. */
function costRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.indexOf(header);
  expect(start).toBeGreaterThanOrEqual(0);
  const table = lines.slice(start).findIndex((l) => l.startsWith('Line item'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + table + 1)) {
    rows.push(line.split(/ {2,}/));
    if (line.startsWith('Total over')) break;
  }
  return rows;
}

// The example (samples/scenarios/example.tco.json, built from samples/catalog/drives.json), by hand.
// 4 years, sized for year 4: IOPS 20 000 (p95, no IOPS growth), 70 % reads; capacity 20 TB × 1.1³ = 26.62 TB.
// Energy: 0.15 USD/kWh × PUE 1.5; a watt for 4 years costs 8 766 × 4 ÷ 1000 × 0.15 × 1.5 = 7.8894 USD.
// Drives (catalog figures, example prices): Toshiba MG10ACA20TE 20 TB, 75 IOPS (7,200 rpm class figure), 9.3 W,
// AFR 0.541 %, 450 USD; Micron 7400 PRO M.2 3.84 TB, 105 000 IOPS, 8.25 W (maximum), AFR 0.438 %, 1 DWPD × 5 yr, 550 USD.
//
// All HDD, RAID 10 (4): back-end 14 000 + 6 000 × 2 = 26 000 → 26 000 ÷ 75 = 346.7 → 347 → 87 groups = 348 drives;
//   capacity 26.62 ÷ 20 → 2 data drives → 1 group = 4. Enclosures: (348 − 24) ÷ 24 = 13.5 → 14.
//   Watts: 348 × 9.3 + 14 × 100 + 200 = 4 836.4 → × 7.8894 = 38 156.29.
//   Failures: 0.00541 × 348 × 4 × 450 = 3 388.82. Support: 2 000 × 4 = 8 000.
//   Day one: 20 000 + 156 600 + 42 000 = 218 600. Total: 218 600 + 38 156.29 + 3 388.82 + 8 000 = 268 145.12.
// HDD RAID 5 (4+1) + 2 NVMe SSDs RAID 1, write-back, 80 % read and write hits:
//   back-end 14 000 × 0.2 + 6 000 × 0.2 × 4 = 7 600 → 101.3 → 102 → 21 groups = 105; capacity 1 group = 5.
//   Slots 105 + 2 = 107 → (107 − 24) ÷ 24 = 3.5 → 4 enclosures. Watts: 105 × 9.3 + 2 × 8.25 + 4 × 100 + 200 = 1 593 → 12 567.81.
//   Failures: 0.00541 × 105 × 4 × 450 = 1 022.49; cache 0.00438 × 2 × 4 × 550 = 19.27.
//   Cache wear: fills 1 447.70 TB × 0.2 + writes 620.45 TB = 909.99 TB per SSD per year vs 1 × 3.84 × 365 × 5 = 7 008 TBW
//   → 7.7 years > 4: no replacement.
//   Day one: 20 000 + 5 000 + 47 250 + 1 100 + 12 000 = 85 350. Total: 85 350 + 12 567.81 + 1 022.49 + 19.27 + 8 000 = 106 959.58.
//   Savings: 268 145.12 − 106 959.58 = 161 185.54 = 60.1 %.
// HDD RAID 10 (4) + RAM read cache (16 × 32 GiB DDR4 RDIMM: 512 GiB = 549.8 GB, 16 × 32 × 3 = 1 536 USD, 16 × 5 = 80 W),
//   write-through, 60 % read hits: back-end 14 000 × 0.4 + 6 000 × 2 = 17 600 → 234.7 → 235 → 59 groups = 236.
//   Enclosures (236 − 24) ÷ 24 = 8.8 → 9. Watts 236 × 9.3 + 80 + 9 × 100 + 200 = 3 374.8 → 26 625.15.
//   Failures 0.00541 × 236 × 4 × 450 = 2 298.17. No cache SSD, no failure or wear line for the RAM.
//   Day one: 20 000 + 5 000 + 106 200 + 1 536 + 27 000 = 159 736. Total 159 736 + 26 625.15 + 2 298.17 + 8 000 = 196 659.32 (26.7 %).
// All-flash NVMe RAID 5: 26.62 ÷ 3.84 → 7 data → 2 groups = 10 drives (IOPS need 1). Watts 10 × 8.25 + 200 = 282.5 → 2 228.76.
//   Failures 0.00438 × 10 × 4 × 550 = 96.36. Total 30 000 + 5 500 + 2 228.76 + 96.36 + 8 000 = 45 825.12 (82.9 %).
const HAND = {
  'all-hdd': {
    header: '== All HDD, RAID 10 (all-hdd) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Drives', '348 × 450', '156,600'],
      ['Enclosures', '14 × 3,000 (348 drives, 24 built-in slots, 24 per enclosure)', '42,000'],
      ['Power and cooling', '4,836.4 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '38,156'],
      ['Drive failures', 'AFR 0.541% × 348 × 4 yr × 450', '3,389'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '218,600'],
      ['Total over 4 years', '268,145'],
    ],
    totalUsd: 268_145.11816,
  },
  'hdd-ssd-cache': {
    header: '== HDD RAID 5 + SSD cache (hdd-ssd-cache) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Cache licence', 'once', '5,000'],
      ['Drives', '105 × 450', '47,250'],
      ['Cache SSDs', '2 × 550', '1,100'],
      ['Enclosures', '4 × 3,000 (107 drives, 24 built-in slots, 24 per enclosure)', '12,000'],
      ['Power and cooling', '1,593 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '12,568'],
      ['Drive failures', 'AFR 0.541% × 105 × 4 yr × 450', '1,022'],
      ['Cache SSD failures', 'AFR 0.438% × 2 × 4 yr × 550', '19'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '85,350'],
      ['Total over 4 years', '106,960'],
    ],
    totalUsd: 106_959.5762,
  },
  'hdd-ram-cache': {
    header: '== HDD RAID 10 + RAM read cache (hdd-ram-cache) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Cache licence', 'once', '5,000'],
      ['Drives', '236 × 450', '106,200'],
      ['Cache RAM', '549.8 GB, once', '1,536'],
      ['Enclosures', '9 × 3,000 (236 drives, 24 built-in slots, 24 per enclosure)', '27,000'],
      ['Power and cooling', '3,374.8 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '26,625'],
      ['Drive failures', 'AFR 0.541% × 236 × 4 yr × 450', '2,298'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '159,736'],
      ['Total over 4 years', '196,659'],
    ],
    totalUsd: 196_659.31512,
  },
  'all-flash-nvme': {
    header: '== All-flash NVMe, RAID 5 (all-flash-nvme) ==',
    rows: [
      ['Base system', 'once', '30,000'],
      ['Drives', '10 × 550', '5,500'],
      ['Enclosures', '0 × 5,000 (10 drives, 24 built-in slots, 24 per enclosure)', '0'],
      ['Power and cooling', '282.5 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '2,229'],
      ['Drive failures', 'AFR 0.438% × 10 × 4 yr × 550', '96'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '35,500'],
      ['Total over 4 years', '45,825'],
    ],
    totalUsd: 45_825.1155,
  },
} as const;

describe('cacheproof tco on the documented example', () => {
  it('text: every configuration reproduces the hand-written cost table, then the comparison', async () => {
    const io = recorder();
    expect(await tco([EXAMPLE], io)).toBe(EXIT.ok);
    expect(io.err).toBe('');
    expect(io.out).toContain('Sized for year 4 of 4 (final year: growth included, everything bought on day one).');
    expect(io.out).toContain('Capacity: 20 TB today, 26.6 TB in year 4.');
    // The example's prices come from the catalog, where every price is an example: the output says so.
    expect(io.out).toContain('Example prices: replace them with current quotes before use (the scenario marks its prices as examples).');
    for (const c of Object.values(HAND)) expect(costRows(io.out, c.header)).toEqual(c.rows);
    const cmp = io.out.split('\n').slice(io.out.split('\n').indexOf('== Comparison against All HDD, RAID 10 ==') + 1);
    expect(cmp.slice(0, 5).map((l) => l.split(/ {2,}/))).toEqual([
      ['Configuration', 'Drives', 'Total USD', 'Savings USD', 'Savings %', 'USD/IOPS', 'USD/TB', 'Break-even'],
      ['All HDD, RAID 10', '348', '268,145', '0', '0.0', '13.36', '77.05', 'reference'],
      ['HDD RAID 5 + SSD cache', '107', '106,960', '161,186', '60.1', '5.16', '63.67', 'day one'],
      ['HDD RAID 10 + RAM read cache', '236', '196,659', '71,486', '26.7', '9.78', '83.33', 'day one'],
      ['All-flash NVMe, RAID 5', '10', '45,825', '222,320', '82.9', '0.08', '1,491.70', 'day one'],
    ]);
    // Cache wear: 909.99 TB per SSD per year against 7 008 TBW.
    expect(io.out).toContain('Cache SSD life: 910 TB written per drive per year (fills and writes), endurance 7,008 TBW: 7.7 yr.');
    // HDDs under the SSD cache, RAID 5 on 105 drives: (1 447.70 + 620.45 × 4) ÷ 105 = 37.4 TB/yr before, × 0.2 after.
    expect(io.out).toContain('wear index 0.068 → 0.014 (-0.054)');
    expect(io.out).toContain('Cache: RAM 549.8 GB, write-through; read hits 60%, write hits 0% (assumed).');
  });

  it('--json: the same line items as exact numbers', async () => {
    const io = recorder();
    expect(await tco([EXAMPLE, '--json'], io)).toBe(EXIT.ok);
    const doc = JSON.parse(io.out) as {
      format: string;
      result: {
        sizedForYear: number;
        configurations: { id: string; lines: { id: string; costUsd: number }[]; totalUsd: number; upfrontUsd: number; cumulativeUsd: number[] }[];
        comparisons: { id: string; savingsPct: number; savingsUsd: number; breakEvenYear: number | null }[];
      };
    };
    expect(doc.format).toBe('cacheproof-tco-result');
    expect(doc.result.sizedForYear).toBe(4);
    const byId = new Map(doc.result.configurations.map((c) => [c.id, c]));
    const lines = (id: string): Record<string, number> => Object.fromEntries((byId.get(id)?.lines ?? []).map((l) => [l.id, l.costUsd]));
    expect(lines('all-hdd')).toEqual({
      baseSystem: 20_000,
      backingDrives: 156_600,
      enclosures: 42_000,
      powerCooling: expect.closeTo(38_156.29416, 6) as number,
      backingFailures: expect.closeTo(3_388.824, 9) as number,
      support: 8_000,
    });
    expect(lines('hdd-ssd-cache')).toEqual({
      baseSystem: 20_000,
      cacheLicense: 5_000,
      backingDrives: 47_250,
      cacheDrives: 1_100,
      enclosures: 12_000,
      powerCooling: expect.closeTo(12_567.8142, 6) as number,
      backingFailures: expect.closeTo(1_022.49, 9) as number,
      cacheFailures: expect.closeTo(19.272, 9) as number,
      support: 8_000,
    });
    // The RAM cache: purchase and power only (no cache SSD, failure or wear line).
    expect(lines('hdd-ram-cache')).toEqual({
      baseSystem: 20_000,
      cacheLicense: 5_000,
      backingDrives: 106_200,
      cacheRam: 1_536,
      enclosures: 27_000,
      powerCooling: expect.closeTo(26_625.14712, 6) as number,
      backingFailures: expect.closeTo(2_298.168, 9) as number,
      support: 8_000,
    });
    for (const [id, hand] of Object.entries(HAND)) expect(byId.get(id)?.totalUsd).toBeCloseTo(hand.totalUsd, 6);
    // Cumulative cost, all-HDD: 218 600 on day one, then 9 539.07 power + 847.21 failures + 2 000 support per year.
    expect(byId.get('all-hdd')?.cumulativeUsd[1]).toBeCloseTo(218_600 + 38_156.29416 / 4 + 3_388.824 / 4 + 2_000, 6);
    const cmp = new Map(doc.result.comparisons.map((c) => [c.id, c]));
    expect(cmp.get('hdd-ssd-cache')?.savingsUsd).toBeCloseTo(161_185.54196, 6);
    expect(cmp.get('hdd-ssd-cache')?.savingsPct).toBeCloseTo((161_185.54196 / 268_145.11816) * 100, 9);
    expect(cmp.get('hdd-ssd-cache')?.savingsPct).toBeCloseTo(60.1, 1);
    expect(cmp.get('hdd-ram-cache')?.savingsPct).toBeCloseTo(26.66, 2);
    expect(cmp.get('hdd-ssd-cache')?.breakEvenYear).toBe(0);
  });

  it('--lang fr: decimal comma and French labels', async () => {
    const io = recorder();
    expect(await tco([EXAMPLE, '--lang', 'fr'], io)).toBe(EXIT.ok);
    expect(io.out).toContain('Capacité : 20 To aujourd’hui, 26,6 To l’année 4.');
    expect(io.out).toContain('Prix d’exemple : remplacez-les par des devis actuels avant usage');
    expect(io.out).toMatch(/Total sur 4 ans +268\u202f145\n/);
    expect(formatTcoNumber('fr', 38_156.29416, 2)).toBe('38\u202f156,29');
    for (const lang of ['es', 'ru']) {
      const o = recorder();
      expect(await tco([EXAMPLE, `--lang=${lang}`], o)).toBe(EXIT.ok);
      expect(o.out).not.toContain('Line item');
    }
  });

  it('every language has every key', () => {
    const keys = Object.keys(catalog.en).sort();
    for (const lang of LANGS) expect(Object.keys(catalog[lang]).sort()).toEqual(keys);
  });
});

describe('cacheproof tco: bad input, one sentence naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cacheproof-tco-'));
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown> & {
    drives: Record<string, unknown>[];
    configurations: { backing: { raid: Record<string, unknown> } }[];
    workload: Record<string, unknown>;
  };
  async function run(name: string, edit: (s: typeof example) => void, lang = 'en'): Promise<{ code: number; err: string }> {
    const s = JSON.parse(JSON.stringify(example)) as typeof example;
    edit(s);
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(s));
    const io = recorder();
    const code = await tco([file, '--lang', lang], io);
    expect(io.out).toBe('');
    return { code, err: io.err.replace(`${file}: `, '') };
  }

  it('a negative price', async () => {
    const r = await run('negative-price', (s) => {
      if (s.drives[0]) s.drives[0].priceUsd = -250;
    });
    expect(r).toEqual({ code: EXIT.badInput, err: 'drives[0].priceUsd: must be at least 0, got -250.\n' });
  });
  it('zero IOPS per drive', async () => {
    const r = await run('zero-iops', (s) => {
      if (s.drives[1]) s.drives[1].iops = 0;
    });
    expect(r).toEqual({ code: EXIT.badInput, err: 'drives[1].iops: must be greater than 0, got 0.\n' });
  });
  it('an unknown RAID level', async () => {
    const r = await run('raid', (s) => {
      if (s.configurations[1]) s.configurations[1].backing.raid.level = '50';
    });
    expect(r).toEqual({ code: EXIT.badInput, err: 'configurations[1].backing.raid.level: "50" is not one of 0, 1, 5, 6, 10, custom.\n' });
  });
  it('a capacity no configuration can hold', async () => {
    const r = await run('capacity', (s) => {
      s.workload.capacityBytes = 500e12;
    });
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toBe(
      // The HDD designs hold 665.5 TB (34 data drives of 20 TB); the all-flash one needs 174 data drives of 3.84 TB → 44 groups of 5 = 220 > 24 + 4 × 24.
      'workload.capacityBytes: 665.5 TB in year 4 needs 220 drives of "micron-7400-pro-m2-3.84tb" in "All-flash NVMe, RAID 5", more than the 120 drive slots its system allows (configurations[3].system.maxEnclosures).\n',
    );
    const fr = await run('capacity-fr', (s) => {
      s.workload.capacityBytes = 500e12;
    }, 'fr');
    expect(fr.err).toContain('workload.capacityBytes : 665,5 To l’année 4');
  });
  it('a malformed scenario file', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ "format": "cacheproof-tco", ');
    const io = recorder();
    expect(await tco([file], io)).toBe(EXIT.badInput);
    expect(io.err).toMatch(new RegExp(`^The scenario file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON: .+\n$`));
    const wrongType = await run('wrong-type', (s) => {
      s.years = 'four';
    });
    expect(wrongType).toEqual({ code: EXIT.badInput, err: 'years: expected number, got "four".\n' });
    const unknown = await run('unknown-field', (s) => {
      s.workload.capcityBytes = 1;
    });
    expect(unknown.err).toBe('workload.capcityBytes: unknown field (a typo?).\n');
  });
  it('a missing file, a newer version, bad usage', async () => {
    const io = recorder();
    expect(await tco([join(dir, 'nope.json')], io)).toBe(EXIT.badInput);
    expect(io.err).toContain('Cannot read the scenario file');
    expect((await run('too-new', (s) => void (s.version = 9))).code).toBe(EXIT.tooNew);
    expect(await tco([], recorder())).toBe(EXIT.usage);
    expect(await tco([EXAMPLE, '--lang', 'de'], recorder())).toBe(EXIT.usage);
    expect(await tco([EXAMPLE, '--frobnicate'], recorder())).toBe(EXIT.usage);
    expect(await tco(['--from-capture', 'x.capture', '--out', join(dir, 'o.json')], recorder())).toBe(EXIT.usage);
  });
});

describe('cacheproof tco --from-capture', () => {
  const command = makeTco({
    measureCapture: () =>
      Promise.resolve({
        ok: true,
        value: {
          iopsP95: 9_000,
          iopsPeak: 12_000,
          iopsMean: 4_000,
          readShare: 0.8,
          avgRequestBytes: 8192,
          readHitShare: 0.85,
          writeHitShare: 0.5,
          cacheMode: 'write-back',
          backingCapacityBytes: 12e12,
          backingBytesPerYearBefore: { readBytes: 300e12, writtenBytes: 80e12 },
          backingBytesPerYearAfter: null,
        },
      }),
  });

  it('writes a prefilled scenario that tco then reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-tco-'));
    const out = join(dir, 'prefilled.json');
    const io = recorder();
    expect(await command(['--from-capture', 'x.capture', '--out', out], io)).toBe(EXIT.ok);
    expect(io.out).toContain(out);
    const again = recorder();
    expect(await tco([out, '--json'], again)).toBe(EXIT.ok);
    const doc = JSON.parse(again.out) as { result: { frontEndIopsToday: number } };
    expect(doc.result.frontEndIopsToday).toBe(9_000);
    const written = JSON.parse(readFileSync(out, 'utf8')) as Labelled;
    expect(written.title).toBe(EXAMPLE_SCENARIO.title);
    expect(written.configurations.map((c) => c.label)).toEqual(EXAMPLE_SCENARIO.configurations.map((c) => c.label));
  });

  it('--lang fr writes the template\'s title and labels in French, which tco --lang fr then prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheproof-tco-'));
    const out = join(dir, 'prefilled-fr.json');
    const io = recorder();
    expect(await command(['--from-capture', 'x.capture', '--out', out, '--lang', 'fr'], io)).toBe(EXIT.ok);
    expect(io.err).toBe('');
    expect(io.out).toContain('écrit');
    const written = JSON.parse(readFileSync(out, 'utf8')) as Labelled;
    expect(written.title).toBe('Volume OLTP : cache, disques rotatifs ou flash');
    expect(written.drives.map((d) => d.label)).toEqual(['Toshiba MG10ACA20TE 20 To 7 200 tr/min SATA', 'Micron 7400 PRO M.2 3,84 To NVMe (1 DWPD)']);
    expect(written.configurations.map((c) => c.label)).toEqual(['100 % HDD, RAID 10', 'HDD en RAID 5 + cache SSD', 'HDD en RAID 10 + cache de lecture en RAM', '100 % flash NVMe, RAID 5']);
    // Ids do not change with the language.
    expect(written.configurations.map((c) => c.id)).toEqual(EXAMPLE_SCENARIO.configurations.map((c) => c.id));

    const text = recorder();
    expect(await tco([out, '--lang=fr'], text)).toBe(EXIT.ok);
    expect(text.out).toContain('Volume OLTP : cache, disques rotatifs ou flash');
    expect(text.out).toContain('HDD en RAID 5 + cache SSD');
    expect(text.out).toContain('Micron 7400 PRO M.2 3,84 To NVMe (1 DWPD)');
    expect(text.out).not.toContain('SSD cache');

    // An unknown language is bad usage, and nothing is written.
    const bad = recorder();
    const none = join(dir, 'none.json');
    expect(await command(['--from-capture', 'x.capture', '--out', none, '--lang', 'de'], bad)).toBe(EXIT.usage);
    expect(existsSync(none)).toBe(false);
  });
});

interface Labelled {
  title: string;
  drives: { id: string; label: string }[];
  configurations: { id: string; label: string }[];
}

describe('docs/tco-scenario.md', () => {
  it('shows the shipped example verbatim', () => {
    const doc = readFileSync(join(__dirname, '../../../docs/tco-scenario.md'), 'utf8');
    // The block under "## Complete example" (the page has other, shorter JSON snippets).
    const block = /## Complete example[^\n]*\n```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'));
  });
});
