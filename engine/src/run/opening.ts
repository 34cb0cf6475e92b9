/**
 * Where a capture's opening stands (issue 38: computed here, not on Home): reading the rows is
 * most of the time, so it fills the bar to 80 %, analysing the devices the remaining 20 %.
 * Example: reading, 250 of 1000 rows: a quarter read, the bar at 20, 25 % said.
 */
export function openingProgress(stage: string, done: number, total: number): { barValue: number; readPercent: number } {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  return { barValue: Math.round(stage === 'read' ? 80 * fraction : 80 + 20 * fraction), readPercent: 100 * fraction };
}

/** The span from the earliest start to the latest end (epoch ms), or nulls when there is none. */
export function timeSpan(startsMs: readonly number[], endsMs: readonly number[]): { startMs: number | null; endMs: number | null } {
  if (startsMs.length === 0 || endsMs.length === 0) return { startMs: null, endMs: null };
  return { startMs: Math.min(...startsMs), endMs: Math.max(...endsMs) };
}
