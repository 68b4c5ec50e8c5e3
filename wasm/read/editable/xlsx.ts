// The tables of a PDF or a scan as a workbook, written with exceljs: each table `read` found is a
// sheet (`Table 1`, `Table 2`, … in reading order), a table that goes on over the next page
// (under a repeated header or not) one sheet; cells typed (cells.ts), the header row bold, merged cells
// merged, a first column's name that `read` set after the table back in its corner. No table →
// INVALID_INPUT, before anything is written.

import ExcelJS from 'exceljs';
import type { RootContent } from 'mdast';
import { ApiError } from '../../../core/errors.js';
import { cellText, plainText, tableCells, textCells, type CellSource } from '../blocks.js';
import { cellValue, decimalMarkOf, type DecimalMark } from './cells.js';
import { joinContinuedTable } from '../pdf-table-pages.js';
import { joinColumnGroup, type PrintedArea } from './column-groups.js';
import type { EditableCounts, EditableModel } from './model.js';

type Grid = readonly CellSource[][];

/** A table and the line that titles it, if one does. */
interface SheetTable {
  grid: Grid;
  title?: string;
}

/**
 * Every table in reading order; one that goes on at the top of the next page in as many columns
 * is joined to it (pdf-table-pages.ts), its header dropped when the page repeats it. A
 * spreadsheet printed over many pages repeats its header only when told to; its columns are the
 * sign that the table goes on. A sheet too wide for its page, printed a group of columns a page,
 * is joined side by side (column-groups.ts).
 */
function documentTables(model: EditableModel): SheetTable[] {
  const pages = model.pages.map((page) => [...page.blocks]);
  // The last page with blocks: a page a continued table filled whole leaves the table to the next.
  let previous: { blocks: RootContent[]; area: PrintedArea } | undefined;
  for (const [k, blocks] of pages.entries()) {
    if (previous && !joinColumnGroup(previous.blocks, blocks, previous.area)) joinContinuedTable(previous.blocks, blocks);
    const { height, width, margins } = model.pages[k] as EditableModel['pages'][number];
    // The right margin as wide as the left: the text's own right end may be ragged, short of it.
    const area = { foot: height - (margins?.bottom ?? 0), width: width - 2 * (margins?.left ?? 0) };
    if (blocks.length) previous = { blocks, area };
  }
  return pages.flatMap((blocks) =>
    blocks.flatMap((block, k) => {
      const cells = tableCells(block);
      if (!cells?.length) return [];
      const title = titleOf(blocks[k - 1], block);
      return [{ grid: withCornerHeader(cells, block, blocks[k + 1]), ...(title && { title }) }];
    }),
  );
}

/** A title is one line, this many ems or fewer above the table's top, of this many characters or fewer. */
const TITLE_EMS = 2.5;
const TITLE_LENGTH = 80;

/** The text of the line right above a table that titles it: a heading or a one-line paragraph just over its top. */
function titleOf(before: RootContent | undefined, table: RootContent): string | undefined {
  const style = before?.data?.pdfText;
  const top = table.data?.pdfTable?.top;
  if (!before || !style || top === undefined || (before.type !== 'heading' && before.type !== 'paragraph')) return undefined;
  const text = plainText(before).trim();
  const oneLine = style.baseline === style.lastBaseline && text.length <= TITLE_LENGTH;
  return oneLine && text && top - style.lastBaseline <= style.size * TITLE_EMS ? text : undefined;
}

/**
 * The grid with the name of its first column put back into its empty top-left cell, merged down
 * over the header rows, when `read` set it after the table: a header of two levels prints a name
 * merged down its two lines (`Region`) on the lower one, in a text block of its own. It is a
 * one-line block just after the table whose baseline lies inside the table's box and whose middle
 * lies in the first column's share of its width, and the first column is empty down to its
 * first filled cell.
 */
function withCornerHeader(grid: Grid, table: RootContent, after: RootContent | undefined): Grid {
  const box = table.data?.pdfTable;
  const style = after?.data?.pdfText;
  if (!after || !box || !style || (after.type !== 'heading' && after.type !== 'paragraph') || style.baseline !== style.lastBaseline) return grid;
  const columns = Math.max(...grid.map((row) => row.length));
  const middle = (style.left + style.right) / 2;
  if (style.baseline < box.top || style.baseline > box.bottom || middle < box.left || middle > box.left + (box.right - box.left) / columns) return grid;
  const firstFilled = grid.findIndex((row) => row[0] && cellText(row[0]).trim() !== '');
  if (firstFilled < 1 || grid.slice(0, firstFilled).some((row) => !row[0] || row[0].covered || row[0].colSpan !== 1 || row[0].rowSpan !== 1)) return grid;
  const name = plainText(after).trim();
  return grid.map((row, r) => {
    if (r >= firstFilled) return row;
    const corner: CellSource =
      r === 0 ? { ...(textCells([name])[0] as CellSource), rowSpan: firstFilled } : { blocks: [], colSpan: 1, rowSpan: 1, covered: true };
    return [corner, ...row.slice(1)];
  });
}

interface Placed {
  row: number;
  column: number;
  cell: CellSource;
}

/** Each cell and the column it lands in once the spans above and to its left have taken their places. */
function placed(grid: Grid): Placed[] {
  const taken = new Set<string>();
  const out: Placed[] = [];
  for (const [r, row] of grid.entries()) {
    let column = 0;
    for (const cell of row) {
      if (cell.covered) continue;
      while (taken.has(`${r},${column}`)) column++;
      out.push({ row: r, column, cell });
      for (let dr = 0; dr < cell.rowSpan; dr++) for (let dc = 0; dc < cell.colSpan; dc++) taken.add(`${r + dr},${column + dc}`);
      column += cell.colSpan;
    }
  }
  return out;
}

const DIGITS = /^\d+$/;

/**
 * Cells whose digits are names, not quantities, kept as text: a whole number in the header row
 * (the year 2023 over its columns), and digits as long as an ID with leading zeros in the same
 * column (10001 under 00123).
 */
function digitsAsText(cells: readonly Placed[], rows: number): (cell: Placed, text: string) => boolean {
  const idLengths = new Map<number, Set<number>>();
  for (const { column, cell } of cells) {
    const text = cellText(cell).trim();
    if (DIGITS.test(text) && text.length > 1 && text.startsWith('0')) idLengths.set(column, (idLengths.get(column) ?? new Set()).add(text.length));
  }
  return ({ row, column }, text) => DIGITS.test(text) && ((row === 0 && rows > 1) || idLengths.get(column)?.has(text.length) === true);
}

function addSheet(workbook: ExcelJS.Workbook, name: string, { grid, title }: SheetTable, decimal: DecimalMark): void {
  const sheet = workbook.addWorksheet(name);
  const cells = placed(grid);
  // A title heads the sheet, bold, over the table's width; the table starts below it.
  const top = title ? 1 : 0;
  if (title) {
    const width = Math.max(1, ...cells.map(({ column, cell }) => column + cell.colSpan));
    sheet.getCell(1, 1).value = title;
    sheet.getCell(1, 1).font = { bold: true };
    if (width > 1) sheet.mergeCells(1, 1, 1, width);
  }
  const asText = digitsAsText(cells, grid.length);
  for (const at of cells) {
    const { row: r, column, cell } = at;
    const target = sheet.getCell(top + r + 1, column + 1);
    const text = cellText(cell).trim();
    const { value, numFmt } = asText(at, text) ? { value: text, numFmt: undefined } : cellValue(text, decimal);
    target.value = value;
    if (numFmt) target.numFmt = numFmt;
    if (r === 0 && grid.length > 1) target.font = { bold: true };
    if (cell.rowSpan > 1 || cell.colSpan > 1) sheet.mergeCells(top + r + 1, column + 1, top + r + cell.rowSpan, column + cell.colSpan);
  }
}

export async function writeXlsx(model: EditableModel): Promise<{ bytes: Uint8Array; counts: EditableCounts }> {
  const tables = documentTables(model);
  if (tables.length === 0) throw new ApiError('INVALID_INPUT', 'no table was found on the pages read: an XLSX holds the tables of a PDF or a scan');
  const decimal = decimalMarkOf(tables.flatMap(({ grid }) => grid.flatMap((row) => row.map(cellText))));
  const workbook = new ExcelJS.Workbook();
  tables.forEach((table, index) => addSheet(workbook, `Table ${index + 1}`, table, decimal));
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  return { bytes, counts: { paragraphs: 0, headings: 0, tables: tables.length, images: 0, sheets: tables.length } };
}
