// Stage 0 of PDF reading: a page's characters into pieces of text. mupdf's own lines join
// everything on one baseline that is close, so two cells of a borderless table a few points
// apart ("参数名称参数说明") come out as one line; here a line is cut wherever the glyphs stand
// apart with no space between them. The pieces are what the later stages see as StextLines.
// Pure functions over plain data, so they are tested on arrays.

import { drawnInVisualOrder, fromTheRight, isRightToLeftLine, lamAlefInOrder, logicalOrder } from './pdf-bidi.js';
import type { Line } from './pdf-grid.js';
import type { StextBlock, StextLine } from './pdf-page-model.js';
import { CLOSING, isCode, setRightToLeft } from './pdf-page-direction.js';
import { isRightToLeft } from './pdf-rows.js';
import { emphasisOf } from './pdf-piece-style.js';
import type { StyledRange } from './blocks.js';

/** One character as mupdf's walker gives it: its box, baseline, font. */
export interface PageChar {
  c: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Baseline origin. */
  x: number;
  y: number;
  size: number;
  font: string;
  bold: boolean;
  mono: boolean;
  /** Set in an italic or oblique face. */
  italic?: boolean;
}

/** A character as a structured-text walk gives it (its origin and quad, mupdf's), placed by its box. */
export function placedChar(
  c: string,
  [x, y]: readonly number[],
  size: number,
  quad: readonly number[],
  facts: Pick<PageChar, 'font' | 'bold' | 'mono' | 'italic'>,
): PageChar {
  const [ulx = 0, uly = 0, urx = 0, ury = 0, llx = 0, lly = 0, lrx = 0, lry = 0] = quad;
  return { c, x: x ?? 0, y: y ?? 0, size, ...facts, left: Math.min(ulx, llx), right: Math.max(urx, lrx), top: Math.min(uly, ury), bottom: Math.max(lly, lry) };
}

/**
 * A gap between two glyphs wider than this many ems cuts the line: cells of a borderless table
 * stand apart by their padding (LibreOffice: 0.35 em and more), letters of a word touch. mupdf is
 * asked for no spaces of its own (inhibit-spaces: it would fill a cell gap with one), so a word
 * gap without a space character (0.15–0.3 em) stays inside the piece, written as a space.
 */
const PIECE_GAP = 0.3;
/** A gap wider than this many ems, without a space character, is a word space (pdftotext reads one too); redaction matches with the same rule. */
export const WORD_GAP = 0.12;

/** A combining mark (Arabic's shadda and tanween, Hebrew's points): it sits on its letter, whatever the gap its box shows. */
const MARK = /^\p{M}+$/u;

/**
 * The room between two glyphs, whichever way the line runs: right-to-left text (Arabic,
 * Hebrew, Persian) comes in logical order, each glyph left of the one before it.
 */
const gapBetween = (before: PageChar, next: PageChar) => Math.max(next.left - before.right, before.left - next.right);

/** Whether most of a line's glyphs stand left of the one before: the line runs right to left. */
function runsRightToLeft(chars: readonly PageChar[]): boolean {
  let back = 0;
  for (let k = 1; k < chars.length; k++) if ((chars[k] as PageChar).left < (chars[k - 1] as PageChar).left) back++;
  return back * 2 > chars.length - 1;
}

/**
 * Whether a line without right-to-left letters, on a right-to-left page, is set in a
 * right-to-left paragraph ("Then, replace this line:" drawn `:Then, replace this line`): its
 * leftmost glyph closes a sentence, which a left-to-right paragraph puts at the right.
 */
function inRightToLeftParagraph(chars: readonly PageChar[]): boolean {
  const visible = chars.filter((c) => c.c.trim() !== '');
  if (visible.length < 2) return false;
  const leftmost = visible.reduce((a, b) => (b.left < a.left ? b : a));
  return CLOSING.test(leftmost.c) && visible.some((c) => /\p{L}/u.test(c.c));
}

/**
 * Whether a line of one right-to-left word and what stands around it, no left-to-right letter in
 * it (`(مثال)`, a wrapped cell's last line), is drawn from the left: its first glyph in the stream
 * stands left of its last. Where it holds one word, no step from word to word tells the order it is
 * drawn in (drawnInVisualOrder); a line drawn in logical order starts at its right.
 */
function oneWordDrawnFromTheLeft(chars: readonly PageChar[]): boolean {
  const visible = chars.filter((c) => c.c.trim() !== '');
  if (visible.length < 2 || visible.some((c) => /\p{L}/u.test(c.c) && !isRightToLeft(c.c)) || chars.some((c) => c.c === ' ')) return false;
  const [first, last] = [visible[0] as PageChar, visible.at(-1) as PageChar];
  return first.right <= last.left;
}

/** A closing bracket: what a right-to-left paragraph's English shows at its left where it ends in a bracketed aside or a call. */
const CLOSING_BRACKET = /^[)\]}]$/;

/**
 * Whether a piece of a line (a table cell, where the line holds several) shows the layout of a
 * right-to-left paragraph: its leftmost glyph closes a sentence or a bracket and letters or digits
 * follow (`)unused( 0`, `}{ )(export function Button`), which no left-to-right cell starts with.
 */
function closedAtLeft(chars: readonly PageChar[]): boolean {
  const visible = chars.filter((c) => c.c.trim() !== '');
  if (visible.length < 2 || !visible.some((c) => /[\p{L}\p{N}]/u.test(c.c))) return false;
  const leftmost = visible.reduce((a, b) => (b.left < a.left ? b : a));
  return CLOSING.test(leftmost.c) || CLOSING_BRACKET.test(leftmost.c);
}

/**
 * The pieces of one mupdf line, in the order its characters come. A right-to-left line stays
 * whole (its pieces would be put back left to right, in the wrong order), its characters in
 * logical order (pdf-bidi.ts); so does a left-to-right line set in a right-to-left paragraph
 * of a right-to-left page (`rightToLeftPage`), its closing punctuation put back at its end.
 * `flushRight`: the line's block is set flush right (a right-to-left paragraph's base direction).
 * `walls`: the page's vertical rulings; a left-to-right line is also cut where one stands between two glyphs.
 */
export function linePieces(chars: readonly PageChar[], wmode: number, rightToLeftPage = false, flushRight = false, walls: readonly Line[] = []): StextLine[] {
  const pieces: PageChar[][] = [];
  let current: PageChar[] = [];
  const rightToLeftLine = wmode === 0 && (runsRightToLeft(chars) || isRightToLeftLine(chars));
  const latinInRightToLeft = wmode === 0 && rightToLeftPage && !rightToLeftLine && inRightToLeftParagraph(chars);
  const rightToLeft = rightToLeftLine || latinInRightToLeft;
  // A line of code in a flush-right block there is a right-to-left paragraph of its own (a code block's line, a code
  // cell's): cut as a left-to-right line is, each piece of code read with the paragraph's direction (pdf-page-direction.ts).
  const codeFlushRight = wmode === 0 && rightToLeftPage && flushRight && !rightToLeft;
  const cuts = wmode === 0 && !rightToLeft;
  // Word spaces go between neighbouring glyphs: in a line drawn in visual order, before its order is undone.
  // A right-to-left line of a flush-right block on a right-to-left page is read by position whatever order it is drawn in:
  // Chrome draws a line's runs from the left, each run's letters in logical order, which the stream's steps cannot tell
  // from a left-to-right paragraph's runs in logical order (LibreOffice, flush left).
  const visual =
    latinInRightToLeft ||
    (rightToLeftLine && rightToLeftPage && flushRight) ||
    (rightToLeftLine && drawnInVisualOrder(chars, (a, b) => gapBetween(a, b) > Math.max(a.size, b.size) * WORD_GAP)) ||
    (rightToLeftLine && rightToLeftPage && oneWordDrawnFromTheLeft(chars));
  if (visual && rightToLeftPage) return cellsFromTheRight(chars).map((cell) => toLine(logicalOrder(withWordSpaces(cell, wmode)), wmode));
  const ordered = visual ? logicalOrder(withWordSpaces(fromTheRight(chars), wmode)) : rightToLeft ? lamAlefInOrder([...chars]) : chars;
  const across = cuts ? wallsAcross(walls, chars) : [];
  if (cuts && rightToLeftPage && across.length === 0 && chars.some((c) => isRightToLeft(c.c))) return mixedCells(chars, wmode);
  for (const ch of ordered) {
    const previous = current.at(-1);
    if (previous && cuts && (gapBetween(previous, ch) > Math.max(previous.size, ch.size) * PIECE_GAP || walledOff(across, previous, ch))) {
      pieces.push(current);
      current = [];
    }
    current.push(ch);
  }
  if (current.length) pieces.push(current);
  const rightToLeftCell = (p: PageChar[]) => (codeFlushRight && isCode(p)) || (rightToLeftPage && cuts && closedAtLeft(p));
  const inOrder = (p: PageChar[]) => (visual ? p : rightToLeftCell(p) ? logicalOrder(withWordSpaces(p, wmode)) : withWordSpaces(p, wmode));
  return pieces.map((p) => toLine(inOrder(p), wmode)).filter((l) => l.text.trim() !== '');
}

/**
 * A line of cells on a right-to-left page, mostly left-to-right text with right-to-left words in
 * it (react.dev's Persian table: `اضافه کردن` beside `push, unshift`): Chrome draws it word by word
 * from the left, so in the stream's order each right-to-left word stands apart from the next and
 * the words of a cell read backwards. Cut where the glyphs stand apart by position, cells from the
 * left; a cell with right-to-left letters is read as a right-to-left paragraph's (pdf-bidi.ts).
 */
function mixedCells(chars: readonly PageChar[], wmode: number): StextLine[] {
  return cellsFromTheRight(chars)
    .reverse()
    .map((cell) =>
      toLine(cell.some((c) => isRightToLeft(c.c)) ? logicalOrder(withWordSpaces(cell, wmode)) : withWordSpaces([...cell].reverse(), wmode), wmode),
    );
}

/** A glyph starting less than this (points) before a wall stands on the wall's far side: the two meet on it. */
const ON_WALL = 0.5;

/**
 * The walls standing across a line's middle height between two others: a table's inner borders.
 * Its outer ones are left alone: text a spreadsheet lets run on over an empty cell beyond the
 * table is still its cell's.
 */
function wallsAcross(walls: readonly Line[], chars: readonly PageChar[]): Line[] {
  if (walls.length === 0 || chars.length === 0) return [];
  const middle = (Math.min(...chars.map((c) => c.top)) + Math.max(...chars.map((c) => c.bottom))) / 2;
  const across = walls.filter((w) => w.from <= middle && middle <= w.to);
  const [first, last] = [Math.min(...across.map((w) => w.at)), Math.max(...across.map((w) => w.at))];
  return across.filter((w) => w.at > first && w.at < last);
}

/**
 * Whether a wall (a table's ruling) stands between two glyphs of a line: the first starts left of
 * it, the next at it or right of it. A spreadsheet's print clips a cell's text at the next cell's
 * border, and the last letter shown may touch the next cell's first ("Purpose and Use CasAI 1"):
 * no gap tells them apart, the ruling does.
 */
const walledOff = (walls: readonly Line[], before: PageChar, next: PageChar) => walls.some((w) => before.left < w.at - ON_WALL && next.left >= w.at - ON_WALL);

/**
 * A line of a right-to-left page read by position, cut where its glyphs stand apart with no space
 * between, as a left-to-right line is (a table's cells: Chrome's print of a Hebrew table draws a
 * row's cells on one line): the pieces from the right, each with its glyphs from the right.
 */
function cellsFromTheRight(chars: readonly PageChar[]): PageChar[][] {
  const cells: PageChar[][] = [];
  let current: PageChar[] = [];
  for (const ch of fromTheRight(chars)) {
    const previous = current.at(-1);
    // A combining mark sits on its letter, whatever gap its box shows.
    const apart = previous && !MARK.test(ch.c) && !MARK.test(previous.c) && gapBetween(previous, ch) > Math.max(previous.size, ch.size) * PIECE_GAP;
    if (apart) {
      cells.push(current);
      current = [];
    }
    current.push(ch);
  }
  if (current.length) cells.push(current);
  return cells.filter((cell) => cell.some((c) => c.c.trim() !== ''));
}

/** Glyphs in order with a space put in wherever two stand a word's space apart and the stream has none. */
function withWordSpaces(chars: readonly PageChar[], wmode: number): PageChar[] {
  const out: PageChar[] = [];
  for (const ch of chars) {
    const before = out.at(-1);
    if (
      before &&
      wmode === 0 &&
      before.c !== ' ' &&
      ch.c !== ' ' &&
      !MARK.test(ch.c) &&
      !MARK.test(before.c) &&
      gapBetween(before, ch) > Math.max(before.size, ch.size) * WORD_GAP
    ) {
      out.push({ ...before, c: ' ', left: Math.min(before.right, ch.right), right: Math.max(before.left, ch.left) });
    }
    out.push(ch);
  }
  return out;
}

/** Han, kana and hangul: their faces often have no bold, which is then drawn thicker under the regular face's name. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/**
 * The font a line is named by: its first glyph's, but where a bold lead runs into text in the
 * body's weight ("Key: supports …"), the first glyph's of that text — unless that text is CJK,
 * whose bold may be drawn in the regular face's name (a bold heading `1 启动` would lose its weight).
 */
function lineFont(visible: readonly PageChar[], bold: boolean): string | undefined {
  const first = visible[0];
  if (!first || bold === first.bold) return first?.font;
  const rest = visible.filter((c) => c.bold === bold);
  return rest.filter((c) => CJK.test(c.c)).length * 2 > rest.length ? first.font : rest[0]?.font;
}

/** The bold text a line's characters start with (after a marker without letters), where letters follow in another weight: StextLine.boldLead. */
function charsBoldLead(chars: readonly PageChar[]): { boldLead?: string } {
  const start = chars.findIndex((c) => /\p{L}/u.test(c.c));
  const end = chars.findIndex((c, k) => k >= start && !c.bold && c.c.trim() !== '');
  if (start < 0 || end <= start || !chars.slice(end).some((c) => /\p{L}/u.test(c.c))) return {};
  const lead = chars
    .slice(start, end)
    .map((c) => c.c)
    .join('')
    .trim();
  return lead ? { boldLead: lead } : {};
}

/** A line's emphasised words (pdf-piece-style.ts), where it has any: StextLine.emphasis. */
function emphasisOfLine(chars: readonly PageChar[]): { emphasis?: StyledRange[] } {
  const emphasis = emphasisOf(chars);
  return emphasis.length > 0 ? { emphasis } : {};
}

function toLine(chars: readonly PageChar[], wmode: number): StextLine {
  const first = chars[0] as PageChar;
  const left = Math.min(...chars.map((c) => c.left));
  const top = Math.min(...chars.map((c) => c.top));
  const right = Math.max(...chars.map((c) => c.right));
  const bottom = Math.max(...chars.map((c) => c.bottom));
  const visible = chars.filter((c) => c.c.trim() !== '');
  const mono = visible.length > 0 && visible.every((c) => c.mono);
  const bold = visible.filter((c) => c.bold).length * 2 > visible.length;
  // Every letter italic: a table cell set so (pdf-piece-style.ts), which a majority does not make.
  const letters = visible.filter((c) => /[\p{L}\p{N}]/u.test(c.c));
  const everyItalic = letters.length > 0 && letters.every((c) => c.italic);
  return {
    bbox: { x: left, y: top, w: right - left, h: bottom - top },
    font: {
      size: first.size,
      name: lineFont(visible, bold) ?? first.font,
      ...(bold && { weight: 'bold' }),
      ...(mono && { mono: true }),
      ...(everyItalic && { everyItalic: true }),
    },
    x: first.x,
    y: first.y,
    text: chars.map((c) => c.c).join(''),
    ...(wmode !== 0 && { wmode }),
    ...charsBoldLead(chars),
    ...emphasisOfLine(chars),
  };
}

/** What the walk needs to know of the page's text from mupdf's JSON: its direction and its margins. */
export interface PageText {
  /** Mostly right to left (Arabic, Persian, Hebrew), or set so (pdf-page-direction.ts). */
  rightToLeft: boolean;
  left: number;
  right: number;
}

/** Collects a walked page's blocks: text blocks of pieces, other blocks kept as their type. */
export class PieceCollector {
  readonly blocks: StextBlock[] = [];
  /** `walls`: the page's vertical rulings (merged), which cut a line between two cells that touch. */
  constructor(
    private readonly page: PageText = { rightToLeft: false, left: 0, right: 0 },
    private readonly walls: readonly Line[] = [],
  ) {}
  /** The block's lines, kept as characters until the block ends: its alignment tells a right-to-left line's base direction. */
  private lines: { chars: PageChar[]; wmode: number }[] | undefined;
  private chars: PageChar[] = [];
  private wmode = 0;

  beginTextBlock(): void {
    this.lines = [];
  }
  beginLine(wmode: number): void {
    this.chars = [];
    this.wmode = wmode;
  }
  onChar(ch: PageChar): void {
    this.chars.push(ch);
  }
  endLine(): void {
    this.lines?.push({ chars: this.chars, wmode: this.wmode });
    this.chars = [];
  }
  endTextBlock(): void {
    const lines = this.lines ?? [];
    const flushRight =
      this.page.rightToLeft &&
      setFlushRight(
        lines.map((l) => l.chars),
        this.page,
      );
    this.blocks.push({ type: 'text', lines: lines.flatMap((l) => linePieces(l.chars, l.wmode, this.page.rightToLeft, flushRight, this.walls)) });
    this.lines = undefined;
  }
  onImageBlock(): void {
    this.blocks.push({ type: 'image' });
  }
}

/**
 * Whether a block is set flush right, as a right-to-left paragraph is: the right edges of its
 * rows (its glyphs on one baseline, which mupdf may split into several lines) agree more closely
 * than their left edges; one row, nearer the page's right margin than its left.
 */
function setFlushRight(lines: readonly PageChar[][], page: PageText): boolean {
  const rows = new Map<number, { left: number; right: number }>();
  for (const ch of lines.flat()) {
    const y = Math.round(ch.y);
    const row = rows.get(y);
    rows.set(y, { left: Math.min(row?.left ?? Infinity, ch.left), right: Math.max(row?.right ?? -Infinity, ch.right) });
  }
  const edges = [...rows.values()];
  if (edges.length === 0) return false;
  const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
  if (edges.length > 1) return spread(edges.map((e) => e.right)) < spread(edges.map((e) => e.left));
  const [only] = edges as [{ left: number; right: number }];
  return page.right - only.right < only.left - page.left;
}

/** The direction and text margins of a page, from mupdf's JSON lines. */
export function pageTextOf(blocks: readonly StextBlock[]): PageText {
  const lines = blocks.flatMap((b) => b.lines ?? []);
  const left = Math.min(...lines.map((l) => l.bbox.x));
  const right = Math.max(...lines.map((l) => l.bbox.x + l.bbox.w));
  return { rightToLeft: isRightToLeft(lines.map((l) => l.text).join('')) || setRightToLeft(lines, left, right), left, right };
}

/** Lines starting this many ems right of the page's text margin hint at columns of cells. */
const INDENT_EMS = 2;
/** That many such lines on a page send it through the character walk. */
const INDENTED_LINES = 3;

/**
 * Whether a page read line by line (mupdf's JSON, fast) may hold cells that mupdf joined into
 * one line: lines starting well right of the margin (a table's later columns, right-aligned
 * first cells). Only such pages are walked character by character, which costs more (and on a
 * small heap much more) than the JSON.
 */
export function mayHoldCells(blocks: readonly StextBlock[]): boolean {
  const lines = blocks.flatMap((b) => b.lines ?? []).filter((l) => l.text.trim() !== '' && !l.wmode);
  if (lines.length === 0) return false;
  const margin = Math.min(...lines.map((l) => l.bbox.x));
  return lines.filter((l) => l.bbox.x > margin + l.font.size * INDENT_EMS).length >= INDENTED_LINES;
}
