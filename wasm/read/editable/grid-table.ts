// A ruled table laid out as the PDF draws it (pdf-grid-geometry.ts): each column as wide as on
// the page (all narrowed together where the table is wider than the text), the cells' text as far
// in from the rules and at the PDF's size. Rows keep the height their text takes: held at the
// PDF's heights, rows whose text LibreOffice sets a little taller ran three documents onto
// another page (docx_rich_cells, text_document_03, word_tables). Written as the DOCX
// library's options; without the grid, or where the table read has another shape than the grid
// (rows or columns joined or dropped on the way), the writer keeps its equal columns.

import { WidthType } from 'docx';
import type { GridGeometry } from '../pdf-grid-geometry.js';

/** Twentieths of a point, Word's unit of length. */
const twips = (points: number) => Math.round(points * 20);

export interface GridLayout {
  /** Twips, a column each. */
  columnWidths: number[];
  /** The cells' padding (twips, left and right) and the table's indent from the column's left (twips). */
  margins: { left: number; right: number; top: number; bottom: number };
  indent: { size: number; type: typeof WidthType.DXA };
  /** The cells' text size in points, and the points its lines take across the page, all added. */
  size: number;
  width: number;
}

/**
 * The layout of a table of `columns` × `rows` from its grid, set in a column of `textWidth`
 * points whose left edge stands `columnLeft` points from the page's left.
 */
export function gridLayout(grid: GridGeometry | undefined, columns: number, rows: number, textWidth: number, columnLeft: number): GridLayout | undefined {
  if (!grid || grid.xs.length !== columns + 1 || grid.ys.length !== rows + 1) return undefined;
  const widths = grid.xs.slice(1).map((x, k) => x - (grid.xs[k] as number));
  const total = widths.reduce((sum, w) => sum + w, 0);
  const scale = Math.min(1, textWidth / total);
  // The table's left rule where the PDF draws it, within the column.
  const indent = Math.max(0, Math.min((grid.xs[0] as number) - columnLeft, textWidth - total * scale));
  return {
    columnWidths: widths.map((w) => twips(w * scale)),
    // None above and below, as Word's default: a line's box already starts above its glyphs.
    margins: { left: twips(grid.padding), right: twips(grid.padding), top: 0, bottom: 0 },
    indent: { size: twips(indent), type: WidthType.DXA },
    size: grid.size,
    width: grid.width,
  };
}
