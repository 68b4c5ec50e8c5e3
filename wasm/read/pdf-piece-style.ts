// The style every glyph of a piece of text is set in, as the character walk finds it
// (pdf-pieces.ts): monospaced (code) or italic. A table's cells carry it from their pieces
// through the table readers (pdf-rows.ts, pdf-table-bands.ts, pdf-table-runs.ts, pdf-rules.ts,
// pdf-grid.ts) to blocks.ts textCells, which writes a cell's code as `code` and a cell set wholly
// in italic as *italic*: the Markdown the PDF was printed from wrote them so. Bold is not kept
// (blocks.ts styledRuns says why).

/** What every glyph of a piece is set in: only the character walk says so of every glyph. */
export interface PieceStyle {
  code?: true;
  italic?: true;
}

const KEYS = ['code', 'italic'] as const;

/** What a line says of its style (pdf-page-model.ts StextLine's font). */
interface StyledLine {
  text: string;
  font: { mono?: boolean; everyItalic?: boolean };
}

/** A text with its runs of spaces made one and its ends trimmed, as a table cell's text is. */
const cellSpaces = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A line's style, every glyph's (mupdf's JSON names a line by its first glyph's font, so says none). */
export const lineStyle = (line: Pick<StyledLine, 'font'>): PieceStyle => ({
  ...(line.font.mono && { code: true }),
  ...(line.font.everyItalic && { italic: true }),
});

/** Drops from `target` what `other` is not set in: two pieces joined into one cell keep the style both share. */
export function keepShared(target: PieceStyle, other: PieceStyle): void {
  for (const key of KEYS) if (!other[key]) delete target[key];
}

/** The style all of `units` share (none for no units). */
export function sharedStyle(units: readonly PieceStyle[]): PieceStyle {
  const shared: PieceStyle = {};
  for (const key of KEYS) if (units.length > 0 && units.every((u) => u[key])) shared[key] = true;
  return shared;
}

const merged = (a: PieceStyle, b: PieceStyle): PieceStyle => ({
  ...((a.code || b.code) && { code: true }),
  ...(a.italic && b.italic && { italic: true }),
});

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
