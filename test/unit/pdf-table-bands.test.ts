// Table rows as bands (wasm/read/pdf-table-bands.ts), on rows laid out as Chrome prints pandoc's
// tables (12 pt text, lines 18 pt apart, a cell's text centred vertically, 4.5 pt of padding
// between rows), and as groff and LibreOffice set theirs (cells at the top; rows and a cell's
// lines spaced alike, or rows apart by their padding), which must stay rows.

import { describe, expect, it } from 'vitest';
import type { Row } from '../../wasm/read/pdf-page-model.js';
import { withBands } from '../../wasm/read/pdf-table-bands.js';

const SIZE = 12;
const NAME = 150;
const TEXT = 230;

/** A row of cells on the baseline y (a glyph box 10.6 pt above it and 2.6 pt below), 6 pt a character. */
function row(y: number, cells: readonly [x: number, text: string][]): Row {
  const units = cells.map(([x, text]) => ({ x, right: x + text.length * 6, text }));
  return {
    text: cells.map(([, t]) => t).join(' '),
    x: Math.min(...units.map((u) => u.x)),
    y,
    top: y - 10.6,
    bottom: y + 2.6,
    right: Math.max(...units.map((u) => u.right)),
    size: SIZE,
    bold: false,
    font: 'Serif',
    mono: false,
    block: 0,
    cells: units,
    pieces: units.length > 1 ? units : [],
  };
}

/** Each row's pieces (its cells where it has one piece), as the borderless detector reads them. */
const texts = (rows: readonly Row[]) => rows.map((r) => (r.pieces.length ? r.pieces : r.cells).map((c) => c.text));

describe('withBands', () => {
  it('makes one row of a name centred between its description’s two lines (Chrome: the name read first, above the lines)', () => {
    const rows = [
      row(662.3, [
        [NAME, '[duration:]'],
        [TEXT, 'Duration of recording.'],
      ]),
      row(693.8, [[NAME, '[s:]']]),
      row(684.8, [[TEXT, 'Server-side template, the default is']]),
      row(702.8, [[TEXT, 'default.jfc']]),
      row(725.3, [
        [NAME, '[f:]'],
        [TEXT, 'Resulting recording filename'],
      ]),
    ];
    const out = withBands(rows);
    expect(texts(out)).toEqual([
      ['[duration:]', 'Duration of recording.'],
      ['[s:]', 'Server-side template, the default is default.jfc'],
      ['[f:]', 'Resulting recording filename'],
    ]);
    expect(out[1]?.y).toBe(684.8);
  });

  it('makes one row of a name on the middle one of three lines, and of a value centred beside a name’s two lines', () => {
    const rows = [
      row(500, [
        [NAME, 'jad'],
        [TEXT, 'Decompile a class'],
      ]),
      row(522.5, [[TEXT, 'ClassLoader diagnostic tool, view']]),
      row(540.5, [
        [NAME, 'classloader'],
        [TEXT, 'statistics, hierarchy tree, URLs and'],
      ]),
      row(558.5, [[TEXT, 'class loading']]),
      row(581, [
        [NAME, 'mc'],
        [TEXT, 'Memory compiler'],
      ]),
      row(603.5, [
        [NAME, 'arthas.mcp'],
        [400, 'STREAMABLE'],
      ]),
      row(612.5, [[TEXT, 'Transport mode:']]),
      row(621.5, [[NAME, 'Protocol']]),
    ];
    // The value (x 400) is centred on the name's two lines (at x 150) and the text at x 230 between them.
    rows.splice(5, 3, row(603.5, [[NAME, 'arthas.mcp']]), row(612.5, [[400, 'STREAMABLE']]), row(621.5, [[NAME, 'Protocol']]));
    expect(texts(withBands(rows))).toEqual([
      ['jad', 'Decompile a class'],
      ['classloader', 'ClassLoader diagnostic tool, view statistics, hierarchy tree, URLs and class loading'],
      ['mc', 'Memory compiler'],
      ['arthas.mcp Protocol', 'STREAMABLE'],
    ]);
  });

  it('leaves rows alone where the cells are set at the top: groff’s rows spaced as a cell’s lines, LibreOffice’s apart by padding', () => {
    // groff: every line 12 pt below the last; "[S]" is centred on nothing, its row's lines above and below alike.
    const groff = [
      row(300, [
        [NAME, 'name1'],
        [TEXT, 'first line'],
      ]),
      row(312, [[TEXT, 'second line']]),
      row(324, [
        [NAME, '[S]'],
        [TEXT, 'third line'],
      ]),
      row(336, [[TEXT, 'fourth line']]),
      row(348, [
        [NAME, 'name3'],
        [TEXT, 'last'],
      ]),
    ];
    expect(withBands(groff)).toEqual(groff);
    // LibreOffice: a name on its cell's first line, the next row 6 pt further than a line.
    const writer = [
      row(300, [
        [NAME, 'name1'],
        [TEXT, 'first line'],
      ]),
      row(314, [[TEXT, 'second line']]),
      row(334, [
        [NAME, 'name2'],
        [TEXT, 'one line'],
      ]),
      row(354, [
        [NAME, 'name3'],
        [TEXT, 'first line'],
      ]),
      row(368, [[TEXT, 'second line']]),
    ];
    expect(withBands(writer)).toEqual(writer);
  });

  it('leaves prose alone: lines of one paragraph, and a heading above a table', () => {
    const prose = [row(100, [[50, 'A paragraph of two lines']]), row(118, [[50, 'set in one column.']]), row(150, [[50, 'Another paragraph.']])];
    expect(withBands(prose)).toEqual(prose);
  });
});
