// Where a block stands across its column: a receipt centres its shop's name and address (in
// Courier: a code block), a booking sets its cinema's name flush right. Written flush left, each
// of these moved its text by up to half the column. A paragraph or heading that stands as far
// from both edges is centred, and one against the right edge only is set right; a code block
// standing in from the left is moved in by spaces. Neither is given an indent: pandoc, like other
// readers of DOCX, reads an indented paragraph as a block quote.

import { AlignmentType } from 'docx';
import type { PdfTextStyle } from '../pdf-layout.js';

/** Ems a block must stand in from the column's left edge to be placed: less is a glyph's side bearing. */
const LEAST_IN = 1;
/** Ems the two sides' space may differ by and the block still be centred (a line's rounding, the faces' widths). */
const CENTRE_SLACK = 1.5;
/** Ems from the right edge a block flush right may end. */
const RIGHT_SLACK = 1;

/** A monospaced font's advance in ems (Courier New's). */
const MONO_ADVANCE = 0.6;

export interface Placement {
  alignment?: (typeof AlignmentType)[keyof typeof AlignmentType];
  /** Twips the right edge is moved in (out, below 0): a centred block's axis where the PDF's is. */
  indent?: { right: number };
}

/**
 * A block of two lines or more whose lines are each centred on one axis (a letterhead's address
 * under a logo): their middles within the slack of the longest line's, and not all starting where
 * it does (wrapped text shares its left edge). Its axis, points from the page's left; its lines
 * were each ended where they end. A centred block's axis need not be the column's: a form set in
 * a frame narrower than the page centres its title in the frame.
 */
export function centredAxis(pdf: PdfTextStyle): number | undefined {
  const ends = pdf.lineEnds ?? [];
  const axis = (pdf.left + pdf.right) / 2;
  const slack = CENTRE_SLACK * pdf.size;
  if (!ends.length || !ends.every((end) => Math.abs((end.left + end.right) / 2 - axis) <= slack)) return undefined;
  return ends.some((end) => end.left - pdf.left >= LEAST_IN * pdf.size) ? axis : undefined;
}

/** Centred on `axis`: the right edge moved by what puts the column's middle there (a right indent: pandoc reads a left one as a block quote). */
function centredOn(axis: number, left: number, right: number): Placement {
  const moved = Math.round((left + right - 2 * axis) * 20);
  return { alignment: AlignmentType.CENTER, ...(moved !== 0 && { indent: { right: moved } }) };
}

/**
 * A paragraph's or heading's place across the column `[left, right]` (points from the page's
 * left). `axes`: those of the centred blocks of its band (centredAxis); a line whose middle
 * stands on one (a title over a centred address) is centred on it.
 */
export function placement(pdf: PdfTextStyle, left: number, right: number, axes: readonly number[] = []): Placement {
  const em = pdf.size;
  const [before, after] = [pdf.left - left, right - pdf.right];
  if (before < LEAST_IN * em) return {};
  const middle = (pdf.left + pdf.right) / 2;
  const axis = centredAxis(pdf) ?? axes.find((a) => Math.abs(middle - a) <= (CENTRE_SLACK * em) / 2);
  if (axis !== undefined) return centredOn(axis, left, right);
  if (Math.abs(before - after) <= CENTRE_SLACK * em) return { alignment: AlignmentType.CENTER };
  return after <= RIGHT_SLACK * em ? { alignment: AlignmentType.RIGHT } : {};
}

/** The spaces that move a code block's lines in from the column's `left` to where the PDF sets them. */
export function codeIndent(pdf: PdfTextStyle, left: number): string {
  const before = pdf.left - left;
  return before < LEAST_IN * pdf.size ? '' : ' '.repeat(Math.round(before / (MONO_ADVANCE * pdf.size)));
}
