// The phase-shading plugin's label layout (app/src/renderer/draw/phase-shading.ts): labels of a short
// warm-up next to the switch and the measure window used to be drawn on top of each other.
import { describe, expect, it } from 'vitest';
import { LABEL_GAP, layoutLabels, type LabelRequest } from '../src/renderer/draw/phase-shading.ts';

function overlaps(reqs: LabelRequest[], placed: ReturnType<typeof layoutLabels>): boolean {
  const boxes = placed.flatMap((p, i) => (p ? [{ ...p, width: (reqs[i] as LabelRequest).width }] : []));
  return boxes.some((a, i) => boxes.some((b, j) => j > i && a.row === b.row && a.x < b.x + b.width + LABEL_GAP && b.x < a.x + a.width + LABEL_GAP));
}

describe('layoutLabels', () => {
  it('keeps well-separated labels on the first row at their own x', () => {
    expect(layoutLabels([{ x: 10, width: 100 }, { x: 400, width: 100 }], 0, 800, 3)).toEqual([{ x: 10, row: 0 }, { x: 400, row: 0 }]);
  });

  it('moves the labels of a short warm-up, the switch and the measure window to other rows instead of overlapping', () => {
    // A 49-hour axis 800 px wide: the 1-hour warm-up is ~16 px wide; switch at the same x.
    const reqs = [{ x: 2, width: 130 }, { x: 392, width: 120 }, { x: 392, width: 50 }, { x: 408, width: 125 }];
    const placed = layoutLabels(reqs, 0, 800, 3);
    expect(placed.every((p) => p !== null)).toBe(true);
    expect(overlaps(reqs, placed)).toBe(false);
    expect(placed.map((p) => p?.row)).toEqual([0, 0, 1, 2]);
  });

  it('slides a label right when every row is taken at its x, and leaves it out when nothing fits', () => {
    const reqs = [{ x: 0, width: 120 }, { x: 40, width: 80 }, { x: 60, width: 90 }];
    expect(layoutLabels(reqs, 0, 800, 2)).toEqual([{ x: 0, row: 0 }, { x: 40, row: 1 }, { x: 126, row: 0 }]);
    const tight = [{ x: 0, width: 90 }, { x: 10, width: 90 }, { x: 20, width: 90 }];
    const placed = layoutLabels(tight, 0, 150, 2);
    expect(placed[2]).toBeNull();
    expect(overlaps(tight, placed)).toBe(false);
  });

  it('keeps a label inside the plot at the right edge and drops one wider than the plot', () => {
    expect(layoutLabels([{ x: 780, width: 100 }], 0, 800, 1)).toEqual([{ x: 700, row: 0 }]);
    expect(layoutLabels([{ x: 0, width: 900 }], 0, 800, 3)).toEqual([null]);
  });
});
