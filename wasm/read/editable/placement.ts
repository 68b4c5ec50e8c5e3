// Where a block stands across its column: a receipt centres its shop's name and address, a
// booking sets its cinema's name flush right, and a block of key/value lines may stand indented.
// Written flush left, each of these moved its text by up to half the column. A paragraph or
// heading that stands as far from both edges is centred, one against the right edge only is set
// right, and one standing in from the left is indented that far.

import { AlignmentType } from 'docx';
import type { PdfTextStyle } from '../pdf-layout.js';

/** Ems a block must stand in from the column's left edge to be placed: less is a glyph's side bearing. */
const LEAST_IN = 1;
/** Ems the two sides' space may differ by and the block still be centred (a line's rounding, the faces' widths). */
const CENTRE_SLACK = 1.5;
/** Ems from the right edge a block flush right may end. */
const RIGHT_SLACK = 1;

export interface Placement {
  alignment?: (typeof AlignmentType)[keyof typeof AlignmentType];
  /** Twips from the column's left. */
  indent?: { left: number };
}

/**
 * A block's place across the column `[left, right]` (points from the page's left). `centred`:
 * whether the block may be centred or set right (a code block keeps its lines' own indents, and
 * is only indented).
 */
export function placement(pdf: PdfTextStyle, left: number, right: number, centred: boolean): Placement {
  const em = pdf.size;
  const [before, after] = [pdf.left - left, right - pdf.right];
  if (before < LEAST_IN * em) return {};
  if (centred && Math.abs(before - after) <= CENTRE_SLACK * em) return { alignment: AlignmentType.CENTER };
  if (centred && after <= RIGHT_SLACK * em) return { alignment: AlignmentType.RIGHT };
  return { indent: { left: Math.round(before * 20) } };
}
