// Text between two ruled tables of one width: pandoc's tables in Chrome's print are each ruled at
// their top, under their header and at their bottom, so two tables of one width chain into one
// run of rules, and the heading between them lies between two of those rules. A row's text hugs
// the rules around it within its cell's padding; a heading or a paragraph between two tables
// stands a paragraph's spacing off both. Pure functions over plain data, tested on arrays.

import { visualLines, type GridLine, type Line } from './pdf-grid.js';

/** A lone line standing farther than this many ems off both rules around it is no table row. */
const OFF_RULES = 1;

/**
 * Whether a section between two of the rules below the header (the first section) holds one
 * line of one piece standing well off both rules: a heading or paragraph between two tables, so
 * the rules are no one table's.
 */
export function holdsTextBetweenTables(rules: readonly Line[], lines: readonly GridLine[]): boolean {
  for (let i = 1; i + 1 < rules.length; i++) {
    const above = (rules[i] as Line).at;
    const below = (rules[i + 1] as Line).at;
    const section = visualLines(lines.filter((l) => l.bbox.y + l.bbox.h / 2 > above && l.bbox.y + l.bbox.h / 2 < below));
    const only = section.length === 1 ? (section[0] as GridLine[]) : [];
    if (only.length !== 1) continue;
    const { bbox, font } = only[0] as GridLine;
    if (bbox.y - above > font.size * OFF_RULES && below - (bbox.y + bbox.h) > font.size * OFF_RULES) return true;
  }
  return false;
}
