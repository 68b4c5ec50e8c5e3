// A table's column widths in the DOCX, one of three ways, the first that applies (docx.ts table()):
//
// 1. A ruled table, from its grid (gridLayout).
//    A ruled table laid out as the PDF draws it (pdf-grid-geometry.ts): each column as wide as on
//    the page (all narrowed together where the table is wider than the text), the cells' text as far
//    in from the rules and at the PDF's size. Rows keep the height their text takes, but for a
//    row the PDF pads around its text (paddedRows). Written as the DOCX
//    library's options; without the grid, or where the table read has another shape than the grid
//    (rows or columns joined or dropped on the way), the writer keeps its equal columns.
//
// 2. A borderless table whose column starts read measured (borderlessGrid).
//    A borderless table's grid where the PDF says where its columns start (table-column-lefts.ts):
//    each column as wide as from its text's start to the next's, the last to the text column's
//    right edge or past its text, the table indented to the first, and no cell margins, so each
//    column's text starts where the PDF's does. Tables with spans keep equal columns: their cells do
//    not say one column each.
//
// 3. Any other borderless table, by what its cells hold (contentWidths).
//    A borderless table's column widths, by what its cells hold. Equal columns wrapped a long
//    column's text onto many lines (a booking's movie titles, five lines a row in a column as narrow
//    as its "Days") while short columns stood half empty, so the table ran pages longer than the
//    PDF's. The widths are shared as a browser lays out a table (CSS's automatic layout): each
//    column gets at least its longest word, and what is left goes to the columns whose text would
//    run longer than that, by how much longer.

import type { RootContent } from 'mdast';
import { WidthType } from 'docx';
import { displayWidth } from '../../../core/cjk-text.js';
import { plainText, type CellSource } from '../blocks.js';
import type { GridGeometry, GridRules } from '../pdf-grid-geometry.js';
import type { PdfTableBox } from '../pdf-layout.js';

/** Twentieths of a point, Word's unit of length. */
export const twips = (points: number) => Math.round(points * 20);

// 1. Ruled tables.

export interface GridLayout {
  /** Twips, a column each. */
  columnWidths: number[];
  /** The cells' padding (twips, left and right) and the table's indent from the column's left (twips). */
  margins: { left: number; right: number; top: number; bottom: number };
  indent: { size: number; type: typeof WidthType.DXA };
  /** The cells' text size in points, and the points its lines take across the page, all added. */
  size: number;
  width: number;
  /** How the PDF draws its rules (table-rules.ts writes them). */
  rules?: GridRules;
  /** Whether the header row is set bold, as the PDF's is. */
  headerBold: boolean;
  /** Each row the PDF pads around its text, held as tall (paddedRows); none for the others. */
  paddedRows: (PaddedRow | undefined)[];
}

/** A ruled row the PDF pads around its text: the points it is held to at the least, and whether its text stands in its middle. */
export interface PaddedRow {
  height: number;
  centred: boolean;
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
    ...(grid.rules && { rules: grid.rules }),
    headerBold: grid.headerBold,
    paddedRows: paddedRows(grid),
  };
}

/** A row this many times as tall as its text, the room shared above and below it, is padded by the PDF's design. */
const PADDED_RATIO = 1.4;
/** Each side's share of its text's height the room above and below must be at the least. */
const LEAST_SIDE = 0.15;
/** Rooms above and below within this share of the text's height: the text stands in the row's middle. */
const CENTRED_WITHIN = 0.25;

/**
 * Each row's height as the PDF draws it where the PDF pads the row around its text (an invoice's
 * 20-pt rows of one 9-pt line, which came out 11 pt and drew the page up), its text in the middle
 * where the PDF's stands there (else at the top, a row's default), less what a rule
 * heavier than the usual pen adds (LibreOffice sets a row that tall, then widens it by its
 * borders). Other rows keep the height their text takes in the DOCX: held at the PDF's, rows
 * LibreOffice sets a little taller ran two documents onto a third page (docx_rich_cells,
 * text_document_03), and a row tall for a picture set under its text (room below, none above)
 * stood that tall over nothing, the picture following the table.
 */
function paddedRows({ ys, rowText, rules }: GridGeometry): (PaddedRow | undefined)[] {
  const excess = (k: number) => (rules ? Math.max(0, (rules.rows[k] ?? rules.usual).weight - rules.usual.weight) : 0);
  return ys.slice(1).map((bottom, k) => {
    const [top, text] = [ys[k] as number, rowText[k]];
    if (!text) return undefined;
    const [height, above, below] = [text.bottom - text.top, text.top - top, bottom - text.bottom];
    if (bottom - top < PADDED_RATIO * height || Math.min(above, below) < LEAST_SIDE * height) return undefined;
    return { height: bottom - top - excess(k) - excess(k + 1), centred: Math.abs(above - below) <= CENTRED_WITHIN * height };
  });
}

// 2. Borderless tables whose columns read measured.

/**
 * Points the last column reaches past its widest text where the text column ends sooner: a page's
 * right margin is measured to its longest line, and a face a little wider than the PDF's (or bold)
 * would wrap the last column's words.
 */
const LAST_COLUMN_SLACK = 24;

/** Points: a table's columns, where its first starts (from the text's left) and each one's width. */
interface TableGrid {
  indent: number;
  widths: number[];
}

/** The grid of a borderless table of `columns` columns in a text column from `left` to `right` (points from the page's left). */
export function borderlessGrid(
  rows: readonly CellSource[][],
  columns: number,
  box: PdfTableBox | undefined,
  [left, right]: readonly [number, number],
): TableGrid | undefined {
  const lefts = box?.columnLefts;
  if (!box || box.ruled || lefts?.length !== columns) return undefined;
  if (rows.some((row) => row.length !== columns || row.some((cell) => cell.covered || cell.colSpan > 1 || cell.rowSpan > 1))) return undefined;
  const end = Math.max(right, box.right + LAST_COLUMN_SLACK);
  const widths = lefts.map((x, k) => (lefts[k + 1] ?? end) - x);
  return { indent: (lefts[0] as number) - left, widths };
}

// 3. Borderless tables by their text.

/** Twips a cell's margins take beside its text: LibreOffice's 0.19 cm each side, and a point to spare. */
const PADDING = 2 * 108 + 20;

/** A character's advance in ems, by its kind, as Arial and Liberation Sans set them (Times runs narrower). */
function advance(char: string): number {
  if (displayWidth(char) === 2) return 1;
  if (/[0-9$€£%#]/.test(char)) return 0.556;
  if (/[A-Z&@]/.test(char)) return 0.667;
  if (/[\s.,:;'|!()[\]/-]/.test(char)) return 0.278;
  return 0.5;
}

const ems = (text: string) => [...text].reduce((sum, char) => sum + advance(char), 0);

/** The range the face's scale is believed in: beyond it a page's widths say more of its layout than of its face. */
const SCALE_RANGE = [0.8, 1.4] as const;

/**
 * How much wider the document's face sets text than advance() reckons (DejaVu Serif's 1.2, Arial's
 * 1): the PDF's paragraphs' widths against their text's, all added. A table's cells are set in
 * the body's face.
 */
export function faceScale(blocks: readonly RootContent[]): number {
  let [set, reckoned] = [0, 0];
  for (const block of blocks) {
    const pdf = block.type === 'paragraph' ? block.data?.pdfText : undefined;
    if (!pdf) continue;
    set += pdf.width;
    reckoned += ems(plainText(block)) * pdf.size;
  }
  return reckoned > 0 ? Math.min(SCALE_RANGE[1], Math.max(SCALE_RANGE[0], set / reckoned)) : 1;
}

/** A column's text in ems: its longest word and its longest paragraph on one line. */
interface Extent {
  least: number;
  most: number;
}

function cellExtent(cell: CellSource): Extent {
  const texts = cell.blocks.map((block) => plainText(block).trim());
  const words = texts.flatMap((text) => text.split(/\s+/));
  return { least: Math.max(0, ...words.map(ems)), most: Math.max(0, ...texts.map(ems)) };
}

/** Each column's extent over the cells that span it alone. */
function columnExtents(rows: readonly CellSource[][], columns: number): Extent[] {
  const extents = Array.from({ length: columns }, () => ({ least: 0, most: 0 }));
  // A row holds a cell for each of its columns (those a span covers marked so).
  for (const row of rows) {
    for (const [column, cell] of row.entries()) {
      const extent = extents[column];
      if (!extent || cell.colSpan !== 1 || cell.covered) continue;
      const { least, most } = cellExtent(cell);
      extent.least = Math.max(extent.least, least);
      extent.most = Math.max(extent.most, most);
    }
  }
  return extents;
}

/**
 * Twips for each of `columns` columns sharing `total` twips, `em` twips the table's em: every
 * column its longest word where they fit, the rest shared by how much further each column's
 * longest paragraph runs (all of it, where every paragraph fits on a line).
 */
export function contentWidths(rows: readonly CellSource[][], columns: number, total: number, em: number): number[] {
  const extents = columnExtents(rows, columns).map((e) => ({ least: e.least * em + PADDING, most: e.most * em + PADDING }));
  const sum = (pick: (e: Extent) => number) => extents.reduce((n, e) => n + pick(e), 0);
  const [least, most] = [sum((e) => e.least), sum((e) => e.most)];
  const share = (pick: (e: Extent) => number, of: number) => extents.map((e) => Math.floor((total * pick(e)) / of));
  // Every paragraph on one line, or not even every word: shared in proportion.
  if (most <= total) return share((e) => e.most, most);
  if (least >= total) return share((e) => e.least, least);
  const spare = total - least;
  const wanted = most - least;
  return extents.map((e) => Math.floor(e.least + (spare * (e.most - e.least)) / wanted));
}
