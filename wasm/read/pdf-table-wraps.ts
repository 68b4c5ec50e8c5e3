// A cell's text wrapped onto more lines than its row's other cells (pdf-table-runs.ts): groff's
// tbl, a manual's "Name / Specification" table, sets each row's cells from the same top line and
// carries a long description onto the lines below, which hold nothing in the row's first column.
// Such a line is the row above's, joined into its cells; a line at a row's distance is a row of
// its own (a row whose first cell is empty), and so is a line of figures (a total) or of cells in
// two columns with a figure among them (an item and its cost). Pure functions over lines already
// split into the table's columns.

import { joinLines } from '../../core/cjk-text.js';
import { isNumber } from './pdf-table-columns.js';

/** One line of a table: its text in each column ('' where it has none), and where it stands. */
export interface TableLine {
  texts: string[];
  top: number;
  bottom: number;
  size: number;
}

/** A wrapped line follows the line above within this many ems (a line's leading; rows set apart by padding stand further). */
const WRAP_GAP_EMS = 0.6;

/** A line with a number in a cell of its own (a total, an item's cost) is a row: a figure does not wrap. */
const holdsNumber = (texts: readonly string[]) => texts.some(isNumber);

/** Whether `line` goes on the cells of the line right above it rather than starting a row: nothing in the first column, close below. */
export function wrapsFrom(above: TableLine, line: TableLine): boolean {
  if (line.texts[0]) return false;
  if (sameLine(above, line)) return true;
  // A figure alone under a column is a total, not a wrapped cell's text.
  if (line.top - above.bottom > line.size * WRAP_GAP_EMS || line.texts.every((t) => !t || isNumber(t))) return false;
  // Text in two columns or more with a figure among it is a row of its own ("Paint Supplies … 60").
  return !(line.texts.filter(Boolean).length >= 2 && holdsNumber(line.texts));
}

/** Lines that overlap by more than a quarter of an em are one line of the table whose cells' baselines differ (a cell set in a smaller code font): never two rows. */
const sameLine = (above: TableLine, line: TableLine) => line.top < above.bottom - line.size * 0.25;

/**
 * The table's rows with each wrapped line joined into the row above it. The first line is the
 * header and the line below it starts the first row whatever it holds (a header's value column
 * does not wrap alone); it takes two rows with a first cell to show the first column is the one
 * every row fills.
 */
export function joinWrappedLines(lines: readonly TableLine[]): string[][] {
  const rows = lines.map((l) => [...l.texts]);
  if (lines.filter((l) => l.texts[0]).length < 2) return rows;
  const out: string[][] = [];
  lines.forEach((line, i) => {
    const last = out.at(-1);
    if (last && out.length >= 2 && wrapsFrom(lines[i - 1] as TableLine, line))
      line.texts.forEach((text, c) => (last[c] = joinLines([last[c] as string, text].filter(Boolean))));
    else out.push(rows[i] as string[]);
  });
  return out;
}
