// Stage 0 of PDF reading, for right-to-left lines (Arabic, Persian, Hebrew): the characters in
// logical order, from where the glyphs stand, as poppler orders them — not in the order the
// content stream draws them. Producers draw such a line three ways: in logical order
// (LibreOffice), word by word left to right with each word's letters in logical order (Chrome's
// Skia), or glyph by glyph left to right. Read by position, all three give the same text: the
// glyphs from right to left, and a run of left-to-right words inside the line ("Strict Mode",
// "2024") left to right — the Unicode bidirectional algorithm's layout of a right-to-left
// paragraph, undone.

import { isRightToLeft } from './pdf-rows.js';

/** What ordering needs of a character: the text and the left and right of its box. */
export interface PlacedChar {
  c: string;
  left: number;
  right: number;
}

/** Right-to-left letters; left-to-right letters and digits; anything else (spaces, punctuation, marks) takes its place from them. */
type Strength = 'R' | 'L' | 'N';
const strengthOf = (c: string): Strength => (isRightToLeft(c) ? 'R' : /[\p{L}\p{N}]/u.test(c) ? 'L' : 'N');

/** Whether a line is written right to left: more of its letters are of a right-to-left script than of a left-to-right one. */
export const isRightToLeftLine = (chars: readonly PlacedChar[]) => isRightToLeft(chars.map((c) => c.c).join(''));

const center = (c: PlacedChar) => (c.left + c.right) / 2;

/**
 * Whether a right-to-left line is drawn in visual order: from one word to the next of its
 * right-to-left words (a space between them, or glyphs `apart`), the stream steps right more
 * often than left. A line drawn in logical order
 * (LibreOffice) steps left, and is read as it comes: its base direction may be left to right (a
 * heading that ends in `null` drawn with `null` at its right), which its positions cannot tell.
 */
export function drawnInVisualOrder<T extends PlacedChar>(chars: readonly T[], apart: (before: T, next: T) => boolean): boolean {
  let right = 0;
  let left = 0;
  let last: T | undefined;
  let newWord = false;
  for (const ch of chars) {
    if (ch.c.trim() === '') newWord = true;
    if (strengthOf(ch.c) !== 'R') continue;
    if (last && (newWord || apart(last, ch))) {
      if (center(ch) > center(last)) right++;
      else left++;
    }
    last = ch;
    newWord = false;
  }
  return right > left;
}

const isMark = (c: PlacedChar) => (/^\p{M}+$/u.test(c.c) ? 1 : 0);

/** Characters from the rightmost to the leftmost; glyphs at one place in the stream's order, a combining mark after its letter. */
export const fromTheRight = <T extends PlacedChar>(chars: readonly T[]): T[] =>
  chars
    .map((c, i) => ({ c, i }))
    .sort((a, b) => center(b.c) - center(a.c) || isMark(a.c) - isMark(b.c) || a.i - b.i)
    .map(({ c }) => c);

/**
 * A right-to-left line's characters in logical order: read from right to left by where each
 * glyph stands (glyphs at one place, a letter and its marks, in the stream's order), then each run
 * of left-to-right letters and digits — with the spaces and marks between them, not those at its
 * ends, which belong to the right-to-left text around it (the brackets of "(bugs)") — turned
 * back to read left to right.
 */
export function logicalOrder<T extends PlacedChar>(chars: readonly T[]): T[] {
  const order = fromTheRight(chars);
  const strengths = order.map((c) => strengthOf(c.c));
  const out: T[] = [];
  for (let k = 0; k < order.length;) {
    if (strengths[k] !== 'L') {
      out.push(order[k++] as T);
      continue;
    }
    let end = k + 1;
    while (end < order.length && strengths[end] !== 'R') end++;
    while (strengths[end - 1] !== 'L') end--;
    out.push(...order.slice(k, end).reverse());
    k = end;
  }
  return out;
}
