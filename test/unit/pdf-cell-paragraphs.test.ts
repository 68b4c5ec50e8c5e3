// A ruled table's cell as its paragraphs and lists (pdf-cell-paragraphs.ts), on a cell's lines as
// the grid gives them: a cell 200 points wide, 10-point text at a 12-point pitch, 5 points a
// character.

import type { BlockContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { cellBlocks, type CellLine } from '../../wasm/read/pdf-cell-paragraphs.js';
import { plainText } from '../../wasm/read/blocks.js';

const RIGHT = 200;

/** Lines down the cell from its top, each as wide as its text (5 points a character), at `left` (default 0). */
function lines(...texts: (string | { text: string; left?: number; gap?: number })[]): CellLine[] {
  let y = 0;
  return texts.map((entry) => {
    const { text, left = 0, gap = 0 } = typeof entry === 'string' ? { text: entry } : entry;
    y += 12 + gap;
    return { text, left, right: left + text.length * 5, size: 10, y };
  });
}

/** Blocks as plain data: a paragraph its text, a list `{ ordered, items }`, an item its blocks. */
const shape = (blocks: readonly BlockContent[] | undefined): unknown[] | undefined =>
  blocks?.map((block) =>
    block.type === 'list' ? { ordered: block.ordered === true, items: block.children.map((item) => shape(item.children as BlockContent[])) } : plainText(block),
  );

describe("a ruled table's cell as paragraphs and lists (pdf-cell-paragraphs.ts)", () => {
  it('leaves a paragraph whose lines run to the edge one paragraph (undefined: as read has it)', () => {
    expect(cellBlocks(lines('This paragraph runs to the cell edge of it and', 'wraps onto the next line.'), 236)).toBeUndefined();
  });

  it("leaves a mark before a cell's only item, and a typed star before a note, as the cell's text (undefined: as read has it)", () => {
    expect(cellBlocks(lines('◦ Only one item here', '① and its note'), RIGHT)).toBeUndefined();
    expect(cellBlocks(lines('◦ First (17)', '* six more not counted'), RIGHT)).toBeUndefined();
  });

  it('keeps a run of items numbered 1, 2, 3 a numbered list, and numbers that do not count from 1 as text', () => {
    expect(shape(cellBlocks(lines('Steps:', { text: '1. Open', left: 10 }, { text: '2. Close', left: 10 }), RIGHT))).toEqual([
      'Steps:',
      { ordered: true, items: [['Open'], ['Close']] },
    ]);
    expect(shape(cellBlocks(lines('2. Open', '3. Close'), RIGHT))).toEqual(['2. Open', '3. Close']);
    expect(shape(cellBlocks(lines('a. Open', 'b. Close'), RIGHT))).toEqual(['a. Open', 'b. Close']);
  });

  it("nests a bullet indented past the one above, joins an item's wrapped line to it, and notes space above a paragraph", () => {
    const blocks = cellBlocks(
      lines('\uF0B7 Fruit that runs on to the end of the cell,', { text: 'wrapped', left: 10 }, { text: '• Apple', left: 20 }, { text: 'Done.', gap: 12 }),
      230,
    );
    expect(shape(blocks)).toEqual([
      { ordered: false, items: [['Fruit that runs on to the end of the cell, wrapped', { ordered: false, items: [['Apple']] }]] },
      'Done.',
    ]);
    expect(blocks?.at(-1)?.data?.pdfSpaceAbove).toBe(12);
  });
});
