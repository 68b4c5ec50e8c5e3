// The line over a borderless table that is no row of it (pdf-lead-in.ts), on arrays.
import { describe, expect, it } from 'vitest';
import { isLeadInLine, spacedAsParagraph, tableGaps } from '../../wasm/read/pdf-lead-in.js';
import type { Extent, TableLine } from '../../wasm/read/pdf-table-wraps.js';

/** A 12-pt line from `top`, its columns' texts at the extents given. */
const line = (top: number, ...cells: [string, Extent][]): TableLine => ({
  texts: cells.map(([text]) => text),
  top,
  bottom: top + 12,
  size: 12,
  extents: cells.map(([, extent]) => extent),
});
const at = (x: number, right: number): Extent => ({ x, right });

/** A type table set flush left at x 72 and 270, its rows 3 pt apart (LibreOffice's borderless table). */
const body = [
  line(213, ['DataX 内部类型', at(72, 161)], ['PostgreSQL 数据类型', at(270, 395)]),
  line(228, ['Long', at(72, 103)], ['bigint, integer', at(270, 360)]),
  line(243, ['Double', at(72, 115)], ['double precision', at(270, 366)]),
  line(258, ['String', at(72, 110)], ['varchar, text', at(270, 348)]),
];

describe('isLeadInLine', () => {
  it('takes a line a paragraph’s spacing over the table, its second piece off the column’s left edge, for a lead-in', () => {
    expect(isLeadInLine([line(192, ['下面列出 ArchiveWriter 针对', at(72, 238)], ['PostgreSQL 类型转换列表:', at(242, 394)]), ...body])).toBe(true);
  });

  it('keeps a header whose cells start where the columns’ text starts, however far above the rows', () => {
    expect(isLeadInLine([line(192, ['Type', at(72, 100)], ['Database type', at(270, 340)]), ...body])).toBe(false);
  });

  it('keeps a header a few points over the rows, as the rows stand, even off the columns’ edges (a header centred over its column)', () => {
    expect(isLeadInLine([line(198, ['Type', at(72, 100)], ['Database type', at(300, 370)]), ...body])).toBe(false);
  });

  it('keeps a first line over a column whose cells keep to no common edge: nothing to judge it by', () => {
    const ragged = [
      line(213, ['a', at(72, 90)], ['one', at(270, 300)]),
      line(228, ['b', at(72, 90)], ['two three', at(282, 340)]),
      line(243, ['c', at(72, 90)], ['four', at(295, 330)]),
    ];
    expect(isLeadInLine([line(192, ['x', at(72, 90)], ['lead', at(242, 300)]), ...ragged])).toBe(false);
  });
});

describe('isLeadInLine with a heading under the table', () => {
  it('takes the lead-in line for one though the run took in the heading under the table, set as far off', () => {
    // DataX's tags table: 12.9 pt under the paragraph's last line, 6 pt between the rows, 13.8 over a heading at body size.
    const heading = line(258 + 12 + 13.8, ['value', at(72, 105)]);
    const lead = line(213 - 12 - 12.9, ['应 2000000 条时间线从', at(72, 205)], ['1 开始自增。', at(209, 280)]);
    const rows = [
      line(213, ['tag_k', at(72, 108)], ['tag_v', at(270, 305)]),
      ...body.slice(1).map((l, k) => ({ ...l, top: 231 + k * 18, bottom: 243 + k * 18 })),
    ];
    expect(isLeadInLine([lead, ...rows, { ...heading, texts: ['value', ''], extents: [at(72, 105), undefined] }])).toBe(true);
  });
});

describe('tableGaps', () => {
  it('leaves out the room over the run’s last line where it is a paragraph’s spacing', () => {
    expect(tableGaps([6, 5.6, 5.6, 13.8], 12)).toEqual([6, 5.6, 5.6]);
    expect(tableGaps([13.8, 6, 6], 12)).toEqual([13.8, 6, 6]);
    expect(tableGaps([], 12)).toEqual([]);
  });

  it('keeps the room between rows whose cells wrap, wider than between a cell’s lines', () => {
    expect(tableGaps([2, 10, 10, 2, 10], 12)).toEqual([2, 10, 10, 2, 10]);
  });
});

describe('spacedAsParagraph', () => {
  it('is room over 0.4 em and over twice the widest between the rows', () => {
    expect(spacedAsParagraph(9, [3, 2.5], 12)).toBe(true);
    expect(spacedAsParagraph(5.5, [3, 2.5], 12)).toBe(false);
    expect(spacedAsParagraph(4, [1, 1], 12)).toBe(false);
    expect(spacedAsParagraph(9, [], 12)).toBe(false);
  });
});
