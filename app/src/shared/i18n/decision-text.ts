/**
 * The decision block (engine/src/report/decision.ts) in a language: its sentences, the caveats'
 * heading and the three caveats, each the `report` catalog's words for the engine's keys. Every
 * format (PDF and HTML through the report section, PPTX, XLSX, the dashboard, `cacheproof
 * analyze`) prints these strings, so the words are equal across formats.
 */
import { decisionLines, type DecisionBlock } from '@cacheproof/engine/report';
import { reportText, rt } from './report.ts';
import type { Lang } from './types.ts';

export interface DecisionTexts {
  title: string;
  lines: string[];
  caveatsTitle: string;
  caveats: string[];
}

export function decisionTexts(d: DecisionBlock, lang: Lang): DecisionTexts {
  return {
    title: rt('sec.decision', lang),
    lines: decisionLines(d).map((x) => reportText(x, lang)),
    caveatsTitle: rt('dec.caveats', lang),
    caveats: d.caveats.map((x) => reportText(x, lang)),
  };
}
