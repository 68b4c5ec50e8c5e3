// A ruled table's part above a page break told into rows by its part below's spacing
// (wasm/read/pdf-cut-spacing.ts): the spacing each part keeps (pdf-rules.ts), and the rows read
// again with it before the parts are joined (pdf-table-pages.ts), on lines laid out by hand.

import type { RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { paragraph, type CellSource } from '../../wasm/read/blocks.js';
import { rowSpacing, rowsByNextSpacing } from '../../wasm/read/pdf-cut-spacing.js';
import type { GridLine } from '../../wasm/read/pdf-grid.js';
import { ruleTables, type Rule } from '../../wasm/read/pdf-rules.js';
import { joinContinuedTable } from '../../wasm/read/pdf-table-pages.js';
import { renderedBlocks } from '../../wasm/read/render.js';
import { row } from '../helpers/ruled-lines.js';

const rule = (at: number): Rule => ({ at, from: 50, to: 350 });
const WIDE = [55, 170];
const HEADER = row(111, WIDE, ['refs', 'state']);

/** The one table the rules frame, as a page's block. */
const tableOf = (lines: readonly GridLine[], rules: readonly Rule[]): RootContent => (ruleTables(rules, lines)[0] as { table: RootContent }).table;
const markdown = (blocks: RootContent[]) => [...renderedBlocks(blocks)].join('\n\n');

/** The header and a first row's first two lines, 15 pt apart, down to the page's end. */
const beforeBreak = () => [
  tableOf(
    [...HEADER, ...row(130, WIDE, ['A ref keeps', 'A state variable holds a']), ...row(145, WIDE, ['its value', 'value and shows it on'])],
    [rule(100), rule(117), rule(150)],
  ),
];

describe('a table cut inside its first body row', () => {
  it('reads the two lines above the break as one row where the part below shows wrapped lines 15 pt apart and rows 18.75 (pandoc → Chrome)', () => {
    // The row's last line under the repeated header, then rows of two lines each: a cell's lines at the line height, rows a padding further.
    const rules = [1, 2].flatMap((k) => {
      const at = 148.75 + (k - 1) * 33.75;
      return [...row(at, WIDE, [`Ref rule ${k}: it`, 'State rule: a change draws']), ...row(at + 15, WIDE, ['never draws', 'the component again'])];
    });
    const next = [tableOf([...HEADER, ...row(130, WIDE, ['', 'the screen again']), ...rules], [rule(100), rule(117), rule(205)])];
    const first = beforeBreak();
    expect(joinContinuedTable(first, next)).toBe(true);
    expect(markdown(first)).toBe(
      [
        '| refs | state |',
        '| - | - |',
        '| A ref keeps its value | A state variable holds a value and shows it on the screen again |',
        '| Ref rule 1: it never draws | State rule: a change draws the component again |',
        '| Ref rule 2: it never draws | State rule: a change draws the component again |',
      ].join('\n'),
    );
  });

  it('keeps the two lines two rows where the part below is spaced evenly, every row one line (LaTeX)', () => {
    const rows = [0, 1, 2].flatMap((k) => row(127 + k * 15, WIDE, [`B${k}`, `slow ${k}`]));
    const next = [tableOf([...HEADER, ...rows], [rule(100), rule(117), rule(170)])];
    const first = beforeBreak();
    expect(joinContinuedTable(first, next)).toBe(true);
    expect(markdown(first)).toContain('| A ref keeps | A state variable holds a |\n| its value | value and shows it on |\n| B0 | slow 0 |');
  });
});

describe('rowSpacing', () => {
  it('measures each body row from the line above it, none across a rule', () => {
    const line = (y: number) => [{ y }];
    expect(rowSpacing([[line(130)], [line(145), line(160)], [line(178.75)], [line(200)]], [190], 15)).toEqual({ leads: [null, 15, 18.75, null], wrap: 15 });
    expect(rowSpacing([[line(130)], [line(142)]], [], undefined)).toEqual({ leads: [null, 12] });
  });
});

describe('rowsByNextSpacing', () => {
  const cell = (text: string): CellSource => ({ blocks: text ? [paragraph([{ text }])] : [], colSpan: 1, rowSpan: 1 });
  const grid = (rows: string[][]) => rows.map((r) => r.map(cell));
  const join = (above: CellSource, below: CellSource): CellSource => cell([above, below].map((c) => (c.blocks[0] ? 'x' : '')).join(''));
  const before = grid([
    ['h1', 'h2'],
    ['a', 'b'],
    ['c', 'd'],
  ]);
  const padded = { leads: [null, 18.75], wrap: 15 };

  it('joins a row standing at the next part’s wrapped-line spacing to the row above', () => {
    expect(rowsByNextSpacing(before, { leads: [null, 15.2] }, padded, join)).toHaveLength(2);
  });

  it('leaves the rows where they stand at the next part’s row spacing, the part showed its own spacing, or the next part showed no rows further apart', () => {
    expect(rowsByNextSpacing(before, { leads: [null, 18.5] }, padded, join)).toBe(before);
    expect(rowsByNextSpacing(before, { leads: [null, 15], wrap: 15 }, padded, join)).toBe(before);
    expect(rowsByNextSpacing(before, { leads: [null, 15] }, { leads: [null, 15] }, join)).toBe(before);
    expect(rowsByNextSpacing(before, { leads: [null, 15] }, { leads: [null], wrap: 15 }, join)).toBe(before);
    expect(rowsByNextSpacing(before, undefined, padded, join)).toBe(before);
  });
});
