// Text between two ruled tables of one width: pandoc's tables in Chrome's print are each ruled at
// their top, under their header and at their bottom, so two tables of one width chain into one
// run of rules, and the heading, paragraphs or code between them lie between two of those rules.
// A row's text hugs the rules around it within its cell's padding; a heading or a paragraph
// between two tables stands a paragraph's spacing off both, and so does a short line leading
// into the second table. Pure functions over plain data, tested on arrays.

import { visualLines, type GridLine, type Line } from './pdf-grid.js';
import { RULED_CELL_GAP } from './pdf-header-columns.js';

/** Text standing farther than this many ems off both rules around it is no table row. */
const OFF_RULES = 1;

/**
 * Whether a section between two of the rules, from the `from`th section down (1: below the
 * header), holds text standing well off both rules: a heading, paragraphs or a code block between
 * two tables, so the rules are no one table's. A section is judged by its topmost and bottommost
 * text, since a row's cells all hug its rules where its tallest cell does (a lone line of pieces,
 * as a heading's number and its title in another face, is judged the same way). The reader tests the header's section (0) too: a
 * header row hugs its rules as well, and the rule above may be the bottom rule of a table above
 * whether or not that table was read from its rules (its top rule missing from them).
 */
export function holdsTextBetweenTables(rules: readonly Line[], lines: readonly GridLine[], from = 1): boolean {
  for (let i = from; i + 1 < rules.length; i++) {
    const above = (rules[i] as Line).at;
    const below = (rules[i + 1] as Line).at;
    const section = visualLines(lines.filter((l) => l.bbox.y + l.bbox.h / 2 > above && l.bbox.y + l.bbox.h / 2 < below));
    if (section.length > 0 && !isLoneRowOfCells(section) && standsOff(section.flat(), above, below)) return true;
  }
  return false;
}

/** A lone line of this many cells or more is a row, however far off its rules. */
const ROW_CELLS = 3;

/**
 * Whether a section holds one line of ROW_CELLS cells or more, a column gap apart: a row centred
 * in a taller row whose tallest cell the reader does not see (Chrome clips a table too wide for
 * its page at the page's edge and drops the glyphs beyond it, a narrow last column's header
 * wrapped over four lines there), where a heading or a line between two tables is one phrase.
 */
function isLoneRowOfCells(section: readonly GridLine[][]): boolean {
  if (section.length !== 1) return false;
  const line = section[0] as GridLine[];
  const apart = line.filter((p, k) => k > 0 && p.bbox.x - ((line[k - 1] as GridLine).bbox.x + (line[k - 1] as GridLine).bbox.w) > p.font.size * RULED_CELL_GAP);
  return apart.length + 1 >= ROW_CELLS;
}

/** Whether the text of `pieces` stands more than OFF_RULES ems (of the text nearest each rule) below `above` and above `below`. */
function standsOff(pieces: readonly GridLine[], above: number, below: number): boolean {
  const topmost = pieces.reduce((a, b) => (b.bbox.y < a.bbox.y ? b : a));
  const bottommost = pieces.reduce((a, b) => (b.bbox.y + b.bbox.h > a.bbox.y + a.bbox.h ? b : a));
  return topmost.bbox.y - above > topmost.font.size * OFF_RULES && below - (bottommost.bbox.y + bottommost.bbox.h) > bottommost.font.size * OFF_RULES;
}
