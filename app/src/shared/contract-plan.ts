/**
 * The Planner's part of the contract (app/src/shared/contract.ts re-exports it): the scenario
 * prefilled from an analysis, the drive catalog, the scenario saved with a capture, and where a
 * scenario's inputs come from against the capture's measurement (docs/ipc.md).
 */
import { z } from 'zod';

/**
 * A TCO scenario as the host prefills it (docs/tco-scenario.md). Kept loose here: a scenario
 * prefilled from an idle capture may not be valid yet (0 IOPS), and the renderer checks every
 * edit with the engine's `parseScenario` (one implementation of the rules).
 */
export const ScenarioDraft = z.looseObject({ format: z.literal('cacheproof-tco'), version: z.number() });
export type ScenarioDraft = z.infer<typeof ScenarioDraft>;

const AnalysisId = z.string().min(1).max(64);

/** engine `ProvenanceRow` (plan/provenance.ts): one input of a plan and where it comes from. */
export const PlanSource = z.object({
  input: z.string(),
  subject: z.string().nullable(),
  value: z.number().nullable(),
  basis: z.string().optional(),
  source: z.enum(['measured', 'devices', 'predicted', 'assumed', 'typed', 'default', 'example', 'quoted', 'notRecorded']),
});
export type PlanSource = z.infer<typeof PlanSource>;

export const PLAN_CHANNELS = {
  /** The scenario `cacheproof tco --from-capture [--lang]` writes, for an analysis opened in this session; template labels in `lang` (default en). */
  'plan.fromAnalysis': {
    request: z.object({ analysisId: AnalysisId, lang: z.enum(['en', 'fr', 'es', 'ru']).optional() }).strict(),
    reply: z.object({ scenario: ScenarioDraft }),
  },
  /** The drive catalog shipped with the app (samples/catalog/drives.json, docs/tco-scenario.md "Drive catalog"), for the Planner's drive picker; the renderer checks it with the engine's parseCatalog. */
  'plan.catalog': { request: z.object({}).strict(), reply: z.object({ catalog: z.looseObject({ format: z.literal('cacheproof-drive-catalog') }) }) },
  /** The scenario saved with an analysis's capture (the Planner's last valid edit), or null when none is saved. */
  'plan.saved': {
    request: z.object({ analysisId: AnalysisId }).strict(),
    reply: z.object({ scenario: ScenarioDraft.nullable() }),
  },
  /** Saves (or, with null, forgets) the edited scenario of an analysis's capture in the data folder; an invalid scenario is `plan-scenario-invalid`. */
  'plan.save': {
    request: z.object({ analysisId: AnalysisId, scenario: ScenarioDraft.nullable() }).strict(),
    reply: z.object({ saved: z.boolean() }),
  },
  /**
   * Where each input of a scenario comes from against this analysis's capture (engine
   * `inputProvenance` with the session's measured workload and devices: measured, assumed,
   * example, not recorded…), as the report's "Where the inputs come from" and its decision block
   * name them; an invalid scenario is `plan-scenario-invalid`.
   */
  'plan.sources': {
    request: z.object({ analysisId: AnalysisId, scenario: ScenarioDraft }).strict(),
    reply: z.object({ sources: z.array(PlanSource) }),
  },
} as const;
