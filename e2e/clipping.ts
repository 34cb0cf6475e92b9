/**
 * "Nothing is cut", as the e2e specs check it on a screen at a given window size.
 *
 * `clippedText` lists the elements under a selector whose text a person cannot read whole: a box
 * with `text-overflow: ellipsis` or hidden overflow whose text is wider than it, text that spills
 * out of its own box, a select or text input whose value is wider than its field, and the page
 * itself when it scrolls sideways. A table that scrolls inside its own box (overflow auto/scroll)
 * is not cut: every cell of it can be scrolled to.
 *
 * `cutAxisTitles` lists the Chart.js axis titles (exposed by the renderer's axis-titles.ts as
 * `data-axes` on each canvas) longer than their axis: Chart.js neither wraps nor shortens them.
 */
import { expect, type Page } from '@playwright/test';

/** One line per element whose text is cut under `selector` (empty when none is). */
export async function clippedText(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    const name = (e: Element): string => {
      const tid = e.closest('[data-testid]')?.getAttribute('data-testid');
      return `${e.tagName.toLowerCase()}${e.id === '' ? '' : `#${e.id}`}${tid === undefined || tid === null ? '' : ` in ${tid}`}`;
    };
    const measure = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const textWidth = (text: string, cs: CSSStyleDeclaration): number => {
      measure.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return measure.measureText(text).width;
    };
    const shown = (e: Element): boolean => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const ownText = (e: Element): string => [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) {
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px of content in ${document.documentElement.clientWidth} px`);
    }
    for (const root of document.querySelectorAll(sel)) {
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (!(e instanceof HTMLElement) || !shown(e) || e.closest('[hidden]') !== null) continue;
        const cs = getComputedStyle(e);
        // text kept for screen readers only (visually hidden on purpose)
        if (cs.clipPath !== 'none' || e.getBoundingClientRect().width <= 1) continue;
        if (e instanceof HTMLSelectElement || (e instanceof HTMLInputElement && ['text', 'search', ''].includes(e.type))) {
          const text = e instanceof HTMLSelectElement ? (e.selectedOptions[0]?.text ?? '') : e.value;
          // a select keeps room for its arrow (about 20 px in Chromium)
          const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (e instanceof HTMLSelectElement ? 20 : 0);
          const w = textWidth(text, cs);
          if (text !== '' && w > room + 1) out.push(`${name(e)}: "${text}" needs ${Math.ceil(w)} px, has ${Math.floor(room)} px`);
          continue;
        }
        if (e instanceof HTMLCanvasElement || (e.textContent ?? '').trim() === '') continue;
        const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
        const over = e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
        if (cs.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1) {
          out.push(`${name(e)}: ellipsis on "${(e.textContent ?? '').trim().slice(0, 60)}"`);
        } else if (!scrolls && cs.overflowX !== 'visible' && over && e.clientWidth > 0) {
          out.push(`${name(e)}: "${(e.textContent ?? '').trim().slice(0, 60)}" cut (${e.scrollWidth}×${e.scrollHeight} px in ${e.clientWidth}×${e.clientHeight} px)`);
        } else if (cs.overflowX === 'visible' && ownText(e) !== '' && cs.display !== 'inline') {
          // the text's own extent against the box: text that spills out overlaps what is beside it
          const range = document.createRange();
          range.selectNodeContents(e);
          const text = range.getBoundingClientRect();
          const box = e.getBoundingClientRect();
          if (text.right > box.right + 1 || text.left < box.left - 1) out.push(`${name(e)}: "${ownText(e).slice(0, 60)}" spills out of its box (${Math.ceil(text.width)} px in ${Math.floor(box.width)} px)`);
        }
      }
    }
    return out;
  }, selector);
}

/** One line per axis title, on the canvases under `selector`, longer than its axis (empty when none is); waits until each chart has drawn. */
export async function cutAxisTitles(page: Page, selector: string): Promise<{ cut: string[]; titles: number; charts: number }> {
  const canvases = page.locator(`${selector} canvas`);
  await expect.poll(async () => canvases.evaluateAll((cs) => cs.length > 0 && cs.every((c) => c.hasAttribute('data-axes'))), { timeout: 30_000 }).toBe(true);
  return canvases.evaluateAll((cs) => {
    const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const cut: string[] = [];
    let titles = 0;
    for (const c of cs) {
      const chart = c.closest('[data-testid]')?.getAttribute('data-testid') ?? 'a chart';
      for (const t of JSON.parse(c.getAttribute('data-axes') ?? '[]') as { scale: string; lines: string[]; font: string; room: number }[]) {
        ctx.font = t.font;
        for (const line of t.lines) {
          titles++;
          const w = ctx.measureText(line).width;
          if (w > t.room) cut.push(`${chart} ${t.scale}: "${line}" is ${Math.ceil(w)} px on an axis of ${Math.floor(t.room)} px`);
        }
      }
    }
    return { cut, titles, charts: cs.length };
  });
}
