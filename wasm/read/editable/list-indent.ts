// Where a list's markers and text stand, as the PDF sets them. Word's list levels hang their text
// 36 points in with the marker at 18; notes in small print often hang theirs a few points past a
// marker at the column's edge (docling's normal_4pages: 11.5 points), and at the levels' default
// every note wraps a line more than the PDF's, running the page onto the next.

import type { PdfTextStyle } from '../pdf-layout.js';
import { twips } from './table-columns.js';

/** Twips: the items' text from the column's left, and the marker's place before it; and points from the page's left to the text. */
export interface ListIndent {
  indent: { left: number; hanging: number };
  textLeft: number;
}

/** Ems a line must start past the markers to be an item's text under a hanging indent (not the marker's own line). */
const LEAST_HANG = 0.5;
/** Ems the text may hang past its marker; more is a line set apart (a quotation inside the note), not the indent. */
const MOST_HANG = 4;
/** Ems a digit, the dot after a number and a bullet take in the markers' faces (Liberation's and DejaVu's about), with some to spare. */
const DIGIT_EMS = 0.56;
const DOT_EMS = 0.35;
const BULLET_EMS = 0.7;

/** The middle of some numbers, the lower of the two middles where they are even. */
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;

/**
 * The indent of a list whose items' lines after the first hang past their markers, from the
 * items' PDF text (each item's first paragraph): markers at the items' leftmost line, text where
 * the lines under them start. None where no line hangs (a list whose lines wrap back under the
 * marker keeps Word's levels) or where the hang is too wide to be an indent.
 */
export function hangingIndent(items: readonly PdfTextStyle[], columnLeft: number, ordered: boolean): ListIndent | undefined {
  if (!items.length) return undefined;
  const size = median(items.map((item) => item.size));
  const marker = Math.min(...items.map((item) => item.left));
  const hung = items.flatMap((item) => (item.lineEnds ?? []).map((end) => end.left)).filter((left) => left - marker >= LEAST_HANG * size);
  if (!hung.length) return undefined;
  const text = median(hung);
  if (text - marker > MOST_HANG * size) return undefined;
  // The marker keeps room for its label (written at the item's size): one wider than the hang
  // would push the text on to the next tab stop.
  const label = ordered ? String(items.length).length * DIGIT_EMS + DOT_EMS : BULLET_EMS;
  const hanging = Math.max(text - marker, label * size);
  const left = Math.max(text - columnLeft, hanging);
  return { indent: { left: twips(left), hanging: twips(hanging) }, textLeft: text };
}

/**
 * Points an item's lines take across the page less its marker's: the PDF's first line starts at
 * the marker, which the item's text no longer holds (the list writes it), and a width fitted to
 * the text with the marker's counted in would set CJK text too wide for the PDF's lines.
 */
export const widthLessMarker = (item: Pick<PdfTextStyle, 'left' | 'width'>, textLeft: number): number => item.width - Math.max(0, textLeft - item.left);
