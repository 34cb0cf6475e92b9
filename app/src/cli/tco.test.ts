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

// The example (samples/scenarios/example.tco.json), by hand. 4 years, sized for year 4:
// IOPS 20 000 (p95, no IOPS growth), 70 % reads; capacity 20 TB × 1.1³ = 26.62 TB.
// Energy: 0.15 USD/kWh × PUE 1.5; a watt for 4 years costs 8 766 × 4 ÷ 1000 × 0.15 × 1.5 = 7.88940 USD.
//
// All HDD, RAID 10 (4): back-end 14 000 + 6 000 × 2 = 26 000 → 26 000 ÷ 140 = 185.7 → 186 → 47 groups = 188 drives;
//   capacity 26.62 ÷ 1.2 → 23 data drives → 12 groups = 48. Enclosures: (188 − 24) ÷ 24 = 6.8 → 7.
//   Watts: 188 × 8 + 7 × 100 + 200 = 2 404 → 2 404 × 7.8894 = 18 966.12.
//   Failures: 0.005 × 188 × 4 × 250 = 940. Support: 2 000 × 4 = 8 000.
//   Day one: 20 000 + 47 000 + 21 000 = 88 000. Total: 88 000 + 18 966.12 + 940 + 8 000 = 115 906.12.
// HDD RAID 5 (4+1) + 2 SATA SSD RAID 1, write-back, 80 % read and write hits:
//   back-end 14 000 × 0.2 + 6 000 × 0.2 × 4 = 7 600 → 54.3 → 55 = 11 groups; capacity 23 → 6 groups = 30.
//   Slots 55 + 2 = 57 → (57 − 24) ÷ 24 = 1.4 → 2 enclosures. Watts: 55 × 8 + 2 × 3 + 2 × 100 + 200 = 846 → 6 674.43.
//   Failures: 0.005 × 55 × 4 × 250 = 275; cache 0.004 × 2 × 4 × 400 = 12.80.
//   Cache wear: fills 1 447.70 TB × 0.2 + writes 620.45 TB = 909.99 TB per SSD per year vs 1 × 1.92 × 365 × 5 = 3 504 TBW
//   → 3.85 years < 4: one more pair, 2 × 400 = 800.
//   Day one: 20 000 + 5 000 + 13 750 + 800 + 6 000 = 45 550. Total: 45 550 + 6 674.43 + 275 + 12.80 + 800 + 8 000 = 61 312.23.
//   Savings: 115 906.12 − 61 312.23 = 54 593.89 = 47.1 %.
// All-flash SATA RAID 5: capacity 26.62 ÷ 1.92 → 14 data → 4 groups = 20 drives (IOPS need 1). No enclosure.
//   Watts 20 × 3 + 200 = 260 → 2 051.24. Failures 0.004 × 20 × 4 × 400 = 128. Total 20 000 + 8 000 + 2 051.24 + 128 + 8 000 = 38 179.24
//   Savings 77 726.87 = 67.1 %.
// All-flash NVMe RAID 5: 26.62 ÷ 3.84 → 7 data → 2 groups = 10 drives. Watts 10 × 12 + 200 = 320 → 2 524.61.
//   Failures 0.004 × 10 × 4 × 900 = 144. Total 30 000 + 9 000 + 2 524.61 + 144 + 8 000 = 49 668.61. Savings 66 237.51 = 57.1 %.
const HAND = {
  'all-hdd': {
    header: '== All HDD, RAID 10 (all-hdd) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Drives', '188 × 250', '47,000'],
      ['Enclosures', '7 × 3,000 (188 drives, 24 built-in slots, 24 per enclosure)', '21,000'],
      ['Power and cooling', '2,404 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '18,966'],
      ['Drive failures', 'AFR 0.5 % × 188 × 4 yr × 250', '940'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '88,000'],
      ['Total over 4 years', '115,906'],
    ],
    totalUsd: 115_906.1176,
  },
  'hdd-ssd-cache': {
    header: '== HDD RAID 5 + SSD cache (hdd-ssd-cache) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Cache licence', 'once', '5,000'],
      ['Drives', '55 × 250', '13,750'],
      ['Cache SSDs', '2 × 400', '800'],
      ['Enclosures', '2 × 3,000 (57 drives, 24 built-in slots, 24 per enclosure)', '6,000'],
      ['Power and cooling', '846 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '6,674'],
      ['Drive failures', 'AFR 0.5 % × 55 × 4 yr × 250', '275'],
      ['Cache SSD failures', 'AFR 0.4 % × 2 × 4 yr × 400', '13'],
      ['Cache SSD wear-out', '1 set × 2 × 400 (wears out after 3.9 yr)', '800'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '45,550'],
      ['Total over 4 years', '61,312'],
    ],
    totalUsd: 61_312.2324,
  },
  'all-flash-sata': {
    header: '== All-flash SATA, RAID 5 (all-flash-sata) ==',
    rows: [
      ['Base system', 'once', '20,000'],
      ['Drives', '20 × 400', '8,000'],
      ['Enclosures', '0 × 3,000 (20 drives, 24 built-in slots, 24 per enclosure)', '0'],
      ['Power and cooling', '260 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '2,051'],
      ['Drive failures', 'AFR 0.4 % × 20 × 4 yr × 400', '128'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '28,000'],
      ['Total over 4 years', '38,179'],
    ],
    totalUsd: 38_179.244,
  },
  'all-flash-nvme': {
    header: '== All-flash NVMe, RAID 5 (all-flash-nvme) ==',
    rows: [
      ['Base system', 'once', '30,000'],
      ['Drives', '10 × 900', '9,000'],
      ['Enclosures', '0 × 5,000 (10 drives, 24 built-in slots, 24 per enclosure)', '0'],
      ['Power and cooling', '320 W × 8,766 h × 4 yr ÷ 1000 × 0.15 × PUE 1.5', '2,525'],
      ['Drive failures', 'AFR 0.4 % × 10 × 4 yr × 900', '144'],
      ['Support', '2,000 × 4 yr', '8,000'],
      ['Of which on day one', '39,000'],
      ['Total over 4 years', '49,669'],
    ],
    totalUsd: 49_668.608,
  },
} as const;

describe('cacheproof tco on the documented example', () => {
  it('text: every configuration reproduces the hand-written cost table, then the comparison', async () => {
    const io = recorder();
    expect(await tco([EXAMPLE], io)).toBe(EXIT.ok);
    expect(io.err).toBe('');
    expect(io.out).toContain('Sized for year 4 of 4 (final year: growth included, everything bought on day one).');
    expect(io.out).toContain('Capacity: 20.0 TB today, 26.6 TB in year 4.');
    for (const c of Object.values(HAND)) expect(costRows(io.out, c.header)).toEqual(c.rows);
    const cmp = io.out.split('\n').slice(io.out.split('\n').indexOf('== Comparison against All HDD, RAID 10 ==') + 1);
    expect(cmp.slice(0, 5).map((l) => l.split(/ {2,}/))).toEqual([
      ['Configuration', 'Drives', 'Total USD', 'Savings USD', 'Savings %', 'USD/IOPS', 'USD/TB', 'Break-even'],
      ['All HDD, RAID 10', '188', '115,906', '0', '0.0', '5.72', '1,027.54', 'reference'],
      ['HDD RAID 5 + SSD cache', '57', '61,312', '54,594', '47.1', '3.03', '1,161.22', 'day one'],
      ['All-flash SATA, RAID 5', '20', '38,179', '77,727', '67.1', '0.07', '1,242.81', 'day one'],
      ['All-flash NVMe, RAID 5', '10', '49,669', '66,238', '57.1', '0.05', '1,616.82', 'day one'],
    ]);
    expect(io.out).toContain('Cache SSD life: 910 TB written per drive per year (fills and writes), endurance 3,504 TBW: 3.9 yr.');
    expect(io.out).toContain('wear index 0.13 → 0.026 (-0.104)');
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
      backingDrives: 47_000,
      enclosures: 21_000,
      powerCooling: expect.closeTo(18_966.1176, 6) as number,
      backingFailures: expect.closeTo(940, 9) as number,
      support: 8_000,
    });
    expect(lines('hdd-ssd-cache')).toEqual({
      baseSystem: 20_000,
      cacheLicense: 5_000,
      backingDrives: 13_750,
      cacheDrives: 800,
      enclosures: 6_000,
      powerCooling: expect.closeTo(6_674.4324, 6) as number,
      backingFailures: expect.closeTo(275, 9) as number,
      cacheFailures: expect.closeTo(12.8, 9) as number,
      cacheWearReplacements: 800,
      support: 8_000,
    });
    for (const [id, hand] of Object.entries(HAND)) expect(byId.get(id)?.totalUsd).toBeCloseTo(hand.totalUsd, 6);
    // Cumulative cost, all-HDD: 88 000 on day one, then 4 741.53 power + 235 failures + 2 000 support per year.
    expect(byId.get('all-hdd')?.cumulativeUsd[1]).toBeCloseTo(88_000 + 4_741.5294 + 235 + 2_000, 6);
    const cmp = new Map(doc.result.comparisons.map((c) => [c.id, c]));
    expect(cmp.get('hdd-ssd-cache')?.savingsUsd).toBeCloseTo(54_593.8852, 6);
    expect(cmp.get('hdd-ssd-cache')?.savingsPct).toBeCloseTo((54_593.8852 / 115_906.1176) * 100, 9);
    expect(cmp.get('hdd-ssd-cache')?.savingsPct).toBeCloseTo(47.1, 1);
    expect(cmp.get('all-flash-sata')?.savingsPct).toBeCloseTo(67.06, 2);
    expect(cmp.get('hdd-ssd-cache')?.breakEvenYear).toBe(0);
  });

  it('--lang fr: decimal comma and French labels', async () => {
    const io = recorder();
    expect(await tco([EXAMPLE, '--lang', 'fr'], io)).toBe(EXIT.ok);
    expect(io.out).toContain('Capacité : 20,0 To aujourd’hui, 26,6 To l’année 4.');
    expect(io.out).toMatch(/Total sur 4 ans +115\u202f906\n/);
    expect(formatTcoNumber('fr', 18_966.1176, 2)).toBe('18\u202f966,12');
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
      if (s.drives[2]) s.drives[2].iops = 0;
    });
    expect(r).toEqual({ code: EXIT.badInput, err: 'drives[2].iops: must be greater than 0, got 0.\n' });
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
      'workload.capacityBytes: 665.5 TB in year 4 needs 1,112 drives of "hdd-10k-sas-1.2tb" in "All HDD, RAID 10", more than the 264 drive slots its system allows (configurations[0].system.maxEnclosures).\n',
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
    expect(written.drives.map((d) => d.label)).toEqual(['HDD 10k tr/min SAS 1,2 To', 'SSD SATA 1,92 To (1 DWPD)', 'SSD NVMe 3,84 To (1 DWPD)']);
    expect(written.configurations.map((c) => c.label)).toEqual(['100 % HDD, RAID 10', 'HDD en RAID 5 + cache SSD', '100 % flash SATA, RAID 5', '100 % flash NVMe, RAID 5']);
    // Ids do not change with the language.
    expect(written.configurations.map((c) => c.id)).toEqual(EXAMPLE_SCENARIO.configurations.map((c) => c.id));

    const text = recorder();
    expect(await tco([out, '--lang=fr'], text)).toBe(EXIT.ok);
    expect(text.out).toContain('Volume OLTP : cache, disques rotatifs ou flash');
    expect(text.out).toContain('HDD en RAID 5 + cache SSD');
    expect(text.out).toContain('SSD SATA 1,92 To (1 DWPD)');
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
