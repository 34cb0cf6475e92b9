/**
 * The TCO bottom line (issue 28) on the bundled sample: the engine's copy of the sample's
 * measured workload is the sample's own, and `cacheproof tco`, the report's TCO section and its
 * short form print the same verdict sentence, with its sizing basis, in every language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { planScenario, type PlanVerdict } from '@cacheproof/engine/plan';
import { LAB_SAMPLE_WORKLOAD } from '../../engine/src/plan/sample-workload.fixture.ts';
import { shortForm, type Block, type ReportModel } from '@cacheproof/engine/report';
import { runCli } from '../src/cli/main.ts';
import { measuredWorkloadOfCapture, prefilledScenario } from '../src/host/plan.ts';
import { openCapture } from '../src/host/capture/reader.ts';
import { loadReport } from '../src/host/report/input.ts';
import { reportText, rt } from '../src/shared/i18n/report.ts';
import { LANGS } from '../src/shared/i18n/types.ts';
import { localizeTemplate } from '../src/shared/i18n/template.ts';
import { verdictText } from '../src/shared/i18n/verdict.ts';

const root = resolve(__dirname, '..', '..');
const sample = join(root, 'samples', 'lab', 'lab-sample.capture');
const dir = mkdtempSync(join(tmpdir(), 'cacheproof-tco-verdict-'));
const scenarioPath = join(dir, 'sample.tco.json');
let model: ReportModel;

beforeAll(async () => {
  const scenario = prefilledScenario(sample);
  writeFileSync(scenarioPath, `${JSON.stringify(scenario, null, 2)}\n`);
  const loaded = await loadReport({ capturePath: sample, cover: {}, scenario: { json: scenario, file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: Date.UTC(2026, 10, 27) });
  model = loaded.model;
  loaded.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The report's verdict paragraph of a section (key `tco.verdict`). */
function verdictBlock(m: ReportModel): Block | undefined {
  return m.sections.find((s) => s.id === 'tco')?.blocks.find((b) => b.type === 'paragraph' && b.text.key === 'tco.verdict');
}

describe('the TCO bottom line on the bundled sample', () => {
  it('the engine tests plan from the sample\'s own measured workload', () => {
    const m = measuredWorkloadOfCapture(openCapture(sample).data);
    if (!m.ok) throw new Error(m.message);
    expect(m.value).toEqual(LAB_SAMPLE_WORKLOAD);
  });

  it('the report model carries the engine\'s verdict: p95 and peak disagree on the prefilled scenario', () => {
    const b = verdictBlock(model);
    if (b?.type !== 'paragraph') throw new Error('no verdict paragraph in the TCO section');
    const v = b.text.p?.['text'];
    if (v?.k !== 'tcoVerdict') throw new Error('the verdict paragraph does not carry the verdict');
    const planned = planScenario(prefilledScenario(sample));
    if (!planned.ok) throw new Error(planned.error.message);
    expect(v.verdict).toEqual(planned.value.verdict);
    expect(v.verdict.basis).toBe('p95');
    expect([v.verdict.chosen.outcome, ...v.verdict.others.map((o) => `${o.basis}:${o.outcome}`)]).toEqual(['does-not-pay-back', 'peak:pays-back']);
    // the short form for managers opens on the same paragraph: the decision block's verdict (engine decision.ts)
    expect(shortForm(model).sections[0]?.blocks[0]).toEqual(b);
  });

  for (const lang of LANGS) {
    it(`${lang}: \`cacheproof tco\` prints the verdict sentence of the report on the same scenario file, word for word`, async () => {
      let out = '';
      let err = '';
      const code = await runCli(['tco', scenarioPath, '--lang', lang], { stdout: (s) => (out += s), stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      // the report model `cacheproof report --scenario FILE --lang` builds (the template's labels in the language)
      const loaded = await loadReport({ capturePath: sample, cover: {}, scenario: { json: localizeTemplate(JSON.parse(readFileSync(scenarioPath, 'utf8')), lang), file: 'sample.tco.json' }, appVersion: 'test', probeVersion: null, generatedMs: 0 });
      loaded.close();
      const b = verdictBlock(loaded.model);
      if (b?.type !== 'paragraph') throw new Error('no verdict paragraph');
      const inReport = reportText(b.text, lang);
      // the bottom line is the CLI's second line, right under the title
      expect(out.split('\n')[1]).toBe(inReport);
      const v = (b.text.p?.['text'] as { verdict: PlanVerdict }).verdict;
      expect(inReport).toBe(verdictText(v, lang));
      // the sentence names both bases, the decisive line item and the period
      const [verdictSentence, basisSentence] = v.messages;
      expect(verdictSentence?.key).toBe('noPayback');
      expect(basisSentence?.key).toBe('sizedWithAlt');
      expect(inReport).toContain('4');
      expect(inReport).not.toMatch(/348/u);
    });
  }

  it('en: the words a manager reads', () => {
    const b = verdictBlock(model);
    if (b?.type !== 'paragraph') throw new Error('no verdict paragraph');
    const text = reportText(b.text, 'en');
    expect(text).toMatch(/^The cache configuration “HDD RAID 10 \+ RAM read cache” does not pay back within 4 years against “All HDD, RAID 10”: it costs 736 USD \(1\.9%\) more, and the line item that decides it is “Cache licence” \(5,000 USD more\)\. /u);
    expect(text).toContain('Sized on the 95th percentile of the measured IOPS (1,054 IOPS)');
    expect(text).toContain('sized on the peak of the measured IOPS (1,863 IOPS), “HDD RAID 10 + RAM read cache” saves 7,317 USD (15.2%) and costs less from day one.');
  });

  it('`cacheproof report` without --scenario prints the prefilled scenario\'s TCO section, says it is the prefill, and carries the same verdict', async () => {
    for (const lang of ['en', 'ru'] as const) {
      const out = join(dir, `default-${lang}.html`);
      let err = '';
      const code = await runCli(['report', sample, '--format', 'html', '--out', out, '--lang', lang], { stdout: () => undefined, stderr: (s) => (err += s) });
      expect(err).toBe('');
      expect(code).toBe(0);
      const html = readFileSync(out, 'utf8').replace(/&#39;|&#x27;/gu, "'").replace(/&quot;/gu, '"');
      expect(html).toContain(rt('sec.tco', lang));
      expect(html).toContain(rt('tco.originPrefilled', lang));
      // the prefill's labels are in the report's language, as `tco --from-capture --lang` writes them
      const planned = planScenario(prefilledScenario(sample, lang));
      if (!planned.ok) throw new Error(planned.error.message);
      expect(html).toContain(verdictText(planned.value.verdict, lang));
    }
  });

  it('a scenario the Planner prints is said to be the edited one; a scenario file is not labelled', async () => {
    const scenario = prefilledScenario(sample);
    const load = async (origin?: 'planner' | 'prefilled'): Promise<ReportModel> => {
      const l = await loadReport({ capturePath: sample, cover: {}, scenario: { json: scenario, file: 'x.tco.json', ...(origin === undefined ? {} : { origin }) }, appVersion: 'test', probeVersion: null, generatedMs: 0 });
      l.close();
      return l.model;
    };
    const keys = (m: ReportModel): string[] => (m.sections.find((s) => s.id === 'tco')?.blocks ?? []).flatMap((b) => (b.type === 'paragraph' ? [b.text.key] : []));
    expect(keys(await load('planner'))).toContain('tco.originPlanner');
    expect(keys(await load())).not.toContain('tco.originPlanner');
    expect(keys(await load())).not.toContain('tco.originPrefilled');
    expect(keys(model)).not.toContain('tco.originPrefilled');
  });
});
