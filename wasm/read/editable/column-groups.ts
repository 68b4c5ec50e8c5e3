// A sheet too wide for its page is printed a group of columns a page: LibreOffice (and Excel)
// print a sheet's pages down, then across, so a sheet of few rows and many columns comes out as
// one page per group of columns, each holding the same rows at the same heights. Those parts are
// one table again, side by side. A table that goes on down the next page fills its page to the
// foot; a column group ends where its rows end, high on the page: that, the same number of rows
// and the same top and bottom on the next page, tells one from the other. Two parts that would
// have fit on one page side by side were not split for want of room: they are two tables (two
// sheets of one workbook, each printed on its own page).

import type { RootContent } from 'mdast';
import { plainText, table, tableCells, type CellSource } from '../blocks.js';
import type { PdfTableBox } from '../pdf-layout.js';
import { blocksToHtml } from '../render.js';

/** Two parts' tops and bottoms agree within this many points (their rows stand at the same heights). */
const SAME_PLACE = 2;
/** A table with room for this many more of its rows below it on its page did not go on down the next page. */
const ROOM_ROWS = 3;
/**
 * Two column groups' text spans together at least this share of the page's text width: their
 * columns did not fit on one page. Columns are wider than their text (padding, short cells), so
 * this lets some true groups go; two sheets of few columns, each printed on its own page, stay
 * apart.
 */
const FILLED_WIDTH = 0.9;

/** Where a page's text may stand: its foot (points from the top) and its width between the margins. */
export interface PrintedArea {
  foot: number;
  width: number;
}

/**
 * Puts `page`'s first table beside the table that ends `previous`, when it is that table's next
 * group of columns: as many rows, the same top and bottom, the first ending with room for more
 * rows above the foot of its page (`area`) and the two too wide together for its width. Only a
 * sheet's title may stand above the second (titlesAbove). The joined table takes the first's
 * place; it leaves `page`, and the titles above it go above the joined table.
 * Answers whether they were joined.
 */
export function joinColumnGroup(previous: RootContent[], page: RootContent[], area: PrintedArea): boolean {
  const last = previous.at(-1);
  const titles = titlesAbove(previous, page);
  const first = page[titles];
  const [left, right] = [last && tableCells(last), first && tableCells(first)];
  const [box, next] = [last?.data?.pdfTable, first?.data?.pdfTable];
  if (!left || !right || !box || !next || left.length !== right.length || left.length === 0) return false;
  if (Math.abs(box.top - next.top) > SAME_PLACE || Math.abs(box.bottom - next.bottom) > SAME_PLACE) return false;
  const rowHeight = (box.bottom - box.top) / left.length;
  if (area.foot - box.bottom < rowHeight * ROOM_ROWS) return false;
  if (box.right - box.left + (next.right - next.left) < area.width * FILLED_WIDTH) return false;
  // The joined parts span their widths together, as the sheet would on a page wide enough.
  previous[previous.length - 1] = besideEachOther(left, right, { ...box, right: box.right + next.right - next.left });
  // The sheet's title goes above the joined table.
  previous.splice(previous.length - 1, 0, ...page.splice(0, titles + 1).slice(0, titles));
  return true;
}

/**
 * How many blocks open `page` above its first table: a title the sheet spreads over its columns
 * (a merged cell), printed over the group of columns its middle falls in — when nothing but the
 * same title stands above the table ending `previous` (pages of a report, each a heading over a
 * table, are not one sheet).
 */
function titlesAbove(previous: readonly RootContent[], page: readonly RootContent[]): number {
  const table = page.findIndex((block) => block.data?.pdfTable);
  const top = page[table]?.data?.pdfTable?.top;
  if (top === undefined) return 0;
  const titles = page.slice(0, table);
  const above = previous.slice(0, -1).map((block) => plainText(block).trim());
  const sheetTitle = (block: RootContent) => (block.type === 'heading' || block.type === 'paragraph') && (block.data?.pdfText?.lastBaseline ?? Infinity) <= top;
  const sameAbove = above.length === 0 || above.join('\n') === titles.map((block) => plainText(block).trim()).join('\n');
  return titles.every(sheetTitle) && sameAbove ? table : 0;
}

/** One table of two parts' rows, each row the left part's cells then the right part's. */
function besideEachOther(left: readonly (readonly CellSource[])[], right: readonly (readonly CellSource[])[], box: PdfTableBox): RootContent {
  const rows = left.map((row, r) => [...row, ...(right[r] ?? [])]);
  const joined = table(rows, blocksToHtml);
  return { ...joined, data: { ...joined.data, pdfTable: box } };
}
