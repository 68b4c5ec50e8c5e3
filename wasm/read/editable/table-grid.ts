// A borderless table's grid where the PDF says where its columns start (table-column-lefts.ts):
// each column as wide as from its text's start to the next's, the last to the text column's
// right edge or past its text, the table indented to the first, and no cell margins, so each
// column's text starts where the PDF's does. Tables with spans keep equal columns: their cells do
// not say one column each.

import type { CellSource } from '../blocks.js';
import type { PdfTableBox } from '../pdf-layout.js';

/**
 * Points the last column reaches past its widest text where the text column ends sooner: a page's
 * right margin is measured to its longest line, and a face a little wider than the PDF's (or bold)
 * would wrap the last column's words.
 */
const LAST_COLUMN_SLACK = 24;

/** Points: a table's columns, where its first starts (from the text's left) and each one's width. */
interface TableGrid {
  indent: number;
  widths: number[];
}

/** The grid of a borderless table of `columns` columns in a text column from `left` to `right` (points from the page's left). */
export function borderlessGrid(
  rows: readonly CellSource[][],
  columns: number,
  box: PdfTableBox | undefined,
  [left, right]: readonly [number, number],
): TableGrid | undefined {
  const lefts = box?.columnLefts;
  if (!box || box.ruled || lefts?.length !== columns) return undefined;
  if (rows.some((row) => row.length !== columns || row.some((cell) => cell.covered || cell.colSpan > 1 || cell.rowSpan > 1))) return undefined;
  const end = Math.max(right, box.right + LAST_COLUMN_SLACK);
  const widths = lefts.map((x, k) => (lefts[k + 1] ?? end) - x);
  return { indent: (lefts[0] as number) - left, widths };
}
