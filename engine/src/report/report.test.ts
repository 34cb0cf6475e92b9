import { describe, expect, it } from 'vitest';
import { analyze } from '../benefit/analyze.ts';
import { synthCapture } from '../benefit/testkit.ts';
import type { AnalysisReport } from '../benefit/result.ts';
import type { IntervalRecord } from '../records/types.ts';
import { REPORT_KEYS } from './keys.ts';
import { COLOR, roleColor } from './colors.ts';
import { buildReportModel, MAX_DEVICE_LINES, type ReportInput } from './build.ts';
import { shortForm, SHORT_FORM_CHART } from './short.ts';
import { intervalRow, INTERVAL_COLUMNS } from './intervals.ts';
import { reportSeries } from './series.ts';
import type { Block, Msg, ReportModel, Val } from './types.ts';
import { EXAMPLE_SCENARIO, parseScenario, planScenario } from '../plan/index.ts';

const rec = (device: string, startMs: number, reads: number | null, status: IntervalRecord['status'] = 'ok'): IntervalRecord => ({
  device, startMs, endMs: startMs + 1000, intervalMs: 1000, status, reads, writes: reads === null ? null : 0,
  readBytes: reads === null ? null : reads * 4096, writeBytes: reads === null ? null : 0, readTimeMs: reads === null ? null : reads * 2, writeTimeMs: reads === null ? null : 0, busyMs: 10, weightedMs: 10,
});

describe('reportSeries', () => {
  it('merges intervals into fixed buckets with rates over covered time, and keeps gaps as null', () => {
    const s = reportSeries([rec('a', 0, 100), rec('a', 1000, 300), rec('a', 2000, null, 'gap'), rec('a', 3000, null, 'reset')], [{ name: 'a', role: 'front' }], 2);
    expect(s.bucketMs).toBe(2000);
    expect(s.devices[0]?.iops).toEqual([200, null]);
    expect(s.devices[0]?.latencyMs).toEqual([2, null]);
    expect(s.t).toEqual([1000, 3000]);
  });
  it('never makes buckets shorter than one interval and leaves out devices without records', () => {
    const s = reportSeries([rec('a', 0, 10), rec('a', 1000, 20)], [{ name: 'a', role: 'front' }, { name: 'b', role: 'backing' }], 480);
    expect(s.bucketMs).toBe(1000);
    expect(s.devices.map((d) => d.device)).toEqual(['a']);
    expect(s.devices[0]?.iops).toEqual([10, 20]);
  });
});

describe('intervalRow', () => {
  it('gives the iostat metrics of a record in column order, absent stays null', () => {
    const row = intervalRow(rec('sda', 0, 100));
    expect(row).toHaveLength(INTERVAL_COLUMNS.length);
    expect(row[INTERVAL_COLUMNS.findIndex((c) => c.id === 'iops')]).toBe(100);
    expect(row[INTERVAL_COLUMNS.findIndex((c) => c.id === 'rAwaitMs')]).toBe(2);
    expect(row[INTERVAL_COLUMNS.findIndex((c) => c.id === 'wAwaitMs')]).toBeNull();
    expect(intervalRow(rec('sda', 0, null, 'gap')).slice(5).every((v) => v === null)).toBe(true);
  });
});

function input(front: string | null, backing: string[], overrides: Partial<ReportInput> = {}, worse = false): ReportInput {
  const data = synthCapture({ baselineS: 3 * 3600, measureS: 3 * 3600, warmupS: 600, stepMs: 10_000, front, backing, iopsBefore: 500, iopsAfter: 500, missRatio: worse ? 1.5 : 0.2, latBeforeMs: 6, latAfterMs: worse ? 9 : 1, noise: 0.05, seed: 7 });
  const a = analyze(data, { bootstrapReplicates: 200 });
  if (!a.ok) throw new Error(a.error.message);
  return {
    analysis: a as AnalysisReport,
    capture: { fileName: 'x.capture', sha256: 'ab'.repeat(32), sizeBytes: 1234, probeVersion: '0.1.0', source: 'synthetic', schemaVersion: 1, sampleIntervalMs: 10_000, devices: data.devices },
    series: reportSeries(data.intervals, data.devices),
    cover: { customer: '<img src=x onerror=alert(1)>', title: 'PoC' },
    appVersion: '9.9.9',
    generatedMs: Date.UTC(2026, 5, 1),
    tco: null,
    ...overrides,
  };
}

function walk(model: ReportModel, onMsg: (m: Msg) => void, onVal: (v: Val) => void): void {
  const v = (x: Val): void => {
    onVal(x);
    if (x.k === 'msg') m(x.m);
    if (x.k === 'list') x.items.forEach(v);
  };
  const m = (x: Msg): void => {
    onMsg(x);
    Object.values(x.p ?? {}).forEach(v);
  };
  const facts = (rows: { label: Msg; value: Val[] }[]): void => {
    for (const r of rows) {
      m(r.label);
      r.value.forEach(v);
    }
  };
  v(model.cover.title);
  m(model.cover.subtitle);
  facts(model.cover.rows);
  v(model.footer);
  for (const s of model.sections) {
    m(s.title);
    for (const b of s.blocks) {
      if (b.type === 'paragraph') m(b.text);
      else if (b.type === 'sentences') b.items.forEach(m);
      else if (b.type === 'facts') facts(b.rows);
      else if (b.type === 'notes') b.items.forEach(v);
      else if (b.type === 'subheading') {
        m(b.text);
        if (b.sub) v(b.sub);
      } else if (b.type === 'cards') {
        for (const c of b.cards) {
          m(c.title);
          c.value.forEach(v);
          c.subs.forEach(m);
        }
      } else if (b.type === 'table') {
        m(b.table.title);
        b.table.columns.forEach((c) => m(c.head));
        b.table.rows.forEach((r) => r.cells.forEach(v));
        if (b.table.caption) m(b.table.caption);
      } else if (b.type === 'chart') {
        m(b.chart.title);
        m(b.chart.summary);
        if (b.chart.note) m(b.chart.note);
        b.chart.series.forEach((s2) => v(s2.name));
        b.chart.x.categories?.forEach(v);
      }
    }
  }
}

describe('buildReportModel', () => {
  it('holds the sections in reading order, the analysis figures unrounded, and only known text keys', () => {
    const i = input('front0', ['back0', 'back1']);
    const model = buildReportModel(i);
    expect(model.sections.map((s) => s.id)).toEqual(['decision', 'summary', 'method', 'results', 'caveats', 'appendix']);
    const saved = model.summary.find((r) => r.id === 'iosSavedPercent');
    expect(saved?.value).toBe(i.analysis.benefit.iosSavedPercent.value);
    expect(saved?.low).toBe(i.analysis.benefit.iosSavedPercent.ci95?.low);
    expect(model.summary.find((r) => r.id === 'latencyMs')?.before).toBe(i.analysis.benefit.latencyMs.before);
    const keys = new Set<string>(REPORT_KEYS);
    const unknown: string[] = [];
    walk(model, (m) => {
      if (!keys.has(m.key)) unknown.push(m.key);
    }, () => {});
    expect(unknown).toEqual([]);
    // The charts listed are the charts drawn in the sections, each with data.
    const drawn = model.sections.flatMap((s) => s.blocks).filter((b) => b.type === 'chart').map((b) => (b.type === 'chart' ? b.chart.id : ''));
    expect(drawn).toEqual(model.charts.map((c) => c.id));
    for (const c of model.charts) expect(c.series.some((s) => s.points.some((p) => p[1] !== null)), c.id).toBe(true);
  });

  it('keeps user text verbatim as `str` values (the exporters escape them) and is deterministic', () => {
    const i = input('front0', ['back0']);
    const a = buildReportModel(i);
    const strs: string[] = [];
    walk(a, () => {}, (v) => {
      if (v.k === 'str') strs.push(v.s);
    });
    expect(strs).toContain('<img src=x onerror=alert(1)>');
    expect(JSON.stringify(buildReportModel(i))).toBe(JSON.stringify(a));
    expect(a.generatedMs).toBe(Date.UTC(2026, 5, 1));
  });

  it('sums the backing devices into one chart line beyond MAX_DEVICE_LINES devices', () => {
    const backing = Array.from({ length: MAX_DEVICE_LINES + 2 }, (_, k) => `back${k}`);
    const model = buildReportModel(input('front0', backing));
    const iops = model.charts.find((c) => c.id === 'iops-time');
    expect(iops?.series).toHaveLength(2);
    expect(iops?.note?.key).toBe('ch.noteBucketSummed');
  });

  it('in backing-only mode says so in the summary and the caveats', () => {
    const model = buildReportModel(input(null, ['back0']));
    const keys: string[] = [];
    walk(model, (m) => keys.push(m.key), () => {});
    expect(keys).toContain('mode.backing-only');
    expect(keys).toContain('cav.backingOnly');
    expect(keys).toContain('sum.cacheServedNa');
    // said once: the analysis' warning of the same fact is not printed beside the caveat
    const codes: string[] = [];
    walk(model, () => {}, (v) => { if (v.k === 'warning') codes.push(v.w.code); });
    expect(codes).not.toContain('backing-only-mode');
  });

  it('says that I/Os and response time rose when the cache made things worse, never "fell by −50 %"', () => {
    const worse = input('front0', ['back0'], {}, true);
    expect(worse.analysis.benefit.iosSavedPercent.value).toBeLessThan(0);
    expect(worse.analysis.benefit.latencyMs.reductionPercent).toBeLessThan(0);
    const keys: string[] = [];
    walk(buildReportModel(worse), (m) => keys.push(m.key), () => {});
    expect(keys).toContain('sum.iosRose');
    expect(keys).toContain('sum.latencyRose');
    expect(keys).not.toContain('sum.iosSaved');
    expect(keys).not.toContain('sum.latency');
    const better: string[] = [];
    walk(buildReportModel(input('front0', ['back0'])), (m) => better.push(m.key), () => {});
    expect(better).toContain('sum.iosSaved');
    expect(better).not.toContain('sum.iosRose');
  });
});

describe('TCO page: example prices', () => {
  // The shipped example scenario marks its prices as examples (priceKind "example").
  function tcoModel(priceKind: 'example' | 'quoted'): ReportModel {
    const s = parseScenario({ ...EXAMPLE_SCENARIO, priceKind });
    if (!s.ok) throw new Error(s.error.message);
    const plan = planScenario(s.value);
    if (!plan.ok) throw new Error(plan.error.message);
    return buildReportModel(input('md0', ['sdb'], { tco: { scenarioFile: 'example.tco.json', scenario: s.value, plan: plan.value } }));
  }
  const tcoKeys = (model: ReportModel): string[] =>
    (model.sections.find((s) => s.id === 'tco')?.blocks ?? []).flatMap((b) => (b.type === 'paragraph' ? [b.text.key] : []));

  it('says "example prices: replace before use" right after the intro when the scenario marks its prices so, and not otherwise', () => {
    expect(tcoKeys(tcoModel('example')).slice(0, 2)).toEqual(['tco.intro', 'tco.examplePrices']);
    expect(tcoKeys(tcoModel('quoted'))).not.toContain('tco.examplePrices');
    expect(REPORT_KEYS).toContain('tco.examplePrices');
  });
});

describe('the short form for managers', () => {
  function models(): { full: ReportModel; short: ReportModel } {
    const sc = parseScenario({ ...EXAMPLE_SCENARIO, priceKind: 'example' });
    if (!sc.ok) throw new Error(sc.error.message);
    const plan = planScenario(sc.value);
    if (!plan.ok) throw new Error(plan.error.message);
    const full = buildReportModel(input('md0', ['sdb'], { tco: { scenarioFile: 'example.tco.json', scenario: sc.value, plan: plan.value } }));
    return { full, short: shortForm(full) };
  }
  it('is a selection of the full model: the verdict first, the cards, one chart, the TCO bottom line and table, the warnings — the same objects, nothing computed again', () => {
    const { full, short } = models();
    expect(short.form).toBe('short');
    expect(shortForm(short)).toBe(short);
    expect(short.sections.map((x) => x.id)).toEqual(['decision', 'summary', 'tco', 'caveats']);
    const fullBlocks = full.sections.flatMap((x) => x.blocks);
    const [decision, summary, tco, caveats] = short.sections;
    // the decision block first, the full report's own section (its verdict, with the sizing basis, and its figures)
    expect(decision).toBe(full.sections[0]);
    expect(decision?.blocks[0]).toEqual({ type: 'paragraph', text: full.decision?.verdict });
    // the summary's verdict would say the decision block's figures again: the cards and the chart follow
    expect(summary?.blocks.map((b) => b.type)).toEqual(['cards', 'chart']);
    expect(fullBlocks).toContain(summary?.blocks[1]);
    // the cards are the full report's, each sub the same object, less the I/O time sentences (the full report's summary and cards keep them)
    const fullCards = fullBlocks.find((b) => b.type === 'cards');
    const shortCards = summary?.blocks[0];
    if (fullCards?.type !== 'cards' || shortCards?.type !== 'cards') throw new Error('no cards');
    expect(shortCards.cards.map((c) => c.id)).toEqual(fullCards.cards.map((c) => c.id));
    shortCards.cards.forEach((c, i) => {
      const f = fullCards.cards[i];
      expect(c.value).toBe(f?.value);
      expect(c.subs).toEqual(f?.subs.filter((x) => !x.key.startsWith('iotime.')));
    });
    expect(fullCards.cards[0]?.subs.some((x) => x.key.startsWith('iotime.measured'))).toBe(true);
    expect(short.charts.map((c) => c.id)).toEqual([SHORT_FORM_CHART]);
    // the TCO page: the example-prices warning (which speaks of "the totals below") before the table, as in the full report;
    // the verdict and the payback are the decision block's lines
    expect(tco?.blocks[0]?.type === 'paragraph' && tco.blocks[0].text.key === 'tco.examplePrices').toBe(true);
    expect(tco?.blocks[1]?.type).toBe('table');
    expect(fullBlocks).toContain(tco?.blocks[0]);
    expect(fullBlocks).toContain(tco?.blocks[1]);
    const fullWarnings = full.sections.find((x) => x.id === 'caveats')?.blocks.filter((b) => b.type === 'notes' && b.tone === 'warning') ?? [];
    // less the warning that the windows are short of a day: the decision block's first caveat says it (said once)
    expect(full.decision?.caveats[0].key).toBe('dec.cav.windowShort');
    const codes = (bs: readonly Block[]): string[] => bs.flatMap((b) => (b.type === 'notes' ? b.items.flatMap((v) => (v.k === 'warning' ? [v.w.code] : [])) : []));
    expect(codes(fullWarnings)).toContain('short-window');
    expect(codes(caveats?.blocks ?? [])).toEqual(codes(fullWarnings).filter((c) => c !== 'short-window'));
    expect(caveats?.blocks.at(-1)).toEqual({ type: 'paragraph', text: { key: 'short.seeFull' } });
    // the figures behind the spreadsheets stay the full report's
    expect(short.summary).toBe(full.summary);
  });
  it('without a TCO scenario it has no TCO page', () => {
    const short = shortForm(buildReportModel(input('md0', ['sdb'])));
    expect(short.sections.map((x) => x.id)).toEqual(['decision', 'summary', 'caveats']);
  });
});

describe('the verdict (the executive summary\'s first sentence)', () => {
  const first = (model: ReportModel): Msg => {
    const b = model.sections.find((s) => s.id === 'summary')?.blocks[0];
    if (b?.type !== 'paragraph') throw new Error('the summary does not open with a paragraph');
    return b.text;
  };
  it('says what the cache did with the analysis\' own figures and interval', () => {
    const inp = input('fr0', ['bk0', 'bk1']);
    const v = first(buildReportModel(inp));
    const b = inp.analysis.benefit;
    expect(v.key).toBe('verdict.saved');
    expect(v.p?.['value']).toEqual({ k: 'pct', v: b.iosSavedPercent.value, d: 1 });
    expect(v.p?.['ci']).toMatchObject({ k: 'ci', low: b.iosSavedPercent.ci95?.low, high: b.iosSavedPercent.ci95?.high });
    expect(v.p?.['before']).toMatchObject({ k: 'ms', v: b.latencyMs.before });
    expect(v.p?.['after']).toMatchObject({ k: 'ms', v: b.latencyMs.after });
  });
  it('says the cache did not help when more I/Os reached the drives', () => {
    const inp = input('fr0', ['bk0'], {}, true);
    expect(inp.analysis.benefit.iosSavedPercent.value).toBeLessThan(0);
    const v = first(buildReportModel(inp));
    expect(v.key).toBe('verdict.rose');
    expect(v.p?.['value']).toEqual({ k: 'pct', v: -(inp.analysis.benefit.iosSavedPercent.value as number), d: 1 });
  });
  it('adds what it is worth when a TCO scenario makes another configuration cheaper than the reference', () => {
    const parsed = parseScenario(EXAMPLE_SCENARIO);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const plan = planScenario(parsed.value);
    if (!plan.ok) throw new Error(plan.error.message);
    const v = first(buildReportModel(input('fr0', ['bk0'], { tco: { scenarioFile: 's.json', scenario: parsed.value, plan: plan.value } })));
    const best = [...plan.value.configurations].sort((x, y) => x.totalUsd - y.totalUsd)[0];
    if (best?.id === plan.value.referenceId) expect(v.key).toBe('verdict.saved');
    else {
      expect(v.key).toBe('verdict.savedTco');
      expect(v.p?.['label']).toEqual({ k: 'str', s: best?.label });
    }
  });
});

describe('the bursty note', () => {
  it('prints one line for a figure whose mean lies above its 95th percentile, with the figures, and none otherwise', () => {
    const i = input('fr0', ['bk0']);
    const notesOf = (model: ReportModel): Msg[] => model.sections.flatMap((x) => x.blocks).flatMap((b) => (b.type === 'notes' ? b.items : []))
      .flatMap((v) => (v.k === 'msg' && v.m.key === 'rw.bursty' ? [v.m] : []));
    expect(notesOf(buildReportModel(i))).toEqual([]);
    const a = structuredClone(i.analysis);
    a.readWriteQueue.backing.measure.writesPerSec = { ...a.readWriteQueue.backing.measure.writesPerSec, mean: 74.4, p95: 2, peak: 2382, notes: ['bursty'] };
    const notes = notesOf(buildReportModel({ ...i, analysis: a }));
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes[0]?.p)).toContain('74.4');
    expect(JSON.stringify(notes[0]?.p)).toContain('2382');
    expect(JSON.stringify(notes[0]?.p?.['figure'])).toContain('rw.writes');
  });
});

describe('a colour means one thing (colors.ts)', () => {
  it('time-chart lines take their role\'s colour (a second line of a role dashed); before/after bars the window colours', () => {
    const model = buildReportModel(input('fr0', ['bk0', 'bk1']));
    const iops = model.charts.find((c) => c.id === 'iops-time');
    const names = iops?.series.map((s) => JSON.stringify(s.name)) ?? [];
    const byDevice = (d: string) => iops?.series[names.findIndex((n) => n.includes(`"${d}"`))];
    expect(byDevice('fr0')?.color).toBe(COLOR.front);
    expect(byDevice('bk0')?.color).toBe(COLOR.backing);
    expect(byDevice('bk1')?.color).toBe(COLOR.backing);
    expect([byDevice('bk0')?.dashed, byDevice('bk1')?.dashed].filter((x) => x === true)).toHaveLength(1);
    const dist = model.charts.find((c) => c.id === 'latency-distribution');
    expect(dist?.series.map((s) => s.color)).toEqual([COLOR.before, COLOR.after]);
    expect(roleColor('cache')).toBe(COLOR.cache);
  });
  it('draws the backing line wide beneath the front one (they coincide before the switch), and no two meanings of a chart share a colour', () => {
    const sc = parseScenario(EXAMPLE_SCENARIO);
    if (!sc.ok) throw new Error(sc.error.message);
    const plan = planScenario(sc.value);
    if (!plan.ok) throw new Error(plan.error.message);
    const model = buildReportModel(input('fr0', ['bk0'], { tco: { scenarioFile: 's.json', scenario: sc.value, plan: plan.value } }));
    const iops = model.charts.find((c) => c.id === 'iops-time');
    const front = iops?.series.find((x) => x.color === COLOR.front);
    const back = iops?.series.find((x) => x.color === COLOR.backing);
    expect(front?.width ?? 1.4).toBeLessThan((back?.width ?? 0) / 2);
    // series of one colour are the same meaning told apart by dash or width (two backing devices,
    // reads and writes of one group); a TCO chart's configurations each have their own colour
    for (const c of model.charts) {
      const byColour = new Map<number, { dashed: boolean; width: number }[]>();
      for (const x of c.series) byColour.set(x.color, [...(byColour.get(x.color) ?? []), { dashed: x.dashed === true, width: x.width ?? 1.4 }]);
      for (const [colour, xs] of byColour) expect(new Set(xs.map((x) => `${x.dashed}/${x.width}`)).size, `${c.id} colour ${colour}`).toBe(xs.length);
    }
    const cum = model.charts.find((c) => c.id === 'tco-cumulative');
    expect(cum?.series.length).toBe(plan.value.configurations.length);
    expect(new Set(cum?.series.map((x) => x.color)).size).toBe(plan.value.configurations.length);
    for (const x of cum?.series ?? []) expect([COLOR.front, COLOR.backing, COLOR.cache, COLOR.before, COLOR.after]).not.toContain(x.color);
  });
});

describe('response time on scales of its own', () => {
  it('front-and-backing: the application-facing devices and the backing drives get a chart each; backing-only keeps one', () => {
    const model = buildReportModel(input('fr0', ['bk0', 'bk1']));
    const front = model.charts.find((c) => c.id === 'latency-time');
    const back = model.charts.find((c) => c.id === 'latency-backing-time');
    expect(front?.title.key).toBe('ch.latencyFrontTitle');
    expect(back?.title.key).toBe('ch.latencyBackingTitle');
    expect(front?.series.map((s) => s.color)).toEqual([COLOR.front]);
    expect(back?.series.map((s) => s.color)).toEqual([COLOR.backing, COLOR.backing]);
    expect(back?.refLines).toBeUndefined();
    const only = buildReportModel(input(null, ['bk0']));
    expect(only.charts.filter((c) => c.id.startsWith('latency-') && c.id.endsWith('-time')).map((c) => c.id)).toEqual(['latency-time']);
  });
});

describe('who switched the cache on (#28)', () => {
  const switchRow = (model: ReportModel): Val | undefined => {
    for (const b of model.sections.find((s) => s.id === 'method')?.blocks ?? []) {
      if (b.type === 'facts') {
        const row = b.rows.find((r) => r.label.key === 'm.switch');
        if (row !== undefined) return row.value[0];
      }
    }
    return undefined;
  };
  it('the method table names the adapter that switched it, and gives the bare time for a manual switch', () => {
    const manual = input('f', ['b']);
    const plain = switchRow(buildReportModel(manual));
    expect(plain?.k).toBe('time');
    const a = structuredClone(manual.analysis);
    const share = { enginePercent: null, countersPercent: null, differencePoints: null, exceeds: false, engineHits: null, engineTotal: null, reasons: {} };
    a.cacheEngine = { reasons: {}, comparison: { adapter: 'loop-dio', device: 'loop7', window: { start: '', end: '', seconds: 1 }, method: 'cumulative-difference-in-measure-window', thresholdPoints: 5,
      shares: { reads: share, writes: share, all: share }, notes: [], counters: [], samples: 0,
      actions: [{ start: '', end: '', startMs: 0, action: 'enable', step: 'direct-io off', ok: true, exitStatus: 0, modeBefore: 'direct-io', modeAfter: 'buffered', output: '', reasons: {} }] } };
    const byAdapter = switchRow(buildReportModel({ ...manual, analysis: a }));
    expect(byAdapter?.k).toBe('msg');
    const msg = byAdapter as Extract<Val, { k: 'msg' }>;
    expect(msg.m.key).toBe('m.switchAdapter');
    expect(msg.m.p?.['adapter']).toEqual({ k: 'str', s: 'loop-dio' });
  });
});
