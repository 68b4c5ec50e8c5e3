// The borderless-table detector and the piece cutter of PDF reading, on arrays.
import { describe, expect, it } from 'vitest';
import { borderlessTables, type BorderlessRow, type Piece } from '../../wasm/read/pdf-borderless.js';
import { linePieces, type PageChar } from '../../wasm/read/pdf-pieces.js';

const row = (y: number, pieces: Piece[], size = 12): BorderlessRow => ({ y, top: y - 10, bottom: y + 2, size, pieces, excluded: false });
const p = (x: number, right: number, text: string): Piece => ({ x, right, text });

describe('borderlessTables', () => {
  it('finds columns kept across rows and merges a wrapped cell line into its cell', () => {
    const rows = [
      row(250, [p(223, 259, 'Name'), p(270, 348, 'Specification')]),
      row(268, [p(180, 259, 'class-pattern'), p(270, 430, 'pattern for the class name')]),
      row(286, [p(242, 258, '[d]'), p(270, 455, 'print the details of the current')]),
      row(300, [p(270, 419, 'class, including its code')]),
      row(318, [p(241, 259, '[E]'), p(270, 425, 'turn on regex match')]),
    ];
    expect(borderlessTables(rows)).toEqual([
      {
        start: 0,
        end: 5,
        cells: [
          ['Name', 'Specification'],
          ['class-pattern', 'pattern for the class name'],
          ['[d]', 'print the details of the current class, including its code'],
          ['[E]', 'turn on regex match'],
        ],
      },
    ]);
  });

  it('starts rows by the first column when the wider pitch sets only the header apart (groff: the header padded, the rows not)', () => {
    const rows = [
      row(297, [p(107, 152, 'Parameter'), p(167, 221, 'Explanation')], 10),
      row(311, [p(100, 152, 'class-pattern'), p(167, 250, 'class name pattern')], 10),
      row(323, [p(90, 152, 'method-pattern'), p(167, 263, 'method name pattern')], 10),
      row(335, [p(96, 152, 'script-filepath'), p(167, 271, 'the absolute path of the')], 10),
      row(347, [p(167, 226, 'groovy script')], 10),
      row(359, [p(140, 152, '[S]'), p(167, 259, 'match all sub classes')], 10),
    ];
    expect(borderlessTables(rows)[0]?.cells).toEqual([
      ['Parameter', 'Explanation'],
      ['class-pattern', 'class name pattern'],
      ['method-pattern', 'method name pattern'],
      ['script-filepath', 'the absolute path of the groovy script'],
      ['[S]', 'match all sub classes'],
    ]);
  });

  it('finds no table in prose, whose lines run across any gap', () => {
    const rows = [
      row(100, [p(72, 90, '个'), p(95, 500, 'ClassLoader 所加载，则会出现多次')]),
      row(115, [p(72, 520, 'a line of prose across the page')]),
      row(130, [p(72, 510, 'and another line of the same paragraph')]),
    ];
    expect(borderlessTables(rows)).toEqual([]);
  });

  it('ends a table at a paragraph set further below its last row than its rows stand apart, though the paragraph is in its columns', () => {
    const rows = [
      row(100, [p(72, 120, 'name'), p(200, 260, 'value')]),
      row(116, [p(72, 120, 'alpha'), p(200, 260, 'one')]),
      row(132, [p(72, 120, 'beta'), p(200, 260, 'two')]),
      // 12 pt of room above it (the rows: 4 pt): a heading's spacing, set at the page margin.
      row(156, [p(72, 110, 'Usage'), p(200, 330, 'and more of the heading')]),
    ];
    expect(borderlessTables(rows).map((t) => [t.start, t.end])).toEqual([[0, 3]]);
  });

  it('keeps a wrapped cell line set smaller (code) in its row, but no row of another size in the first column', () => {
    const rows = [
      row(100, [p(72, 120, 'name'), p(200, 260, 'value')]),
      row(114, [p(72, 120, 'alpha'), p(200, 330, 'kept in')]),
      row(128, [p(200, 320, '/var/lib/alpha')], 10),
      row(142, [p(72, 120, 'beta'), p(200, 260, 'two')]),
      row(156, [p(72, 130, 'gamma()'), p(200, 260, 'three')], 10),
    ];
    expect(borderlessTables(rows)).toEqual([
      {
        start: 0,
        end: 4,
        cells: [
          ['name', 'value'],
          ['alpha', 'kept in /var/lib/alpha'],
          ['beta', 'two'],
        ],
      },
    ]);
  });

  it('measures the pitch after a band of several lines (a row whose cells are centred, pdf-table-bands.ts) from its last line, so single-line rows above it stay rows', () => {
    /** A band: two lines 18 pt apart, its baseline the first's. */
    const band = (y: number, pieces: Piece[]): BorderlessRow => ({ ...row(y, pieces, 11), bottom: y + 20 });
    const rows = [
      row(489, [p(129, 160, 'Name'), p(175, 228, 'Specification')], 11),
      row(510, [p(129, 160, 'loader'), p(175, 354, 'the class loader')], 11),
      row(531, [p(134, 160, 'clazz'), p(175, 339, 'the class')], 11),
      row(552, [p(124, 160, 'method'), p(175, 351, 'the method')], 11),
      band(573, [p(125, 160, 'params'), p(175, 472, 'the parameters of the call, an array')]),
      band(612, [p(114, 160, 'returnObj'), p(175, 498, 'the return value of the call')]),
      row(651, [p(114, 160, 'throwExp'), p(175, 450, 'the exception thrown')], 11),
    ];
    expect(borderlessTables(rows)[0]?.cells.map((r) => r[0])).toEqual(['Name', 'loader', 'clazz', 'method', 'params', 'returnObj', 'throwExp']);
  });

  it('needs three rows filled in two columns', () => {
    expect(borderlessTables([row(100, [p(72, 120, 'a'), p(200, 260, 'b')]), row(115, [p(72, 120, 'c'), p(200, 260, 'd')])])).toEqual([]);
  });
});

const chars = (text: string, from: number, width = 6): PageChar[] =>
  [...text].map((c, k) => ({
    c,
    left: from + k * width,
    right: from + (k + 1) * width,
    top: 0,
    bottom: 12,
    x: from + k * width,
    y: 10,
    size: 12,
    font: 'F',
    bold: false,
    mono: false,
  }));

describe('linePieces', () => {
  it('cuts a line where glyphs stand apart with no space between them', () => {
    expect(linePieces([...chars('参数名称', 256, 12), ...chars('参数说明', 308, 12)], 0).map((l) => l.text)).toEqual(['参数名称', '参数说明']);
  });
  it('keeps a word gap inside the piece, written as a space', () => {
    expect(linePieces([...chars('ab', 0), ...chars('cd', 14)], 0).map((l) => l.text)).toEqual(['ab cd']);
  });
  it('keeps a right-to-left line whole, its glyphs coming in logical order from right to left', () => {
    // Each glyph left of the one before it: "سلام" then, after a word gap, "دنیا"; then far apart.
    const rtl = (text: string, right: number) => [...text].map((c, k) => chars(c, right - (k + 1) * 6)[0] as PageChar);
    expect(linePieces([...rtl('سلام', 100), ...rtl('دنیا', 74)], 0).map((l) => l.text)).toEqual(['سلام دنیا']);
    expect(linePieces([...rtl('سلام', 100), ...rtl('دنیا', 40)], 0).map((l) => l.text)).toEqual(['سلام دنیا']);
  });
});

describe('borderlessTables: word spaces', () => {
  it('reads a header cell whose words stand a space apart, a free band in every row, as one cell when only the header fills the column right of it', () => {
    const rows = [
      row(645, [p(72, 108, '通道数'), p(204, 269.3, 'DataX 速度'), p(273.1, 315.4, '(Rec/s)'), p(336, 446, 'DataX 流量 (MB/s)')]),
      row(663, [p(72, 80, '1'), p(204, 250, '129753'), p(336, 370, '15.45')]),
      row(681, [p(72, 80, '2'), p(204, 250, '284953'), p(336, 370, '33.70')]),
      row(699, [p(72, 80, '3'), p(204, 250, '385868'), p(336, 370, '45.71')]),
    ];
    expect(borderlessTables(rows)[0]?.cells).toEqual([
      ['通道数', 'DataX 速度 (Rec/s)', 'DataX 流量 (MB/s)'],
      ['1', '129753', '15.45'],
      ['2', '284953', '33.70'],
      ['3', '385868', '45.71'],
    ]);
  });

  it('keeps a column as narrow as a space apart when two rows fill it', () => {
    const rows = [
      row(645, [p(72, 108, 'Name'), p(204, 269.3, 'Min'), p(273.1, 315.4, 'Max')]),
      row(663, [p(72, 80, 'a'), p(204, 250, '1'), p(273.1, 300, '9')]),
      row(681, [p(72, 80, 'b'), p(204, 250, '2'), p(273.1, 300, '8')]),
    ];
    expect(borderlessTables(rows)[0]?.cells).toEqual([
      ['Name', 'Min', 'Max'],
      ['a', '1', '9'],
      ['b', '2', '8'],
    ]);
  });
});

describe('borderlessTables: narrow columns, their cells wrapped', () => {
  it('keeps a row in the table though it stands twice as far below as a cell’s second line, where it sets its cells where a row above does', () => {
    // Numbers broken in narrow cells (LibreOffice): each row on two lines 2 pt apart, the rows 5.6 pt apart.
    const twoLines = (y: number, [a, b, c]: readonly string[], [d, e]: readonly string[]) => [
      row(y, [p(50, 58, a as string), p(90, 112, b as string), p(130, 160, c as string), p(170, 197, '0.69')]),
      row(y + 14, [p(130, 137, d as string), p(170, 177, e as string)]),
    ];
    const rows = [
      ...twoLines(100, ['1', '128', '5319'], ['0', '0']),
      ...twoLines(131.6, ['1', '512', '1428'], ['5', '7']),
      ...twoLines(163.2, ['4', '128', '1176'], ['4', '4']),
    ];
    const [table] = borderlessTables(rows);
    expect(table).toMatchObject({ start: 0, end: 6 });
    expect(table?.cells.map((r) => r[0])).toEqual(['1', '1', '4']);
  });

  it('ends a run at an entry of a reference list set apart by its spacing, though its number and justified words start and end where those above do', () => {
    // pdfTeX: each word a piece, a line justified from 128.5 to 505.4; an entry's lines 10.9 pt apart, the entries 15.2 pt.
    const justified = (texts: readonly string[]) => {
      const width = texts.reduce((sum, t) => sum + t.length * 5, 0);
      const space = (505.4 - 128.5 - width) / (texts.length - 1);
      let x = 128.5;
      return texts.map((text) => {
        const piece = p(x, x + text.length * 5, text);
        x += text.length * 5 + space;
        return piece;
      });
    };
    const line = (y: number, pieces: Piece[]): BorderlessRow => ({ ...row(y, pieces, 9), top: y - 7 });
    const entry = (y: number, n: string, first: readonly string[], second: readonly string[]) => [
      line(y, [p(113, 123.5, n), ...justified(first)]),
      line(y + 10.9, justified(second)),
    ];
    const rows = [
      ...entry(
        100,
        '[1]',
        ['Joshua', 'Ainslie,', 'James', 'Lee-Thorp,', 'Michiel', 'de', 'Jong,', 'Yury'],
        ['and', 'Sumit', 'Sanghai.', 'Gqa:', 'Training', 'generalized', 'multi-query'],
      ),
      ...entry(
        126.1,
        '[2]',
        ['Jacob', 'Austin,', 'Augustus', 'Odena,', 'Maxwell', 'Nye,', 'Maarten'],
        ['David', 'Dohan,', 'Ellen', 'Jiang,', 'Carrie', 'Cai,', 'Michael', 'Terry'],
      ),
      ...entry(
        152.2,
        '[3]',
        ['Iz', 'Beltagy,', 'Matthew', 'E', 'Peters,', 'and', 'Arman', 'Cohan.'],
        ['transformer.', 'arXiv', 'preprint', 'arXiv:2004.05150,', '2020.', 'and', 'more'],
      ),
    ];
    expect(borderlessTables(rows).every((t) => t.end - t.start <= 2)).toBe(true);
  });

  it('reads a header whose names are stacked over narrow columns, set at the cells’ bottom, in the columns of the rows below', () => {
    const rows = [
      row(60, [p(170, 190, 'Data')]),
      row(74, [p(170, 178, 'X'), p(210, 225, 'DB')]),
      row(88, [p(90, 110, 'Batch'), p(170, 190, 'speed'), p(210, 222, 'load')]),
      row(102, [p(50, 75, 'Chan'), p(90, 108, 'size'), p(170, 197, '(Rec/s)'), p(210, 228, 'TPS')]),
      row(120, [p(50, 56, '1'), p(90, 108, '128'), p(170, 190, '5319'), p(210, 222, '50')]),
      row(138, [p(50, 56, '4'), p(90, 108, '512'), p(170, 190, '1428'), p(210, 222, '28')]),
      row(156, [p(50, 56, '8'), p(90, 108, '128'), p(170, 190, '1176'), p(210, 222, '12')]),
    ];
    expect(borderlessTables(rows)).toEqual([
      {
        start: 0,
        end: 7,
        cells: [
          ['Chan', 'Batch size', 'Data X speed (Rec/s)', 'DB load TPS'],
          ['1', '128', '5319', '50'],
          ['4', '512', '1428', '28'],
          ['8', '128', '1176', '12'],
        ],
      },
    ]);
  });
});
