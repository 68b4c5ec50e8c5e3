// The pen a ruled grid is usually drawn with (pdf-grid-geometry.ts): the one drawing the most of
// its length, pens of one colour within 0.05 pt counted together, over grids of many segments.
import { describe, expect, it } from 'vitest';
import { gridGeometry, type Pen } from '../../wasm/read/pdf-grid-geometry.js';

const cell = { left: 0, row: 0, lines: [{ bbox: { x: 4, y: 4, w: 40, h: 12 }, font: { size: 10 } }] };
const usual = (all: (Pen & { length: number })[]) => gridGeometry([0, 100], [0, 20], [cell], { rows: [], all })?.rules?.usual;

describe('a grid’s usual pen', () => {
  it('is the pen drawing the most length, not the most segments', () => {
    const inner = Array.from({ length: 50 }, () => ({ weight: 0.25, color: '0,0,0', length: 4 }));
    expect(usual([...inner, { weight: 1, color: '0,0,0', length: 300 }])).toEqual({ weight: 1, color: '0,0,0' });
  });

  it('counts weights within 0.05 pt of each other as one pen, each colour apart', () => {
    const pens = [
      { weight: 0.5, color: '0,0,0', length: 40 },
      { weight: 0.54, color: '0,0,0', length: 40 },
      { weight: 0.58, color: '0,0,0', length: 40 },
      { weight: 0.54, color: '1,0,0', length: 100 },
    ];
    // 0.54 black gathers all three blacks (120); red alone draws 100; 0.5 and 0.58 draw 80 each.
    expect(usual(pens)).toEqual({ weight: 0.54, color: '0,0,0' });
  });

  it('is the first met among pens drawing as much', () => {
    expect(
      usual([
        { weight: 2, color: '0,0,0', length: 0.1 + 0.2 },
        { weight: 1, color: '0,0,0', length: 0.3 },
      ]),
    ).toEqual({ weight: 2, color: '0,0,0' });
  });

  it('is found over a hostile grid of a hundred thousand segments', () => {
    const pens = Array.from({ length: 100_000 }, (_, i) => ({ weight: 0.1 + (i % 997) * 0.2, color: `${i % 7},0,0`, length: 1 }));
    pens.push({ weight: 50, color: '9,9,9', length: 500 });
    expect(usual(pens)).toEqual({ weight: 50, color: '9,9,9' });
  });
});
