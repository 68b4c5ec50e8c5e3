// A cell's wrapped lines in a table without rules (wasm/read/pdf-table-wraps.ts, used by
// pdf-table-runs.ts through pdf-layout.ts): groff's tbl sets a manual's options table with the
// names flush right and each description carried onto the lines below. Lines as mupdf gives
// them, placed where groff prints arthas's `jad` page (10 pt on a 12 pt pitch).

import { describe, expect, it } from 'vitest';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { joinWrappedLines } from '../../wasm/read/pdf-table-wraps.js';
import { renderedBlocks } from '../../wasm/read/render.js';

/** A mupdf line of `text` from x to right with its top at `top`, 10 points. */
function line(text: string, x: number, right: number, top: number): StextLine {
  return { bbox: { x, y: top, w: right - x, h: 10 }, font: { size: 10, name: 'Times-Roman' }, x, y: top + 8, text };
}

/** Lines of [text, left, right], one block a line, each `pitch` points below the one before. */
function page(lines: readonly (readonly [string, number, number][])[], pitch = 12): StextPage {
  return {
    width: 612,
    height: 792,
    blocks: lines.map((cells, r) => ({ type: 'text', lines: cells.map(([text, x, right]) => line(text, x, right, 280 + r * pitch)) })),
  };
}

function markdownOf(stext: StextPage): string {
  const rows = pageRows(stext);
  const tally = new StyleTally();
  tally.addPage(rows, 1);
  return [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
}

const PROSE: [string, number, number][] = [['Decompile the specified classes held in the running JVM.', 90, 340]];

// arthas's jad page as groff prints it: names flush right at 204, descriptions from 219.
const JAD: [string, number, number][][] = [
  PROSE,
  [
    ['Name', 177.1, 204],
    ['Specification', 219, 275.3],
  ],
  [
    ['class-pattern', 152.2, 204],
    ['pattern for the class name', 219, 333],
  ],
  [
    ['[c:]', 180, 204],
    ['hashcode of the class loader', 219, 342.4],
  ],
  [['that loads the class', 219, 302.3]],
  [
    ['[classLoaderClass:]', 90, 204],
    ['The class name of the class-', 219, 343],
  ],
  [['loader that executes the ex-', 219, 342.4]],
  [['pression.', 219, 258.7]],
  [
    ['[E]', 186, 204],
    ['turn on regex match while', 219, 335.5],
  ],
  [['the default is wildcard match', 219, 348.4]],
];

describe("a table cell's wrapped lines", () => {
  it('joins the lines a description wraps onto into its row, the names set flush right in one column', () => {
    expect(markdownOf(page(JAD))).toBe(
      [
        'Decompile the specified classes held in the running JVM.',
        [
          '| Name | Specification |',
          '| - | - |',
          '| class-pattern | pattern for the class name |',
          '| \\[c:] | hashcode of the class loader that loads the class |',
          '| \\[classLoaderClass:] | The class name of the classloader that executes the expression. |',
          '| \\[E] | turn on regex match while the default is wildcard match |',
        ].join('\n'),
      ].join('\n\n'),
    );
  });

  it("keeps the row under the header whose first cell is empty, and the table's last row's wrapped lines", () => {
    // arthas's help page: the first option has no name.
    const help: [string, number, number][][] = [
      PROSE,
      [
        ['Name', 177.1, 204],
        ['Specification', 219, 275.3],
      ],
      [['show all the commands that', 219, 340]],
      [['current Arthas server sup-', 219, 335]],
      [['ports', 219, 240]],
      [
        ['[name:]', 172, 204],
        ['show the detail usage of one', 219, 345],
      ],
      [['command', 219, 255]],
    ];
    expect(markdownOf(page(help))).toContain(
      [
        '| Name | Specification |',
        '| - | - |',
        '| | show all the commands that current Arthas server supports |',
        '| \\[name:] | show the detail usage of one command |',
      ].join('\n'),
    );
  });

  it("keeps a line at a row's distance, of numbers alone, or an item with its cost a row of its own", () => {
    const ROLES = [
      ['Name', 'Role'],
      ['Ann', 'lead'],
      ['', 'reviewer'],
      ['Bo', 'author'],
    ];
    const lines = (texts: string[][], tops: number[]) =>
      texts.map((t, i) => ({ texts: t, top: tops[i] as number, bottom: (tops[i] as number) + 10, size: 10 }));
    // Rows set apart by padding (Chrome's print): the empty first cell is the row's own.
    expect(joinWrappedLines(lines(ROLES, [0, 18, 36, 54]))).toEqual(ROLES);
    // A subtotal under its items, on the same pitch.
    expect(
      joinWrappedLines(
        lines(
          [
            ['Item', 'Cost'],
            ['Bolts', '12'],
            ['Nuts', '8'],
            ['', '20'],
          ],
          [0, 12, 24, 36],
        ),
      ),
    ).toEqual([
      ['Item', 'Cost'],
      ['Bolts', '12'],
      ['Nuts', '8'],
      ['', '20'],
    ]);
    // Items and their costs under their group's label.
    expect(
      joinWrappedLines(
        lines(
          [
            ['Item', 'Part', 'Cost'],
            ['Parts', '', '2,100'],
            ['Supplies', '', ''],
            ['', 'Paint supplies', '60'],
          ],
          [0, 12, 24, 36],
        ),
      ),
    ).toHaveLength(4);
    // The same lines on the pitch of wrapped text: one row.
    expect(joinWrappedLines(lines(ROLES, [0, 12, 24, 36]))[1]).toEqual(['Ann', 'lead reviewer']);
  });
});
