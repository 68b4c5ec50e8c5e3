// Columns of tables without rules (wasm/read/pdf-table-columns.ts) and the stage that uses them
// (pdf-table-runs.ts through pdf-layout.ts): a spreadsheet printed to PDF sets text flush left and
// numbers flush right, its header's names close together over them. Lines as mupdf gives them,
// placed where LibreOffice prints a sheet.

import { describe, expect, it } from 'vitest';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { renderedBlocks } from '../../wasm/read/render.js';
import { columnAt, headerUnitsAbove } from '../../wasm/read/pdf-table-columns.js';

/** A mupdf line of `text` from x to right on the baseline y, 10 points. */
function line(text: string, x: number, right: number, y: number): StextLine {
  return { bbox: { x, y: y - 8, w: right - x, h: 12 }, font: { size: 10, name: 'LiberationSans' }, x, y, text };
}

/** A sheet printed: each row one block, its cells [text, left, right]. */
function sheet(rows: readonly (readonly [string, number, number])[][], top = 100): StextPage {
  return {
    width: 595,
    height: 842,
    blocks: rows.map((cells, r) => ({ type: 'text', lines: cells.map(([text, x, right]) => line(text, x, right, top + r * 12.8)) })),
  };
}

function markdownOf(page: StextPage): string {
  const rows = pageRows(page);
  const tally = new StyleTally();
  tally.addPage(rows, 1);
  return [...renderedBlocks(pageBlocks(rows, tally.style()))].join('\n\n');
}

// en-sales.xlsx as LibreOffice prints it: the header's names 8 points apart, the numbers flush right.
const SALES: [string, number, number][][] = [
  [
    ['Region', 57.7, 89.4],
    ['Product', 97.3, 131.9],
    ['Units', 140.7, 163.5],
    ['Revenue', 172.6, 212.7],
  ],
  [
    ['North', 57.7, 82.2],
    ['Chairs', 97.3, 126.2],
    ['120', 153.8, 170.6],
    ['2400', 196.2, 218.5],
  ],
  [
    ['North', 57.7, 82.2],
    ['Tables', 97.3, 127.4],
    ['40', 159.4, 170.6],
    ['3200', 196.2, 218.5],
  ],
  [
    ['South', 57.7, 83.9],
    ['Lamps', 97.3, 127.4],
    ['210', 153.8, 170.6],
    ['10,050', 185.0, 218.5],
  ],
];

describe('columns of a table without rules', () => {
  it('keeps a cell to a column by its left edge, or by its right edge where numbers are set flush right', () => {
    const columns = [
      { x: 57.7, ends: [82.2] },
      { x: 153.8, ends: [170.6] },
    ];
    expect(columnAt(columns, { x: 58, right: 90, text: 'South' }, 10)).toBe(0);
    expect(columnAt(columns, { x: 138, right: 170.6, text: '10,000' }, 10)).toBe(1);
    expect(columnAt(columns, { x: 100, right: 120, text: 'between' }, 10)).toBe(-1);
    // Only numbers are set flush right: text ending there is not in the column (a colophon's "Tel. … ISSN …" lines).
    expect(columnAt(columns, { x: 120, right: 170.6, text: 'ISSN 2005-744X' }, 10)).toBe(-1);
  });

  it('reads the names of a header over the columns they stand over, or start before', () => {
    const bands = [
      { from: 55, to: 95 },
      { from: 134, to: 172 },
      { from: 194, to: 232 },
    ];
    // Names set flush left over numbers set flush right start in the room before their column.
    expect(
      headerUnitsAbove(
        [
          { x: 55, right: 90, text: 'Region' },
          { x: 115, right: 130, text: 'H1' },
          { x: 174, right: 190, text: 'H2' },
        ],
        bands,
        10,
      ),
    ).toEqual([0, 1, 2]);
    // A title over two columns, or a name far from any, is no header.
    expect(headerUnitsAbove([{ x: 60, right: 200, text: 'Sales by region' }], bands, 10)).toBeUndefined();
    expect(headerUnitsAbove([{ x: 300, right: 340, text: 'Note' }], bands, 10)).toBeUndefined();
  });

  it("reads a printed sheet's header row as the table's header, its names too close to stand apart as cells", () => {
    expect(markdownOf(sheet(SALES))).toBe(
      [
        '| Region | Product | Units | Revenue |',
        '| - | - | - | - |',
        '| North | Chairs | 120 | 2400 |',
        '| North | Tables | 40 | 3200 |',
        '| South | Lamps | 210 | 10,050 |',
      ].join('\n'),
    );
  });

  it('keeps a column of numbers whose widths differ by more than an em to one column, and a title above out of the header', () => {
    const titled: StextPage = {
      ...sheet(SALES),
      blocks: [{ type: 'text', lines: [line('Sales by region and product', 57.7, 190, 80)] }, ...sheet(SALES).blocks],
    };
    const markdown = markdownOf(titled);
    expect(markdown.startsWith('Sales by region and product\n\n| Region | Product | Units | Revenue |')).toBe(true);
    expect(markdown).toContain('| South | Lamps | 210 | 10,050 |');
  });

  it('reads a header of two levels above a table without rules as its header rows: the upper names over the groups of columns they start', () => {
    // openpyxl's sheet with "2023" and "2024" merged over two columns each, as LibreOffice prints it.
    const sales: [string, number, number][][] = [
      [
        ['2023', 158, 189],
        ['2024', 278, 308],
      ],
      [
        ['H1', 115, 130],
        ['H2', 174, 190],
        ['H1', 234, 249],
        ['H2', 294, 309],
      ],
      [
        ['North', 55, 86],
        ['12,500', 134, 172],
        ['13,940', 194, 232],
        ['15,010', 253, 292],
        ['16,200', 313, 352],
      ],
      [
        ['South', 55, 87],
        ['8,020', 141, 172],
        ['7,760', 201, 232],
        ['9,105', 260, 292],
        ['9,980', 320, 352],
      ],
    ];
    expect(markdownOf(sheet(sales))).toBe(
      [
        '| | 2023 | | 2024 | |',
        '| - | - | - | - | - |',
        '| | H1 | H2 | H1 | H2 |',
        '| North | 12,500 | 13,940 | 15,010 | 16,200 |',
        '| South | 8,020 | 7,760 | 9,105 | 9,980 |',
      ].join('\n'),
    );
  });

  it("joins a header's wrapped lines over one column into one header row: only a name centred between columns starts a level", () => {
    const wrapped = [[['Sales', 196.2, 218.5]], ...SALES] as [string, number, number][][];
    expect(markdownOf(sheet(wrapped)).split('\n').slice(0, 2)).toEqual(['| Region | Product | Units | Sales Revenue |', '| - | - | - | - |']);
    const grouped = [[['Sales', 171, 195]], ...SALES] as [string, number, number][][];
    expect(markdownOf(sheet(grouped)).split('\n').slice(0, 3)).toEqual(['| | | | Sales |', '| - | - | - | - |', '| Region | Product | Units | Revenue |']);
  });
});
