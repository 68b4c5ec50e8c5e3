// Stage 5 of PDF reading: rows in reading order into paragraphs — a new one at a block change,
// a list marker, a size change or a wide gap; lines that wrap from one block, column or page
// into the next go on; monospaced rows close together are one code block. Pure functions over rows.

import { isBullet, NUMBERED, type Paragraph, type Row } from './pdf-page-model.js';
import { isRightToLeft } from './pdf-rows.js';

/** Rows of code further apart than this many of their size are two code blocks. */
const CODE_BLOCK_GAP = 2;

/** A row continues a run of code rows: monospaced too, in their size, close below (a blank code line leaves a wider gap). */
function continuesCode(code: readonly Row[], row: Row): boolean {
  const previous = code.at(-1) as Row;
  const gap = row.top - previous.bottom;
  return (
    row.mono && code.every((r) => r.mono) && Math.abs(row.size - previous.size) <= 0.6 && gap <= previous.size * CODE_BLOCK_GAP && gap > -previous.size * 0.5
  );
}

/**
 * The most space, in a line's size, between a paragraph's lines: Chrome leaves 0.2–0.3 of it, a
 * title's margin 0.6 (groff) to 1.7 (Chrome's `h4`).
 */
export const LINE_SPACING = 0.45;

/**
 * Bold words of a paragraph that wrap on from a full line, or the paragraph's text that wraps on
 * from them: the row follows at line spacing and continues the paragraph as a wrapped line does.
 * A bold line that opens the paragraph is a title or a lead, whatever follows it closely (a
 * heading over a list set tight, LibreOffice).
 */
function wrapsOn(rows: readonly Row[], row: Row): boolean {
  const previous = rows.at(-1) as Row;
  if (previous.bold && rows.length === 1) return false;
  return row.top - previous.bottom <= previous.size * LINE_SPACING && continuesAcrossBlocks(rows, row);
}

/** The widest space between a paragraph's lines, in their size, where the page says no other (lineGapLimit). */
const LINE_GAP = 0.8;
/** The widest first-line indent, in the line's size (Word's half inch at 10 pt, 3.6 of it). */
const FIRST_LINE_INDENT = 4;
/** Wrapped lines a page must show before its own spacing is believed. */
const LEAST_WRAPS = 6;
/** The space between wrapped lines, in their size, from which a page is set wide (Word's 1.5 lines leave 0.7 or more). */
const WIDE_SPACING = 0.65;
/** How far short of the text's right edge a wrapped line may end, in its size (a ragged right's long word). */
const WRAP_SLACK = 4;
/** The shortest wrapped line, in its size (some 40 characters: a column of a two-column paper; an outline's items are shorter). */
const LEAST_LINE = 20;
/** A line that ends a sentence (a wrapped line mostly ends inside one). */
const ENDS_SENTENCE = /[.!?。！？]["'”’)]?$/;
/** What a paragraph's line may stand further down than the page's wrapped lines mostly do, in its size. */
const GAP_SLACK = 0.25;

/**
 * The widest space between a paragraph's lines on a page, in their size: LINE_GAP, or on a page
 * set at 1.5 or double spacing (a thesis, a manuscript, a court filing), where every line stands
 * further below the one above, the space its wrapped lines mostly leave and a quarter line more.
 * A wrapped line starts under the line above and both run to the text's edge; the median over the
 * page's pairs of such lines is the paragraphs' own spacing, a paragraph's end among them rare.
 */
export function lineGapLimit(rows: readonly Row[]): number {
  const gaps: number[] = [];
  // A wrapped line and the line above it both run on to the text's right edge (a long word short of it at most): not a
  // paragraph's last line, nor a heading, nor one-line paragraphs, which end anywhere; and the line above ends inside a
  // sentence, as one-line paragraphs of one length set apart (a list of statements) do not.
  const edge = Math.max(...rows.map((r) => r.right));
  for (const [k, row] of rows.entries()) {
    const previous = rows[k - 1];
    if (!previous || row.mono || previous.mono || Math.abs(row.size - previous.size) > 0.6 || isBullet(row) || NUMBERED.test(row.text)) continue;
    // Not a line indented past the one above (a paragraph's first); the one above may be (its first line's indent).
    if (
      row.x > previous.x + previous.size * 0.5 ||
      row.x < previous.x - previous.size * FIRST_LINE_INDENT ||
      Math.min(previous.right, row.right) < edge - previous.size * WRAP_SLACK ||
      ENDS_SENTENCE.test(previous.text) ||
      previous.right - previous.x < previous.size * LEAST_LINE
    )
      continue;
    const gap = (row.top - previous.bottom) / previous.size;
    if (gap > -0.5 && gap < 3) gaps.push(gap);
  }
  if (gaps.length < LEAST_WRAPS) return LINE_GAP;
  gaps.sort((a, b) => a - b);
  const usual = gaps[Math.floor(gaps.length / 2)] as number;
  // Spacing a single-spaced page's limit already holds with room to spare is the page's own (a print's 1.4 line height).
  return usual > WIDE_SPACING ? Math.max(LINE_GAP, usual + GAP_SLACK) : LINE_GAP;
}

/**
 * Rows into paragraphs: a new one at a block change, a marker, a size change or a wide gap (wider
 * than `gapLimit` of the line's size: the page's, lineGapLimit()).
 */
export function paragraphs(rows: readonly Row[], gapLimit = lineGapLimit(rows)): Paragraph[] {
  const out: Paragraph[] = [];
  let current: Paragraph | undefined;
  for (const row of rows) {
    const marker = isBullet(row) ? { ordered: false } : NUMBERED.test(row.text) ? { ordered: true } : undefined;
    const previous = current?.rows.at(-1);
    if (current && previous && continuesCode(current.rows, row)) {
      current.rows.push(row);
      if (!current.marker) current.code = true;
      continue;
    }
    const lineGap = previous ? row.top - previous.bottom : 0;
    const breaks =
      !current ||
      !previous ||
      marker !== undefined ||
      (row.block !== previous.block && !continuesAcrossBlocks(current.rows, row, gapLimit)) ||
      Math.abs(row.size - previous.size) > 0.6 ||
      // A change of weight opens a paragraph (a bold title, a bold lead), not where bold words wrap on from a full line or into one.
      (row.bold !== previous.bold && !previous.leadsIn && !wrapsOn(current.rows, row)) ||
      row.mono !== previous.mono ||
      lineGap > previous.size * gapLimit ||
      lineGap < -previous.size * 2;
    if (breaks) {
      current = { rows: [row], ...(marker && { marker }) };
      out.push(current);
    } else current?.rows.push(row);
  }
  return out;
}

/**
 * Some producers put every line in a block of its own; a row still continues the paragraph
 * when it follows at line spacing, starts at the paragraph's left edge (not indented: a first-line
 * indent opens a new paragraph) and the line before it ran to the paragraph's right edge — in
 * right-to-left text, starts at its right edge and the line before ran to its left edge.
 */
function continuesAcrossBlocks(rows: readonly Row[], row: Row, gapLimit = LINE_GAP): boolean {
  const previous = rows.at(-1) as Row;
  const gap = row.top - previous.bottom;
  if (gap > previous.size * gapLimit || gap < -previous.size * 0.5) return false;
  // Right-to-left lines start at the right edge and end short of the left one: the same test mirrored.
  if (isRightToLeft(row.text) && isRightToLeft(previous.text)) {
    const start = Math.max(...rows.map((r) => r.right));
    const end = Math.min(row.x, ...rows.map((r) => r.x));
    return row.right >= start - previous.size * 0.5 && row.right <= start + previous.size * 2 && previous.x <= end + wrapSlack(previous, row);
  }
  const left = Math.min(...rows.map((r) => r.x));
  const right = Math.max(row.right, ...rows.map((r) => r.right));
  // Under a paragraph's first line alone on a page set wide, the row may start left of it by its first-line indent.
  const outdent = rows.length === 1 && gapLimit > LINE_GAP ? FIRST_LINE_INDENT : 2;
  return row.x <= left + previous.size * 0.5 && row.x >= left - previous.size * outdent && previous.right >= right - wrapSlack(previous, row);
}

/**
 * How far short of the paragraph's edge a wrapped line may end: two of its sizes, or more when
 * the next row's first word (about half its size a character, and a space) would not have fit there.
 */
function wrapSlack(previous: Row, row: Row): number {
  const word = row.text.split(' ')[0] ?? '';
  return Math.max(previous.size * 2, (word.length + 1) * row.size * 0.55);
}
