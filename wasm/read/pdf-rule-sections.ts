// Text between two ruled tables of one width: pandoc's tables in Chrome's print are each ruled at
// their top, under their header and at their bottom, so two tables of one width chain into one
// run of rules, and the heading between them lies between two of those rules. A row's text hugs
// the rules around it within its cell's padding; a heading or a paragraph between two tables
// stands a paragraph's spacing off both, and so does a short line leading into the second table.
// Pure functions over plain data, tested on arrays.

import type { GridLine, Line } from './pdf-grid.js';

/** Text standing farther than this many ems off both rules around it is no table row. */
const OFF_RULES = 1;

/**
 * Whether a section between two of the rules below the header (the first section) holds text
 * standing well off both rules: a heading, or a heading and the short line leading into the next
 * table, between two tables, so the rules are no one table's. A row's text, one line or a cell's
 * several, hugs one rule at least.
 */
export function holdsTextBetweenTables(rules: readonly Line[], lines: readonly GridLine[]): boolean {
  for (let i = 1; i + 1 < rules.length; i++) {
    const above = (rules[i] as Line).at;
    const below = (rules[i + 1] as Line).at;
    const section = lines.filter((l) => l.bbox.y + l.bbox.h / 2 > above && l.bbox.y + l.bbox.h / 2 < below);
    if (section.length === 0) continue;
    const top = Math.min(...section.map((l) => l.bbox.y));
    const bottom = Math.max(...section.map((l) => l.bbox.y + l.bbox.h));
    const size = Math.max(...section.map((l) => l.font.size));
    if (top - above > size * OFF_RULES && below - bottom > size * OFF_RULES) return true;
  }
  return false;
}
