// Rows of numbers beside a cell that spans them (LaTeX's \multirow, a result table's groups): the
// spanning cell is set centred on the rows' lines, so the lines read as one row of wrapped cells
// (pdf-rules.ts joins lines closer than its rows' pitch). But a number does not wrap: where two
// columns or more hold one number a line on the same lines, each of those lines is a row of its
// own, and the spanning cell's text goes with the first of them. Pure functions over plain data.

import { columnOf } from './pdf-header-spans.js';
import type { GridLine } from './pdf-grid.js';

/** A table cell that is one number: a sign, digits with separators, a percent sign. */
const NUMBER = /^[-+±−]?\d[\d.,]*%?$/u;

/** Columns of numbers at least this many make a row's lines rows of their own. */
const MIN_NUMBER_COLUMNS = 2;

type Band = { from: number; to: number };

/**
 * A row's visual lines split where they are rows of numbers (see above); the row as it is when
 * fewer than two columns hold a number on each of two lines or more, or another line holds one.
 */
export function numericRows(row: readonly GridLine[][], columns: readonly Band[]): GridLine[][][] {
  if (row.length < 2) return [[...row]];
  const numbers = row.map((v) => new Set(v.filter((p) => NUMBER.test(p.text.trim())).map((p) => columnOf(p, columns))));
  const anchors = row.map((_, i) => i).filter((i) => (numbers[i] as Set<number>).size >= MIN_NUMBER_COLUMNS);
  if (anchors.length < 2) return [[...row]];
  // The number columns every anchor line fills, and no other line touches: else these are not rows of numbers.
  const shared = [...(numbers[anchors[0] as number] as Set<number>)].filter((k) => anchors.every((i) => (numbers[i] as Set<number>).has(k)));
  if (shared.length < MIN_NUMBER_COLUMNS) return [[...row]];
  const others = row.filter((_, i) => !anchors.includes(i));
  if (others.some((v) => v.some((p) => shared.includes(columnOf(p, columns))))) return [[...row]];
  const rows = anchors.map((i) => [row[i] as GridLine[]]);
  (rows[0] as GridLine[][]).push(...others);
  return rows.map((r) => r.sort((a, b) => (a[0] as GridLine).y - (b[0] as GridLine).y));
}
