// Cells outlined one by one (wasm/read/pdf-cell-outlines.ts): boxes of one cell a few points
// apart, as Chrome prints a table with `border-collapse: separate`, laid out by hand, met into one
// grid that pdf-grid.ts reads cell by cell; boxes further apart, or too few, stay as they were.

import { describe, expect, it } from 'vitest';
import { outlinedCells } from '../../wasm/read/pdf-cell-outlines.js';
import { mergeRulings, rulingTables, type GridLine, type Ruling } from '../../wasm/read/pdf-grid.js';
import { renderedBlocks } from '../../wasm/read/render.js';

const TEXTS = [
  ['Variety', 'Yield'],
  ['Alpha', '7.2'],
  ['Beta', '6.8'],
];

/** Each cell's box (80 × 20 pt), `spacing` points from its neighbours, and its text inside. */
function outlined(spacing: number): { rulings: Ruling[]; lines: GridLine[] } {
  const rulings: Ruling[] = [];
  const lines: GridLine[] = [];
  TEXTS.forEach((row, r) =>
    row.forEach((text, c) => {
      const [left, top] = [50 + c * (80 + spacing), 100 + r * (20 + spacing)];
      const [right, bottom] = [left + 80, top + 20];
      rulings.push({ x0: left, y0: top, x1: right, y1: top }, { x0: left, y0: bottom, x1: right, y1: bottom });
      rulings.push({ x0: left, y0: top, x1: left, y1: bottom }, { x0: right, y0: top, x1: right, y1: bottom });
      lines.push({ bbox: { x: left + 2, y: top + 4, w: text.length * 5, h: 12 }, font: { size: 10 }, y: top + 14, text });
    }),
  );
  return { rulings, lines };
}

const tablesOf = ({ rulings, lines }: { rulings: Ruling[]; lines: GridLine[] }) =>
  rulingTables(outlinedCells(mergeRulings(rulings)), lines).map((t) => [...renderedBlocks([t.table])].join(''));

describe('outlinedCells', () => {
  it('meets cells outlined 3.75 pt apart (4 px spacing and a 1 px border) into one grid, read cell by cell', () => {
    expect(tablesOf(outlined(3.75))).toEqual(['| Variety | Yield |\n| - | - |\n| Alpha | 7.2 |\n| Beta | 6.8 |']);
  });

  it('meets them 2.25 pt apart too (HTML’s default 2 px)', () => {
    expect(tablesOf(outlined(2.25))).toEqual(['| Variety | Yield |\n| - | - |\n| Alpha | 7.2 |\n| Beta | 6.8 |']);
  });

  it('leaves boxes further apart, and fewer than four, as they were: no table', () => {
    expect(tablesOf(outlined(12))).toEqual([]);
    const two = outlined(3.75);
    expect(tablesOf({ rulings: two.rulings.slice(0, 8), lines: two.lines.slice(0, 2) })).toEqual([]);
  });
});
