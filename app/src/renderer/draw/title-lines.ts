/** Text layout of a chart's axis titles (pixel room, not figures). */

/** A title of words as two lines of about the same length (split at the space nearest its middle), or null when it is one word. */
export function twoLines(text: string): [string, string] | null {
  const spaces = [...text.matchAll(/ /gu)].map((m) => m.index);
  if (spaces.length === 0) return null;
  const at = spaces.reduce((best, i) => (Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2) ? i : best));
  return [text.slice(0, at), text.slice(at + 1)];
}
