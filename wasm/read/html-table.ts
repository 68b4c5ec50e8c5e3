// HTML tables into the shared table model (blocks.ts `table`), so they follow the contract as
// the office tables do: a GFM table when every cell is one paragraph and nothing spans, else an
// HTML table that keeps rowspan/colspan and the cells' lists. (hast-util-to-mdast's own handler
// writes spanned cells as blanks at shifted positions and puts a list's lines into a pipe table.)

import type { Element, ElementContent } from 'hast';
import type { Handle, State } from 'hast-util-to-mdast';
import { toText } from 'hast-util-to-text';
import type { BlockContent, RootContent } from 'mdast';
import { ApiError } from '../../core/errors.js';
import { table as tableBlock, type CellSource } from './blocks.js';
import { MAX_TABLE_SLOTS } from './limits.js';
import { blocksToHtml } from './render.js';

/** Spans beyond these are markup errors (HTML caps colspan at 1,000, rowspan at 65,534). */
const MAX_COLSPAN = 1000;

/** A grid slot: the cell that starts there, or the cell above/left whose span covers it. */
type Slot = { anchor: CellSource } | { coveredBy: CellSource };

export const tableHandler: Handle = (state, node) => {
  // A table inside a table cell is read as its text, its cells' tabs and line ends as spaces (a
  // pipe table cannot hold a line end; an HTML cell would show an entity).
  if (state.inTable) return { type: 'text', value: toText(node).replace(/\s+/g, ' ').trim() };
  const frame = frameCell(node);
  if (frame) return state.toFlow(state.all(frame));
  state.inTable = true;
  try {
    const caption = childElements(node).find((e) => e.tagName === 'caption');
    const grid = foldHeaderOnlyRows(
      placeCells(
        rowsOf(node).map((tr) => childElements(tr).filter((c) => c.tagName === 'td' || c.tagName === 'th')),
        state,
      ),
    );
    const out: RootContent[] = caption ? state.toFlow(state.all(caption)) : [];
    if (grid.length) out.push(tableBlock(toCellRows(grid), blocksToHtml));
    return out;
  } finally {
    state.inTable = false;
  }
};

/**
 * The one cell of a table of one row of one cell, without caption: a frame around content (a box,
 * a layout container), not data. Its blocks join the flow as a Word table's do (docx.ts
 * readTable), a table inside it read as a table.
 */
function frameCell(node: Element): Element | undefined {
  const rows = rowsOf(node);
  const cells = rows.flatMap((tr) => childElements(tr).filter((c) => c.tagName === 'td' || c.tagName === 'th'));
  const hasCaption = childElements(node).some((e) => e.tagName === 'caption');
  return rows.length === 1 && cells.length === 1 && !hasCaption ? cells[0] : undefined;
}

const childElements = (node: Element): Element[] => node.children.filter((c: ElementContent): c is Element => c.type === 'element');

/** The table's rows, through thead/tbody/tfoot, not entering nested tables. */
function rowsOf(node: Element): Element[] {
  return childElements(node).flatMap((e) => (e.tagName === 'tr' ? [e] : ['thead', 'tbody', 'tfoot'].includes(e.tagName) ? rowsOf(e) : []));
}

const spanOf = (value: unknown, max: number) => Math.min(max, Math.max(1, Number.parseInt(String(value ?? 1), 10) || 1));

const tooManySlots = () =>
  new ApiError('TOO_LARGE', `A table of the page spans more than ${MAX_TABLE_SLOTS.toLocaleString('en-US')} grid cells (rowspan × colspan); refused`);

/**
 * The HTML table model: each cell takes the first free slot of its row and covers its span.
 * Every slot a span covers is counted before it is filled (rowspan="0" down to the table's end
 * and colspan="1000" on every row would make a grid of billions from a few KB).
 */
function placeCells(rows: Element[][], state: State): (Slot | undefined)[][] {
  const grid: (Slot | undefined)[][] = rows.map(() => []);
  let slots = 0;
  rows.forEach((cells, r) => {
    const row = grid[r] as (Slot | undefined)[];
    let col = 0;
    for (const cell of cells) {
      while (row[col]) col++;
      // rowspan="0" reaches the table's end.
      const rowSpanAttr = cell.properties.rowSpan;
      const rowSpan = rowSpanAttr === 0 ? rows.length - r : spanOf(rowSpanAttr, rows.length - r);
      const colSpan = spanOf(cell.properties.colSpan, MAX_COLSPAN);
      slots += rowSpan * colSpan;
      if (slots > MAX_TABLE_SLOTS) throw tooManySlots();
      const source: CellSource = { blocks: cellBlocks(cell, state), colSpan, rowSpan };
      for (let dr = 0; dr < rowSpan; dr++) {
        for (let dc = 0; dc < colSpan; dc++)
          (grid[r + dr] as (Slot | undefined)[])[col + dc] = dr === 0 && dc === 0 ? { anchor: source } : { coveredBy: source };
      }
      col += colSpan;
    }
  });
  // Rows are filled out to the widest: short rows under one wide row are counted whole.
  if (widthOf(grid) * grid.length > MAX_TABLE_SLOTS) throw tooManySlots();
  return grid;
}

function cellBlocks(cell: Element, state: State): BlockContent[] {
  return state.toFlow(state.all(cell)).filter((b): b is BlockContent => b.type !== 'definition' && !(b.type === 'paragraph' && b.children.length === 0));
}

/**
 * A row that holds only cells reaching down into the next row and leaves its other columns
 * without cells — a pivot table's group label written on a row of its own — carries no row of
 * data: it is folded into the next row, its cells starting there.
 */
function foldHeaderOnlyRows(grid: (Slot | undefined)[][]): (Slot | undefined)[][] {
  const width = widthOf(grid);
  for (let r = 0; r < grid.length - 1;) {
    const row = grid[r] as (Slot | undefined)[];
    const slots = Array.from({ length: width }, (_, c) => row[c]);
    const starts = slots.filter((s): s is { anchor: CellSource } => !!s && 'anchor' in s);
    const foldable = slots.some((s) => !s) && starts.every((s) => s.anchor.rowSpan > 1);
    if (!foldable) {
      r++;
      continue;
    }
    const next = grid[r + 1] as (Slot | undefined)[];
    const shrunk = new Set<CellSource>();
    slots.forEach((slot, c) => {
      if (!slot) return;
      const source = 'anchor' in slot ? slot.anchor : slot.coveredBy;
      if (!shrunk.has(source)) {
        source.rowSpan--;
        shrunk.add(source);
      }
      if ('anchor' in slot) next[c] = slot;
    });
    grid.splice(r, 1);
  }
  return grid;
}

const widthOf = (grid: readonly (Slot | undefined)[][]): number => grid.reduce((widest, row) => Math.max(widest, row.length), 0);

function toCellRows(grid: (Slot | undefined)[][]): CellSource[][] {
  const width = widthOf(grid);
  return grid.map((row) =>
    Array.from({ length: width }, (_, c): CellSource => {
      const slot = row[c];
      if (!slot) return { blocks: [], colSpan: 1, rowSpan: 1 };
      return 'anchor' in slot ? slot.anchor : { blocks: [], colSpan: 1, rowSpan: 1, covered: true };
    }),
  );
}
