// PDF reading, the page's blocks: the stages in order over one page model (pdf-page-model.ts) —
// pieces (pdf-pieces.ts), rows with ruled tables (pdf-rows.ts), running headers and footers
// (pdf-running-lines.ts), reading order (pdf-reading-order.ts), borderless tables and table runs
// (pdf-table-runs.ts), paragraphs, lists and code (pdf-paragraphs.ts), headings (pdf-headings.ts)
// — and here the blocks they make: headings by the document's style, list items nested by
// indent, code indented as it stands, hyphenated line ends joined.

import type { RootContent } from 'mdast';
import { joinLines } from '../../core/cjk-text.js';
import { heading, nestLists, paragraph, type ListEntry } from './blocks.js';
import { ENDS_CLAUSE, ENDS_PUNCTUATED, isHeadingShape, isSizeHeading, titleLevel, rounded, standsApart, type DocumentStyle } from './pdf-headings.js';
import { sectionDepth } from './pdf-numbering.js';
import { NUMBERED, withoutBullet, type Paragraph, type Row } from './pdf-page-model.js';
import { lineGapLimit, paragraphs } from './pdf-paragraphs.js';
import { inReadingOrder } from './pdf-rtl-tables.js';
import { splitTables, withBorderlessTables } from './pdf-table-runs.js';
import { columnLefts } from './table-column-lefts.js';

/** The blocks of one page; the style comes from the whole document. */
export function pageBlocks(rows: readonly Row[], style: DocumentStyle): RootContent[] {
  const out: RootContent[] = [];
  const lists = new ListCollector(out, style.body);
  const laid = withBorderlessTables(rows);
  const parts = splitTables(laid);
  const gapLimit = lineGapLimit(rows);
  for (const part of parts) {
    if ('table' in part) {
      lists.flush();
      const found = part.made;
      out.push(withTableBox(inReadingOrder(part.table, found, rows), found));
      continue;
    }
    // The page's spacing, not the part's: a part between two tables may hold a line or two.
    const found = paragraphs(part.rows, gapLimit);
    for (const [i, p] of found.entries()) {
      if (p.code) {
        lists.flush();
        out.push(styled(codeBlock(p.rows), p));
        continue;
      }
      const text = joinLines(p.rows.map((r) => r.text));
      const titled = titleLevel(p, text, style);
      if (titled !== undefined) {
        lists.flush();
        out.push(styled(heading(titled, [{ text }]), p));
      } else if (p.marker && !isSizeHeading(p, style)) lists.addItem(p, p.marker.ordered, text);
      else if (p.marker || !lists.continues(p, text)) {
        lists.flush();
        out.push(textBlock(p, text, style, found[i + 1]));
      }
    }
  }
  lists.flush();
  return out;
}

/** A monospaced font's advance in ems (Courier, DejaVu Sans Mono, Liberation Mono: 0.6): a code line's indent in characters. */
const MONO_ADVANCE = 0.6;

/**
 * A code block's lines, each indented as far right of the block's left edge as it stands, in
 * characters. A block set flush right (a right-to-left page's, Chrome) draws a line's indent at
 * its right end, as spaces that run to the block's edge: it is what the row holds beyond its text.
 */
function codeBlock(rows: readonly Row[]): RootContent {
  const left = Math.min(...rows.map((r) => r.x));
  const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
  const size = Math.min(...rows.map((r) => r.size));
  const flushRight = spread(rows.map((r) => r.right)) < size * 0.5 && spread(rows.map((r) => r.x)) > size;
  const indent = (r: Row) =>
    flushRight ? Math.round((r.right - r.x) / (r.size * MONO_ADVANCE)) - [...r.text].length : Math.round((r.x - left) / (r.size * MONO_ADVANCE));
  const value = rows.map((r) => ' '.repeat(Math.max(0, indent(r))) + r.text).join('\n');
  return { type: 'code', lang: null, meta: null, value };
}

function textBlock(p: Paragraph, text: string, style: DocumentStyle, next: Paragraph | undefined): RootContent {
  const first = p.rows[0] as Row;
  const level = style.levels.get(rounded(first.size));
  if (level !== undefined && isSizeHeading(p, style)) return styled(heading(level, [{ text }]), p);
  // A line at body size set apart by weight or by a heading's colour: the level below the sized ones.
  // A heading's colour may end in a colon ("工作原理说明："): a bold label ("Note:") is in the body's.
  const inHeadingColor = first.color !== undefined && style.headingColors.has(first.color);
  const apart = first.bold || inHeadingColor;
  const ends = inHeadingColor ? ENDS_CLAUSE : ENDS_PUNCTUATED;
  const bodyLine = !p.marker && isHeadingShape(p) && p.rows.length === 1 && first.size >= style.body * 0.95 && text.length <= 100 && !ends.test(text);
  if (!bodyLine) return styled(paragraph([{ text, ...(first.bold && { bold: true }) }]), p);
  // Numbered, its level is its number's depth (`2.3.1` three below the offset); in the body's weight only a dotted number marks it.
  const depth = sectionDepth(text, !apart);
  const byNumber = depth !== undefined && (apart || !/^\d/.test(text) || NUMBERED_TITLE.test(text));
  if (byNumber) return styled(heading(Math.min(6, Math.max(1, style.numberOffset + depth)), [{ text }]), p);
  if (inHeadingColor || (first.bold && standsApart(p, next))) return styled(heading(style.levels.size + 1, [{ text }]), p);
  return styled(paragraph([{ text, ...(first.bold && { bold: true }) }]), p);
}

/**
 * A body-weight line read as a heading by its dotted number (Chinese numbering needs no more):
 * the title starts with a capital or a letter of a script without case, and no dot leader runs
 * to a page number (a contents line).
 */
const NUMBERED_TITLE = /^[\d.]+\s+[\p{Lu}\p{Lo}](?!.*(?:\.\s?){3,}\s*\d+$)/u;

/** How a block's text is set in the PDF, for a writer that keeps it (an editable DOCX); Markdown ignores it. */
export interface PdfTextStyle {
  /** The font most of the first line is set in (its name tells italic). */
  font: string;
  /** Its fill, "r,g,b" in 0–1. */
  color?: string;
  /** Points from the page's top to the first line's baseline and to the last's: the space above and below the block. */
  baseline: number;
  lastBaseline: number;
  /** Points from one line's baseline to the next, where the block has more than one line. */
  pitch?: number;
  /** The first line's size in points. */
  size: number;
  /** Most of the first line is set bold (its face's flags or name). */
  bold?: true;
  /** The bold words the first line starts with, where it goes on in another weight (Row.boldLead). */
  boldLead?: string;
  /** Points from the page's left edge to the block's leftmost line and to its rightmost line's end: the column it stands in. */
  left: number;
  right: number;
  /** Points its lines take across the page, all added: how wide the PDF's face sets its text. */
  width: number;
  /**
   * Where each line but the last ends: the characters of the block's text after it (counted from
   * the end, which a list item's marker taken off the start leaves as it is) and the left and
   * right edges of the line, points from the page's left. A writer keeps a line the PDF ended short.
   */
  lineEnds?: { after: number; left: number; right: number }[];
}

/** Where a table stands on the page (points from the top), for a writer that keeps the space around it. */
export interface PdfTableBox {
  top: number;
  bottom: number;
  /** Points from the page's left edge to its text's left and right ends, as a block's (PdfTextStyle). */
  left: number;
  right: number;
  /** Drawn with lines on the page (pdf-rows.ts); else a borderless table, found by how its text lines up. */
  ruled: boolean;
  /** Points from the page's top to each row's text, where each row is one line of the page. */
  rowTops?: number[];
  /** A borderless table's: points from the page's left to each column's text (table-column-lefts.ts). */
  columnLefts?: number[];
}

declare module 'mdast' {
  interface Data {
    pdfText?: PdfTextStyle;
    pdfTable?: PdfTableBox;
    /** A table drawn with lines on the page, as pdf-rows.ts found it. */
    pdfRuled?: boolean;
  }
}

function withTableBox(table: RootContent, rows: readonly Row[]): RootContent {
  if (rows.length === 0) return table;
  const lefts = table.data?.pdfRuled !== true && table.type === 'table' ? columnLefts(rows, table.children[0]?.children.length ?? 0) : undefined;
  const box = {
    top: Math.min(...rows.map((r) => r.top)),
    bottom: Math.max(...rows.map((r) => r.bottom)),
    left: Math.min(...rows.map((r) => r.x)),
    right: Math.max(...rows.map((r) => r.right)),
    ruled: table.data?.pdfRuled === true,
    ...(lefts && { columnLefts: lefts }),
  };
  // A table whose rows are each one line of the page: where each row's text starts.
  const tops = rows.map((r) => r.top);
  const lined = table.type === 'table' && table.children.length === rows.length && tops.every((top, k) => k === 0 || top > (tops[k - 1] as number));
  return { ...table, data: { ...table.data, pdfTable: lined ? { ...box, rowTops: tops } : box } };
}

const styled = <T extends RootContent>(block: T, { rows }: Paragraph): T => {
  const [first, last] = [rows[0] as Row, rows.at(-1) as Row];
  const pitch = rows.length > 1 ? (last.y - first.y) / (rows.length - 1) : undefined;
  const pdfText: PdfTextStyle = {
    font: first.font,
    ...(first.color !== undefined && { color: first.color }),
    size: first.size,
    ...(first.bold && { bold: true as const }),
    ...(first.boldLead !== undefined && { boldLead: first.boldLead }),
    baseline: first.y,
    lastBaseline: last.y,
    left: Math.min(...rows.map((r) => r.x)),
    right: Math.max(...rows.map((r) => r.right)),
    width: linesWidth(rows),
    ...(rows.length > 1 && { lineEnds: lineEnds(rows) }),
  };
  return { ...block, data: { pdfText: pitch && pitch > 0 ? { ...pdfText, pitch } : pdfText } };
};

const linesWidth = (rows: readonly Row[]) => rows.reduce((sum, r) => sum + r.right - r.x, 0);

/** Where each row but the last ends in the rows' joined text (PdfTextStyle.lineEnds). */
const lineEnds = (rows: readonly Row[]) =>
  rows.slice(0, -1).map((row, k) => ({ after: joinLines(rows.slice(k + 1).map((r) => r.text)).length, left: row.x, right: row.right }));

/** List items of a page as they come, nested by indent, written out when the list ends. */
class ListCollector {
  private entries: ListEntry[] = [];
  private left = Infinity;
  /** The baseline of the list's last line: what continues an item stands below it. */
  private lastY = -Infinity;
  /** How many lines of the page the last item holds, its continuations' with its own: its pitch is theirs. */
  private lastLines = 0;

  constructor(
    private readonly out: RootContent[],
    private readonly body: number,
  ) {}

  addItem(p: Paragraph, ordered: boolean, text: string): void {
    const { x } = p.rows[0] as Row;
    this.left = Math.min(this.left, x);
    this.lastY = (p.rows.at(-1) as Row).y;
    this.lastLines = p.rows.length;
    const level = Math.max(0, Math.round((x - this.left) / Math.max(8, this.body * 1.2)));
    this.entries.push({ level, ordered, content: [styled(paragraph([{ text: ordered ? text.replace(NUMBERED, '') : withoutBullet(text) }]), p)] });
  }

  /**
   * A paragraph indented past the list's markers continues the last item, where it stands below
   * it: one higher up the page is the next column's text (a footnote list ending the left column).
   */
  continues(p: Paragraph, text: string): boolean {
    const para = this.entries.at(-1)?.content[0];
    const [first, last] = [p.rows[0] as Row, p.rows.at(-1) as Row];
    if (first.x <= this.left + this.body || first.y < this.lastY || para?.type !== 'paragraph' || para.children[0]?.type !== 'text') return false;
    this.lastY = last.y;
    this.lastLines += p.rows.length;
    const before = para.children[0].value.length;
    para.children[0].value = joinLines([para.children[0].value, text]);
    const pdfText = para.data?.pdfText;
    if (pdfText) {
      const added = para.children[0].value.length - before;
      pdfText.lineEnds = [...(pdfText.lineEnds ?? []).map((end) => ({ ...end, after: end.after + added })), ...(p.rows.length > 1 ? lineEnds(p.rows) : [])];
      pdfText.lastBaseline = last.y;
      // Lines under a hanging indent come as a paragraph of their own (a producer's block a line): the item's pitch is all its lines'.
      pdfText.pitch = (last.y - pdfText.baseline) / (this.lastLines - 1);
      pdfText.right = Math.max(pdfText.right, ...p.rows.map((r) => r.right));
      pdfText.width += linesWidth(p.rows);
    }
    return true;
  }

  flush(): void {
    if (this.entries.length) this.out.push(...nestLists(this.entries));
    this.entries = [];
    this.left = Infinity;
    this.lastY = -Infinity;
  }
}
