// A borderless table whose columns stand about as far apart as the cell gap (CELL_GAP, 1.2 em):
// LaTeX's tabular leaves 2 × \tabcolsep (12 pt at 10 pt) between a column of numbers set flush
// right and the next column's text, so a row's cells read as one where the gap is not wider. The
// borderless detector (pdf-borderless.ts) keeps the column that every row leaves free; the reading
// by cell gaps (pdf-table-runs.ts), in fewer columns, no longer wins over it for covering the run.

import { describe, expect, it } from 'vitest';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { renderedBlocks } from '../../wasm/read/render.js';

/** A line of `text` at x on the baseline y, 5 pt a character (size 10). */
const line = (text: string, x: number, y: number): StextLine => ({
  bbox: { x, y: y - 8, w: text.length * 5, h: 12 },
  font: { size: 10, name: 'LMRoman10' },
  x,
  y,
  text,
});

const ROWS = [
  ['Variety', 'Plot', 'Yield', 'Remarks'],
  ['Alpha', 'North', '7.2', 'Early sowing'],
  ['Beta', 'South', '6.8', 'Late sowing'],
  ['Gamma', 'East', '8.1', 'Best result'],
];

/** The table's rows, the third column's text flush right at 250 and the fourth starting `gap` points after it. */
function markdownOf(gap: number): string {
  const blocks = ROWS.map((cells, r) => {
    const y = 100 + r * 14;
    const [a, b, c, d] = cells as [string, string, string, string];
    return [line(a, 50, y), line(b, 120, y), line(c, 250 - c.length * 5, y), line(d, 250 + gap, y)];
  });
  const rows = pageRows({ width: 600, height: 800, blocks: blocks.map((lines) => ({ type: 'text', lines })) } satisfies StextPage);
  const tally = new StyleTally();
  tally.addPage(rows, 1);
  return [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
}

const EXPECTED = [
  '| Variety | Plot | Yield | Remarks |',
  '| - | - | - | - |',
  '| Alpha | North | 7.2 | Early sowing |',
  '| Beta | South | 6.8 | Late sowing |',
  '| Gamma | East | 8.1 | Best result |',
].join('\n');

describe('borderless columns as close as the cell gap', () => {
  it('keeps a column 12 pt (1.2 em) right of a column of numbers set flush right its own', () => {
    expect(markdownOf(12)).toBe(EXPECTED);
  });

  it('keeps one 8 pt right of it its own too', () => {
    expect(markdownOf(8)).toBe(EXPECTED);
  });

  it('reads columns further apart than the cell gap as before', () => {
    expect(markdownOf(30)).toBe(EXPECTED);
  });
});
