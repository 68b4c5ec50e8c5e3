// Stage 3 of PDF reading: the page's rows, running lines left out, in reading order — columns
// found by the gutter between them (between rows, or inside rows where a producer drew a
// two-column page row by row), each column read top to bottom. Pure functions over rows, tested
// on arrays (test/unit/pdf-reading-order.test.ts).

import type { PageRows, Row } from './pdf-page-model.js';
import { isRightToLeft } from './pdf-rows.js';
import { RunningLines } from './pdf-running-lines.js';

/** Columns inside columns are looked for this deep (a page of three columns needs two). */
const MAX_COLUMN_DEPTH = 3;
/** Fewer rows than this make no columns. */
const MIN_ROWS = 6;
/** A gutter is looked for between this share of the width from the left and as much from the right. */
const GUTTER_FROM = 0.2;
/** Rows crossing a gutter are full-width ones (titles, an abstract, tables): up to this share of them. */
const CROSSING_SHARE = 0.35;
/** A gutter is at least this wide, in points. */
const MIN_GUTTER = 6;
/** A column's text pieces span at least this share of the width (labels and numbers do not count). */
const TEXT_PIECE_SHARE = 0.25;
/** Each side of a gutter holds at least this many text pieces. */
const MIN_SIDE_PIECES = 3;
/** The two sides share at least this many lines of height. */
const SHARED_HEIGHT_LINES = 3;

/**
 * Rows in reading order across columns. A gutter is an x band in the middle of the page that no
 * row crosses while rows of text stand on both sides of it at the same heights; rows that cross
 * it (a title, a full-width table) split the page into bands, and within a band the left side is
 * read before the right — the right before the left where the band's text is mostly of a
 * right-to-left script — each side again split if it has a gutter of its own. Without a gutter
 * mupdf's blocks are read top to bottom, each block's rows in its order.
 *
 * Some producers draw a two-column page row by row across both columns, so that each row holds
 * a line of each column with the gutter inside it. When no row-level gutter exists, the gap
 * inside rows is looked for too: only a row's pieces (cells) cross, and a row with pieces on both
 * sides of the gutter is cut in two there.
 */
export function columnOrder(rows: readonly Row[], left: number, right: number, depth = 0): Row[] {
  if (depth >= MAX_COLUMN_DEPTH) return topDown(rows);
  const byRows = findGutter(rows, left, right, wholeRow);
  const gutter = byRows ?? findGutter(rows, left, right, rowPieces);
  if (gutter === undefined) return topDown(rows);
  const spans = byRows === undefined ? rowPieces : wholeRow;
  const crosses = (row: Row) => spans(row).some((span) => span.x < gutter && span.right > gutter);
  const out: Row[] = [];
  let band: Row[] = [];
  const flush = () => {
    const byTop = (a: Row, b: Row) => a.top - b.top;
    const sides = band.flatMap((row) => splitAt(row, gutter));
    const leftSide = columnOrder(sides.filter((r) => r.right <= gutter).sort(byTop), left, gutter, depth + 1);
    const rightSide = columnOrder(sides.filter((r) => r.x >= gutter).sort(byTop), gutter, right, depth + 1);
    // Columns of right-to-left text are read from the right.
    const rightFirst = isRightToLeft(band.map((r) => r.text).join(''));
    out.push(...(rightFirst ? [...rightSide, ...leftSide] : [...leftSide, ...rightSide]));
    band = [];
  };
  for (const row of [...rows].sort((a, b) => a.top - b.top)) {
    if (crosses(row)) {
      flush();
      out.push(row);
    } else band.push(row);
  }
  flush();
  return out;
}

interface Span {
  x: number;
  right: number;
}

/** What of a row occupies the page: the whole row from its left edge to its right. */
const wholeRow = (row: Row): Span[] => [row];
/** What of a row occupies the page: its pieces, the gaps between them free (a table row stands whole). */
const rowPieces = (row: Row): Span[] => (row.table || row.cells.length === 0 ? [row] : row.cells);

/** The row, or its two parts when its pieces lie on both sides of the gutter. */
function splitAt(row: Row, gutter: number): Row[] {
  if (row.x >= gutter || row.right <= gutter || row.table) return [row];
  const leftCells = row.cells.filter((c) => c.right <= gutter);
  const rightCells = row.cells.filter((c) => c.x >= gutter);
  if (leftCells.length === 0 || rightCells.length === 0 || leftCells.length + rightCells.length !== row.cells.length) return [row];
  const part = (cells: Row['cells']): Row => {
    const [x, right] = [(cells[0] as Row['cells'][number]).x, (cells.at(-1) as Row['cells'][number]).right];
    // Each side keeps only its own pieces: both sides' would make every row a two-column table row.
    const pieces = row.pieces.filter((p) => p.x >= x - 0.5 && p.right <= right + 0.5);
    return { ...row, text: cells.map((c) => c.text).join(' '), x, right, cells, pieces: pieces.length > 1 ? pieces : [] };
  };
  return [part(leftCells), part(rightCells)];
}

/**
 * Where in [from, to) the fewest rows cross: the middle of the longest run at that count. The
 * band's own middle may be crossed by the ragged right ends of a column's lines.
 */
function leastCrossed(crossing: readonly number[], from: number, to: number): number {
  let least = Infinity;
  for (let k = from; k < to; k++) least = Math.min(least, crossing[k] as number);
  let best = { from, to: from };
  for (let k = from; k < to;) {
    if (crossing[k] !== least) {
      k++;
      continue;
    }
    let end = k;
    while (end < to && crossing[end] === least) end++;
    if (end - k > best.to - best.from) best = { from: k, to: end };
    k = end;
  }
  return (best.from + best.to) / 2;
}

/**
 * The middle of the widest x band that no row crosses (as `spans` says what of a row takes
 * room), if text columns stand on both sides of it.
 */
function findGutter(rows: readonly Row[], left: number, right: number, spans: (row: Row) => Span[]): number | undefined {
  const width = right - left;
  if (rows.length < MIN_ROWS || width <= 0) return undefined;
  const lo = left + width * GUTTER_FROM;
  const hi = left + width * (1 - GUTTER_FROM);
  const steps = Math.ceil(hi - lo);
  const crossing = new Array<number>(steps).fill(0);
  for (const row of rows) {
    const covered = new Set<number>();
    for (const span of spans(row)) for (let k = Math.max(0, Math.floor(span.x - lo)); k < Math.min(steps, Math.ceil(span.right - lo)); k++) covered.add(k);
    for (const k of covered) crossing[k] = (crossing[k] as number) + 1;
  }
  // Rows crossing a gutter are full-width ones (titles, an abstract, tables): allow some.
  const allowed = Math.max(1, Math.floor(rows.length * CROSSING_SHARE));
  let best: { from: number; to: number } | undefined;
  for (let k = 0; k < steps;) {
    if ((crossing[k] as number) > allowed) {
      k++;
      continue;
    }
    let end = k;
    while (end < steps && (crossing[end] as number) <= allowed) end++;
    if (!best || end - k > best.to - best.from) best = { from: k, to: end };
    k = end;
  }
  if (!best || best.to - best.from < MIN_GUTTER) return undefined;
  const gutter = lo + leastCrossed(crossing, best.from, best.to);
  return sideBySide(rows, gutter, width, spans) ? gutter : undefined;
}

/** Text columns stand on both sides of the gutter at shared heights (a ragged single column does not). */
function sideBySide(rows: readonly Row[], gutter: number, width: number, spans: (row: Row) => Span[]): boolean {
  const pieces = rows.flatMap((row) => spans(row).map((span) => ({ ...span, top: row.top, bottom: row.bottom, size: row.size })));
  const textPieces = (side: typeof pieces) => side.filter((p) => p.right - p.x >= width * TEXT_PIECE_SHARE);
  const leftSide = textPieces(pieces.filter((p) => p.right <= gutter));
  const rightSide = textPieces(pieces.filter((p) => p.x >= gutter));
  if (leftSide.length < MIN_SIDE_PIECES || rightSide.length < MIN_SIDE_PIECES) return false;
  const extent = (side: typeof pieces) =>
    side.reduce((box, p) => ({ top: Math.min(box.top, p.top), bottom: Math.max(box.bottom, p.bottom) }), { top: Infinity, bottom: -Infinity });
  const [l, r] = [extent(leftSide), extent(rightSide)];
  return Math.min(l.bottom, r.bottom) - Math.max(l.top, r.top) > SHARED_HEIGHT_LINES * (leftSide[0] as (typeof pieces)[number]).size;
}

/**
 * Blocks top to bottom, each block's rows kept together and in mupdf's order: some producers
 * (spreadsheet exports) write a page's header after its body, and mupdf keeps their order.
 */
function topDown(rows: readonly Row[]): Row[] {
  const blocks = new Map<number, Row[]>();
  for (const row of rows) blocks.set(row.block, [...(blocks.get(row.block) ?? []), row]);
  const top = (block: Row[]) => Math.min(...block.map((r) => r.top));
  return [...blocks.values()].sort((a, b) => top(a) - top(b)).flat();
}

/** A page's rows, running lines removed, in reading order. */
export const readingRows = (page: PageRows, repeated: (key: string) => boolean): Row[] => columnOrder(RunningLines.kept(page, repeated), 0, page.width);
