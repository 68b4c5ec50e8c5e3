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

/** A 10-point table line at `top`, each column's cell given as [text, x, right] (or none). */
const lineAt = (cells: readonly (readonly [string, number, number] | undefined)[], top: number) => ({
  texts: cells.map((c) => c?.[0] ?? ''),
  extents: cells.map((c) => c && { x: c[1], right: c[2] }),
  top,
  bottom: top + 10,
  size: 10,
});

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

  it('starts a row with a line under a cell that ended with room for its first word (key/value pairs side by side), and still joins a full line', () => {
    // [text, x, right] in each column, 10 points on a 13 point pitch (MarkItDown's REPAIR invoice).
    const pairs = [
      [
        ['Phone', 77, 103],
        ['(425) 111-1111', 157, 219],
        ['Trim', 310, 329],
        ['Limited', 370, 400],
      ],
      [
        ['Email', 77, 99],
        ['gabriel@contoso.com', 157, 246],
        ['VIN', 310, 325],
        ['1C4RJFBG2NC123456', 370, 458],
      ],
      [undefined, undefined, ['Color', 310, 332], ['White', 370, 394]],
      [
        ['Order #', 77, 138],
        ['RO-20221108', 157, 213],
        ['Estimator', 310, 350],
        ['Ellis Turner', 370, 415],
      ],
    ] as const;
    expect(joinWrappedLines(pairs.map((cells, i) => lineAt(cells, i * 13)))).toEqual([
      ['Phone', '(425) 111-1111', 'Trim', 'Limited'],
      ['Email', 'gabriel@contoso.com', 'VIN', '1C4RJFBG2NC123456'],
      ['', '', 'Color', 'White'],
      ['Order #', 'RO-20221108', 'Estimator', 'Ellis Turner'],
    ]);
    // A description that filled its column goes on over the line below, in Latin and in Chinese.
    const wrapped = (first: [string, number, number], next: [string, number, number]) =>
      joinWrappedLines([
        lineAt(
          [
            ['Name', 77, 103],
            ['Description', 157, 210],
          ],
          0,
        ),
        lineAt([['dump', 77, 99], first], 13),
        lineAt([undefined, next], 26),
        lineAt(
          [
            ['sc', 77, 88],
            ['search classes whose names match a pattern', 157, 320],
          ],
          39,
        ),
      ])[1];
    expect(wrapped(['whether classes are dumped to the', 157, 300], ['directory below', 157, 226])).toEqual([
      'dump',
      'whether classes are dumped to the directory below',
    ]);
    // "值。" cannot be parted: the comma never starts a line, so the line above ended short of its full width.
    expect(wrapped(['指定 class 的 ClassLoader#toString() 返回', 157, 300], ['值。长格式', 157, 207])).toEqual([
      'dump',
      '指定 class 的 ClassLoader#toString() 返回值。长格式',
    ]);
    // The same line under a cell that ended far short of its column's width is a row of its own.
    expect(wrapped(['whether classes are dumped', 157, 260], ['directory below', 157, 226])).toEqual(['dump', 'whether classes are dumped']);
  });

  it("keeps a short line in its cell where the rows stand apart by their padding (a line break in a cell, Chrome's print)", () => {
    const lines = [
      lineAt(
        [
          ['Name', 77, 103],
          ['Values', 157, 190],
        ],
        0,
      ),
      lineAt(
        [
          ['mode', 77, 103],
          ['fast', 157, 175],
        ],
        18,
      ),
      lineAt([undefined, ['safe', 157, 176]], 30),
      lineAt(
        [
          ['level', 77, 99],
          ['one of the levels the agent knows', 157, 320],
        ],
        48,
      ),
    ];
    expect(joinWrappedLines(lines)).toEqual([
      ['Name', 'Values'],
      ['mode', 'fast safe'],
      ['level', 'one of the levels the agent knows'],
    ]);
    // The same lines with rows and a cell's lines spaced alike: "safe" would have fitted after "fast", so it is a row.
    expect(joinWrappedLines(lines.map((l, i) => ({ ...l, top: i * 12, bottom: i * 12 + 10 })))).toHaveLength(4);
  });
});
