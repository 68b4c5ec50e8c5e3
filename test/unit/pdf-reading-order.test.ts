// Stages 2 and 3 of PDF reading on arrays of rows: running headers, footers and page numbers
// (pdf-running-lines.ts) and reading order by columns (pdf-reading-order.ts).

import { describe, expect, it } from 'vitest';
import type { PageRows, Row } from '../../wasm/read/pdf-page-model.js';
import { columnOrder, readingRows } from '../../wasm/read/pdf-reading-order.js';
import { bandKeys, RunningLines } from '../../wasm/read/pdf-running-lines.js';

const PAGE = { width: 600, height: 800 };

/** A row of 10 pt text from x to right at top; one cell unless cells are given. */
function row(text: string, x: number, right: number, top: number, options: { block?: number; cells?: Row['cells'] } = {}): Row {
  return {
    text,
    x,
    y: top + 8,
    top,
    bottom: top + 12,
    right,
    size: 10,
    bold: false,
    font: 'Body',
    mono: false,
    block: options.block ?? 0,
    cells: options.cells ?? [{ x, right, text }],
    pieces: [],
  };
}

const texts = (rows: readonly Row[]) => rows.map((r) => r.text);

/** Two columns of `lines` rows each (left 50–280, right 320–550), interleaved as a producer may write them. */
function twoColumns(lines: number, from = 100): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < lines; i++) {
    rows.push(row(`L${i}`, 50, 280, from + i * 14, { block: 1 }));
    rows.push(row(`R${i}`, 320, 550, from + i * 14, { block: 2 }));
  }
  return rows;
}

describe('reading order (pdf-reading-order.ts)', () => {
  it('reads one column top to bottom, each block of mupdf together', () => {
    const rows = [row('second block', 50, 500, 300, { block: 1 }), row('first block a', 50, 500, 100), row('first block b', 50, 500, 114)];
    expect(texts(columnOrder(rows, 0, PAGE.width))).toEqual(['first block a', 'first block b', 'second block']);
  });

  it('reads two columns left then right, a full-width title above them first', () => {
    const rows = [...twoColumns(8), row('A title across both columns', 50, 550, 60, { block: 0 })];
    const order = texts(columnOrder(rows, 0, PAGE.width));
    expect(order).toEqual(['A title across both columns', ...Array.from({ length: 8 }, (_, i) => `L${i}`), ...Array.from({ length: 8 }, (_, i) => `R${i}`)]);
  });

  it('reads two columns of right-to-left text right then left, and Latin text beside them left then right', () => {
    const arabic = (rows: Row[]) =>
      rows.map((r) => ({ ...r, text: `${r.text} نص عربي`, cells: [{ ...(r.cells[0] as Row['cells'][number]), text: `${r.text} نص عربي` }] }));
    const order = texts(columnOrder(arabic(twoColumns(8)), 0, PAGE.width)).map((t) => t.split(' ')[0]);
    expect(order).toEqual([...Array.from({ length: 8 }, (_, i) => `R${i}`), ...Array.from({ length: 8 }, (_, i) => `L${i}`)]);
    // A Latin quotation in an Arabic page is no reason to turn a band of Latin columns around.
    expect(texts(columnOrder(twoColumns(8), 0, PAGE.width))[0]).toBe('L0');
  });

  it('cuts rows drawn across both columns at the gutter inside them', () => {
    const rows = Array.from({ length: 8 }, (_, i) => {
      const [left, right] = [
        { x: 50, right: 280, text: `left ${i}` },
        { x: 320, right: 550, text: `right ${i}` },
      ];
      return row(`left ${i} right ${i}`, 50, 550, 100 + i * 14, { cells: [left, right] });
    });
    const order = texts(columnOrder(rows, 0, PAGE.width));
    expect(order).toEqual([...Array.from({ length: 8 }, (_, i) => `left ${i}`), ...Array.from({ length: 8 }, (_, i) => `right ${i}`)]);
  });

  it('finds no columns in too few rows, or where one side holds only short labels', () => {
    // Four lines, each its own block: read as mupdf's blocks lie, top to bottom, not as columns.
    const few = [0, 1].flatMap((i) => [row(`L${i}`, 50, 280, 100 + i * 14, { block: 2 * i }), row(`R${i}`, 320, 550, 100 + i * 14, { block: 2 * i + 1 })]);
    expect(texts(columnOrder(few, 0, PAGE.width))).toEqual(['L0', 'R0', 'L1', 'R1']);
    // Numbers at the right edge of a single column (a price list) are no second column.
    const priced = Array.from({ length: 8 }, (_, i) => [
      row(`item ${i}`, 50, 280, 100 + i * 14, { block: i }),
      row(`${i}.00`, 520, 550, 100 + i * 14, { block: i }),
    ]).flat();
    expect(texts(columnOrder(priced, 0, PAGE.width))).toEqual(Array.from({ length: 8 }, (_, i) => [`item ${i}`, `${i}.00`]).flat());
  });
});

describe('running headers, footers and page numbers (pdf-running-lines.ts)', () => {
  /** A page with a header, a footer "Page n of 4", a bare page number and a body line. */
  const page = (n: number): PageRows => ({
    ...PAGE,
    rows: [
      row('ACME Manual', 50, 200, 20),
      row(`Section ${n} body text`, 50, 550, 300),
      row(`Page ${n} of 4`, 50, 150, 760),
      row(`- ${n} -`, 290, 310, 780),
      ...(n === 2 ? [row('Only on page two', 50, 200, 40)] : []),
    ],
  });

  it('leaves out a line repeated in the bands of most pages and bare page numbers, and keeps the rest', () => {
    const running = new RunningLines(4);
    for (let n = 1; n <= 4; n++) running.addPage(bandKeys(page(n)));
    expect(running.repeated('acme manual')).toBe(true);
    expect(running.repeated('page # of #')).toBe(true);
    expect(running.repeated('only on page two')).toBe(false);
    expect(texts(RunningLines.kept(page(2), (key) => running.repeated(key)))).toEqual(['Section 2 body text', 'Only on page two']);
  });

  it('takes nothing for a running line in a document of fewer than three pages (page numbers aside)', () => {
    const running = new RunningLines(2);
    for (let n = 1; n <= 2; n++) running.addPage(bandKeys(page(n)));
    expect(running.repeated('acme manual')).toBe(false);
    expect(texts(RunningLines.kept(page(1), (key) => running.repeated(key)))).toEqual(['ACME Manual', 'Section 1 body text']); // "Page 1 of 4" is a page number too
  });

  it('leaves out a bare page number further in than the bands when nothing stands beyond it (LaTeX’s foot, 0.17 of the page up), and keeps a number amid the text', () => {
    const latex = { ...PAGE, rows: [row('1 Introduction', 50, 200, 120), row('Body text of the page.', 50, 550, 140), row('3', 295, 305, 660)] };
    expect(texts(RunningLines.kept(latex, () => false))).toEqual(['1 Introduction', 'Body text of the page.']);
    const amid = { ...PAGE, rows: [row('Body text of the page.', 50, 550, 600), row('42', 295, 305, 640), row('More text under it.', 50, 550, 670)] };
    expect(texts(RunningLines.kept(amid, () => false))).toEqual(['Body text of the page.', '42', 'More text under it.']);
    const top = { ...PAGE, rows: [row('7', 295, 305, 150), row('Body text of the page.', 50, 550, 200)] };
    expect(texts(RunningLines.kept(top, () => false))).toEqual(['Body text of the page.']);
  });

  it('guesses from the pages counted so far, and is sure once the count cannot change the answer', () => {
    const running = new RunningLines(10);
    running.addPage(bandKeys(page(1)));
    expect(running.likelyRepeated('acme manual')).toBe(true); // on every page so far
    expect(running.likelyRepeated('only on page two')).toBe(false);
    for (let n = 2; n <= 6; n++) running.addPage(bandKeys(page(1)));
    expect(running.likelyRepeated('acme manual')).toBe(true); // 6 of 10: over half already
  });

  it('reads a page in order without its running lines (both stages together)', () => {
    const running = new RunningLines(4);
    for (let n = 1; n <= 4; n++) running.addPage(bandKeys(page(n)));
    const rows = { ...PAGE, rows: [...page(3).rows, ...twoColumns(6, 400)] };
    expect(texts(readingRows(rows, (key) => running.repeated(key)))).toEqual([
      'Section 3 body text',
      ...Array.from({ length: 6 }, (_, i) => `L${i}`),
      ...Array.from({ length: 6 }, (_, i) => `R${i}`),
    ]);
  });
});
