// The tables of one spreadsheet sheet (xlsx and ods share it). A sheet is a canvas, not a
// table: people put a title above a table, a key/value block beside it, several tables on one
// sheet with empty rows or columns between them. Each group of touching cells (a merged range
// counts as touching everything it covers) becomes its own table, in the order a reader meets
// its first cell, row by row; a first row that is one cell merged across the whole table is the
// table's title, written as a paragraph above it.

import type { Paragraph, RootContent } from 'mdast';
import { table, type CellSource } from './blocks.js';
import { blocksToHtml } from './render.js';

/** Columns a cell key can tell apart (xlsx has 16,384, ODF at most 1,024 … 16,384). */
const KEY_WIDTH = 1 << 20;
/** Cells one table may be written with, empty ones included: a sparse region is cut below it. */
const MAX_TABLE_CELLS = 2_000_000;

/** The key of the cell at `row`, `col` (0- or 1-based, as long as one sheet uses one). */
export const cellKey = (row: number, col: number): number => row * KEY_WIDTH + col;

/** A sheet's non-empty and merged cells by `cellKey`; cells not in it are empty. */
export type SheetCells = ReadonlyMap<number, CellSource>;

/** Key offsets of the four cells that touch a cell. */
const STEPS = [-KEY_WIDTH, KEY_WIDTH, -1, 1] as const;

const EMPTY: CellSource = { blocks: [], colSpan: 1, rowSpan: 1 };

export function sheetTables(cells: SheetCells): RootContent[] {
  return regions(cells).flatMap((region) => regionBlocks(cells, region));
}

interface Region {
  cells: Set<number>;
  first: number;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Groups of 4-connected cells that hold some text, in row-major order of their first cell. */
function regions(cells: SheetCells): Region[] {
  const seen = new Set<number>();
  const found: Region[] = [];
  for (const key of cells.keys()) {
    if (seen.has(key)) continue;
    const region = flood(cells, key, seen);
    if ([...region.cells].some((k) => (cells.get(k)?.blocks.length ?? 0) > 0)) found.push(region);
  }
  return found.sort((a, b) => a.first - b.first);
}

function flood(cells: SheetCells, start: number, seen: Set<number>): Region {
  const region: Region = { cells: new Set(), first: start, top: Infinity, left: Infinity, bottom: -1, right: -1 };
  const stack = [start];
  seen.add(start);
  while (stack.length) {
    const key = stack.pop() as number;
    const r = Math.floor(key / KEY_WIDTH);
    const c = key % KEY_WIDTH;
    region.cells.add(key);
    region.first = Math.min(region.first, key);
    region.top = Math.min(region.top, r);
    region.bottom = Math.max(region.bottom, r);
    region.left = Math.min(region.left, c);
    region.right = Math.max(region.right, c);
    for (const step of STEPS) {
      const next = key + step;
      // A step left from column 0 or right from the last column would wrap to another row.
      if ((step === -1 && c === 0) || (step === 1 && c === KEY_WIDTH - 1) || seen.has(next) || !cells.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return region;
}

/** A region as its table; cells of other regions inside its bounding box are left out. */
function regionBlocks(cells: SheetCells, region: Region): RootContent[] {
  const width = region.right - region.left + 1;
  const bottom = Math.min(region.bottom, region.top + Math.floor(MAX_TABLE_CELLS / width) - 1);
  const rows: CellSource[][] = [];
  for (let r = region.top; r <= bottom; r++) {
    const row: CellSource[] = [];
    for (let c = region.left; c <= region.right; c++) {
      const key = cellKey(r, c);
      row.push(region.cells.has(key) ? (cells.get(key) ?? EMPTY) : EMPTY);
    }
    rows.push(row);
  }
  if (!rows.length) return [];
  const title = titleOf(rows);
  if (!title) return [table(rows, blocksToHtml)];
  return [title.paragraph, table(rows.slice(title.rowSpan), blocksToHtml)];
}

/** The first row's only cell, one paragraph spanning every column of a table of more than one column and row. */
function titleOf(rows: readonly CellSource[][]): { paragraph: Paragraph; rowSpan: number } | undefined {
  const first = rows[0] ?? [];
  const head = first[0];
  const text = head?.blocks[0];
  if (!head || first.length < 2 || rows.length <= head.rowSpan || head.colSpan !== first.length) return undefined;
  return head.blocks.length === 1 && text?.type === 'paragraph' ? { paragraph: text, rowSpan: head.rowSpan } : undefined;
}
