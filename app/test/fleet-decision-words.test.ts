/**
 * A fleet report's decision block speaks of the fleet's hosts and their logs, never of "this
 * server" or "the log" (one server's words), in every language: the engine picks the fleet's keys
 * (engine/src/report/decision.ts, `fleet: true`), and the catalog's sentences for them name the hosts.
 */
import { describe, expect, it } from 'vitest';
import { planScenario } from '@cacheproof/engine/plan';
import { decisionBlock, type ReportTco } from '@cacheproof/engine/report';
import { scenarioFromMeasurement } from '../../engine/src/plan/measured.ts';
import { inputProvenance } from '../../engine/src/plan/provenance.ts';
import { LAB_SAMPLE_WORKLOAD } from '../../engine/src/plan/sample-workload.fixture.ts';
import { decisionTexts } from '../src/shared/i18n/decision-text.ts';
import { LANGS } from '../src/shared/i18n/types.ts';

const SERVER = { en: /\bserver\b/iu, fr: /\bserveur\b/iu, es: /\bservidor\b/iu, ru: /сервер/iu } as const;
const HOSTS = { en: /hosts?\b/u, fr: /hôtes?\b/u, es: /hosts?\b/u, ru: /хост/u } as const;

function tco(): ReportTco {
  const s = scenarioFromMeasurement(LAB_SAMPLE_WORKLOAD);
  const r = planScenario(s);
  if (!r.ok) throw new Error(r.error.message);
  return { scenarioFile: 'fleet.tco.json', scenario: s, plan: r.value, sources: inputProvenance(s, LAB_SAMPLE_WORKLOAD, true) };
}

describe('the fleet decision block', () => {
  for (const lang of LANGS) {
    it(`${lang}: the hosts and their logs, not a server, in a short and a week-long fleet`, () => {
      for (const windowSeconds of [3600, 7 * 86_400]) {
        const t = decisionTexts(decisionBlock({ kind: 'profile', windowSeconds, tco: tco(), fleet: true }), lang);
        const all = [...t.lines, ...t.caveats].join(' ');
        expect(all).not.toMatch(SERVER[lang]);
        expect(t.caveats[0]).toMatch(HOSTS[lang]);
        expect(t.lines.join(' ')).toMatch(HOSTS[lang]);
        // one server's profile keeps its own words: the fleet's are not shared with it
        const one = decisionTexts(decisionBlock({ kind: 'profile', windowSeconds, tco: tco() }), lang);
        expect(one.caveats[0]).not.toMatch(HOSTS[lang]);
      }
    });
  }
});
