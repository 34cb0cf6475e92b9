/**
 * Fonts embedded in the HTML report so it looks the same offline on any machine: Liberation
 * Sans (SIL Open Font License; metric-compatible with Arial; Latin, Greek and Cyrillic), read
 * from the system's font folders. When it is not installed the report falls back to the
 * reader's Arial/Helvetica/sans-serif and still renders.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { EmbeddedFont } from './html.ts';

const DIRS = ['/usr/share/fonts/truetype/liberation', '/usr/share/fonts/truetype/liberation2', '/usr/share/fonts/liberation-sans', '/usr/share/fonts/liberation'];

let cached: EmbeddedFont[] | null = null;

/** Liberation Sans regular and bold as base64, or [] when not found. Read once per process. */
export function reportFonts(): EmbeddedFont[] {
  if (cached !== null) return cached;
  const out: EmbeddedFont[] = [];
  for (const [file, weight] of [['LiberationSans-Regular.ttf', 400], ['LiberationSans-Bold.ttf', 700]] as const) {
    const dir = DIRS.find((d) => existsSync(`${d}/${file}`));
    if (dir !== undefined) out.push({ family: 'Liberation Sans', weight, base64: readFileSync(`${dir}/${file}`).toString('base64') });
  }
  cached = out;
  return out;
}
