// A table set right to left (pdf-rtl-tables.ts): the detectors read its columns from the left; a
// table whose text is mostly right-to-left letters is turned back to read from the right, spans
// and short rows kept in their columns; any other table is left as it is. Which way a table is set
// is told by where it stands: at the page's right margin (Chrome), or off it (LibreOffice's print
// of a pandoc table, first column at the left).

import type { RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { table, type CellSource } from '../../wasm/read/blocks.js';
import type { Row } from '../../wasm/read/pdf-page-model.js';
import { fromTheRight, inReadingOrder } from '../../wasm/read/pdf-rtl-tables.js';
import { blocksToHtml, renderedBlocks } from '../../wasm/read/render.js';

const cell = (text: string, span: Partial<CellSource> = {}): CellSource => ({
  blocks: text ? [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] : [],
  colSpan: 1,
  rowSpan: 1,
  ...span,
});
const markdown = (block: RootContent | undefined) => (block ? [...renderedBlocks([block])].join('') : undefined);

describe('right-to-left tables (pdf-rtl-tables.ts)', () => {
  it('reads a Hebrew table’s columns from the right, a short row’s cells kept in their columns', () => {
    // As the detectors read Chrome's print of it: the hours (the second column) at the left.
    const found = table(
      [
        [cell('שעות'), cell('יום')],
        [cell('09:00–19:00'), cell('ראשון עד חמישי')],
        [cell('סגור'), cell('שבת')],
      ],
      blocksToHtml,
    );
    expect(markdown(fromTheRight(found))).toBe('| יום | שעות |\n| - | - |\n| ראשון עד חמישי | 09:00–19:00 |\n| שבת | סגור |');
    const short = table(
      [
        [cell('ב'), cell('א'), cell('הערה')],
        [cell('ד'), cell('ג')],
      ],
      blocksToHtml,
    );
    expect(markdown(fromTheRight(short))).toBe('| הערה | א | ב |\n| - | - | - |\n| | ג | ד |');
  });

  it('keeps a header cell spanning two columns over them, turned', () => {
    const found = table(
      [
        [cell('שעות', { colSpan: 2 }), cell('', { covered: true }), cell('יום')],
        [cell('עד'), cell('מ'), cell('ראשון')],
      ],
      blocksToHtml,
    );
    expect(markdown(fromTheRight(found))).toBe(
      '<table>\n<tr><th>יום</th><th colspan="2">שעות</th></tr>\n<tr><td>ראשון</td><td>מ</td><td>עד</td></tr>\n</table>',
    );
  });

  it('leaves a table of left-to-right text, and any other block, as it is', () => {
    const english = table(
      [
        [cell('Day'), cell('Hours')],
        [cell('Sunday'), cell('9–19')],
      ],
      blocksToHtml,
    );
    expect(fromTheRight(english)).toBeUndefined();
    expect(fromTheRight({ type: 'paragraph', children: [{ type: 'text', value: 'שבת' }] })).toBeUndefined();
  });

  /** A row of the page: its cells (text, left edge) and its right edge. */
  const row = (y: number, right: number, cells: [string, number][]): Row => ({
    text: cells.map(([t]) => t).join(' '),
    x: Math.min(...cells.map(([, x]) => x)),
    y,
    top: y - 10,
    bottom: y + 2,
    right,
    size: 12,
    bold: false,
    font: 'Serif',
    mono: false,
    block: 0,
    cells: cells.map(([text, x]) => ({ text, x, right: x + 20 })),
    pieces: [],
  });
  const paragraphRow = row(50, 522, [['הספרייה פתוחה לקהל', 300]]);

  it('reads a table at the right margin from the right, one off it from the left, whichever order its detector gave', () => {
    const leftFirst = table(
      [
        [cell('שעות'), cell('יום')],
        [cell('09:00–19:00'), cell('שבת')],
      ],
      blocksToHtml,
    );
    const rightFirst = table(
      [
        [cell('יום'), cell('שעות')],
        [cell('שבת'), cell('09:00–19:00')],
      ],
      blocksToHtml,
    );
    // Chrome: the table's rows end at the margin, יום at the right.
    const atMargin = [
      row(100, 516, [
        ['יום', 480],
        ['שעות', 386],
      ]),
      row(120, 516, [
        ['שבת', 494],
        ['09:00–19:00', 368],
      ]),
    ];
    expect(markdown(inReadingOrder(leftFirst, atMargin, [paragraphRow, ...atMargin]))).toBe(markdown(rightFirst));
    expect(inReadingOrder(rightFirst, atMargin, [paragraphRow, ...atMargin])).toBe(rightFirst);
    // LibreOffice: the rows end well left of the margin, יום at the left; the detector read the row from the right.
    const offMargin = [
      row(100, 457, [
        ['שעות', 430],
        ['יום', 245],
      ]),
      row(120, 457, [
        ['09:00–19:00', 382],
        ['שבת', 236],
      ]),
    ];
    expect(markdown(inReadingOrder(leftFirst, offMargin, [paragraphRow, ...offMargin]))).toBe(markdown(rightFirst));
    expect(inReadingOrder(rightFirst, offMargin, [paragraphRow, ...offMargin])).toBe(rightFirst);
  });
  it('reads a table of code and Latin text at a right-to-left page’s right margin from the right, and leaves it on a left-to-right page', () => {
    // react.dev in Persian: a table of code, its first column (`queued update`) at the right, as Chrome sets it.
    const leftFirst = table(
      [
        [cell('returns'), cell('n'), cell('queued update')],
        [cell('0 + 1 = 1'), cell('0'), cell('n => n + 1')],
      ],
      blocksToHtml,
    );
    const atMargin = [
      row(100, 516, [
        ['returns', 300],
        ['n', 400],
        ['queued update', 450],
      ]),
      row(120, 516, [
        ['0 + 1 = 1', 300],
        ['0', 400],
        ['n => n + 1', 450],
      ]),
    ];
    expect(markdown(inReadingOrder(leftFirst, atMargin, [paragraphRow, ...atMargin]))).toBe(
      '| queued update | n | returns |\n| - | - | - |\n| n => n + 1 | 0 | 0 + 1 = 1 |',
    );
    // The same rows under an English paragraph: a left-to-right table as wide as the text, read from the left.
    const english = row(50, 522, [['The library is open to all readers', 300]]);
    expect(inReadingOrder(leftFirst, atMargin, [english, ...atMargin])).toBe(leftFirst);
  });
});
