// Columns only a ruled header shows: a results table whose body fills its first column alone (a
// test report's channel counts, the figures still to be measured), or leaves a column empty in
// every row, has no text under those header cells, so the column bands pdf-rules.ts reads off
// the body's pieces miss them and the table reads as one column, no table. Under Chrome's print
// of pandoc's table the header's cells, set in narrow columns, wrap over several lines each,
// centred on one another. A header cell standing over no body column is a column of its own
// (unless a body column beside it has no header cell over it: see withHeaderColumns); a
// header cell over one or more body columns adds none (a cell spanning two columns stays over
// both, pdf-header-spans.ts). Pure functions over plain data.

import type { GridLine } from './pdf-grid.js';

type Band = { from: number; to: number };

/** A ruled table's pieces closer than this many ems are one cell (a word space is a quarter em); pdf-rule-sections.ts counts cells by it too. */
export const RULED_CELL_GAP = 0.8;

const right = (p: GridLine) => p.bbox.x + p.bbox.w;

/** The header's cells as x bands: its pieces over all its lines merged where they overlap or nearly meet. */
function headerBands(header: readonly GridLine[]): Band[] {
  const bands: Band[] = [];
  for (const p of [...header].sort((a, b) => a.bbox.x - b.bbox.x)) {
    const last = bands.at(-1);
    if (last && p.bbox.x - last.to <= p.font.size * RULED_CELL_GAP) last.to = Math.max(last.to, right(p));
    else bands.push({ from: p.bbox.x, to: right(p) });
  }
  return bands;
}

const overlaps = (a: Band, b: Band) => Math.min(a.to, b.to) > Math.max(a.from, b.from);

/**
 * The body's column bands with a band added for each header cell standing over none of them, left
 * to right. A header cell beside a body column no header cell stands over is that column's own:
 * Chrome centres a header cell in its column and sets the body's cells at the column's start (its
 * left, or its right on a right-to-left page), so a wide column of short names ("port", "ip")
 * leaves its centred header clear of them.
 */
export function withHeaderColumns(columns: readonly Band[], header: readonly GridLine[]): Band[] {
  const cells = headerBands(header);
  const headless = (c: Band) => !cells.some((h) => overlaps(c, h));
  const added = cells.filter((h) => {
    if (columns.some((c) => overlaps(c, h))) return false;
    const before = columns.filter((c) => c.to <= h.from).at(-1);
    const after = columns.find((c) => c.from >= h.to);
    return ![before, after].some((c) => c !== undefined && headless(c));
  });
  return [...columns, ...added].sort((a, b) => a.from - b.from);
}

/**
 * Whether a body row stands under the header's cells, each piece under one of them at most: a row
 * of figures in a results table, where a paragraph between two rules runs across several. Such
 * rows make a table under a ruled header of two cells or more even when they fill one cell each.
 */
export function staysUnderHeader(row: readonly GridLine[][], header: readonly GridLine[]): boolean {
  const cells = headerBands(header);
  return row.flat().every((p) => cells.filter((c) => overlaps(c, { from: p.bbox.x, to: right(p) })).length <= 1);
}
