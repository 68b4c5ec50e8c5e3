// Columns set closer than a column gap: a paper's results table in a small size, its bold figures
// wider, leaves half an em between columns (LaTeX's \tabcolsep at 7 pt), where pdf-rules.ts
// takes pieces under 0.8 em apart as one column. A word space is a third of an em at most
// (Computer Modern's 0.33, bold 0.38; Times 0.25), so a gap of TIGHT_GAP ems that every row of
// the body leaves free, with text on both sides of it in every row, is a column gap: a cell's
// words stand at different places row by row. Pure functions over plain data.

import type { GridLine } from './pdf-grid.js';

/** A gap at least this many ems wide, free in every row with text on both sides, parts two columns. */
const TIGHT_GAP = 0.45;
/** Fewer body rows than this show no column: two names may share a word space's place by chance. */
const MIN_ROWS = 3;

type Band = { from: number; to: number };

const right = (p: GridLine) => p.bbox.x + p.bbox.w;

/** The x gaps at least TIGHT_GAP ems wide between a band's pieces merged where they overlap or nearly meet. */
function innerGaps(pieces: readonly GridLine[]): Band[] {
  const gaps: Band[] = [];
  let reach = -Infinity;
  for (const p of [...pieces].sort((a, b) => a.bbox.x - b.bbox.x)) {
    if (reach > -Infinity && p.bbox.x - reach >= p.font.size * TIGHT_GAP) gaps.push({ from: reach, to: p.bbox.x });
    reach = Math.max(reach, right(p));
  }
  return gaps;
}

/** The column bands with each split at a gap every body row fills both sides of (see above). */
export function tightColumns(bands: readonly Band[], body: readonly GridLine[][]): Band[] {
  if (body.length < MIN_ROWS) return [...bands];
  const out: Band[] = [];
  for (const band of bands) {
    const inBand = (p: GridLine) => p.bbox.x >= band.from - 1 && right(p) <= band.to + 1;
    const gaps = innerGaps(body.flatMap((v) => v.filter(inBand))).filter((gap) =>
      body.every((v) => v.some((p) => inBand(p) && right(p) <= gap.from) && v.some((p) => inBand(p) && p.bbox.x >= gap.to)),
    );
    let from = band.from;
    for (const gap of gaps) {
      out.push({ from, to: gap.from });
      from = gap.to;
    }
    out.push({ from, to: band.to });
  }
  return out;
}
