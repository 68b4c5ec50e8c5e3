// The page model every stage of PDF reading works on: mupdf's structured text as it comes
// (StextPage: blocks of lines with box, font and baseline), the rows the first stage makes of it
// (pdf-rows.ts: the lines of a block that share a baseline) and the paragraphs later stages make
// of rows. The stages, in order: pieces (pdf-pieces.ts) → rows with ruled tables (pdf-rows.ts,
// pdf-grid.ts, pdf-rules.ts) → running headers and footers (pdf-running-lines.ts) → reading
// order (pdf-reading-order.ts) → borderless tables and table runs (pdf-table-runs.ts,
// pdf-borderless.ts) → paragraphs, lists and code (pdf-paragraphs.ts) → headings
// (pdf-headings.ts) → blocks (pdf-layout.ts).

import type { RootContent } from 'mdast';
import type { StyledRange } from './blocks.js';
import type { Piece } from './pdf-borderless.js';
import type { PieceStyle } from './pdf-piece-style.js';

/** The parts of mupdf's stext JSON used here. */
export interface StextLine {
  bbox: { x: number; y: number; w: number; h: number };
  /** `mono`, `everyItalic`: every glyph so, by the character walk (pdf-pieces.ts); mupdf's JSON names a line by its first glyph's font. */
  font: { size: number; weight?: string; name?: string; family?: string; mono?: boolean; everyItalic?: boolean };
  x: number;
  y: number;
  text: string;
  wmode?: number;
  /** The bold characters the line starts with (after a marker without letters), where it goes on in another weight. */
  boldLead?: string;
  /** Its bold or italic words where its letters are not all so, by the character walk (pdf-piece-style.ts emphasisOf). */
  emphasis?: readonly StyledRange[];
}
export interface StextBlock {
  type: string;
  lines?: StextLine[];
}
export interface StextPage {
  width: number;
  height: number;
  blocks: StextBlock[];
}

/** One visual line: the stext lines of a block that share a baseline, left to right. */
export interface Row {
  text: string;
  x: number;
  y: number;
  top: number;
  bottom: number;
  /** Right edge of the row's last piece. */
  right: number;
  size: number;
  bold: boolean;
  /**
   * Bold for most of the row, then in the body's weight for a fifth of it or more: a bold lead
   * that runs into its paragraph ends inside the row, so the row goes on with the lines after it.
   */
  leadsIn?: boolean;
  /** The bold words the row starts with, where it goes on in another weight (a list item's bold term): an editable document's bold run. */
  boldLead?: string;
  /** The font most of the row is set in (subset prefix dropped). */
  font: string;
  /** Most of the row is set in a monospaced font: code, which is not the body's text. */
  mono: boolean;
  /** The colour most of the row is filled in ("r,g,b"), when the page's drawing was read. */
  color?: string;
  block: number;
  /** Pieces of the row separated by gaps wider than a word space: a table row's cells, left and right edges, and the style every glyph shares (pdf-piece-style.ts). */
  cells: ({ x: number; right: number; text: string } & PieceStyle)[];
  /** The row's pieces as they stood apart on the page (pdf-pieces.ts), when more than one (kept small: a page window's rows are held). */
  pieces: Piece[];
  /** A table ruled by lines: the row stands for all of it, where it lies on the page. */
  table?: RootContent;
  /** A line of a table's or a figure's caption (pdf-figure-captions.ts): no table's row. */
  caption?: true;
}

/** A page reduced to its rows: all the layout keeps of mupdf's structured text. */
export interface PageRows {
  rows: Row[];
  width: number;
  height: number;
}

/** Rows that read as one paragraph, list item or code block (stage 5, pdf-paragraphs.ts). */
export interface Paragraph {
  rows: Row[];
  marker?: { ordered: boolean };
  /** Two monospaced rows or more in a run: a code block, its rows its lines. */
  code?: true;
}

/**
 * Pieces of a row further apart than this many ems are separate cells. A word space is a
 * quarter em; tight tables leave little more than one em between columns ("Product Code" and
 * "Location" of MarkItDown's SPARSE report: 1.4 em).
 */
export const CELL_GAP = 1.2;

// Symbol-font bullets (Word's \uF0B7 and friends) sit in the Private Use Area; a bullet glyph
// with no Unicode mapping at all comes out as U+FFFD.
export const BULLET = /^([•◦▪▫●○■□►▸‣⁃·\uF000-\uF0FF]\s*|[*\-–—\uFFFD]\s+)/u;
/**
 * Word's bullet for a list's second level, `o` (in Courier New), set apart from its text by the
 * list's tab: a bullet only where it is a piece of its own (pdf-pieces.ts: glyphs apart with no
 * space between), as `o` is a word in Portuguese and Italian ("o livro").
 */
const LETTER_BULLET = /^o\s+/;
export const isBullet = (row: Pick<Row, 'text' | 'pieces'>) => BULLET.test(row.text) || (row.pieces.length > 1 && row.pieces[0]?.text.trim() === 'o');
/** A list item's text without its bullet (the row it starts with is one: isBullet). */
export const withoutBullet = (text: string) => (BULLET.test(text) ? text.replace(BULLET, '') : text.replace(LETTER_BULLET, ''));
export const NUMBERED = /^((\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)]|\(\d{1,3}\))\s+/;
