/**
 * The trace budget (issue 38: computed here, not in the wizard): a block trace under a budget of
 * `budgetPerDayBytes` per 24 h stores at most the budget's share of the recorded time,
 * budget × seconds / 86 400 (docs/probe.md § Trace budget).
 * Example: 300 MB per 24 h over a plan of 49 h (176 400 s) stores at most 612.5 MB.
 */
export function traceBudgetMaxBytes(budgetPerDayBytes: number, seconds: number): number {
  return (budgetPerDayBytes * seconds) / 86_400;
}
