// Columns of a borderless table told apart by alignment, not by the gap alone: a spreadsheet's
// narrow columns set numbers flush right 2 pt before the next column's header (zh-sales, as
// LibreOffice prints it), closer than any gutter the detector keeps between pieces of text.
import { describe, expect, it } from 'vitest';
import { borderlessTables, type BorderlessRow, type Piece } from '../../wasm/read/pdf-borderless.js';

const row = (y: number, pieces: Piece[]): BorderlessRow => ({ y, top: y - 8, bottom: y + 2, size: 10, pieces, excluded: false });
const p = (x: number, right: number, text: string): Piece => ({ x, right, text });

/** zh-sales's header and rows: 数量's numbers end at 138.0, 收入 starts at 140.1. */
const header = row(85.9, [p(57.7, 77.7, '地区'), p(86.5, 106.5, '产品'), p(115.3, 135.3, '数量'), p(140.1, 160.1, '收入')]);
const body = (y: number, region: string, product: string, units: [number, string], revenue: string) =>
  row(y, [p(57.7, 77.7, region), p(86.5, 106.5, product), p(units[0], 138.0, units[1]), p(146.0, 168.4, revenue)]);

/** Whether a table found holds 数量 and 收入 as cells of their own, or stands on a narrow band. */
const apart = (tables: ReturnType<typeof borderlessTables>) => tables.some((t) => t.tight || t.cells.flat().includes('收入'));

describe('borderless columns by alignment', () => {
  it('keeps a 2 pt band a gutter when the numbers left of it end flush there, row after row', () => {
    const rows = [
      header,
      body(98.6, '华北', '椅子', [121.3, '120'], '2400'),
      body(111.3, '华北', '桌子', [126.9, '40'], '3200'),
      body(124.0, '华南', '椅子', [126.9, '95'], '1900'),
      body(136.7, '华南', '台灯', [121.3, '210'], '1050'),
    ];
    const [table] = borderlessTables(rows);
    expect(table?.cells).toEqual([
      ['地区', '产品', '数量', '收入'],
      ['华北', '椅子', '120', '2400'],
      ['华北', '桌子', '40', '3200'],
      ['华南', '椅子', '95', '1900'],
      ['华南', '台灯', '210', '1050'],
    ]);
    expect(table?.tight).toBe(true);
  });

  it('drops such a band where the pieces narrowing it are text, or numbers that do not end flush', () => {
    // The numbers end 2 pt apart from one another: only the first ends at the band.
    const ragged = [
      header,
      ...[138.0, 136.0, 135.9, 137.0].map((end, k) =>
        row(98.6 + k * 12.7, [p(57.7, 77.7, '华北'), p(86.5, 106.5, '椅子'), p(end - 12, end, '120'), p(146.0, 168.4, '2400')]),
      ),
    ];
    expect(apart(borderlessTables(ragged))).toBe(false);
    const words = [
      header,
      ...[98.6, 111.3, 124.0, 136.7].map((y) => row(y, [p(57.7, 77.7, '华北'), p(86.5, 106.5, '椅子'), p(121.3, 138.0, '一二'), p(146.0, 168.4, '2400')])),
    ];
    expect(apart(borderlessTables(words))).toBe(false);
  });
});
