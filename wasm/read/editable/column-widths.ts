// A borderless table's column widths, by what its cells hold. Equal columns wrapped a long
// column's text onto many lines (a booking's movie titles, five lines a row in a column as narrow
// as its "Days") while short columns stood half empty, so the table ran pages longer than the
// PDF's. The widths are shared as a browser lays out a table (CSS's automatic layout): each
// column gets at least its longest word, and what is left goes to the columns whose text would
// run longer than that, by how much longer.

import { displayWidth } from '../../../core/cjk-text.js';
import type { RootContent } from 'mdast';
import { plainText, type CellSource } from '../blocks.js';

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
