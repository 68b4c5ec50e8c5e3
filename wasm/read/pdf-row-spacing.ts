// Rows told apart by two exact line spacings: Chrome's print of a table whose cells all wrap
// alike (every row two lines in every column, top-aligned, so no band of centred cells shows the
// rows) sets a cell's lines at the line height and the rows a padding further apart (pandoc's
// CSS: 1.25 times). A ruled table's body is otherwise taken as evenly spaced (LaTeX), where a line
// with text in the first column starts a row, and every wrapped line of such a table would be a
// row. Two spacings alone are not enough: LaTeX's rows of one line, spaced out every few rows
// (\addlinespace), have two as well; there the lines at the smaller spacing are not wrapped.

import type { GridLine } from './pdf-grid.js';
import { columnOf } from './pdf-header-spans.js';

/** Pitches within this share of one another are one spacing. */
const SAME_PITCH = 0.02;
/** The wider spacing is at least this many times the narrower: a row's padding, not a line's jitter. */
const PADDED = 1.2;
/** A wrapped line's text ends within this many ems of its column's furthest text: the next word did not fit. */
const FULL_EMS = 3;

type Band = { from: number; to: number };

/** Whether a line holds a cell of several words ending near its column's furthest text: a cell that wrapped. */
function wrapped(line: readonly GridLine[], furthest: readonly number[], columns: readonly Band[]): boolean {
  return line.some((p) => /\S\s+\S/.test(p.text.trim()) && (furthest[columnOf(p, columns)] as number) - (p.bbox.x + p.bbox.w) <= p.font.size * FULL_EMS);
}

/**
 * Whether the body's baseline `pitches` (one a line after the first) are of two exact spacings,
 * the wider by a row's padding, and every line at the narrower one follows a line that wrapped:
 * then the narrower spacing joins a cell's wrapped lines and the wider starts a row.
 */
export function twoSpacings(body: readonly (readonly GridLine[])[], pitches: readonly number[], columns: readonly Band[]): boolean {
  if (pitches.length < 3) return false;
  const [least, most] = [Math.min(...pitches), Math.max(...pitches)];
  const near = (p: number, q: number) => Math.abs(p - q) <= q * SAME_PITCH;
  if (most < least * PADDED || !pitches.every((p) => near(p, least) || near(p, most))) return false;
  const furthest = columns.map((_, c) =>
    Math.max(
      ...body
        .flat()
        .filter((p) => columnOf(p, columns) === c)
        .map((p) => p.bbox.x + p.bbox.w),
    ),
  );
  return pitches.every((p, i) => !near(p, least) || wrapped(body[i] as readonly GridLine[], furthest, columns));
}
