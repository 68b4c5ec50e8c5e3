// The style every glyph of a piece of text is set in, as the character walk finds it
// (pdf-pieces.ts): monospaced (code) or italic. A table's cells carry it from their pieces
// through the table readers (pdf-rows.ts, pdf-table-bands.ts, pdf-table-runs.ts, pdf-rules.ts,
// pdf-grid.ts) to blocks.ts textCells, which writes a cell's code as `code` and a cell set wholly
// in italic as *italic*: the Markdown the PDF was printed from wrote them so. A whole cell's bold
// is not kept (blocks.ts styledRuns says why); bold or italic words inside a piece set otherwise
// ("在**方法调用之前**计算") are: an author's emphasis, which no table style sets (`emphasis`).

import type { StyledRange } from './blocks.js';

/** What every glyph of a piece is set in: only the character walk says so of every glyph. */
export interface PieceStyle {
  code?: true;
  italic?: true;
  /** The bold or italic words of a piece set otherwise, in its text with spaces as a cell's text has them. */
  emphasis?: readonly StyledRange[];
}

const KEYS = ['code', 'italic'] as const;

/** What a line says of its style (pdf-page-model.ts StextLine's font). */
interface StyledLine {
  text: string;
  font: { mono?: boolean; everyItalic?: boolean };
  emphasis?: readonly StyledRange[];
}

/** A text with its runs of spaces made one and its ends trimmed, as a table cell's text is. */
const cellSpaces = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A line's style, every glyph's (mupdf's JSON names a line by its first glyph's font, so says none). */
export const lineStyle = (line: Pick<StyledLine, 'font' | 'emphasis'>): PieceStyle => ({
  ...(line.font.mono && { code: true }),
  ...(line.font.everyItalic && { italic: true }),
  ...(line.emphasis && { emphasis: line.emphasis }),
});

/**
 * Drops from `target` what `other` is not set in: two pieces joined into one cell keep the style
 * both share. A piece's emphasis stays only with that piece itself (its ranges are in its text).
 */
export function keepShared(target: PieceStyle, other: PieceStyle): void {
  for (const key of KEYS) if (!other[key]) delete target[key];
  if (target.emphasis !== other.emphasis) delete target.emphasis;
}

/** The style all of `units` share (none for no units); one unit's emphasis, of one unit alone. */
export function sharedStyle(units: readonly PieceStyle[]): PieceStyle {
  const shared: PieceStyle = {};
  for (const key of KEYS) if (units.length > 0 && units.every((u) => u[key])) shared[key] = true;
  const [only] = units;
  if (units.length === 1 && only?.emphasis) shared.emphasis = only.emphasis;
  return shared;
}

const sameRanges = (a: readonly StyledRange[] | undefined, b: readonly StyledRange[] | undefined) => JSON.stringify(a) === JSON.stringify(b);

const merged = (a: PieceStyle, b: PieceStyle): PieceStyle => ({
  ...((a.code || b.code) && { code: true }),
  ...(a.italic && b.italic && { italic: true }),
  ...(a.emphasis && sameRanges(a.emphasis, b.emphasis) && { emphasis: a.emphasis }),
});

/** A glyph as the character walk gives it, with the weight and slant of its face. */
interface StyledChar {
  c: string;
  bold: boolean;
  italic?: boolean;
}

const LETTER = /[\p{L}\p{N}]/u;

/**
 * The bold and italic words of a piece whose letters are not all set so: ranges of its text with
 * spaces as a cell's text has them, trimmed of spaces. None where no letter, or every letter, is
 * bold (italic): a whole cell so set is the table's style, or `italic` (PieceStyle).
 */
export function emphasisOf(chars: readonly StyledChar[]): StyledRange[] {
  const letters = chars.filter((c) => LETTER.test(c.c));
  const partly = (is: (c: StyledChar) => boolean) => letters.some(is) && !letters.every(is);
  const bold = partly((c) => c.bold);
  const italic = partly((c) => c.italic === true);
  if (!bold && !italic) return [];
  // The glyphs' flags, a code unit each, in the text as cellSpaces makes it.
  const flags: { bold: boolean; italic: boolean }[] = [];
  for (const ch of chars) {
    if (/^\s+$/.test(ch.c)) {
      if (flags.length > 0 && flags.at(-1) !== SPACE) flags.push(SPACE);
      continue;
    }
    for (let k = 0; k < ch.c.length; k++) flags.push({ bold: bold && ch.bold, italic: italic && ch.italic === true });
  }
  if (flags.at(-1) === SPACE) flags.pop();
  return [...rangesOf(flags, 'bold'), ...rangesOf(flags, 'italic')];
}

const SPACE = { bold: false, italic: false };

/** The runs of `key` among the flags, a space between two of them joining them, trimmed of spaces. */
function rangesOf(flags: readonly { bold: boolean; italic: boolean }[], key: 'bold' | 'italic'): StyledRange[] {
  const ranges: StyledRange[] = [];
  let start = -1;
  for (let i = 0; i <= flags.length; i++) {
    const on = i < flags.length && ((flags[i] as { bold: boolean; italic: boolean })[key] || (flags[i] === SPACE && start >= 0));
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      let end = i;
      while (end > start && flags[end - 1] === SPACE) end--;
      ranges.push({ start, end, [key]: true });
      start = -1;
    }
  }
  return ranges;
}

/**
 * The texts of `units` set in a style, spaces as a cell's text has them, each with its style. A
 * text met twice is code if either piece was (as code spans always were), italic only if both
 * were: a word set italic in one cell and plain in another is not made italic by the first.
 */
export function styledTexts(units: Iterable<{ text: string } & PieceStyle>): Map<string, PieceStyle> {
  const seen = new Map<string, PieceStyle>();
  for (const unit of units) {
    const text = cellSpaces(unit.text);
    const before = seen.get(text);
    const style = sharedStyle([unit]);
    seen.set(text, before ? merged(before, style) : style);
  }
  seen.delete('');
  return new Map([...seen].filter(([, style]) => Object.keys(style).length > 0));
}

/** The styled texts of a table's lines, each line a piece (blocks.ts textCells). */
export const linesStyledTexts = (lines: Iterable<StyledLine>): Map<string, PieceStyle> =>
  styledTexts(Array.from(lines, (line) => ({ text: line.text, ...lineStyle(line) })));

/** The code texts of `styles` alone: a header's cells, whose style is the header's. */
export const codeOnly = (styles: ReadonlyMap<string, PieceStyle>): Map<string, PieceStyle> =>
  new Map([...styles].filter(([, style]) => style.code).map(([text]) => [text, { code: true }]));
