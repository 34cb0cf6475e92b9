/**
 * The block trace's part of the contract (app/src/shared/contract.ts re-exports it): a run plan's
 * trace size budget and the trace figures of a run's status (docs/probe.md § Trace budget).
 */
import { z } from 'zod';

/**
 * With the plan's trace: its size budget in bytes of stored trace per 24 h of recording
 * (`record --trace --trace-budget`: the probe lowers the share of block addresses it keeps so that
 * the trace fits), or null to keep every request (`--trace-sample 1`). Absent: the probe's default
 * budget (300 MB per 24 h).
 */
export const TraceBudgetBytes = z.number().int().min(64).max(1e15).nullable().optional();

/**
 * A run's block trace so far: requests recorded, events the kernel dropped; the share of block
 * addresses kept now, the budget per 24 h or null, and the stored trace's bytes by the probe's
 * model, each null from a probe that did not report it.
 */
export const RunTrace = z.object({
  requests: z.number(), lost: z.number(),
  sampleRate: z.number().nullable().optional(), budgetBytes: z.number().nullable().optional(), storedBytes: z.number().nullable().optional(),
});
export type RunTrace = z.infer<typeof RunTrace>;
