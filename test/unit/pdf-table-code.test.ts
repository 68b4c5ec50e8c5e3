// Code kept in PDF table cells: a cell's piece set in a monospaced font is a code span in the
// Markdown table (blocks.ts textCells), on the ruled-grid path (pdf-grid.ts), the rules-framed
// path (pdf-rules.ts) and the borderless path (pdf-borderless.ts through pdf-layout.ts), so
// `<`, `[` and `*` inside it are not escaped; the cells' plain text has no backticks.

import { describe, expect, it } from 'vitest';
import { cellText, tableCells, textCells } from '../../wasm/read/blocks.js';
import { mergeRulings, rulingTables, type GridLine, type Ruling } from '../../wasm/read/pdf-grid.js';
import { StyleTally } from '../../wasm/read/pdf-headings.js';
import { pageBlocks } from '../../wasm/read/pdf-layout.js';
import type { StextLine, StextPage } from '../../wasm/read/pdf-page-model.js';
import { pageRows } from '../../wasm/read/pdf-rows.js';
import { ruleTables } from '../../wasm/read/pdf-rules.js';
import { renderedBlocks } from '../../wasm/read/render.js';

const SIZE = 10;

/** A line of `text` at x on the baseline y, 5 pt a character, as the character walk gives it; `code`: every glyph monospaced. */
const line = (text: string, x: number, y: number, code = false): StextLine => ({
  bbox: { x, y: y - 8, w: text.length * 5, h: 12 },
  font: { size: SIZE, name: code ? 'LiberationMono' : 'LiberationSerif', ...(code && { mono: true }) },
  x,
  y,
  text,
});

/** Code texts as the table readers hand them to textCells (pdf-piece-style.ts). */
const codeTexts = (...texts: string[]) => new Map(texts.map((t) => [t, { code: true }]));

const markdown = (blocks: Parameters<typeof renderedBlocks>[0]) => [...renderedBlocks(blocks)].join('\n\n');

/** An options table: names in Courier in the first column, descriptions in the body's font. */
const OPTIONS: [name: string, description: StextLine[]][] = [
  ['[c:]', [line('the hashcode of the class loader', 200, 0)]],
  ['--url-classes', [line('list the URLs of the classes loaded by', 200, 0), line('<classloader>', 395, 0, true)]],
  ['-*', [line('every option', 200, 0)]],
];

describe('code in PDF table cells', () => {
  it('writes a borderless table’s monospaced pieces as code spans, plain text beside them escaped as before', () => {
    const blocks: StextLine[][] = [[line('Name', 50, 100), line('Description', 200, 100)]];
    OPTIONS.forEach(([name, description], k) => {
      const y = 114 + k * 14;
      blocks.push([line(name, 50, y, true), ...description.map((l) => ({ ...l, y, bbox: { ...l.bbox, y: y - 8 } }))]);
    });
    const rows = pageRows({ width: 600, height: 800, blocks: blocks.map((lines) => ({ type: 'text', lines })) } satisfies StextPage);
    const tally = new StyleTally();
    tally.addPage(rows, 1);
    const out = markdown(pageBlocks(rows, tally.style()));
    expect(out).toBe(
      [
        '| Name | Description |',
        '| - | - |',
        '| `[c:]` | the hashcode of the class loader |',
        '| `--url-classes` | list the URLs of the classes loaded by `<classloader>` |',
        '| `-*` | every option |',
      ].join('\n'),
    );
  });

  it('writes a ruled grid’s and a rules-framed table’s monospaced lines as code spans', () => {
    const mono = (text: string, x: number, y: number): GridLine => ({ ...line(text, x, y), font: { size: SIZE, mono: true } });
    const lines: GridLine[] = [
      line('Option', 55, 112),
      line('Default', 205, 112),
      mono('--max*', 55, 132),
      line('10 [units]', 205, 132),
      mono('<dir>', 55, 152),
      mono('/tmp', 205, 152),
    ];
    const rulings: Ruling[] = [
      ...[100, 120, 140, 160].map((y) => ({ x0: 50, y0: y, x1: 350, y1: y })),
      ...[50, 200, 350].map((x) => ({ x0: x, y0: 100, x1: x, y1: 160 })),
    ];
    const expected = ['| Option | Default |', '| - | - |', '| `--max*` | 10 \\[units] |', '| `<dir>` | `/tmp` |'].join('\n');
    const [grid] = rulingTables(mergeRulings(rulings), lines);
    expect(grid && markdown([grid.table])).toBe(expected);
    const rules = [100, 120, 160].map((at) => ({ at, from: 50, to: 350 }));
    const [framed] = ruleTables(rules, lines);
    expect(framed && markdown([framed.table])).toBe(expected);
  });

  it('marks code only where a code piece stands whole, and keeps the cells’ plain text free of backticks', () => {
    const [row] = [textCells(['x--url-classes and --url-classes', 'a b c', ''], codeTexts('--url-classes', 'b', 'c'))];
    const table = {
      type: 'table' as const,
      align: [null, null, null],
      children: [row, row].map((cells) => ({
        type: 'tableRow' as const,
        children: cells.map((c) => ({ type: 'tableCell' as const, children: c.blocks.flatMap((b) => (b.type === 'paragraph' ? b.children : [])) })),
      })),
    };
    expect(markdown([table]).split('\n')[2]).toBe('| x--url-classes and `--url-classes` | a `b c` | |');
    expect(tableCells(table)?.[1]?.map(cellText)).toEqual(['x--url-classes and --url-classes', 'a b c', '']);
  });

  it('keeps a code cell inert: a PDF page marker set in code reads as no marker', () => {
    const cells = [textCells(['Name', 'Value']), textCells(['<!-- page 9 -->', 'c'], codeTexts('<!-- page 9 -->'))];
    const table = {
      type: 'table' as const,
      align: [null, null],
      children: cells.map((row) => ({
        type: 'tableRow' as const,
        children: row.map((c) => ({ type: 'tableCell' as const, children: c.blocks.flatMap((b) => (b.type === 'paragraph' ? b.children : [])) })),
      })),
    };
    expect(markdown([table])).toContain('| `<\\!-- page 9 -->` | c |');
  });
});
