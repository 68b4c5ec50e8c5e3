// A Latin word too long for its table cell: a word processor without hyphenation (LibreOffice,
// Word) breaks it where the cell's width runs out, with no hyphen, and carries the rest onto the
// cell's next line ("bearerTok" / "en"). Joined with a space as two words, the cell reads
// "bearerTok en". Told by the glyphs' positions, not by a dictionary: the line above is one word
// that runs up to the cell's limit, so that not even the next line's first character would have
// fitted after it. A line broken at a space ends short of the limit by a space and a word.

import type { Extent } from './pdf-table-wraps.js';

/** One line of a cell: its text and where that text lies. */
export interface CellLine {
  text: string;
  extent: Extent;
}

/** Letters and digits of Latin script end the piece above and start the piece below. */
const ENDS_IN_WORD = /[A-Za-z0-9]$/;
const STARTS_IN_WORD = /^[A-Za-z0-9]/;

/** A character's width on the line below: its text's width shared out among its characters. */
const charWidth = (line: CellLine) => (line.extent.right - line.extent.x) / Math.max(1, Array.from(line.text).length);

/**
 * Whether `below` goes on the word `above` ends with, no space between: `above` is one word of
 * Latin letters or digits, `below` starts with one, and `above` ends within a character's width
 * of `limit` (where the column's text may run to, columnLimits).
 */
export function brokenInWord(above: CellLine, below: CellLine, limit: number): boolean {
  // A line that ends in a space glyph broke there, however near the limit the space's box runs.
  if (!Number.isFinite(limit) || above.extent.endsInSpace || /\s/.test(above.text) || !ENDS_IN_WORD.test(above.text) || !STARTS_IN_WORD.test(below.text))
    return false;
  return above.extent.right + charWidth(below) > limit;
}
