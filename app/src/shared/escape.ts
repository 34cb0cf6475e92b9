/**
 * HTML escaping for every text the report writes: translated strings, numbers and, above all,
 * what comes from the user or the capture (customer, labels, device names). Used for text
 * nodes and attribute values alike (quotes included), so `<img src=x onerror=alert(1)>` is shown
 * as those characters and never parsed as markup.
 */
const MAP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => MAP[c] as string);
}
