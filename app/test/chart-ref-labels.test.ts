/**
 * The reference-line labels of a chart (chart-ref-labels.ts) never overprint one another: lines
 * a few pixels apart get their labels above and below, and a third steps to the left.
 */
import { describe, expect, it } from 'vitest';
import { barLabels, boxesIntersect, refLabels } from '../src/shared/chart-ref-labels.ts';

function noOverlap(ls: ReturnType<typeof refLabels>): void {
  for (let i = 0; i < ls.length; i++) for (let j = i + 1; j < ls.length; j++) expect(boxesIntersect((ls[i] as (typeof ls)[0]).box, (ls[j] as (typeof ls)[0]).box), `${ls[i]?.text} / ${ls[j]?.text}`).toBe(false);
}

describe('refLabels', () => {
  it('a lone label sits above its line at the right', () => {
    expect(refLabels([{ y: 100, text: 'reads < 20 ms' }], 600)).toMatchObject([{ x: 600, y: 96 }]);
  });
  it('labels of close lines go above and below, a third to the left, none over another', () => {
    const two = refLabels([{ y: 100, text: 'reads < 20 ms' }, { y: 103, text: 'writes < 21 ms' }], 600);
    expect(two.map((l) => l.y)).toEqual([96, 117]);
    noOverlap(two);
    const three = refLabels([{ y: 100, text: 'reads < 20 ms' }, { y: 101, text: 'writes < 21 ms' }, { y: 102, text: 'transfers < 22 ms' }], 600);
    expect(three[2]?.x).toBeLessThan(600);
    noOverlap(three);
  });
});

describe('barLabels', () => {
  it('a rising bar is labelled above, a falling one below, and a label in the way of another moves further out', () => {
    const ls = barLabels([
      { x: 100, top: 120, bottom: 125, rises: true, text: '0.3' },
      { x: 110, top: 125, bottom: 130, rises: false, text: '-0.3' },
      { x: 104, top: 124, bottom: 125, rises: true, text: '0.01' },
    ]);
    expect(ls.map((l) => l.y)).toEqual([117, 139, 99]);
    noOverlap(ls);
  });
});
