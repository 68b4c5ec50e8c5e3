// A page set in two columns, as Word columns: `read` gives its blocks in reading order (the left
// column down, then the right), and the DOCX writer rebuilt them as one column, which ran the page
// onto a second page and moved every line of the right column. Here the page is cut into bands
// down it: full-width blocks (a title, a table across the page) and runs of two columns, the
// left column's blocks all before the right's. A page that reads otherwise (columns taken in turns,
// more than two, blocks that do not say where they stand) is not cut: the writer keeps it one column.

import type { RootContent } from 'mdast';
import { cutAtMiddle } from './column-lists.js';

/** Blocks down a page across its text's width, or in two columns (the right's from `split` on). */
export interface Band {
  blocks: RootContent[];
  /** `left`: where the columns start (points from the page's left), where in from the page's margin. */
  columns?: { split: number; space: number; left?: number };
}

/** Points a column's block may cross the page's middle (a line's rounding, a glyph's overhang). */
const MIDDLE_SLACK = 6;
/** The least space kept between two columns, in points. */
const LEAST_SPACE = 6;
/**
 * The most space between two columns, in parts of the text's width: a right block standing
 * further in (a masthead's title, a date set flush right) is not a column's.
 */
const MOST_SPACE = 0.2;

/** Where a block stands across the page, where the PDF says: a list's, its items' together. */
function horizontalSpan(block: RootContent): [number, number] | undefined {
  const box = block.data?.pdfText ?? block.data?.pdfTable;
  if (box) return [box.left, box.right];
  if (block.type !== 'list') return undefined;
  const spans = block.children.flatMap((item) => item.children.map(horizontalSpan)).filter((span) => span !== undefined);
  return spans.length ? [Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))] : undefined;
}

type Side = 'left' | 'right' | 'full' | 'unknown';

function sideOf(block: RootContent, middle: number): Side {
  const span = horizontalSpan(block);
  if (!span) return 'unknown';
  if (span[1] <= middle + MIDDLE_SLACK) return 'left';
  if (span[0] >= middle - MIDDLE_SLACK) return 'right';
  return 'full';
}

/**
 * The page's bands, its text running from `left` to `right` (points from the page's left edge);
 * undefined where it does not read as full-width blocks and two columns taken one after the other.
 */
export function columnBands(page: readonly RootContent[], left: number, right: number): Band[] | undefined {
  const middle = (left + right) / 2;
  const side = (block: RootContent) => sideOf(block, middle);
  // A list that goes on from the left column into the right one: cut where it crosses (column-lists.ts).
  const blocks = page.flatMap((block) => (block.type === 'list' && side(block) === 'full' && cutAtMiddle(block, side)) || [block]);
  const sides = blocks.map(side);
  const bands: Band[] = [];
  let k = 0;
  while (k < blocks.length) {
    const full = sides[k] === 'full';
    let end = k;
    while (end < blocks.length && (sides[end] === 'full') === full) end++;
    const band = full ? { blocks: blocks.slice(k, end) } : twoColumns(blocks.slice(k, end), sides.slice(k, end), left, right);
    if (!band) return undefined;
    bands.push(band);
    k = end;
  }
  return bands.some((band) => band.columns) ? bands : undefined;
}

/** A run of blocks none of which crosses the middle: the left column's then the right's, or one column. */
function twoColumns(run: RootContent[], sides: Side[], left: number, right: number): Band | undefined {
  const split = sides.indexOf('right');
  if (split < 0 || !sides.slice(0, split).includes('left')) return { blocks: run };
  // A left block after the right column began: columns taken in turns, not one after the other.
  if (sides.slice(split).includes('left')) return undefined;
  const rightStarts = Math.min(...run.slice(split).map((block) => horizontalSpan(block)?.[0] ?? Infinity));
  // The columns' own left edge where their text stands in from the page's margin (a spread's two
  // pages, whose page numbers in the outer corners set the margins): measured from the margin, the
  // space between them came out too wide to be a column's, and the page was set as one column.
  const textStarts = Math.min(...run.map((block) => horizontalSpan(block)?.[0] ?? Infinity));
  const from = textStarts - left > MIDDLE_SLACK ? textStarts : left;
  // Word's two equal columns: the right one starts half the text's width and half the space in.
  const space = Math.max(LEAST_SPACE, 2 * (rightStarts - from) - (right - from));
  if (space > MOST_SPACE * (right - from)) return { blocks: run };
  return { blocks: run, columns: { split, space, ...(from > left && { left: from }) } };
}
