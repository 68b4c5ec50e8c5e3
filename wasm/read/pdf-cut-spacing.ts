// A ruled table's rows above a page break, told apart again by the spacing its part below the
// break shows. Rows come from the spacing (pdf-rules.ts): a cell's wrapped lines sit at the line
// height, rows a cell's padding further apart (Chrome's print of pandoc's tables), or, where the
// spacing looks even (LaTeX), each line with text in its first column starts a row. A part too
// short to show two spacings (a break right inside the first body row: two lines under the
// header) reads as even, so each of its wrapped lines is a row. The same table's part on the next
// page shows both spacings; lines above the break that stand at its line spacing, nearer it than
// its rows' spacing, are one row's wrapped lines. A LaTeX table's part below shows one spacing
// only, and nothing is read again. Pure functions over plain data; pdf-rules.ts measures the
// spacing, pdf-table-pages.ts reads again with it before it joins the two parts.

import type { CellSource } from './blocks.js';

/** How a ruled table's lines were spaced, as its table block keeps it (`data.pdfRowSpacing`). */
export interface RowSpacing {
  /**
   * Each body row's baseline distance (points) from the line above it, the body's rows in order
   * (the table's last rows; its header row, or rows, come first); null where a rule lies between.
   */
  leads: (number | null)[];
  /** The baseline distance of a cell's wrapped lines, where the rows stood further apart and the spacing told them apart. */
  wrap?: number;
}

declare module 'mdast' {
  interface Data {
    /** A ruled table's line spacing, as pdf-rules.ts read its rows by it. */
    pdfRowSpacing?: RowSpacing;
  }
}

type Line = { y: number };

/**
 * The spacing of a table's body rows, each row its visual lines (each a line's pieces), top to
 * bottom; `rules` the y of the rules inside the table, `wrap` the wrapped lines' spacing the
 * rows were told apart by, if any.
 */
export function rowSpacing(rows: readonly (readonly (readonly Line[])[])[], rules: readonly number[], wrap: number | undefined): RowSpacing {
  const baseline = (line: readonly Line[]) => (line[0] as Line).y;
  const leads = rows.map((row, k) => {
    const above = rows[k - 1]?.at(-1);
    const first = row[0];
    if (!above || !first) return null;
    const [from, to] = [baseline(above), baseline(first)];
    return rules.some((r) => r > from && r < to) ? null : to - from;
  });
  return wrap === undefined ? { leads } : { leads, wrap };
}

type Grid = readonly (readonly CellSource[])[];

const plain = (row: readonly CellSource[]) => row.every((cell) => !cell.covered && cell.colSpan === 1 && cell.rowSpan === 1);

/**
 * `before`'s rows with those that stand at `after`'s wrapped-line spacing joined to the row above
 * each, cell by cell with `joinCell`: `before` is a table's part above a page break, read with
 * no spacing of its own to tell its rows by, `after` the same table's part below, which showed
 * both spacings. Rows stay as they are where `after` showed no wrapped lines or no row spacing.
 */
export function rowsByNextSpacing(
  before: Grid,
  own: RowSpacing | undefined,
  after: RowSpacing | undefined,
  joinCell: (above: CellSource, below: CellSource) => CellSource,
): Grid {
  const wrap = after?.wrap;
  const rowLeads = (after?.leads ?? []).filter((lead): lead is number => lead !== null && wrap !== undefined && lead > wrap);
  if (!own || own.wrap !== undefined || wrap === undefined || rowLeads.length === 0 || own.leads.length > before.length) return before;
  const rowPitch = Math.min(...rowLeads);
  // The body's rows are the table's last; the first of them stands under the header's rule.
  const bodyStart = before.length - own.leads.length;
  const wrapped = (lead: number | null) => lead !== null && Math.abs(lead - wrap) < Math.abs(lead - rowPitch);
  const rows: CellSource[][] = [];
  before.forEach((row, k) => {
    const above = rows.at(-1);
    const joins = k > bodyStart && above && plain(above) && plain(row) && above.length === row.length && wrapped(own.leads[k - bodyStart] ?? null);
    if (joins) rows[rows.length - 1] = above.map((cell, c) => joinCell(cell, row[c] as CellSource));
    else rows.push([...row]);
  });
  return rows.length === before.length ? before : rows;
}
