import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCENARIO, parseScenario, type Scenario } from '@cacheproof/engine/plan';
import { localizeTemplate, template, type TemplateKey } from '../src/shared/i18n/template.ts';
import { LANGS, type Lang } from '../src/shared/i18n/types.ts';
import { createDispatch } from '../src/host/dispatch.ts';
import { createHandlers } from '../src/host/services.ts';
import { runCli } from '../src/cli/main.ts';
import { writeSyntheticCapture } from '../../test/support/synthetic-capture.ts';
import type { AnalysisReport } from '@cacheproof/engine';
import { tcoFor } from '../src/host/report/input.ts';
import { readCapture, readCaptureInfo } from '../src/host/capture/reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-plan-channel-'));
const capture = join(dir, 'synthetic.capture');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeSyntheticCapture({ path: capture, windowSeconds: 600, warmupSeconds: 60, intervalMs: 1000, backingDevices: 2, missShare: 0.1 });
});

function dispatch(): ReturnType<typeof createDispatch> {
  return createDispatch(createHandlers({ shell: 'browser', sample: capture, probe: null }), (channel, err) => {
    throw new Error(`bug in ${channel}: ${String(err)}`);
  });
}

describe('plan.fromAnalysis', () => {
  it('gives, for an analysis opened in this session, exactly the scenario `cacheproof tco --from-capture` writes', async () => {
    const d = dispatch();
    const view = await d('analysis.openSample', {});
    if (!view.ok) throw new Error(view.error.message);
    const id = (view.value as { id: string }).id;
    const r = await d('plan.fromAnalysis', { analysisId: id });
    if (!r.ok) throw new Error(r.error.message);
    const scenario = (r.value as { scenario: unknown }).scenario;
    expect(parseScenario(scenario).ok).toBe(true);

    const out = join(dir, 'from-capture.tco.json');
    let err = '';
    const code = await runCli(['tco', '--from-capture', capture, '--out', out], { stdout: () => undefined, stderr: (s) => (err += s) });
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(scenario).toEqual(JSON.parse(readFileSync(out, 'utf8')));
  });

  it('writes the template in the language asked for, exactly as `cacheproof tco --from-capture --lang` does', async () => {
    const d = dispatch();
    const view = await d('analysis.openSample', {});
    if (!view.ok) throw new Error(view.error.message);
    const id = (view.value as { id: string }).id;
    const english = await d('plan.fromAnalysis', { analysisId: id });
    if (!english.ok) throw new Error(english.error.message);
    // the example's drives and configurations, titled with the analysis's name (host and capture), not the example's "OLTP volume"
    const englishLabels = labels((english.value as { scenario: Scenario }).scenario);
    const name = /^(.+): cache versus spindles versus flash$/u.exec(englishLabels.title ?? '')?.[1];
    expect(name, englishLabels.title).toBeDefined();
    expect(englishLabels).toEqual({ ...labels(EXAMPLE_SCENARIO as Scenario), title: template.en.titleFor.replace('{name}', name as string) });

    for (const lang of ['fr', 'ru'] as const) {
      const r = await d('plan.fromAnalysis', { analysisId: id, lang });
      if (!r.ok) throw new Error(r.error.message);
      const scenario = (r.value as { scenario: Scenario }).scenario;
      expect(labels(scenario)).toEqual({ ...expected(lang), title: template[lang].titleFor.replace('{name}', name as string) });
      // Only the words differ from the English prefill: every figure is the same.
      expect(localizeTemplate(scenario, 'en')).toEqual((english.value as { scenario: Scenario }).scenario);

      const out = join(dir, `from-capture-${lang}.tco.json`);
      let err = '';
      const code = await runCli(['tco', '--from-capture', capture, '--out', out, '--lang', lang], { stdout: () => undefined, stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(scenario).toEqual(JSON.parse(readFileSync(out, 'utf8')));
    }
    const fr = await d('plan.fromAnalysis', { analysisId: id, lang: 'fr' });
    const frLabels = fr.ok ? labels((fr.value as { scenario: Scenario }).scenario) : null;
    expect(frLabels?.configurations).toContain('HDD en RAID 5 + cache SSD');
    expect(frLabels?.drives).toContain('Toshiba MG10ACA20TE 20 To 7 200 tr/min SATA');
  });

  it('refuses an analysis id that was not opened in this session, and a malformed request', async () => {
    const d = dispatch();
    const unknown = await d('plan.fromAnalysis', { analysisId: 'ffffffffffffffff' });
    expect(unknown.ok ? null : unknown.error.code).toBe('capture-not-found');
    const bad = await d('plan.fromAnalysis', { path: capture });
    expect(bad.ok ? null : bad.error.code).toBe('bad-request');
    const view = await d('analysis.openSample', {});
    const id = view.ok ? (view.value as { id: string }).id : '';
    const badLang = await d('plan.fromAnalysis', { analysisId: id, lang: 'de' });
    expect(badLang.ok ? null : badLang.error.code).toBe('bad-request');
  });
});

interface Labels {
  title: string | undefined;
  drives: string[];
  configurations: string[];
}

function labels(s: Scenario): Labels {
  return { title: s.title, drives: s.drives.map((x) => x.label), configurations: s.configurations.map((x) => x.label) };
}

/** The template's texts in `lang`, in the template's order, looked up by id. */
function expected(lang: Lang): Labels {
  const s = EXAMPLE_SCENARIO as Scenario;
  return {
    title: template[lang].title,
    drives: s.drives.map((x) => template[lang][`drive.${x.id}` as TemplateKey]),
    configurations: s.configurations.map((x) => template[lang][`config.${x.id}` as TemplateKey]),
  };
}

describe('plan.sources', () => {
  it('names where each input comes from against the capture exactly as the report does (tcoFor), and refuses an invalid scenario', async () => {
    const d = dispatch();
    const view = await d('analysis.openSample', {});
    if (!view.ok) throw new Error(view.error.message);
    const v = view.value as { id: string; result: AnalysisReport };
    const pre = await d('plan.fromAnalysis', { analysisId: v.id });
    if (!pre.ok) throw new Error(pre.error.message);
    const scenario = (pre.value as { scenario: Scenario }).scenario;
    const r = await d('plan.sources', { analysisId: v.id, scenario });
    if (!r.ok) throw new Error(r.error.message);
    const sources = (r.value as { sources: { input: string; source: string }[] }).sources;
    // the prefill names the capture by its SHA-256 (the open's reply may come before the hash)
    const sha = scenario.measuredFrom?.captureSha256 ?? '';
    expect(sha).toMatch(/^[0-9a-f]{64}$/u);
    const report = tcoFor({ json: scenario, file: 'prefilled.tco.json' }, v.result, readCapture(capture, readCaptureInfo).devices, 'synthetic.capture', sha);
    expect(sources).toEqual(report.sources);
    // measured from this capture: the workload's IOPS is measured, the prices are the catalog's examples
    expect(sources.find((x) => x.input === 'iops')?.source).toBe('measured');
    expect(sources.some((x) => x.source === 'example')).toBe(true);
    // the same scenario said to be measured from another capture: nothing of it is this capture's measurement
    const other = { ...scenario, measuredFrom: { captureFile: 'other.capture', captureSha256: '0'.repeat(64) } };
    const o = await d('plan.sources', { analysisId: v.id, scenario: other });
    if (!o.ok) throw new Error(o.error.message);
    expect((o.value as { sources: { source: string }[] }).sources.some((x) => x.source === 'measured')).toBe(false);
    const bad = await d('plan.sources', { analysisId: v.id, scenario: { format: 'cacheproof-tco', version: 1, years: -1 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('plan-scenario-invalid');
  });
});

describe('the template catalog (app/src/shared/i18n/template.ts)', () => {
  it('has, in English, exactly the engine template\'s texts, and a translation of each in every language', () => {
    const s = EXAMPLE_SCENARIO as Scenario;
    expect(expected('en')).toEqual(labels(s));
    const keys = Object.keys(template.en).sort();
    expect(keys).toEqual(['title', 'titleFor', ...s.drives.map((x) => `drive.${x.id}`), ...s.configurations.map((x) => `config.${x.id}`)].sort());
    for (const lang of LANGS) {
      expect(Object.keys(template[lang]).sort()).toEqual(keys);
      if (lang === 'en') continue;
      // Translated, not copied: no text is the English one, and the units are the language's.
      for (const key of keys as TemplateKey[]) expect(template[lang][key], `${lang} ${key}`).not.toBe(template.en[key]);
    }
    expect(template.fr['drive.toshiba-mg10aca20te']).toContain('tr/min');
    expect(template.ru['drive.toshiba-mg10aca20te']).toContain('об/мин');
    expect(template.fr['drive.micron-7400-pro-m2-3.84tb']).toContain('3,84 To');
    expect(template.ru['drive.micron-7400-pro-m2-3.84tb']).toContain('3,84 ТБ');
  });

  it('relabels by id only the texts that are still the template\'s; a person\'s own labels and configurations stay', () => {
    const base = JSON.parse(JSON.stringify(EXAMPLE_SCENARIO)) as Scenario;
    const [conf0, conf1] = base.configurations;
    const drive0 = base.drives[0];
    if (conf0 === undefined || conf1 === undefined || drive0 === undefined) throw new Error('the template has changed');
    // The user's own configuration and drive, labelled like the template's but with ids of their own.
    base.configurations.push({ ...conf0, id: 'my-array', label: 'All HDD, RAID 10' });
    base.drives.push({ ...drive0, id: 'my-disk', label: 'SATA SSD 1.92 TB (1 DWPD)' });
    // A template configuration the user renamed.
    conf1.label = 'Our HDD + SSD cache';
    base.title = 'Our OLTP plan';
    const before = JSON.stringify(base);

    const fr = localizeTemplate(base, 'fr');
    expect(JSON.stringify(base)).toBe(before);
    expect(fr.title).toBe('Our OLTP plan');
    expect(fr.configurations.map((c) => c.label)).toEqual(['100 % HDD, RAID 10', 'Our HDD + SSD cache', 'HDD en RAID 10 + cache de lecture en RAM', '100 % flash NVMe, RAID 5', 'All HDD, RAID 10']);
    expect(fr.drives.map((x) => x.label)).toEqual([...expected('fr').drives, 'SATA SSD 1.92 TB (1 DWPD)']);

    // From one language to another and back: the template's texts follow, the rest stays.
    const ru = localizeTemplate(fr, 'ru');
    expect(ru.configurations[0]?.label).toBe('Только HDD, RAID 10');
    expect(ru.drives[1]?.label).toBe('Micron 7400 PRO M.2 3,84 ТБ NVMe (1 DWPD)');
    expect(localizeTemplate(ru, 'en')).toEqual(base);
    // A draft that is not a scenario yet is returned as it is.
    expect(localizeTemplate(null, 'fr')).toBe(null);
    expect(localizeTemplate({ configurations: 'x', drives: [null, 3] }, 'fr')).toEqual({ configurations: 'x', drives: [null, 3] });
  });
});
