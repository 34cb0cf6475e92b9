/**
 * Adapter-switched runs say the adapter switched (#28): the wizard's review, the Live timeline
 * and phase bar, the dashboard timeline's marker and the report's method table name the adapter
 * when the plan's switch is by an adapter, and keep the manual words for a manual switch.
 */
import { describe, expect, it } from 'vitest';
import { switchedByAdapter, type CacheEngineSection, type EngineStatsReport } from '@cacheproof/engine';
import { defaultDraft, reviewSentence } from '../src/renderer/wizard/state.ts';
import { wizard, type WizardKey } from '../src/shared/i18n/wizard.ts';
import { live, stateText, switchDueText, waitSwitchText } from '../src/shared/i18n/live.ts';
import { dashboard } from '../src/shared/i18n/dashboard.ts';
import { rt } from '../src/shared/i18n/report.ts';
import { LANGS, translate, type Lang } from '../src/shared/i18n/types.ts';
import { switchMarkerLabel } from '../src/renderer/dashboard/engine-words.ts';
import { words } from '../src/renderer/dashboard/text.ts';
import type { AnalysisReport } from '@cacheproof/engine';

const MANUAL_WORDS: Record<Lang, RegExp> = { en: /ask you to switch|you switch|for you to switch/u, fr: /vous demandera|vous activez|de l’activation/u, es: /le pedirá|usted activa|a que active/u, ru: /попросит вас|вы включаете|пока вы/u };

function review(lang: Lang, engine: 'manual' | 'adapter', warmup: number): string {
  const d = defaultDraft();
  Object.assign(d.engine, engine === 'manual' ? { kind: 'manual' } : { kind: 'adapter', adapter: 'loop-dio', device: 'loop7' });
  const params = { devices: 'loop7', interval: '5 s', baseline: '1 h', warmup: '5 min', measure: '1 h' };
  return reviewSentence(d, warmup, params, (k: WizardKey, p?: Record<string, string>) => translate(wizard, lang, k, p));
}

describe('who switches the cache on', () => {
  for (const lang of LANGS) {
    it(`${lang}: the wizard's review and the Live screen name the adapter, or ask the person for a manual switch`, () => {
      for (const warmup of [0, 300]) {
        const byAdapter = review(lang, 'adapter', warmup);
        expect(byAdapter).toContain('loop-dio');
        expect(byAdapter).not.toMatch(MANUAL_WORDS[lang]);
        expect(review(lang, 'manual', warmup)).toMatch(MANUAL_WORDS[lang]);
      }

      const sw = { kind: 'adapter', adapter: 'loop-dio', device: 'loop7', config: null, restore: true } as const;
      for (const text of [switchDueText(lang, sw), waitSwitchText(lang, sw)]) {
        expect(text).toContain('loop-dio');
        expect(text).not.toMatch(MANUAL_WORDS[lang]);
      }
      expect(stateText(lang, 'waiting-switch', sw)).not.toMatch(/your|votre|su cambio|вашего/u);
      expect(stateText(lang, 'waiting-switch', { kind: 'manual' })).toMatch(/your|votre|su cambio|вашего/u);
      expect(stateText(lang, 'running', sw)).toBe(translate(live, lang, 'state.running'));
      expect(switchDueText(lang, { kind: 'manual' })).toMatch(MANUAL_WORDS[lang]);
      expect(waitSwitchText(lang, { kind: 'manual' })).toMatch(MANUAL_WORDS[lang]);

      expect(translate(dashboard, lang, 'phase.switchAdapter', { adapter: 'loop-dio' })).toContain('loop-dio');
      expect(rt('m.switchAdapter', lang, { time: '06:57:01', adapter: 'loop-dio' })).toMatch(/06:57:01.*loop-dio/u);
    });
  }

  it('the engine says which adapter switched: the one that ran an enable action, none for a manual switch', () => {
    const action = (a: string): EngineStatsReport['actions'][number] => ({ action: a } as EngineStatsReport['actions'][number]);
    const section = (actions: string[] | null): CacheEngineSection => ({
      comparison: actions === null ? null : ({ adapter: 'loop-dio', device: 'loop7', actions: actions.map(action) } as unknown as EngineStatsReport),
      reasons: {},
    });
    expect(switchedByAdapter(section(['enable', 'restore']))).toBe('loop-dio');
    expect(switchedByAdapter(section([]))).toBeNull();
    expect(switchedByAdapter(section(null))).toBeNull();
  });

  it('the dashboard timeline marks the switch with the adapter that made it, or plain "Switch"', () => {
    const engine = { reasons: {}, comparison: { adapter: 'loop-dio', device: 'loop7', actions: [{ action: 'enable', startMs: 0, ok: true, modeAfter: 'buffered' }] } };
    expect(switchMarkerLabel({ cacheEngine: engine } as unknown as AnalysisReport, words('en'))).toBe('Switch by loop-dio');
    expect(switchMarkerLabel({ cacheEngine: engine } as unknown as AnalysisReport, words('fr'))).toBe('Bascule par loop-dio');
    expect(switchMarkerLabel({ cacheEngine: { reasons: {}, comparison: null } } as unknown as AnalysisReport, words('en'))).toBe('Switch');
  });
});
