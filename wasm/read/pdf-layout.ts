// A PDF page's text, as mupdf's structured text gives it (blocks of lines with font, size and
// position), into the block model: lines on one baseline joined into rows (stage 1; the page
// model is pdf-page-model.ts), and — after running lines (pdf-running-lines.ts) and reading order
// (pdf-reading-order.ts) — tables, paragraphs split by spacing, headings from font size and
// weight relative to the body text, list items from bullets and numbering (nesting from their
// indent), hyphenated line ends joined. Pure functions over plain data, so they are tested on arrays.

import type { RootContent } from 'mdast';
import { BOLD_FONT_NAME, heading, MONOSPACE, nestLists, paragraph, table, textCells, type ListEntry } from './blocks.js';
import { blocksToHtml } from './render.js';
import { loneRules, mergeRulings, rulingTables, type GridTable, type PageDrawing, type TextPaint } from './pdf-grid.js';
import { ruleTables } from './pdf-rules.js';
import { borderlessTables } from './pdf-borderless.js';
import type { PageRows, Row, StextLine, StextPage } from './pdf-page-model.js';
import { joinLines } from '../../src/shared/cjk-text.js';

// Symbol-font bullets (Word's \uF0B7 and friends) sit in the Private Use Area; a bullet glyph
// with no Unicode mapping at all comes out as U+FFFD.
const BULLET = /^([•◦▪▫●○■□►▸‣⁃·\uF000-\uF0FF]\s*|[*\-–—\uFFFD]\s+)/u;
const NUMBERED = /^((\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)]|\(\d{1,3}\))\s+/;

/** The page's rows in mupdf's order; a table ruled by the drawing's lines is one row, where its first line was. */
export function pageRows(page: StextPage, drawing: PageDrawing = { rulings: [], paints: [] }): Row[] {
  const lines = page.blocks.flatMap((block, index) => (block.type === 'text' && block.lines ? block.lines.map(withoutControls).filter((l) => l.text.trim() !== '').map((line) => ({ line, block: index })) : []));
  const rulings = mergeRulings(drawing.rulings);
  const grids = rulingTables(rulings, lines.map((l) => l.line));
  const inGrids = new Set(grids.flatMap((t) => [...t.lines]));
  const tables = [...grids, ...ruleTables(loneRules(rulings), lines.map((l) => l.line).filter((l) => !inGrids.has(l)))];
  const tableOf = new Map<StextLine, GridTable<StextLine>>();
  for (const t of tables) for (const line of t.lines) tableOf.set(line, t);
  const paints = paintIndex(drawing.paints);
  // Rows being gathered, in order: a ruled table stands for all its lines; a row keeps its block.
  const items: ({ table: GridTable<StextLine>; block: number } | { lines: StextLine[]; block: number })[] = [];
  const placed = new Set<GridTable<StextLine>>();
  let blockStart = 0;
  for (const { line, block } of lines) {
    const table = tableOf.get(line);
    if (table) {
      if (!placed.has(table)) items.push({ table, block });
      placed.add(table);
      blockStart = items.length;
      continue;
    }
    const last = items.at(-1);
    if (last && last.block !== block) blockStart = items.length;
    const rowsOf = items.slice(blockStart).filter((i): i is { lines: StextLine[]; block: number } => 'lines' in i);
    const same = rowsOf.find((g) => sameBaseline(g.lines, line)) ?? (blockStart === items.length ? besideRow(items, line) : undefined);
    if (same) same.lines.push(line);
    else items.push({ lines: [line], block });
  }
  const rows = items.map((i) => ('table' in i ? tableRow(i.table, i.block) : toRow(inReadingOrder(i.lines), i.block, paints)));
  return withCodeLedHeadings(rows);
}

/** A bold code row this much taller, for its size, than the page's rows are holds larger text. */
const TALLER = 1.15;

/**
 * Headings that open with code ("## `--timeout` 选项"): mupdf gives a line one font, its first
 * glyph's, so such a row reads as monospaced, in the code's smaller size. Its box, taller for
 * that size than the page's rows are, tells the heading's size; a code block's rows are not bold.
 */
function withCodeLedHeadings(rows: Row[]): Row[] {
  const ratios = rows
    .filter((r) => !r.table && r.size > 0)
    .map((r) => (r.bottom - r.top) / r.size)
    .sort((a, b) => a - b);
  const usual = ratios[Math.floor(ratios.length / 2)];
  if (usual === undefined) return rows;
  return rows.map((r) => (r.mono && r.bold && !r.table && r.bottom - r.top > r.size * usual * TALLER ? { ...r, mono: false, size: (r.bottom - r.top) / usual } : r));
}

const sameBaseline = (row: readonly StextLine[], line: StextLine) => Math.abs((row[0] as StextLine).y - line.y) <= Math.max(2, line.font.size * 0.3);

/** Rows of this many blocks back may take a later block's line on their baseline: a table row's cells. */
const CELL_BLOCKS = 4;

/**
 * The row, among those of the last few blocks, whose baseline the first line of a new block
 * stands on, clear of its lines and in their size: another cell of a table row. mupdf makes a
 * block of each cell whose text wraps, so a row's cells come block after block (the first cell's
 * lines, then the next cell's); they are one row, as the cells of a row whose text does not
 * wrap are one mupdf line. A heading beside a masthead's line is in another size.
 */
function besideRow(items: readonly ({ lines: StextLine[]; block: number } | { block: number })[], line: StextLine): { lines: StextLine[] } | undefined {
  const blocks = new Set<number>();
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k] as (typeof items)[number];
    blocks.add(item.block);
    if (blocks.size > CELL_BLOCKS) return undefined;
    if (!('lines' in item) || !sameBaseline(item.lines, line)) continue;
    const clear = item.lines.every((l) => (l.bbox.x + l.bbox.w <= line.bbox.x || line.bbox.x + line.bbox.w <= l.bbox.x) && Math.abs(l.font.size - line.font.size) <= line.font.size * 0.15);
    return clear ? item : undefined;
  }
  return undefined;
}

/** Control characters are never text: a dingbat font's bullet can come out as one (U+0084). */
const withoutControls = (line: StextLine): StextLine => ({ ...line, text: line.text.replace(/\p{Cc}/gu, (c) => (/\s/.test(c) ? ' ' : '')) });

function tableRow(found: GridTable<StextLine>, block: number): Row {
  const sizes = [...found.lines].map((l) => l.font.size).sort((a, b) => a - b);
  const { left, top, right, bottom } = found.box;
  return { text: '', x: left, y: top, top, bottom, right, size: sizes[Math.floor(sizes.length / 2)] ?? 10, bold: false, font: '', mono: false, block, cells: [], pieces: [], table: found.table };
}

/** Text paints bucketed by height, to find a row's colour without scanning the page. */
type PaintIndex = Map<number, TextPaint[]>;
const BUCKET = 16;
function paintIndex(paints: readonly TextPaint[]): PaintIndex {
  const index: PaintIndex = new Map();
  for (const paint of paints) {
    for (let key = Math.floor(paint.top / BUCKET); key <= Math.floor(paint.bottom / BUCKET); key++) index.set(key, [...(index.get(key) ?? []), paint]);
  }
  return index;
}

/**
 * The colour of the row: that of the text object holding its middle whose own middle is nearest.
 * Text bounds come from font boxes, taller than the glyphs (a CJK font's reach into the lines
 * around), and a producer may set a page in one text object: the nearest is the row's own.
 */
function rowColor(index: PaintIndex, box: { left: number; top: number; right: number; bottom: number }): string | undefined {
  const x = (box.left + box.right) / 2;
  const y = (box.top + box.bottom) / 2;
  let best: { paint: TextPaint; distance: number } | undefined;
  for (const p of index.get(Math.floor(y / BUCKET)) ?? []) {
    if (x < p.left - 1 || x > p.right + 1 || y < p.top - 1 || y > p.bottom + 1) continue;
    const distance = Math.abs((p.top + p.bottom) / 2 - y) + Math.abs((p.left + p.right) / 2 - x) * 0.1;
    if (!best || distance < best.distance) best = { paint: p, distance };
  }
  return best?.paint.color;
}

/**
 * Pieces of a row further apart than this many ems are separate cells. A word space is a
 * quarter em; tight tables leave little more than one em between columns ("Product Code" and
 * "Location" of MarkItDown's SPARSE report: 1.4 em).
 */
const CELL_GAP = 1.2;

/**
 * The pieces of one row in reading order: left to right, or right to left where most of their
 * letters are of a right-to-left script — there a run of Latin or code breaks mupdf's line, and
 * the row's first piece (a bullet, a table's first column) is the rightmost.
 */
function inReadingOrder(lines: StextLine[]): { lines: StextLine[]; rtl: boolean } {
  const rtl = lines.length > 1 && isRightToLeft(lines.map((l) => l.text).join(''));
  return { lines: lines.sort(rtl ? (a, b) => b.bbox.x + b.bbox.w - (a.bbox.x + a.bbox.w) : (a, b) => a.x - b.x), rtl };
}

function toRow({ lines, rtl }: { lines: StextLine[]; rtl: boolean }, block: number, paints: PaintIndex): Row {
  let text = '';
  let end = rtl ? Infinity : -Infinity;
  const cells: Row['cells'] = [];
  for (const line of lines) {
    // The room between this piece and the one before it in reading order.
    const gap = rtl ? end - (line.bbox.x + line.bbox.w) : line.bbox.x - end;
    if (!cells.length || gap > line.font.size * CELL_GAP) cells.push({ x: line.bbox.x, right: line.bbox.x, text: '' });
    const cell = cells.at(-1) as Row['cells'][number];
    cell.x = Math.min(cell.x, line.bbox.x);
    cell.right = Math.max(cell.right, line.bbox.x + line.bbox.w);
    if (cell.text && gap > line.font.size * 0.2) cell.text += ' ';
    cell.text += line.text;
    if (text && gap > line.font.size * 0.2 && !text.endsWith(' ')) text += ' ';
    text += line.text;
    end = rtl ? line.bbox.x : line.bbox.x + line.bbox.w;
  }
  for (const cell of cells) cell.text = cell.text.replace(/\s+/g, ' ').trim();
  const chars = (l: StextLine) => l.text.trim().length;
  const total = lines.reduce((n, l) => n + chars(l), 0);
  const boldChars = lines.filter((l) => l.font.weight === 'bold' || BOLD_FONT_NAME.test(l.font.name ?? '')).reduce((n, l) => n + chars(l), 0);
  const monoChars = lines.filter(isMono).reduce((n, l) => n + chars(l), 0);
  const fonts = new Map<string, number>();
  for (const l of lines) fonts.set(fontName(l), (fonts.get(fontName(l)) ?? 0) + chars(l));
  const box = { left: Math.min(...lines.map((l) => l.bbox.x)), top: Math.min(...lines.map((l) => l.bbox.y)), right: Math.max(...lines.map((l) => l.bbox.x + l.bbox.w)), bottom: Math.max(...lines.map((l) => l.bbox.y + l.bbox.h)) };
  const color = rowColor(paints, box);
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x: box.left,
    y: (lines[0] as StextLine).y,
    top: box.top,
    bottom: box.bottom,
    right: box.right,
    // The size most of the row's characters have: a large bullet or initial does not make it a heading.
    size: mostCharacters(lines, (l) => l.font.size) ?? (lines[0] as StextLine).font.size,
    bold: boldChars * 2 > total,
    ...(boldChars * 2 > total && (total - boldChars) * LEAD_IN_SHARE >= total && { leadsIn: true }),
    font: [...fonts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    mono: monoChars * 2 > total,
    ...(color !== undefined && { color }),
    block,
    cells: cells.filter((c) => c.text !== ''),
    pieces: lines.length > 1 ? lines.map((l) => ({ x: l.bbox.x, right: l.bbox.x + l.bbox.w, text: l.text })) : [],
  };
}

/** The value most of the lines' characters have (the larger on a tie). */
function mostCharacters(lines: readonly StextLine[], value: (line: StextLine) => number): number | undefined {
  const weight = new Map<number, number>();
  for (const l of lines) weight.set(value(l), (weight.get(value(l)) ?? 0) + l.text.trim().length);
  return [...weight.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
}

/** A font's name without the subset tag (ABCDEF+) a PDF gives each embedded subset. */
const fontName = (line: StextLine) => (line.font.name ?? '').replace(/^[A-Z]{6}\+/, '');
/** mupdf's JSON says monospace in the font's family, the character walk in `mono` (pdf-pieces.ts). */
const isMono = (line: StextLine) => line.font.mono === true || line.font.family === 'monospace' || MONOSPACE.test(line.font.name ?? '');


interface Paragraph {
  rows: Row[];
  marker?: { ordered: boolean };
  /** Two monospaced rows or more in a run: a code block, its rows its lines. */
  code?: true;
}

/** Rows of code further apart than this many of their size are two code blocks. */
const CODE_BLOCK_GAP = 2;
/** A monospaced font's advance in ems (Courier, DejaVu Sans Mono, Liberation Mono: 0.6): a code line's indent in characters. */
const MONO_ADVANCE = 0.6;

/** A row continues a run of code rows: monospaced too, in their size, close below (a blank code line leaves a wider gap). */
function continuesCode(code: readonly Row[], row: Row): boolean {
  const previous = code.at(-1) as Row;
  const gap = row.top - previous.bottom;
  return row.mono && code.every((r) => r.mono) && Math.abs(row.size - previous.size) <= 0.6 && gap <= previous.size * CODE_BLOCK_GAP && gap > -previous.size * 0.5;
}

/** A row whose regular-weight characters are at least 1/LEAD_IN_SHARE of it, after a bold majority, leads into its paragraph. */
const LEAD_IN_SHARE = 5;

/** Rows into paragraphs: a new one at a block change, a marker, a size change or a wide gap. */
function paragraphs(rows: readonly Row[]): Paragraph[] {
  const out: Paragraph[] = [];
  let current: Paragraph | undefined;
  for (const row of rows) {
    const marker = BULLET.test(row.text) ? { ordered: false } : NUMBERED.test(row.text) ? { ordered: true } : undefined;
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
      (row.bold !== previous.bold && !previous.leadsIn) ||
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

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
const LTR_LETTER = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/g;

/** Text mostly in a right-to-left script. */
const isRightToLeft = (text: string) => (text.match(RTL_LETTER)?.length ?? 0) > (text.match(LTR_LETTER)?.length ?? 0);

/** What the whole document tells about its text: the body's size, font and colour, and heading levels. */
export interface DocumentStyle {
  body: number;
  font: string;
  color: string | undefined;
  /** Heading level by (rounded) size: the largest size headings use is #, the next ##, … */
  levels: Map<number, number>;
  /** Colours headings set in a larger size use, other than the body's: a body-size line in one is a heading too. */
  headingColors: Set<string>;
}

const rounded = (size: number) => Math.round(size * 2) / 2;
const ENDS_SENTENCE = /[.:;,。：；，]$/;
/** As ENDS_SENTENCE, a colon left out: a line that introduces what follows. */
const ENDS_CLAUSE = /[.;,。；，]$/;

const isHeadingShape = (p: Paragraph) => p.rows.length <= 3 && joinLines(p.rows.map((r) => r.text)).length <= 200;

/**
 * A heading by its size: short, and set clearly larger than the body — or a little larger in
 * another font (a sans-serif heading over serif text), on one line, not ending a sentence. A
 * number does not stop it: "1. Introduction" in a heading's size is a numbered heading.
 */
function isSizeHeading(p: Paragraph, style: Pick<DocumentStyle, 'body' | 'font'>): boolean {
  const first = p.rows[0] as Row;
  // A bullet never starts a heading; a number may ("1. Introduction").
  if (!isHeadingShape(p) || (p.marker && !p.marker.ordered)) return false;
  if (first.size >= style.body * 1.15) return true;
  const text = joinLines(p.rows.map((r) => r.text));
  return first.size >= style.body * 1.05 && first.font !== style.font && p.rows.length === 1 && !ENDS_SENTENCE.test(text);
}

/**
 * The document's text style counted page by page, so no page's rows are kept to measure it:
 * characters per size, per size and font, per colour, and paragraphs shaped like headings by
 * their first row's size, font, colour and whether they are one line not ending a sentence.
 * A page's counts can be taken back (a page counted with a wrong guess of its running lines).
 */
export class StyleTally {
  private readonly sizes = new Map<number, number>();
  /** Characters per size in code (monospaced rows), apart: a manual's code blocks outweigh its prose. */
  private readonly codeSizes = new Map<number, number>();
  private readonly fonts = new Map<string, { size: number; font: string; chars: number }>();
  private readonly colors = new Map<string, number>();
  private readonly headings = new Map<string, { size: number; font: string; color: string | undefined; line: boolean; count: number }>();

  /** Counts (sign 1) or takes back (sign -1) a page's rows, running lines already removed, in reading order. */
  addPage(rows: readonly Row[], sign: 1 | -1): void {
    const text = rows.filter((r) => !r.table);
    for (const row of text) {
      // Code is in the body's ink: counted, a document of little prose does not take its headings' colour for the body's.
      if (row.color !== undefined) add(this.colors, row.color, row.text.length * sign);
      if (row.mono) {
        add(this.codeSizes, rounded(row.size), row.text.length * sign);
        continue;
      }
      add(this.sizes, rounded(row.size), row.text.length * sign);
      const byFont = `${row.size}\u0000${row.font}`;
      const entry = this.fonts.get(byFont) ?? { size: row.size, font: row.font, chars: 0 };
      entry.chars += row.text.length * sign;
      if (entry.chars === 0 && sign < 0) this.fonts.delete(byFont);
      else this.fonts.set(byFont, entry);
    }
    for (const p of paragraphs(text)) {
      if (p.code || !isHeadingShape(p) || (p.marker && !p.marker.ordered)) continue;
      const first = p.rows[0] as Row;
      const line = p.rows.length === 1 && !ENDS_SENTENCE.test(joinLines(p.rows.map((r) => r.text)));
      const key = JSON.stringify([first.size, first.font, first.color ?? null, line]);
      const entry = this.headings.get(key) ?? { size: first.size, font: first.font, color: first.color, line, count: 0 };
      entry.count += sign;
      if (entry.count === 0) this.headings.delete(key);
      else this.headings.set(key, entry);
    }
  }

  /** The body's size, font and colour, heading sizes ranked, and the colours those headings use. */
  style(): DocumentStyle {
    const body = mostWeight(this.sizes) ?? mostWeight(this.codeSizes) ?? 10;
    const fonts = new Map<string, number>();
    for (const { size, font, chars } of this.fonts.values()) if (Math.abs(size - body) < 0.6) fonts.set(font, (fonts.get(font) ?? 0) + chars);
    const font = mostWeight(fonts) ?? '';
    const color = mostWeight(this.colors);
    // As isSizeHeading, on the counted first rows.
    const headings = [...this.headings.values()].filter((h) => h.size >= body * 1.15 || (h.size >= body * 1.05 && h.font !== font && h.line));
    const sizes = new Set(headings.map((h) => rounded(h.size)));
    const levels = new Map([...sizes].sort((a, b) => b - a).map((size, i) => [size, Math.min(i + 1, 5)]));
    const headingColors = new Set(headings.map((h) => h.color).filter((c): c is string => c !== undefined && c !== color));
    return { body, font, color, levels, headingColors };
  }
}

/** Adds to a count, dropping a count taken back to nothing. */
function add<K>(counts: Map<K, number>, key: K, by: number): void {
  const total = (counts.get(key) ?? 0) + by;
  if (total === 0 && by < 0) counts.delete(key);
  else counts.set(key, total);
}

/** The key with the largest count (the first counted on a tie). */
const mostWeight = <K>(counts: ReadonlyMap<K, number>): K | undefined => [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];

/** The blocks of one page; the style comes from the whole document. */
export function pageBlocks(rows: readonly Row[], style: DocumentStyle): RootContent[] {
  const out: RootContent[] = [];
  const lists = new ListCollector(out, style.body);
  for (const part of splitTables(withBorderlessTables(rows))) {
    if ('table' in part) {
      lists.flush();
      out.push(part.table);
      continue;
    }
    for (const p of paragraphs(part.rows)) {
      if (p.code) {
        lists.flush();
        out.push(codeBlock(p.rows));
        continue;
      }
      const first = p.rows[0] as Row;
      const text = joinLines(p.rows.map((r) => r.text));
      if (p.marker && !isSizeHeading(p, style)) lists.addItem(first.x, p.marker.ordered, text);
      else if (p.marker || !lists.continues(first.x, text)) {
        lists.flush();
        out.push(textBlock(p, text, style));
      }
    }
  }
  lists.flush();
  return out;
}

/** A code block's lines, each indented as far right of the block's left edge as it stands, in characters. */
function codeBlock(rows: readonly Row[]): RootContent {
  const left = Math.min(...rows.map((r) => r.x));
  const value = rows.map((r) => ' '.repeat(Math.max(0, Math.round((r.x - left) / (r.size * MONO_ADVANCE)))) + r.text).join('\n');
  return { type: 'code', lang: null, meta: null, value };
}

function textBlock(p: Paragraph, text: string, style: DocumentStyle): RootContent {
  const first = p.rows[0] as Row;
  const level = style.levels.get(rounded(first.size));
  if (level !== undefined && isSizeHeading(p, style)) return heading(level, [{ text }]);
  // A line at body size set apart by weight or by a heading's colour: the level below the sized ones.
  // A heading's colour may end in a colon ("工作原理说明："): a bold label ("Note:") is in the body's.
  const inHeadingColor = first.color !== undefined && style.headingColors.has(first.color);
  const apart = first.bold || inHeadingColor;
  const ends = inHeadingColor ? ENDS_CLAUSE : ENDS_SENTENCE;
  const bodyLine = !p.marker && isHeadingShape(p) && p.rows.length === 1 && first.size >= style.body * 0.95 && text.length <= 100 && !ends.test(text);
  if (apart && bodyLine) return heading(style.levels.size + 1, [{ text }]);
  return paragraph([{ text, ...(first.bold && { bold: true }) }]);
}

/** The rows with each borderless table among them (pdf-borderless.ts) replaced by one table row. */
function withBorderlessTables(rows: readonly Row[]): Row[] {
  const found = borderlessTables(rows.map((r) => ({ y: r.y, top: r.top, bottom: r.bottom, size: r.size, pieces: r.pieces.length ? r.pieces : [{ x: r.x, right: r.right, text: r.text }], excluded: r.table !== undefined || isItem(r) })));
  const out: Row[] = [];
  let next = 0;
  for (const { start, end, cells } of found) {
    if (start < next || cellGapReads(rows, start, end, cells[0]?.length ?? 0)) continue;
    out.push(...rows.slice(next, start));
    const run = rows.slice(start, end);
    const top = Math.min(...run.map((r) => r.top));
    const first = run[0] as Row;
    out.push({ ...first, text: '', top, x: Math.min(...run.map((r) => r.x)), right: Math.max(...run.map((r) => r.right)), bottom: Math.max(...run.map((r) => r.bottom)), cells: [], pieces: [], table: table(cells.map(textCells), blocksToHtml) });
    next = end;
  }
  out.push(...rows.slice(next));
  return out;
}

/** The fewest rows in more columns that show the cell-gap reading inside a borderless table to be the finer one. */
const FINER_RUN_ROWS = 3;

/**
 * Whether rows the borderless detector took for a table of `columns` columns keep the cell-gap
 * detector's reading (tableRun) instead: when it reads a table from the first row, or a table of
 * more columns from a later one. The borderless detector's columns come from its first row, so a
 * header whose cells each span two columns ("Customer Information" over labels and their values)
 * hides the columns under it; tableRun grows its columns row by row.
 */
function cellGapReads(rows: readonly Row[], start: number, end: number, columns: number): boolean {
  // From the first row, a shorter reading in no more columns is a table cut short (a long
  // wrapped cell ends it), which the borderless reading carries on.
  const own = tableRun(rows, start);
  if (own.rows.length >= 2 && (own.rows.length >= end - start || own.anchors.length > columns)) return true;
  for (let j = start + 1; j < end; j++) {
    const run = tableRun(rows, j);
    if (run.rows.length >= FINER_RUN_ROWS && run.anchors.length > columns) return true;
  }
  return false;
}

/** List items of a page as they come, nested by indent, written out when the list ends. */
class ListCollector {
  private entries: ListEntry[] = [];
  private left = Infinity;

  constructor(
    private readonly out: RootContent[],
    private readonly body: number,
  ) {}

  addItem(x: number, ordered: boolean, text: string): void {
    this.left = Math.min(this.left, x);
    const level = Math.max(0, Math.round((x - this.left) / Math.max(8, this.body * 1.2)));
    this.entries.push({ level, ordered, content: [paragraph([{ text: text.replace(ordered ? NUMBERED : BULLET, '') }])] });
  }

  /** A paragraph indented past the list's markers continues the last item. */
  continues(x: number, text: string): boolean {
    const para = this.entries.at(-1)?.content[0];
    if (x <= this.left + this.body || para?.type !== 'paragraph' || para.children[0]?.type !== 'text') return false;
    para.children[0].value = joinLines([para.children[0].value, text]);
    return true;
  }

  flush(): void {
    if (this.entries.length) this.out.push(...nestLists(this.entries));
    this.entries = [];
    this.left = Infinity;
  }
}

/**
 * Runs of two or more rows split into the same columns (cells starting at the same x) are a
 * table; everything else stays rows. The first row of a run is the header.
 */
function splitTables(rows: readonly Row[]): ({ rows: Row[] } | { table: RootContent })[] {
  const out: ({ rows: Row[] } | { table: RootContent })[] = [];
  let i = 0;
  while (i < rows.length) {
    const ruled = (rows[i] as Row).table;
    if (ruled) {
      out.push({ table: ruled });
      i++;
      continue;
    }
    const run = tableRun(rows, i);
    if (run.rows.length >= 2) {
      const last = out.at(-1);
      const header = last && 'rows' in last ? headerAbove(last.rows, run) : undefined;
      if (last && 'rows' in last && !last.rows.length) out.pop();
      out.push({ table: tableOf(run, header) });
      i += run.rows.length;
      continue;
    }
    const last = out.at(-1);
    if (last && 'rows' in last) last.rows.push(rows[i] as Row);
    else out.push({ rows: [rows[i] as Row] });
    i++;
  }
  return out;
}

interface TableRun {
  rows: Row[];
  /** Where the columns start, left to right. */
  anchors: number[];
}

const columnIn = (anchors: readonly number[], x: number) => anchors.reduce((best, a, k) => (Math.abs(a - x) < Math.abs((anchors[best] as number) - x) ? k : best), 0);

/**
 * The rows just above a table that name its columns without starting where they start: a
 * header centred over its columns, its cells wrapped onto two lines ("State funded / legal aid"
 * over a column of asterisks). A row belongs to it when it lies within two lines above the
 * table, in the table's size, and each of its pieces lies over one column only; together they
 * name two columns or more. Taken off the end of `before`; answers the header row's texts.
 */
function headerAbove(before: Row[], { rows, anchors }: TableRun): string[] | undefined {
  const first = rows[0] as Row;
  const bands = anchors.map((): { from: number; to: number } => ({ from: Infinity, to: -Infinity }));
  for (const row of rows) {
    for (const cell of row.cells) {
      const band = bands[columnIn(anchors, cell.x)] as { from: number; to: number };
      band.from = Math.min(band.from, cell.x);
      band.to = Math.max(band.to, cell.right);
    }
  }
  const slack = first.size * 0.5;
  const over = (cell: Row['cells'][number]) => bands.filter((b) => cell.right > b.from - slack && cell.x < b.to + slack);
  const fits = (row: Row) =>
    !row.table && !isItem(row) && Math.abs(row.size - first.size) <= first.size * 0.05 && row.bottom <= first.top + 1 && first.top - row.bottom <= first.size * 2.5 && row.cells.every((c) => over(c).length === 1);
  let k = before.length;
  while (k > 0 && fits(before[k - 1] as Row)) k--;
  const texts = anchors.map(() => '');
  for (const row of before.slice(k).sort((a, b) => a.top - b.top || a.x - b.x)) {
    for (const cell of row.cells) {
      const column = bands.indexOf(over(cell)[0] as { from: number; to: number });
      texts[column] = joinLines([texts[column] as string, cell.text].filter(Boolean));
    }
  }
  if (texts.filter(Boolean).length < 2) return undefined;
  before.splice(k);
  return texts;
}

const isItem = (row: Row) => BULLET.test(row.text) || NUMBERED.test(row.text);

/**
 * The rows from `start` that line up in columns. The columns are those of the first row, and
 * grow by a later row's cells when most of that row's cells fall in columns already known (a
 * sparse first row: a header over the value columns only, "Hours Rate Cost" above "Parts …
 * 2,100"). A row of one piece in the first column, ending before the second, is a row of its
 * own (a group label, "Supplies") when the table goes on after it.
 */
function tableRun(rows: readonly Row[], start: number): TableRun {
  const first = rows[start] as Row;
  const anchors = first.cells.map((c) => c.x);
  if (first.cells.length < 2 || isItem(first)) return { rows: [], anchors };
  const near = (row: Row, x: number) => anchors.some((a) => Math.abs(a - x) <= row.size * 1.5);
  const aligned = (row: Row) => !row.table && row.cells.length >= 2 && !isItem(row) && row.cells.every((c) => near(row, c.x));
  const run = [first];
  // Rows that add columns or stand alone must follow at the table's line spacing, in its size.
  const close = (row: Row) => row.top - (run.at(-1) as Row).bottom <= first.size * 1.5 && Math.abs(row.size - first.size) <= first.size * 0.05;
  const widens = (row: Row) => !row.table && row.cells.length >= 2 && !isItem(row) && close(row) && row.cells.filter((c) => near(row, c.x)).length * 2 >= row.cells.length;
  // A group label: one piece in the first column, ending before the second.
  const single = (row: Row) => {
    const cell = row.cells[0];
    if (row.table || row.cells.length !== 1 || !cell || isItem(row) || !close(row)) return false;
    const [firstColumn, second] = [...anchors].sort((a, b) => a - b);
    return Math.abs(cell.x - (firstColumn as number)) <= row.size * 1.5 && (second === undefined || row.right < second);
  };
  for (let j = start + 1; j < rows.length; j++) {
    const row = rows[j] as Row;
    if (aligned(row) || widens(row)) {
      // A column cannot start inside a cell above: that row's cells were read merged (a tight
      // header, "Screen Start"), so its columns are not these.
      const inside = (x: number) => run.some((r) => r.cells.some((c) => x > c.x + r.size * 1.5 && x < c.right));
      if (row.cells.some((c) => !near(row, c.x) && inside(c.x))) break;
      for (const cell of row.cells) if (!near(row, cell.x)) anchors.push(cell.x);
      run.push(row);
      continue;
    }
    // Pieces on their own: kept only when a row in columns follows them.
    let k = j;
    while (k < rows.length && k - j < 3 && single(rows[k] as Row)) run.push(rows[k++] as Row);
    const next = rows[k];
    if (k > j && next && (aligned(next) || widens(next))) {
      j = k - 1;
      continue;
    }
    run.splice(run.length - (k - j));
    break;
  }
  return { rows: run, anchors: anchors.sort((a, b) => a - b) };
}

function tableOf({ rows: run, anchors }: TableRun, header: readonly string[] | undefined): RootContent {
  const rows = run.map((row) => {
    const texts = anchors.map(() => '');
    for (const cell of row.cells) {
      const column = columnIn(anchors, cell.x);
      texts[column] = joinLines([texts[column] as string, cell.text].filter(Boolean));
    }
    return texts;
  });
  return table([...(header ? [header] : []), ...rows].map(textCells), blocksToHtml);
}



/** The rows of one page, so its structured text can be dropped before the next page is read. */
export const toPageRows = (page: StextPage, drawing?: PageDrawing): PageRows => ({ rows: pageRows(page, drawing), width: page.width, height: page.height });


