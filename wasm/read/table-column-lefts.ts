// Where a borderless table's columns start on the page, for a writer that sets them there: a
// table found by how its text lines up has no rulings to say how wide its columns are, and
// columns of equal width move every column but the first off the PDF's.

import type { Row } from './pdf-page-model.js';

/** Points a column's text keeps clear of the next column's start: a face a little wider than the PDF's still fits. */
const CLEARANCE = 4;

/**
 * Points from the page's left to each column's text: the leftmost of that column's cells over
 * the rows that have a cell for each column. None where no row has, or where a column's text
 * would run into the next column's.
 */
export function columnLefts(rows: readonly Row[], count: number): number[] | undefined {
  const full = rows.filter((row) => row.cells.length === count);
  if (count < 2 || full.length === 0) return undefined;
  const column = (k: number) => full.map((row) => row.cells[k] as Row['cells'][number]);
  const lefts = Array.from({ length: count }, (_, k) => Math.min(...column(k).map((cell) => cell.x)));
  const clear = lefts.every((x, k) => k === 0 || Math.max(...column(k - 1).map((cell) => cell.right)) + CLEARANCE <= x);
  return clear ? lefts : undefined;
}
