// A table continued on the next page is one table. A PDF is read page by page, so a table that
// runs over a page break comes out as two; the second goes on the first when it is the next
// page's first block and has as many columns. Its header row is dropped when the page repeats
// the first's (a word processor's repeated heading rows, Chrome's <thead>), and its first row is
// the last row's own when it holds nothing in the first column: a cell whose text the break
// carried over. A first part too short to show how its rows are spaced is read again, first, by
// the spacing the second part shows (pdf-cut-spacing.ts). Pure functions over blocks; `read`
// (wasm/pdf/read-task.ts) and the XLSX writer (editable/xlsx.ts) join with them.

import type { Paragraph, RootContent } from 'mdast';
import { joinsWithoutSpace } from '../../core/cjk-text.js';
import { cellText, plainText, table, tableCells, type CellSource } from './blocks.js';
import { cutByBreak } from './pdf-cut-rows.js';
import { rowsByNextSpacing } from './pdf-cut-spacing.js';
import { isNumber } from './pdf-table-columns.js';
import { blocksToHtml } from './render.js';

type Grid = readonly (readonly CellSource[])[];

/** A table's width in columns, its cells' spans counted. */
const width = (grid: Grid) => Math.max(0, ...grid.map((row) => row.reduce((n, cell) => n + (cell.covered ? 0 : cell.colSpan), 0)));

const textOf = (cell: CellSource) => cellText(cell).trim();
const rowKey = (row: readonly CellSource[] | undefined) => (row ?? []).map(textOf).join('\u0000');
const plain = (row: readonly CellSource[]) => row.every((cell) => !cell.covered && cell.colSpan === 1 && cell.rowSpan === 1);
const numbersOnly = (row: readonly CellSource[]) => row.map(textOf).every((t) => !t || isNumber(t));

/**
 * A row the break cut: text after the first column with nothing in it (not figures alone, a
 * total), or cells the table's other rows show cut (pdf-cut-rows.ts).
 */
function carriedOver(last: readonly CellSource[] | undefined, row: readonly CellSource[] | undefined, others: Grid): boolean {
  if (!last || !row || row.length !== last.length || !plain(row) || !plain(last) || numbersOnly(row)) return false;
  if (textOf(last[0] as CellSource) !== '' && textOf(row[0] as CellSource) === '' && row.some((cell) => textOf(cell))) return true;
  const texts = (cells: readonly CellSource[]) => cells.map(textOf);
  return cutByBreak(texts(last), texts(row), others.filter(plain).map(texts));
}

/** One cell's text followed by the text the break carried onto the next page, in one paragraph where both are one. */
function joinedCell(above: CellSource, below: CellSource): CellSource {
  const last = above.blocks.at(-1);
  const first = below.blocks[0];
  if (last?.type !== 'paragraph' || first?.type !== 'paragraph') return { ...above, blocks: [...above.blocks, ...below.blocks] };
  // Chinese text wrapped across the break goes on without a space, as a cell's wrapped lines do.
  const space: Paragraph['children'] = joinsWithoutSpace(plainText(last), plainText(first)) ? [] : [{ type: 'text', value: ' ' }];
  const paragraph: Paragraph = { type: 'paragraph', children: [...last.children, ...space, ...first.children] };
  return { ...above, blocks: [...above.blocks.slice(0, -1), paragraph, ...below.blocks.slice(1)] };
}

/**
 * `after`'s rows turned end to end where its first row is `before`'s header turned: a right-to-left
 * page's table (Chrome sets its first column at the right) read from the right on one page and
 * from the left on the next, where too little of the page's prose shows which way it runs.
 */
function turnedLikeBefore(before: Grid, after: Grid): Grid {
  const header = before[0] as readonly CellSource[];
  const repeated = after[0] as readonly CellSource[];
  const turned = [...repeated].reverse();
  if (!plain(header) || !plain(repeated) || rowKey(turned) === rowKey(repeated) || rowKey(turned) !== rowKey(header)) return after;
  return after.map((row) => [...row].reverse());
}

/** The rows of `after` put under `before`'s, when `after` continues it; else undefined. */
export function joinedGrid(before: Grid, after: Grid): CellSource[][] | undefined {
  if (before.length === 0 || after.length === 0 || width(before) !== width(after)) return undefined;
  const ordered = turnedLikeBefore(before, after);
  const rows = ordered.length > 1 && rowKey(before[0]) === rowKey(ordered[0]) ? ordered.slice(1) : ordered;
  const joined = before.map((row) => [...row]);
  // The body's other rows, the header and the two parts of a cut row aside.
  const others = [...before.slice(1, -1), ...rows.slice(1)];
  if (carriedOver(joined.at(-1), rows[0], others)) {
    const last = joined.at(-1) as CellSource[];
    joined[joined.length - 1] = last.map((cell, c) => joinedCell(cell, (rows[0] as readonly CellSource[])[c] as CellSource));
    return [...joined, ...rows.slice(1).map((row) => [...row])];
  }
  return [...joined, ...rows.map((row) => [...row])];
}

/** A page's number left at its foot (a footer the running-line stage did not take): it does not end the page's table. */
const isPageNumber = (block: RootContent) => block.type === 'paragraph' && /^\s*\d{1,4}\s*$/.test(plainText(block));

/**
 * Joins `page`'s first block into the table that ends `previous` (a page number after it
 * aside), when it continues that table: the joined table takes the first's place and the block
 * leaves `page`. Answers whether they were joined.
 */
export function joinContinuedTable(previous: RootContent[], page: RootContent[]): boolean {
  let at = previous.length - 1;
  while (at >= 0 && isPageNumber(previous[at] as RootContent)) at--;
  const last = previous[at];
  const first = page[0];
  const cells = last && tableCells(last);
  const after = first && tableCells(first);
  // The part above the break, too short to show its rows' spacing, read by the part below's (pdf-cut-spacing.ts).
  const before = cells && rowsByNextSpacing(cells, last.data?.pdfRowSpacing, first?.data?.pdfRowSpacing, joinedCell);
  const grid = before && after ? joinedGrid(before, after) : undefined;
  if (!grid) return false;
  previous[at] = table(grid, blocksToHtml);
  page.shift();
  return true;
}
