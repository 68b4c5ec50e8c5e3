// Two borderless tables the PDF sets side by side (a booking's or an invoice's key/value blocks:
// "Name: … Contact: …" at the left, "Billing Type: … Terms: …" at the right), as one table whose
// columns are the left table's then the right's. `read` gives them one after the other; written so,
// they stand one under the other, take more lines than the PDF's, and what follows them runs up
// the page — and the right one, starting above the left one's end, made the page read as one that
// climbs back up it, which keeps no spacing at all (docx.ts flowsDown).

import type { RootContent, Table, TableCell, TableRow } from 'mdast';
import type { PdfTableBox } from '../pdf-layout.js';

/** A borderless table with its box on the page. */
type BoxedTable = Table & { data: { pdfTable: PdfTableBox } };

const boxedBorderless = (block: RootContent | undefined): block is BoxedTable =>
  block?.type === 'table' && block.data?.pdfTable !== undefined && !block.data.pdfTable.ruled && block.data.pdfRuled !== true;

/** Whether `right` stands right of `left` on the page, their text's lines sharing some of the page's height. */
function sideBySide(left: PdfTableBox, right: PdfTableBox): boolean {
  return right.left > left.right && right.top < left.bottom && left.top < right.bottom;
}

const columnsOf = (table: Table) => Math.max(0, ...table.children.map((row) => row.children.length));

/** A row's cells padded to `columns`, empty cells where it has fewer. */
function padded(row: TableRow | undefined, columns: number): TableCell[] {
  const cells = row?.children ?? [];
  return [...cells, ...Array.from({ length: columns - cells.length }, (): TableCell => ({ type: 'tableCell', children: [] }))];
}

/** The two tables as one: row k holds the left table's row k, then the right's. */
function joined(left: BoxedTable, right: BoxedTable): BoxedTable {
  const [a, b] = [left.data.pdfTable, right.data.pdfTable];
  const [leftColumns, rightColumns] = [columnsOf(left), columnsOf(right)];
  const rows = Math.max(left.children.length, right.children.length);
  const children = Array.from({ length: rows }, (_, k): TableRow => ({
    type: 'tableRow',
    children: [...padded(left.children[k], leftColumns), ...padded(right.children[k], rightColumns)],
  }));
  const lefts = a.columnLefts && b.columnLefts ? { columnLefts: [...a.columnLefts, ...b.columnLefts] } : {};
  const tops = pairTops(a, b, rows);
  const pdfTable: PdfTableBox = {
    top: Math.min(a.top, b.top),
    bottom: Math.max(a.bottom, b.bottom),
    left: a.left,
    right: b.right,
    ruled: false,
    ...lefts,
    ...(tops && { rowTops: tops }),
  };
  return { type: 'table', align: [...padAlign(left, leftColumns), ...padAlign(right, rightColumns)], children, data: { ...left.data, pdfTable } };
}

/**
 * Where each joined row's text starts, from a side whose rows are each one line of the page and
 * which has as many rows as the pair: the rows then stand at the PDF's pitch (12 pt in a booking's
 * 8-pt key/value blocks), where each was as tall as its font's own line (≈ 9 pt) and all that
 * followed the table ran up the page. The last row keeps its text's height: made as tall as the
 * PDF's (a billing address of three lines), the booking's page ran onto a second page, the small
 * print the PDF sets over its last table's rows taking lines of its own in the DOCX.
 */
function pairTops(a: PdfTableBox, b: PdfTableBox, rows: number): number[] | undefined {
  return [a.rowTops, b.rowTops].find((tops) => tops !== undefined && tops.length === rows);
}

const padAlign = (table: Table, columns: number) => Array.from({ length: columns }, (_, k) => table.align?.[k] ?? null);

/** The page's blocks with each two borderless tables set side by side joined into one. */
export function withSideTablesJoined(blocks: readonly RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (boxedBorderless(last) && boxedBorderless(block) && sideBySide(last.data.pdfTable, block.data.pdfTable)) out[out.length - 1] = joined(last, block);
    else out.push(block);
  }
  return out;
}
