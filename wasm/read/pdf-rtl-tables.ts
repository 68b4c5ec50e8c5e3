// PDF reading, a table set right to left (Hebrew, Arabic, Persian): its first column stands at the
// right, as Chrome lays out a right-to-left page's table, but the table detectors (pdf-grid.ts,
// pdf-borderless.ts) read columns from the left. A table whose text is mostly in a right-to-left
// script and that starts at the right margin has its columns turned back to reading order. One
// that stands off the right margin is set left to right though its text is not (LibreOffice's
// print of a Word table without Word's right-to-left table setting, as pandoc writes them: its
// first column at the left) and is read as the detectors read it. On a page of right-to-left text
// a table at the right margin is turned whatever its cells' script: Chrome sets a table of code
// or English (react.dev's in Persian) from the right as the page runs. Pure functions.

import type { Data, RootContent } from 'mdast';
import { cellText, table, tableCells, type CellSource } from './blocks.js';
import type { Row } from './pdf-page-model.js';
import { CLOSING } from './pdf-page-direction.js';
import { isRightToLeft } from './pdf-rows.js';
import { blocksToHtml } from './render.js';

/** Ems within which a table's text reaching the page's text's right edge starts at the right margin (a cell's padding and more). */
const AT_MARGIN_EMS = 2;

/**
 * The table a table part of the page reads as: its first column the rightmost where it is set
 * right to left (most of its rows reach the right edge of the page's text, `pageRows`; `tableRows`
 * are the rows the layout made of it),
 * else the leftmost — whichever way the detector that found it ordered its columns (the
 * borderless one from the left, the one of cells apart in a row in the row's reading order).
 * Only a table of right-to-left text, or one on a page of right-to-left text, is turned (fromTheRight).
 */
export function inReadingOrder(found: RootContent, tableRows: readonly Row[], pageRows: readonly Row[]): RootContent {
  const cells = tableCells(found);
  if (!cells || tableRows.length === 0) return found;
  // The page's own rows the table was made of (a detector leaves one row standing for them).
  const top = Math.min(...tableRows.map((r) => r.top));
  const bottom = Math.max(...tableRows.map((r) => r.bottom));
  const within = pageRows.filter((r) => !r.table && r.top >= top - 1 && r.bottom <= bottom + 1);
  // A table ruled by lines came as one row, its box: its columns read from the left.
  const own = within.length ? within : tableRows;
  // Most rows' right edge: a header centred over its column, or a line the table took in, is not the table's.
  const rights = own.map((r) => r.right).sort((a, b) => a - b);
  const right = rights[Math.floor(rights.length / 2)] as number;
  // The text's right edge, code aside: Chrome sets a right-to-left page's code blocks past it.
  const prose = pageRows.filter((r) => !r.mono);
  const margin = Math.max(...(prose.length ? prose : pageRows).map((r) => r.right));
  const size = Math.min(...own.map((r) => r.size));
  const setFromTheRight = margin - right <= size * AT_MARGIN_EMS;
  const readFromTheRight = firstColumnAtRight(cells, own) ?? false;
  if (setFromTheRight === readFromTheRight) return found;
  // The page's prose, not the table's own rows, tells which way the page runs: by its script, or where it is English, by its alignment.
  const pageProse = prose.filter((r) => !r.table && !own.includes(r));
  const pageRightToLeft = isRightToLeft(pageProse.map((r) => r.text).join(' ')) || setFlushRight(pageProse) || paragraphsEndAtRight(pageProse);
  return fromTheRight(found, pageRightToLeft) ?? found;
}

/** Ems within which a row's end (or start) stands at the text's right (or left) edge. */
const AT_EDGE_EMS = 0.5;
/** The share of the rows ending at the right edge for the text to be set flush right. */
const FLUSH_SHARE = 0.6;

/**
 * Whether the rows are set flush right and ragged left, as a right-to-left page sets any text
 * (Chrome's print of react.dev's Persian pages, some left in English): most end at the text's
 * right edge, and fewer than half as many start at its left. Left-aligned text starts at its left
 * edge; justified text, whose full lines reach both, does not tell.
 */
function setFlushRight(rows: readonly Row[]): boolean {
  if (rows.length === 0) return false;
  const right = Math.max(...rows.map((r) => r.right));
  const left = Math.min(...rows.map((r) => r.x));
  const ends = rows.filter((r) => right - r.right <= r.size * AT_EDGE_EMS).length;
  const starts = rows.filter((r) => r.x - left <= r.size * AT_EDGE_EMS).length;
  return ends >= rows.length * FLUSH_SHARE && starts * 2 < ends;
}

/** Ems by which a paragraph's last row must stand further in from one edge of the row above it than from the other to show which edge it is set against. */
const SHORT_ROW_EMS = 2;
/** Ems within which a row's end stands at the end of the row above it (a list item's first row carries its marker past its text). */
const SAME_EDGE_EMS = 1.5;
/** Rows that must say so before the page is taken as set right to left by its paragraphs' ends. */
const MIN_ENDS = 2;

/** A row's letters end a sentence or clause: its closing punctuation at either end of its text (pdf-pieces.ts puts it back at the end on a page it knows is set right to left). */
const endsSentence = (row: Row) => {
  const visible = row.text.trim();
  return /\p{L}/u.test(visible) && (CLOSING.test(visible[0] as string) || CLOSING.test(visible.at(-1) as string));
};

/** Whether `below` is the next row of `above`'s paragraph: right under it, in its size, beside it on the page. */
const nextRowOf = (above: Row, below: Row) =>
  Math.abs(above.size - below.size) <= below.size * 0.1 &&
  below.top - above.bottom <= below.size &&
  below.top >= above.top &&
  below.x < above.right &&
  above.x < below.right;

/**
 * Whether more of the rows that end a paragraph are set against its right edge than its left,
 * and at least MIN_ENDS are: a paragraph's last row is short, ends a sentence, and keeps the edge
 * of the row above it that its paragraph starts from (each row against its own paragraph's, so
 * a page of two columns says nothing it should not). A page of list items, which a right-to-left
 * page indents from the right, is not flush right by setFlushRight's share of rows, but its
 * items' last rows stand at their right all the same.
 */
function paragraphsEndAtRight(rows: readonly Row[]): boolean {
  let [atRight, atLeft] = [0, 0];
  for (const [k, row] of rows.entries()) {
    const above = rows[k - 1];
    if (!above || !endsSentence(row) || !nextRowOf(above, row)) continue;
    const [leftIn, rightIn] = [row.x - above.x, above.right - row.right];
    if (Math.abs(rightIn) <= row.size * SAME_EDGE_EMS && leftIn - rightIn > row.size * SHORT_ROW_EMS) atRight++;
    else if (Math.abs(leftIn) <= row.size * SAME_EDGE_EMS && rightIn - leftIn > row.size * SHORT_ROW_EMS) atLeft++;
  }
  return atRight >= MIN_ENDS && atRight > atLeft;
}

/** Whether the table's first column is found right of its last on the page (by a row's cells), undefined where no row tells. */
function firstColumnAtRight(cells: readonly CellSource[][], rows: readonly Row[]): boolean | undefined {
  const pieces = rows.flatMap((r) => r.cells).filter((c) => c.text !== '');
  const at = (text: string) => pieces.find((c) => c.text === text)?.x;
  for (const row of cells) {
    const texts = row.map((c) => cellText(c).trim()).filter((t) => t !== '');
    const [first, last] = [texts[0], texts.at(-1)];
    if (first === undefined || last === undefined || first === last) continue;
    const [a, b] = [at(first), at(last)];
    if (a !== undefined && b !== undefined) return a > b;
  }
  return undefined;
}

/**
 * A table whose text is mostly right-to-left letters (or any table, `onRightToLeftPage`), its
 * columns from the right; undefined for any other block.
 */
export function fromTheRight(block: RootContent, onRightToLeftPage = false): RootContent | undefined {
  const cells = tableCells(block);
  if (!cells || !(onRightToLeftPage || isRightToLeft(cells.flat().map(cellText).join(' ')))) return undefined;
  const width = Math.max(0, ...cells.map((row) => row.length));
  const empty: CellSource = { blocks: [], colSpan: 1, rowSpan: 1 };
  // Each row as wide as the table before it is turned, so a short row's cells keep their columns.
  const turned = cells.map((row) => [...row, ...Array.from({ length: width - row.length }, () => empty)].reverse());
  const made = table(turned, blocksToHtml);
  // What the detectors noted on the table (drawn with lines) stays; an HTML table's own cells are the turned ones.
  // The cells' paragraphs (pdf-grid.ts) are left to the unturned table: the turned one's cells are one paragraph each.
  const noted: Data = { ...block.data };
  delete noted.pdfCells;
  return block.data || made.data ? ({ ...made, data: { ...noted, ...made.data } } as RootContent) : made;
}
