// The header row's lines over a borderless table (pdf-header-lines.ts), on arrays.
import { describe, expect, it } from 'vitest';
import { headerLinesAbove, type UpperLine } from '../../wasm/read/pdf-header-lines.js';

/** A 12-pt line from `top`, its pieces at the extents given. */
const line = (top: number, ...pieces: [number, number][]): UpperLine => ({
  top,
  bottom: top + 12,
  size: 12,
  pieces: pieces.map(([x, right]) => ({ x, right })),
  excluded: false,
});

/** Six columns 66 pt apart, as LibreOffice prints pandoc's table of equal columns. */
const STARTS = [72, 138, 204, 270, 336, 402];
/** A body row's pieces: a figure in each column. */
const figures = (top: number) => line(top, ...STARTS.map((x): [number, number] => [x, x + 30]));
/** The body under the header: rows 6 pt apart (a cell's padding), each one line. */
const body = (from: number) => [0, 1, 2].map((k) => figures(from + k * 18));

describe('headerLinesAbove', () => {
  it('takes the lines at a line’s pitch over the first row, each piece where a column starts, for its upper lines', () => {
    // "pkNam / e1": the header's upper line 2 pt over its last, which starts the table.
    const lines = [
      line(100, [72, 400]),
      line(130, [72, 120], [138, 186], [204, 254]),
      line(144, ...STARTS.map((x): [number, number] => [x, x + 20])),
      ...body(162),
    ];
    expect(headerLinesAbove(lines, 2, 0, STARTS, 2)).toEqual({ count: 1, ownRow: false });
  });

  it('takes a header of lines at a line’s pitch a row’s room over the table for a row of its own', () => {
    const lines = [line(100, [72, 400]), line(126, [72, 120]), line(140, [72, 90], [138, 176]), line(154, [72, 100], [138, 160], [402, 430]), ...body(172)];
    expect(headerLinesAbove(lines, 4, 0, STARTS, 6)).toEqual({ count: 3, ownRow: true });
  });

  it('leaves one line a row’s room over the table: a header of one line starts the table itself', () => {
    const lines = [line(100, [72, 400]), line(154, [72, 100], [138, 160]), ...body(172)];
    expect(headerLinesAbove(lines, 2, 0, STARTS, 6)).toEqual({ count: 0, ownRow: false });
  });

  it('leaves a paragraph’s line that runs across a column’s start, or stands off every column’s start', () => {
    const across = [line(130, [72, 300]), ...body(144)];
    expect(headerLinesAbove(across, 1, 0, STARTS, 6).count).toBe(0);
    const off = [line(130, [90, 120]), ...body(144)];
    expect(headerLinesAbove(off, 1, 0, STARTS, 6).count).toBe(0);
  });

  it('leaves a line a paragraph’s spacing over the table, and one under the floor (a table above)', () => {
    const spaced = [line(120, [72, 100], [138, 160]), ...body(144)];
    expect(headerLinesAbove(spaced, 1, 0, STARTS, 6).count).toBe(0);
    const floored = [line(130, [72, 100], [138, 160]), ...body(144)];
    expect(headerLinesAbove(floored, 1, 1, STARTS, 2).count).toBe(0);
  });

  it('leaves a line in another size, or one no table takes', () => {
    const small = { ...line(134, [72, 100], [138, 160]), size: 9, bottom: 143 };
    expect(headerLinesAbove([small, ...body(144)], 1, 0, STARTS, 2).count).toBe(0);
    const excluded = { ...line(130, [72, 100], [138, 160]), excluded: true };
    expect(headerLinesAbove([excluded, ...body(144)], 1, 0, STARTS, 2).count).toBe(0);
  });
});
