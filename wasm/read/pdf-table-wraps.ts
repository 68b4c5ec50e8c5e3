// A cell's text wrapped onto more lines than its row's other cells (pdf-table-runs.ts): groff's
// tbl, a manual's "Name / Specification" table, sets each row's cells from the same top line and
// carries a long description onto the lines below, which hold nothing in the row's first column.
// Such a line is the row above's, joined into its cells; a line at a row's distance is a row of
// its own (a row whose first cell is empty), and so is a line of figures (a total) or of cells in
// two columns with a figure among them (an item and its cost). A cell wraps only when its line is
// full: a line whose first word would have fitted after a cell above it (key/value pairs side by
// side, "VIN" over "Color" beside an empty left pair) starts a row. Pure functions over lines
// already split into the table's columns.

import { isCjkCharacter, joinLines } from '../../core/cjk-text.js';
import { isNumber } from './pdf-table-columns.js';

/** Where a line's text in one column starts and ends. */
export interface Extent {
  x: number;
  right: number;
  /** The text ends in a space glyph, which `right` takes in: the line broke at that space. */
  endsInSpace?: true;
}

/** One line of a table: its text in each column ('' where it has none), where it stands, and where each column's text lies when known. */
export interface TableLine {
  texts: string[];
  top: number;
  bottom: number;
  size: number;
  extents?: (Extent | undefined)[];
}

/** A wrapped line follows the line above within this many ems (a line's leading; rows set apart by padding stand further). */
const WRAP_GAP_EMS = 0.6;

/** A line with a number in a cell of its own (a total, an item's cost) is a row: a figure does not wrap. */
const holdsNumber = (texts: readonly string[]) => texts.some(isNumber);

/**
 * Whether `line` goes on the cells of the line right above it rather than starting a row: nothing
 * in the first column, close below, and no cell above that ended with room for the line's next word
 * (`limits`: where each column's text may run to, columnLimits).
 */
export function wrapsFrom(above: TableLine, line: TableLine, limits: readonly number[] = []): boolean {
  if (line.texts[0]) return false;
  if (sameLine(above, line)) return true;
  // A figure alone under a column is a total, not a wrapped cell's text.
  if (line.top - above.bottom > line.size * WRAP_GAP_EMS || line.texts.every((t) => !t || isNumber(t))) return false;
  // Text in two columns or more with a figure among it is a row of its own ("Paint Supplies … 60").
  return !(line.texts.filter(Boolean).length >= 2 && holdsNumber(line.texts)) && !roomAbove(above, line, limits);
}

/** Room kept between a column's text and the next column's: two cells' padding, at least (word processors: 0.1 in a side; browsers, groff: about an em in all). */
const GUTTER_EMS = 1;

/**
 * Where each column's text may run to (NaN where none is known): up to a gutter short of where the
 * next column's text starts, or the furthest any line's text in it ends where that is further. The
 * last column has no such bound — a long word or path that overflows its cell would set one far
 * off — so none is known there.
 */
export function columnLimits(lines: readonly TableLine[]): number[] {
  const count = Math.max(0, ...lines.map((l) => l.texts.length));
  const size = Math.min(...lines.map((l) => l.size));
  const known = (c: number, edge: (e: Extent) => number) =>
    lines
      .map((l) => l.extents?.[c])
      .filter((e): e is Extent => e !== undefined)
      .map(edge);
  return Array.from({ length: count }, (_, c) => {
    const ends = known(c, (e) => e.right);
    const next = known(c + 1, (e) => e.x);
    if (!ends.length) return NaN;
    return Math.max(...ends, next.length ? Math.min(...next) - size * GUTTER_EMS : -Infinity);
  });
}

/** A word's space, and the margin a word must clear to count as having fitted (widths are estimated from the line's characters). */
const SPACE_EMS = 0.25;
const FIT_MARGIN_EMS = 0.5;

/** Whether a column's cell above ended short enough that the line's first word there would have fitted after it: the cell did not wrap. */
export function roomAbove(above: TableLine, line: TableLine, limits: readonly number[]): boolean {
  return line.texts.some((text, c) => {
    const [up, own, limit] = [above.extents?.[c], line.extents?.[c], limits[c]];
    if (!text || !above.texts[c] || !up || !own || limit === undefined || Number.isNaN(limit)) return false;
    return up.right + firstWordWidth(text, own) + line.size * (SPACE_EMS + FIT_MARGIN_EMS) <= limit;
  });
}

/** Punctuation that never starts a line (CJK line breaking): it stays with the character before it. */
const CLOSING = new Set('、。，．：；？！）」』】〕〉》’”');

/** A character's share of a line's width: CJK characters are set an em wide, most others about half that. */
const weight = (char: string) => (isCjkCharacter(char) ? 2 : 1);

/**
 * The width of a text's first unbreakable run, in proportion to its characters' weights: up to a
 * space or a CJK character (which may start a line unless it is closing punctuation), so a CJK
 * character takes the Latin run or the comma after it along ("值。", "到/${application").
 */
function firstWordWidth(text: string, extent: Extent): number {
  const chars = Array.from(text);
  let end = 1;
  while (end < chars.length && !/\s/.test(chars[end] as string) && (!isCjkCharacter(chars[end] as string) || CLOSING.has(chars[end] as string))) end++;
  const sum = (part: readonly string[]) => part.reduce((n, c) => n + weight(c), 0);
  return ((extent.right - extent.x) * sum(chars.slice(0, end))) / sum(chars);
}

/** Rows stand apart by their padding when the least room above a row is more than this many ems over the most above a line that continues one. */
const PADDING_EMS = 0.15;

/**
 * Whether the lines' spacing tells rows apart: every line with text in the first column (a row)
 * stands further below the line above than every line without (a cell's next line). A cell's
 * line may then end short of its column (a line break, a list in the cell) and still be the
 * cell's: the room above a line (roomAbove) speaks only where rows and a cell's lines are spaced
 * alike.
 */
export function rowsApartByPitch(lines: readonly TableLine[]): boolean {
  const gaps = bodyGaps(lines);
  const [rows, others] = [gaps.filter((g) => g.row), gaps.filter((g) => !g.row)];
  if (!rows.length || !others.length) return false;
  return Math.min(...rows.map((g) => g.gap)) > Math.max(...others.map((g) => g.gap)) + Math.min(...gaps.map((g) => g.size)) * PADDING_EMS;
}

/** The room above each line under the second, and whether that line has text in the first column (starts a row). */
const bodyGaps = (lines: readonly TableLine[]) =>
  lines.slice(2).map((line, i) => ({ row: Boolean(line.texts[0]), gap: line.top - (lines[i + 1] as TableLine).bottom, size: line.size }));

/**
 * Whether the first line's cell goes on in the line under it: a table printed without a header
 * row (pandoc's table whose header is empty), so no rule or repeated header stands on its pages.
 * Only where the spacing tells rows apart (rowsApartByPitch) and the second line, its first
 * column empty, stands no further below the first than a cell's next lines stand below theirs; a
 * header's padding, or the rest of a cut row under a repeated header, stands a row's room off.
 */
function firstLineWraps(lines: readonly TableLine[]): boolean {
  const [first, second] = lines;
  if (!first || !second || second.texts[0] || !rowsApartByPitch(lines)) return false;
  const others = bodyGaps(lines).filter((g) => !g.row);
  return second.top - first.bottom <= Math.max(...others.map((g) => g.gap)) + second.size * PADDING_EMS;
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
  const limits = rowsApartByPitch(lines) ? [] : columnLimits(lines);
  const headerWraps = firstLineWraps(lines);
  const out: string[][] = [];
  lines.forEach((line, i) => {
    const last = out.at(-1);
    if (last && (out.length >= 2 || headerWraps) && wrapsFrom(lines[i - 1] as TableLine, line, limits))
      line.texts.forEach((text, c) => (last[c] = joinLines([last[c] as string, text].filter(Boolean))));
    else out.push(rows[i] as string[]);
  });
  return out;
}
