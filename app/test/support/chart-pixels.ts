/**
 * Pixel checks of the report's charts as they are printed (PDF) or as LibreOffice renders the
 * PowerPoint deck: pages rendered by poppler's pdftoppm as PPM, the plots found from their shaded
 * windows (the baseline's and the measure's tints in the same rows), each series' colour counted
 * inside a window, and the words of a page (pdftotext -bbox) checked for overprinting.
 * Needs poppler-utils.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** An RGB image (8 bits per channel, row-major). */
export interface Rgb { w: number; h: number; px: Buffer }
export type Colour = readonly [number, number, number];
/** A box of pixels, left/top inclusive, right/bottom exclusive. */
export interface Box { left: number; right: number; top: number; bottom: number }

/** A binary PPM (P6, 8-bit) as pdftoppm writes it. */
export function readPpm(file: string): Rgb {
  const buf = readFileSync(file);
  const tokens: string[] = [];
  let i = 0;
  while (tokens.length < 4) {
    while (/\s/u.test(String.fromCharCode(buf[i] ?? 32))) i++;
    let t = '';
    while (!/\s/u.test(String.fromCharCode(buf[i] ?? 32))) t += String.fromCharCode(buf[i++] ?? 32);
    tokens.push(t);
  }
  if (tokens[0] !== 'P6' || tokens[3] !== '255') throw new Error(`${file}: not an 8-bit P6 PPM`);
  return { w: Number(tokens[1]), h: Number(tokens[2]), px: buf.subarray(i + 1) };
}

/** Every page of `pdf` at `dpi`, in order (written under `work`, emptied first). */
export function renderPages(pdf: string, work: string, dpi: number): Rgb[] {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('pdftoppm', ['-r', String(dpi), pdf, join(work, 'p')]);
  return readdirSync(work).filter((f) => f.endsWith('.ppm')).sort().map((f) => readPpm(join(work, f)));
}

/** `#rrggbb` or `rgba(r, g, b, a)` (blended over white) as RGB. */
export function colourOf(css: string): Colour {
  const m = /rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\s*\)/u.exec(css);
  if (m !== null) {
    const a = m[4] === undefined ? 1 : Number(m[4]);
    const c = [m[1], m[2], m[3]].map((v) => Math.round(Number(v) * a + 255 * (1 - a)));
    return [c[0] as number, c[1] as number, c[2] as number];
  }
  const c = [1, 3, 5].map((k) => parseInt(css.slice(k, k + 2), 16));
  return [c[0] as number, c[1] as number, c[2] as number];
}

/** Whether the pixel at (x, y) is `c` (the sum of the channels' differences under `tol`). */
export function isColour(img: Rgb, x: number, y: number, c: Colour, tol: number): boolean {
  const k = (y * img.w + x) * 3;
  return Math.abs((img.px[k] ?? 0) - c[0]) + Math.abs((img.px[k + 1] ?? 0) - c[1]) + Math.abs((img.px[k + 2] ?? 0) - c[2]) < tol;
}

/** How many pixels of colour `c` a box holds. */
export function countColour(img: Rgb, box: Box, c: Colour, tol = 60): number {
  let n = 0;
  for (let y = Math.max(0, box.top); y < Math.min(img.h, box.bottom); y++) {
    for (let x = Math.max(0, Math.round(box.left)); x < Math.min(img.w, Math.round(box.right)); x++) if (isColour(img, x, y, c, tol)) n++;
  }
  return n;
}

/** A printed time chart's plot: its rows and the columns of its baseline and measure windows. */
export interface TintPlot { page: number; box: Box; baseline: [number, number]; measure: [number, number] }

/** The columns of row `y` in runs of at least 3 pixels of tint `c` (a lone pixel of that grey is an anti-aliased edge, not a window). */
function tintRuns(img: Rgb, y: number, c: Colour): number[] {
  const out: number[] = [];
  let run: number[] = [];
  for (let x = 0; x <= img.w; x++) {
    if (x < img.w && isColour(img, x, y, c, 5)) run.push(x);
    else {
      if (run.length >= 3) out.push(...run);
      run = [];
    }
  }
  return out;
}

/**
 * The time charts' plots on `pages`, in reading order: runs of at least 30 rows holding both the
 * baseline's and the measure window's tints (rows where a grid line or a series covers a narrow
 * window's tint, up to 14 in a row, do not end a run; charts are further apart).
 */
export function tintPlots(pages: readonly Rgb[], baseline: Colour, measure: Colour): TintPlot[] {
  const out: TintPlot[] = [];
  pages.forEach((img, page) => {
    let run: { top: number; last: number; b: [number, number]; m: [number, number] } | null = null;
    const close = (): void => {
      if (run !== null && run.last - run.top >= 30) out.push({ page, box: { left: Math.min(run.b[0], run.m[0]), right: Math.max(run.b[1], run.m[1]) + 1, top: run.top, bottom: run.last + 1 }, baseline: run.b, measure: run.m });
      run = null;
    };
    for (let y = 0; y < img.h; y++) {
      const b = tintRuns(img, y, baseline);
      const m = tintRuns(img, y, measure);
      if (b.length >= 1 && m.length >= 1) {
        const r: { top: number; last: number; b: [number, number]; m: [number, number] } = run ?? { top: y, last: y, b: [Infinity, -Infinity], m: [Infinity, -Infinity] };
        r.last = y;
        r.b = [Math.min(r.b[0], b[0] as number), Math.max(r.b[1], b[b.length - 1] as number)];
        r.m = [Math.min(r.m[0], m[0] as number), Math.max(r.m[1], m[m.length - 1] as number)];
        run = r;
      } else if (run !== null && y - run.last > 14) close();
    }
    close();
  });
  return out;
}

/** A word of a page as pdftotext -bbox places it (points). */
export interface Word { page: number; text: string; box: Box }

/** Every word of every page of `pdf`, with its box. */
export function pdfWords(pdf: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const out: Word[] = [];
  let page = -1;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/u.exec(line);
    if (m !== null) out.push({ page, text: m[5] as string, box: { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) } });
  }
  return out;
}

/**
 * Pairs of words printed over each other: boxes sharing more than `minOverlap` points each way
 * (words on one line touch, and a line's descenders reach the next line's ascenders: not overprinting).
 */
export function overprinted(words: readonly Word[], minOverlap = 1.5): [Word, Word][] {
  const out: [Word, Word][] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i] as Word;
    for (let j = i + 1; j < words.length; j++) {
      const b = words[j] as Word;
      if (a.page !== b.page) continue;
      const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      const hMin = Math.min(a.box.bottom - a.box.top, b.box.bottom - b.box.top);
      if (w > minOverlap && h > Math.max(minOverlap, hMin * 0.5)) out.push([a, b]);
    }
  }
  return out;
}

/**
 * The plot of a chart LibreOffice drew: the rows from its top grid line to its axis line (the
 * longest runs of the grid's grey, over 40 % of the page's width), and the columns they span.
 */
export function gridPlot(img: Rgb, grid: Colour = [136, 136, 136]): Box | null {
  const rows: { y: number; left: number; right: number }[] = [];
  for (let y = 0; y < img.h; y++) {
    const xs: number[] = [];
    for (let x = 0; x < img.w; x++) if (isColour(img, x, y, grid, 8)) xs.push(x);
    if (xs.length > img.w * 0.4) rows.push({ y, left: xs[0] as number, right: xs[xs.length - 1] as number });
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  return first === undefined || last === undefined ? null : { left: first.left, right: first.right + 1, top: first.y, bottom: last.y + 1 };
}
