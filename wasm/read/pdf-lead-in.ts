// The line over a borderless table that is no row of it. A Chinese paragraph that names a table
// ("下面列出 MysqlWriter 针对 Mysql 类型转换列表：") has spaces between its Han and Latin words
// wide enough (a third of an em in LibreOffice) to cut it into pieces, and its last line stands
// close enough over the table to start the run of rows that keep to common columns. Two things
// tell it from a header: it stands a paragraph's spacing above the next row, where the table's
// rows stand a few points apart; and its text past the first column neither starts, ends nor
// centres where any row's text in that column does, as a header cell's does. The same spacing
// ends a run of rows at a heading under the table (pdf-table-runs.ts). Pure functions over plain
// data, tested on arrays.

import type { Extent, TableLine } from './pdf-table-wraps.js';

/** Room under the first line of this many ems, and over twice any between the rows below, is a paragraph's spacing (pdf-borderless.ts PARAGRAPH_GAP). */
const PARAGRAPH_GAP = 0.4;
/** Text edges within this many ems of each other line up. */
const ALIGNED = 0.15;

/** The room between each line and the next, top to bottom. */
export const rowGaps = (lines: readonly { top: number; bottom: number }[]) => lines.slice(1).map((l, k) => l.top - (lines[k] as { bottom: number }).bottom);

/**
 * Whether the room over a table's first row is a paragraph's spacing: over PARAGRAPH_GAP ems and
 * twice the widest room between the table's rows (`gaps`), which stand a few points apart.
 */
export function spacedAsParagraph(gap: number, gaps: readonly number[], size: number): boolean {
  return gaps.length > 0 && gap > size * PARAGRAPH_GAP && gap > Math.max(...gaps) * 2;
}

/**
 * The room between the rows under a run's first line that are the table's: all of it but the
 * last where that is itself a paragraph's spacing. A run that starts at a paragraph's last line
 * takes in the heading under the table too (growRun measures the rows' spacing from that line's,
 * which is as wide), and that heading's spacing would hide the lead-in line's (DataX's tags table,
 * a level-5 heading under it: 13.8 pt over the heading, 12.9 over the table, 6 between its rows).
 * Room inside the run stays: rows whose cells wrap stand further apart than a cell's lines.
 */
export function tableGaps(gaps: readonly number[], size: number): number[] {
  const rest = gaps.slice(0, -1);
  const last = gaps.at(-1);
  return last !== undefined && spacedAsParagraph(last, rest, size) ? rest : [...gaps];
}

/** The edges a column's text may keep to: its start, its end, its centre. */
const EDGES: readonly ((e: Extent) => number)[] = [(e) => e.x, (e) => e.right, (e) => (e.x + e.right) / 2];

/**
 * Whether `extent` keeps to an edge that all of `others` keep to (a column set flush left, flush
 * right or centred); undefined when they keep to none (no alignment to judge by).
 */
function keepsToColumn(extent: Extent, others: readonly Extent[], tolerance: number): boolean | undefined {
  const kept = EDGES.filter((edge) => {
    const at = others.map(edge);
    return Math.max(...at) - Math.min(...at) <= tolerance;
  });
  if (kept.length === 0) return undefined;
  return kept.some((edge) => others.every((o) => Math.abs(edge(o) - edge(extent)) <= tolerance));
}

/**
 * Whether the first of a run's lines (each a row of a borderless table, read into its columns) is
 * a paragraph's last line over the table rather than its header: set apart from the next line by
 * a paragraph's spacing, and with text in a column past the first that leaves the edge (start,
 * end or centre) every other line's text there keeps to.
 */
export function isLeadInLine(lines: readonly TableLine[]): boolean {
  const [first, second] = lines;
  if (!first || !second || lines.length < 3) return false;
  if (!spacedAsParagraph(second.top - first.bottom, tableGaps(rowGaps(lines.slice(1)), first.size), first.size)) return false;
  const tolerance = first.size * ALIGNED;
  return (first.extents ?? []).some((extent, c) => {
    if (c === 0 || !extent) return false;
    const others = lines.slice(1).flatMap((l) => l.extents?.[c] ?? []);
    return others.length >= 2 && keepsToColumn(extent, others, tolerance) === false;
  });
}
