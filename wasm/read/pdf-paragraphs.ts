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

/** Rows into paragraphs: a new one at a block change, a marker, a size change or a wide gap. */
export function paragraphs(rows: readonly Row[]): Paragraph[] {
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
      (row.block !== previous.block && !continuesAcrossBlocks(current.rows, row)) ||
      Math.abs(row.size - previous.size) > 0.6 ||
      // A change of weight opens a paragraph (a bold title, a bold lead), not where bold words wrap on from a full line or into one.
      (row.bold !== previous.bold && !previous.leadsIn && !wrapsOn(current.rows, row)) ||
      row.mono !== previous.mono ||
      lineGap > previous.size * 0.8 ||
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
function continuesAcrossBlocks(rows: readonly Row[], row: Row): boolean {
  const previous = rows.at(-1) as Row;
  const gap = row.top - previous.bottom;
  if (gap > previous.size * 0.8 || gap < -previous.size * 0.5) return false;
  // Right-to-left lines start at the right edge and end short of the left one: the same test mirrored.
  if (isRightToLeft(row.text) && isRightToLeft(previous.text)) {
    const start = Math.max(...rows.map((r) => r.right));
    const end = Math.min(row.x, ...rows.map((r) => r.x));
    return row.right >= start - previous.size * 0.5 && row.right <= start + previous.size * 2 && previous.x <= end + wrapSlack(previous, row);
  }
  const left = Math.min(...rows.map((r) => r.x));
  const right = Math.max(row.right, ...rows.map((r) => r.right));
  return row.x <= left + previous.size * 0.5 && row.x >= left - previous.size * 2 && previous.right >= right - wrapSlack(previous, row);
}

/**
 * How far short of the paragraph's edge a wrapped line may end: two of its sizes, or more when
 * the next row's first word (about half its size a character, and a space) would not have fit there.
 */
function wrapSlack(previous: Row, row: Row): number {
  const word = row.text.split(' ')[0] ?? '';
  return Math.max(previous.size * 2, (word.length + 1) * row.size * 0.55);
}
