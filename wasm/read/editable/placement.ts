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
}

/** A paragraph's or heading's place across the column `[left, right]` (points from the page's left). */
export function placement(pdf: PdfTextStyle, left: number, right: number): Placement {
  const em = pdf.size;
  const [before, after] = [pdf.left - left, right - pdf.right];
  if (before < LEAST_IN * em) return {};
  if (Math.abs(before - after) <= CENTRE_SLACK * em) return { alignment: AlignmentType.CENTER };
  return after <= RIGHT_SLACK * em ? { alignment: AlignmentType.RIGHT } : {};
}

/** The spaces that move a code block's lines in from the column's `left` to where the PDF sets them. */
export function codeIndent(pdf: PdfTextStyle, left: number): string {
  const before = pdf.left - left;
  return before < LEAST_IN * pdf.size ? '' : ' '.repeat(Math.round(before / (MONO_ADVANCE * pdf.size)));
}
