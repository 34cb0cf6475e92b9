/**
 * The report's font, shipped with the app so a report looks the same on Linux, Windows and
 * macOS whatever fonts the machine has: DejaVu Sans regular and bold, from the npm package
 * `@fontsource/dejavu-sans` (Bitstream Vera licence with public-domain DejaVu changes: free to
 * embed and redistribute; the package's LICENSE file). It covers every character the reports
 * print: Latin, Cyrillic, Greek (Δ, Σ), arrows, ≈ ≥ −, superscripts and the narrow no-break
 * space French numbers use. The UI uses the same files (scripts/build.mjs copies them into
 * `app/dist/renderer/fonts/`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EmbeddedFont } from './html.ts';

/** The family name the report's CSS asks for first, and the name a PDF's font list shows (`DejaVuSans`). */
export const REPORT_FONT_FAMILY = 'DejaVu Sans';

declare const __filename: string;

/** The folder holding the shipped font files (`…/@fontsource/dejavu-sans/files`). */
export function fontDir(): string {
  const pkg = createRequire(__filename).resolve('@fontsource/dejavu-sans/package.json');
  return join(dirname(pkg), 'files');
}

/** The shipped font files, by weight. */
export const FONT_FILES = { 400: 'dejavu-sans-latin-400-normal.woff2', 700: 'dejavu-sans-latin-700-normal.woff2' } as const;

let cached: EmbeddedFont[] | null = null;

/**
 * DejaVu Sans regular and bold as base64 WOFF2, read once per process. Throws when the package
 * is missing (a broken install: `npm install` restores it), never returns a report without its font.
 */
export function reportFonts(): EmbeddedFont[] {
  if (cached !== null) return cached;
  const dir = fontDir();
  cached = ([400, 700] as const).map((weight) => ({ family: REPORT_FONT_FAMILY, weight, base64: readFileSync(join(dir, FONT_FILES[weight])).toString('base64') }));
  return cached;
}
