// Stage 6 of PDF reading: what a document's text looks like as a whole (StyleTally, counted page
// by page: the body's size, font and colour, the sizes above it that are heading levels), and
// which paragraphs that tells to be headings. Pure functions over rows and paragraphs.

import type { RootContent } from 'mdast';
import { joinLines } from '../../core/cjk-text.js';
import { sectionDepth } from './pdf-numbering.js';
import { outlineKey, type OutlineLevels, type PageOutline } from './pdf-outline.js';
import type { Paragraph, Row } from './pdf-page-model.js';
import { LINE_SPACING, paragraphs } from './pdf-paragraphs.js';

/** What the whole document tells about its text: the body's size, font and colour, and heading levels. */
export interface DocumentStyle {
  body: number;
  font: string;
  color: string | undefined;
  /** Heading level by (rounded) size: the largest size headings use is #, the next ##, … */
  levels: Map<number, number>;
  /** Colours headings set in a larger size use, other than the body's: a body-size line in one is a heading too. */
  headingColors: Set<string>;
  /**
   * A numbered heading's level is this plus its number's depth (pdf-numbering.ts): learnt from the
   * sized headings that carry numbers (`1 Introduction` at the `##` size: 1), else one past the sizes.
   */
  numberOffset: number;
  /**
   * The document sets its section numbers on bold lines of the body's size, repeatedly and more
   * than one level deep (BOLD_NUMBERS_SEEN) (`1. Scope` … `1.1. Who should read it`, groff's -ms): a bold `1.` line
   * there is a section's title, not a list's item (numberedTitle).
   */
  boldNumbers?: boolean;
  /**
   * The outline's levels (pdf-outline.ts), when it names enough of the text's headings; `offset`
   * is added to an entry's depth: 1 when a heading set larger than the outline's top entries (a
   * title the outline leaves out) takes `#`. `page`: the entries of the page being laid out
   * (OutlineLevels.onPage), each taken once; without it a title is a heading on any page.
   */
  outline?: { levels: OutlineLevels; offset: number; page?: PageOutline } | undefined;
}

/** Bold numbered lines at the body's size that show a document numbers its sections so: two at depth 1, one deeper. */
const BOLD_NUMBERS_SEEN = [2, 1];

/** The share of a size's characters in one-line heading-shaped paragraphs that makes it a size of titles, not prose. */
const TITLES_ONLY = 0.8;

export const rounded = (size: number) => Math.round(size * 2) / 2;
/** A line ending in a stop, colon, semicolon or comma: not a heading (a sentence or clause ends there). */
export const ENDS_PUNCTUATED = /[.:;,。：；，]$/;
/** As ENDS_PUNCTUATED, a colon left out: a line that introduces what follows. */
export const ENDS_CLAUSE = /[.;,。；，]$/;

export const isHeadingShape = (p: Paragraph) => p.rows.length <= 3 && joinLines(p.rows.map((r) => r.text)).length <= 200;

/**
 * A paragraph that may be a heading by its size — short, not a bulleted item (a number may start
 * one: "1. Introduction") — with its first row and whether it is one line not ending a sentence.
 */
function sizeHeadingCandidate(p: Paragraph): { first: Row; line: boolean } | undefined {
  if (!isHeadingShape(p) || (p.marker && !p.marker.ordered)) return undefined;
  return { first: p.rows[0] as Row, line: p.rows.length === 1 && !ENDS_PUNCTUATED.test(joinLines(p.rows.map((r) => r.text))) };
}

/**
 * The size rule: set clearly larger than the body, or a little larger in another font (a
 * sans-serif heading over serif text) on one line not ending a sentence.
 */
const headingBySize = (size: number, font: string, line: boolean, style: Pick<DocumentStyle, 'body' | 'font'>) =>
  size >= style.body * 1.15 || (size >= style.body * 1.05 && font !== style.font && line);

/** A heading by its size: a candidate (sizeHeadingCandidate) whose first row meets the size rule. */
export function isSizeHeading(p: Paragraph, style: Pick<DocumentStyle, 'body' | 'font'>): boolean {
  const candidate = sizeHeadingCandidate(p);
  return candidate !== undefined && headingBySize(candidate.first.size, candidate.first.font, candidate.line, style);
}

/**
 * Whether a one-line paragraph stands apart from the text after it, as a title does: the next
 * paragraph does not follow at line spacing below it (more space, nothing after it, or text
 * elsewhere: beside it, in another column). A bold line followed at line spacing by text in the
 * body's weight is a paragraph's bold words that filled a line, not a title.
 */
export function standsApart(p: Paragraph, next: Paragraph | undefined): boolean {
  const last = p.rows.at(-1) as Row;
  const below = next?.rows[0];
  if (below === undefined) return true;
  const gap = below.top - last.bottom;
  return gap > last.size * LINE_SPACING || gap < -last.size * 0.5;
}

/**
 * A heading's level for a bold line at the body's size that opens with a list's number (`1. Scope`)
 * in a document that numbers its bold titles so (DocumentStyle.boldNumbers): its number's depth
 * below the offset numbered headings take. Elsewhere such a line is a list's item.
 */
function numberedTitle(p: Paragraph, text: string, style: DocumentStyle): number | undefined {
  const first = p.rows[0] as Row;
  if (!style.boldNumbers || !p.marker?.ordered || p.rows.length !== 1 || !first.bold) return undefined;
  if (Math.abs(first.size - style.body) > 0.6 || text.length > 100 || ENDS_PUNCTUATED.test(text)) return undefined;
  const depth = sectionDepth(text);
  return depth === undefined ? undefined : Math.min(6, Math.max(1, style.numberOffset + depth));
}

/** A paragraph's heading level whatever its list marker: by the outline, or as a bold numbered title (numberedTitle). */
export const titleLevel = (p: Paragraph, text: string, style: DocumentStyle): number | undefined =>
  outlineLevel(p, text, style) ?? numberedTitle(p, text, style);

/** A paragraph's heading level by the document's outline, when the outline is trusted and names it. */
function outlineLevel(p: Paragraph, text: string, style: Pick<DocumentStyle, 'outline'>): number | undefined {
  if (!style.outline || !isHeadingShape(p) || (p.marker && !p.marker.ordered)) return undefined;
  const { page, levels, offset } = style.outline;
  const depth = page ? page.take(text) : levels.depthOf(text);
  return depth === undefined ? undefined : Math.min(6, depth + offset);
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
  /** Characters per colour in paragraphs of two rows or more (not code): the prose's ink, which no heading is set apart by. */
  private readonly proseColors = new Map<string, number>();
  private readonly headings = new Map<string, { size: number; font: string; color: string | undefined; line: boolean; count: number }>();
  /** Heading-shaped paragraphs that start with a section number, by rounded size and the number's depth. */
  private readonly numbered = new Map<string, number>();
  /** One-line bold paragraphs that start with a section number, by rounded size and the number's depth (1, or 2 for deeper). */
  private readonly boldNumbered = new Map<string, number>();
  /** Characters per size in tables' cells, and outside them in one-line paragraphs shaped like headings. */
  private readonly tableSizes = new Map<number, number>();
  private readonly lineSizes = new Map<number, number>();
  /** Heading-shaped paragraphs the outline names: by outline title, and the sizes of its top entries. */
  private readonly outlined = new Map<string, number>();
  private readonly outlineTopSizes = new Map<number, number>();

  constructor(private readonly outline?: OutlineLevels) {}

  /** Counts (sign 1) or takes back (sign -1) a page's rows, running lines already removed, in reading order. */
  addPage(rows: readonly Row[], sign: 1 | -1): void {
    const text = rows.filter((r) => !r.table);
    for (const row of rows) if (row.table) add(this.tableSizes, rounded(row.size), characters(row.table) * sign);
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
      if (!p.code) this.countOutlined(p, sign);
      if (!p.code && p.rows.length > 1) for (const row of p.rows) if (row.color !== undefined) add(this.proseColors, row.color, row.text.length * sign);
      const candidate = p.code ? undefined : sizeHeadingCandidate(p);
      if (!candidate) continue;
      const { first, line } = candidate;
      if (line) add(this.lineSizes, rounded(first.size), first.text.length * sign);
      const key = JSON.stringify([first.size, first.font, first.color ?? null, line]);
      const entry = this.headings.get(key) ?? { size: first.size, font: first.font, color: first.color, line, count: 0 };
      entry.count += sign;
      if (entry.count === 0) this.headings.delete(key);
      else this.headings.set(key, entry);
      const depth = sectionDepth(joinLines(p.rows.map((r) => r.text)));
      if (depth !== undefined) add(this.numbered, JSON.stringify([rounded(first.size), depth]), sign);
      if (depth !== undefined && line && first.bold) add(this.boldNumbered, JSON.stringify([rounded(first.size), Math.min(depth, 2)]), sign);
    }
  }

  /** The body's size, font and colour, heading sizes ranked, and the colours those headings use. */
  style(): DocumentStyle {
    const body = this.bodySize();
    const fonts = new Map<string, number>();
    for (const { size, font, chars } of this.fonts.values()) if (Math.abs(size - body) < 0.6) fonts.set(font, (fonts.get(font) ?? 0) + chars);
    const font = mostWeight(fonts) ?? '';
    const color = mostWeight(this.colors);
    const headings = [...this.headings.values()].filter((h) => headingBySize(h.size, h.font, h.line, { body, font }));
    const sizes = new Set(headings.map((h) => rounded(h.size)));
    const levels = new Map([...sizes].sort((a, b) => b - a).map((size, i) => [size, Math.min(i + 1, 5)]));
    // Not the prose's ink either: where code outweighs the prose, the body's colour is the code's.
    const prose = mostWeight(this.proseColors);
    const headingColors = new Set(headings.map((h) => h.color).filter((c): c is string => c !== undefined && c !== color && c !== prose));
    const boldNumbers = BOLD_NUMBERS_SEEN.every((least, i) => (this.boldNumbered.get(JSON.stringify([rounded(body), i + 1])) ?? 0) >= least);
    return {
      body,
      font,
      color,
      levels,
      headingColors,
      numberOffset: this.numberOffset(levels),
      outline: this.trustedOutline(levels),
      ...(boldNumbers && { boldNumbers }),
    };
  }

  private countOutlined(p: Paragraph, sign: 1 | -1): void {
    const text = joinLines(p.rows.map((r) => r.text));
    const depth = this.outline && isHeadingShape(p) ? this.outline.depthOf(text) : undefined;
    if (depth === undefined) return;
    add(this.outlined, outlineKey(text), sign);
    if (depth === 1) add(this.outlineTopSizes, rounded((p.rows[0] as Row).size), sign);
  }

  /** The outline, when the text shows enough of its titles, with the levels a larger title above it takes. */
  private trustedOutline(levels: ReadonlyMap<number, number>): DocumentStyle['outline'] {
    if (!this.outline?.matches(this.outlined.size)) return undefined;
    const top = this.outlineTopSizes.size ? Math.max(...this.outlineTopSizes.keys()) : Infinity;
    return { levels: this.outline, offset: [...levels.keys()].some((size) => size > top) ? 1 : 0 };
  }

  /**
   * The size most text outside tables uses; but where that text is nearly all one-line
   * heading-shaped paragraphs and the tables hold more text in a smaller size, the tables' size:
   * a document whose prose is in table cells (a page of tables under titles) would otherwise take
   * its titles' size for the body's and find no heading.
   */
  private bodySize(): number {
    const prose = mostWeight(this.sizes);
    const tables = mostWeight(this.tableSizes);
    if (prose === undefined) return mostWeight(this.codeSizes) ?? 10;
    const proseChars = this.sizes.get(prose) ?? 0;
    const titlesOnly = (this.lineSizes.get(prose) ?? 0) >= TITLES_ONLY * proseChars;
    const tablesOutweigh = tables !== undefined && tables < prose && (this.tableSizes.get(tables) ?? 0) > proseChars;
    return titlesOnly && tablesOutweigh ? tables : prose;
  }

  /** The offset most numbered sized headings show between their level and their number's depth; one past the sizes without any. */
  private numberOffset(levels: ReadonlyMap<number, number>): number {
    const offsets = new Map<number, number>();
    for (const [key, count] of this.numbered) {
      const [size, depth] = JSON.parse(key) as [number, number];
      const level = levels.get(size);
      if (level !== undefined) add(offsets, level - depth, count);
    }
    return mostWeight(offsets) ?? levels.size;
  }
}

/** The characters of a table's text (an HTML table's markup left out). */
function characters(node: RootContent): number {
  if ('value' in node) return node.type === 'html' ? node.value.replace(/<[^>]*>/g, '').length : node.value.length;
  return 'children' in node ? node.children.reduce((n: number, child: RootContent) => n + characters(child), 0) : 0;
}

/** Adds to a count, dropping a count taken back to nothing. */
function add<K>(counts: Map<K, number>, key: K, by: number): void {
  const total = (counts.get(key) ?? 0) + by;
  if (total === 0 && by < 0) counts.delete(key);
  else counts.set(key, total);
}

/** The key with the largest count (the first counted on a tie). */
const mostWeight = <K>(counts: ReadonlyMap<K, number>): K | undefined => [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
