// The one block model every reader fills: mdast (the Markdown syntax tree of the unified
// ecosystem), so a reader never writes Markdown text itself and escaping lives in one renderer.
// Helpers here build the parts readers share: inline runs, nested lists, and tables that fall
// back to HTML when GFM cannot hold them (merged cells, several blocks in a cell).

import type { BlockContent, Heading, Html, List, ListItem, Paragraph, PhrasingContent, RootContent, Table, TableCell, TableRow } from 'mdast';
import { ownHtml } from './inert.js';
import { MAX_LIST_DEPTH } from './limits.js';

/** Font names that mean code: a run set in one of them is `code`. */
export const MONOSPACE = /courier|consolas|menlo|monaco|mono|source code/i;
/** Font names that mean bold, where a PDF's font says so only in its name. */
export const BOLD_FONT_NAME = /bold|black|heavy/i;
/** Font names that mean italic, where a PDF's font says so only in its name (TeX's Computer Modern text italic: CMTI10). */
export const ITALIC_FONT_NAME = /italic|oblique|^(?:[A-Z]{6}\+)?CMTI\d/i;
/** Font names that say bold, TeX's among them (Computer Modern's CMBX12, the SF fonts' SFBX1000: bold extended). */
export const BOLD_FACE = /bold|black|heavy|semibold|demi|^(?:[A-Z]{6}\+)?(?:CM|SF|EC|LM|TC)[A-Z]*BX?\d/i;

export interface RunStyle {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
}

/** Bold or italic from `start` to `end` (code units) of a text. */
export interface StyledRange {
  start: number;
  end: number;
  bold?: true;
  italic?: true;
}

/** How a text a PDF table's cell holds was set (pdf-piece-style.ts): its style, all of it, and its emphasised words. */
export interface TextStyle extends RunStyle {
  emphasis?: readonly StyledRange[];
}

/** One piece of inline text with its style and optional link. */
export interface Run extends RunStyle {
  text: string;
  link?: string;
}

/** Inline content: runs, plus nodes the reader made itself (footnote references, images, breaks). */
export type Inline = Run | PhrasingContent;

const isRun = (item: Inline): item is Run => !('type' in item);
const sameStyle = (a: Run, b: Run) =>
  !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.code === !!b.code && !!a.strike === !!b.strike && a.link === b.link;

/**
 * Appends `items` to `target` one by one: `push(...items)` passes every item as an argument,
 * which throws a RangeError past ~100,000 of them (a paragraph of 200,000 runs).
 */
export function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** Phrasing nodes from inline items: neighbouring runs of one style are joined first. */
export function phrasing(items: readonly Inline[]): PhrasingContent[] {
  const merged: Inline[] = [];
  for (const item of items) {
    const last = merged.at(-1);
    if (isRun(item) && last && isRun(last) && sameStyle(last, item)) merged[merged.length - 1] = { ...last, text: last.text + item.text };
    else if (!isRun(item) || item.text !== '') merged.push(item);
  }
  return merged.flatMap((item) => (isRun(item) ? styled(item) : [item]));
}

/** A run as nodes; the spaces at its edges stay outside the emphasis, as Markdown needs. */
function styled(run: Run): PhrasingContent[] {
  // Code keeps its emphasis: bold code beside plain code is two spans apart, not `a``b`.
  if (run.code) return [marked(run, { type: 'inlineCode', value: run.text })];
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text) ?? [];
  if (core === '') return run.text ? [{ type: 'text', value: run.text }] : [];
  const node = marked(run, { type: 'text', value: core });
  return [...(lead ? [{ type: 'text' as const, value: lead }] : []), node, ...(trail ? [{ type: 'text' as const, value: trail }] : [])];
}

function marked(run: Run, inner: PhrasingContent): PhrasingContent {
  let node = inner;
  if (run.strike) node = { type: 'delete', children: [node] };
  if (run.italic) node = { type: 'emphasis', children: [node] };
  if (run.bold) node = { type: 'strong', children: [node] };
  if (run.link) node = { type: 'link', url: run.link, children: [node] };
  return node;
}

export const paragraph = (items: readonly Inline[]): Paragraph => ({ type: 'paragraph', children: phrasing(trimInline(items)) });

/** A heading; bold and italic from its style say nothing a `#` does not already say. */
export function heading(level: number, items: readonly Inline[]): Heading {
  const plain = items.map((item) => (isRun(item) ? { ...item, bold: false, italic: false } : item));
  return { type: 'heading', depth: Math.min(6, Math.max(1, level)) as Heading['depth'], children: phrasing(trimInline(plain)) };
}

/** A slide label's most characters; longer bold text is emphasis, not a title. */
const MAX_LABEL_CHARS = 80;

/**
 * Where a slide's paragraph stands: whether space set above it parts it from the text before (a
 * heading's spacing; undefined where its text sets space above none of its paragraphs, so says
 * nothing), and whether content follows it.
 */
export interface LabelPlace {
  setApart?: boolean;
  followed: boolean;
}

/**
 * A slide's paragraph that is all bold, short and not a sentence (no closing stop) titles what
 * comes after it on the slide: returned as a heading of `depth` (one below the slide's title), the
 * way decks set sub-titles and pandoc renders headings below the slide level. Where its text sets
 * space above its labels, one without that space is bold text (pandoc's `**Note**` beside its
 * `### Options`); one ending in a colon is a label only where it stands apart with content after
 * it (`### Options:`), else a bold lead-in to what follows. Any other block is returned as it is.
 */
export function asSlideLabel(block: RootContent, depth: number, place?: LabelPlace): RootContent {
  if (block.type !== 'paragraph' || place?.setApart === false) return block;
  // Bold code is a strong of its own beside the bold words (pandoc's `### Check the \`out\` value`):
  // all bold, with at most spaces between, is still one label.
  const strongs = block.children.filter((c) => c.type === 'strong');
  const spacesOnly = block.children.every((c) => c.type === 'strong' || (c.type === 'text' && c.value.trim() === ''));
  if (strongs.length === 0 || !spacesOnly) return block;
  const text = plainText(block).trim();
  if (!text || text.length > MAX_LABEL_CHARS || /[.。!！?？;；,，]$/.test(text)) return block;
  if (/[:：]$/.test(text) && !(place?.setApart && place.followed)) return block;
  const children = block.children.flatMap((c) => (c.type === 'strong' ? c.children : [c]));
  return { type: 'heading', depth: Math.min(6, Math.max(1, depth)) as Heading['depth'], children };
}

/**
 * A slide's `## ` heading from its title's paragraphs (each a list of runs), on one line: code
 * spans kept, paragraphs and line breaks joined by a space, white space collapsed; `fallback`
 * when the title holds no text.
 */
export function slideTitle(lines: readonly (readonly Inline[])[], fallback: string): Heading {
  const items: Inline[] = [];
  lines.forEach((line, index) => {
    if (index > 0) items.push({ text: ' ' });
    for (const item of line) {
      if (!isRun(item)) items.push(item.type === 'break' ? { text: ' ' } : item);
      // A code run's edge spaces stand outside its span.
      else if (item.code) items.push(...edgesApart(item));
      else items.push(item);
    }
  });
  // Collapse white space within runs and across their joins.
  let spaceBefore = true;
  const collapsed = items.map((item) => {
    if (!isRun(item)) return ((spaceBefore = false), item);
    let text = item.text.replace(/\s+/g, ' ');
    if (spaceBefore) text = text.replace(/^ /, '');
    if (text !== '') spaceBefore = text.endsWith(' ');
    return { ...item, text };
  });
  const title = heading(2, collapsed);
  return title.children.length ? title : heading(2, [{ text: fallback }]);
}

/** A run as its leading spaces, its core and its trailing spaces, the spaces plain text. */
function edgesApart(run: Run): Run[] {
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text) ?? [];
  return [{ text: lead }, { ...run, text: core }, { text: trail }];
}

/** Drops leading and trailing whitespace of a block's inline content, line breaks included. */
function trimInline(items: readonly Inline[]): Inline[] {
  const out = [...items];
  const blank = (i: Inline) => (isRun(i) ? i.text.trim() === '' : i.type === 'break');
  let first = out.findIndex((i) => !blank(i));
  const last = out.findLastIndex((i) => !blank(i));
  if (first < 0) return [];
  // A line of code keeps its indentation: the spaces before its first code, set in code too
  // (ODF writes them as a run of their own, <text:s text:c="8"/>), are part of it.
  const startsCode = (i: Inline | undefined) => i !== undefined && isRun(i) && i.code === true;
  if (startsCode(out[first])) while (first > 0 && startsCode(out[first - 1]) && /^[ \t]+$/.test((out[first - 1] as Run).text)) first--;
  const trimmed = out.slice(first, last + 1);
  const head = trimmed[0];
  if (head && isRun(head) && !head.code) trimmed[0] = { ...head, text: head.text.trimStart() };
  const tail = trimmed.at(-1);
  if (tail && isRun(tail)) trimmed[trimmed.length - 1] = { ...tail, text: tail.text.trimEnd() };
  return trimmed;
}

export const isEmptyParagraph = (node: RootContent): boolean => node.type === 'paragraph' && node.children.length === 0;

/** A paragraph's lines when all its text is set in a monospaced font (code and line breaks only), else undefined. */
function codeLines(block: RootContent): string | undefined {
  if (block.type !== 'paragraph') return undefined;
  const code = monospacedText(block.children);
  return code?.hasCode ? code.value : undefined;
}

/**
 * The text of inline nodes that are all code, breaks or blank, else undefined. Code may sit in
 * bold or italic: a highlighted code block (pandoc's, with a language) sets its keywords and
 * operators in bold runs of the same monospaced face.
 */
function monospacedText(nodes: readonly PhrasingContent[]): { value: string; hasCode: boolean } | undefined {
  let value = '';
  let hasCode = false;
  for (const node of nodes) {
    if (node.type === 'inlineCode') {
      value += node.value;
      hasCode = true;
    } else if (node.type === 'break') value += '\n';
    else if (node.type === 'text' && node.value.trim() === '') value += node.value;
    else if (node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete') {
      const inner = monospacedText(node.children);
      if (!inner) return undefined;
      value += inner.value;
      hasCode ||= inner.hasCode;
    } else return undefined;
  }
  return { value, hasCode };
}

/**
 * Paragraphs of a text box set wholly in a monospaced font, one after another, as one code block:
 * slides have no code style, so decks (and pandoc's) show code as Courier paragraphs, one line a
 * break or a paragraph. Text in the box's body font around them stays as it is.
 */
export function codeBlocks(blocks: readonly RootContent[]): RootContent[] {
  const out: RootContent[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) out.push({ type: 'code', lang: null, meta: null, value: lines.join('\n') });
    lines = [];
  };
  for (const block of blocks) {
    const code = codeLines(block);
    if (code === undefined) {
      flush();
      out.push(block);
    } else lines.push(code);
  }
  flush();
  return out;
}

/** One paragraph of a list with its nesting level (0 = top) and kind. */
export interface ListEntry {
  level: number;
  ordered: boolean;
  content: BlockContent[];
}

/** Nested mdast lists from a run of list paragraphs in document order. */
export function nestLists(entries: readonly ListEntry[]): List[] {
  const roots: List[] = [];
  const open: List[] = []; // open[d]: the list currently open at depth d
  // levels[d]: the entry level that depth d was opened for. Levels are compared, not used as
  // depths: a skipped level (0 then 2) nests one deeper, and an entry at the same level as the
  // one before is its sibling however far its level is from the list's first.
  const levels: number[] = [];
  for (const entry of entries) {
    while (levels.length && (levels.at(-1) as number) > entry.level) levels.pop();
    // Past MAX_LIST_DEPTH an entry stays at the deepest level: a level number is the document's
    // word, and 100,000 rising levels would nest lists deeper than any renderer can walk.
    if (!levels.length || ((levels.at(-1) as number) < entry.level && levels.length < MAX_LIST_DEPTH)) levels.push(entry.level);
    const level = levels.length - 1;
    open.length = Math.min(open.length, level + 1); // deeper lists end here
    let list = open[level];
    if (!list || list.ordered !== entry.ordered) {
      list = { type: 'list', ordered: entry.ordered, spread: false, children: [] };
      const parentItem = level > 0 ? open[level - 1]?.children.at(-1) : undefined;
      if (parentItem) parentItem.children.push(list);
      else roots.push(list);
      open[level] = list;
    }
    const item: ListItem = { type: 'listItem', spread: false, children: entry.content.length ? entry.content : [{ type: 'paragraph', children: [] }] };
    list.children.push(item);
  }
  return roots;
}

/** A table cell as readers find it: its blocks and how far it spans. */
export interface CellSource {
  blocks: BlockContent[];
  colSpan: number;
  rowSpan: number;
  /** Covered by another cell's span: not written. */
  covered?: boolean;
}

/**
 * A row of text cells, one paragraph each (none for an empty text), no spans. `styles`: texts a
 * PDF set in one style, every glyph (pdf-piece-style.ts). A code text standing in a cell between
 * spaces or its ends is a code span: `--url-classes` is an option's name, and inside a code span
 * nothing is escaped. A cell made up wholly of italic texts is italic: only a whole cell, since
 * a word set so elsewhere says nothing of the same word in another cell's sentence. A cell whose
 * text is a piece's with emphasised words has them bold or italic.
 */
export function textCells(texts: readonly string[], styles: ReadonlyMap<string, TextStyle> = new Map()): CellSource[] {
  return texts.map((text) => ({ blocks: text ? [paragraph(styledRuns(text, styles))] : [], colSpan: 1, rowSpan: 1 }));
}

/** The longest styled text looked for in a cell: an option's name or a short expression, a type's name. */
const MAX_CODE_SPAN = 160;

type Styled = (text: string) => boolean;

/**
 * A cell's runs: its code spans, all of them italic where the whole cell is. Bold is not written:
 * forms set their label columns and total rows bold as the table's style (docling's REPAIR and
 * movie-theater PDFs, whose ground truth has no bold), which reads as noise as a header's bold does.
 */
function styledRuns(text: string, styles: ReadonlyMap<string, TextStyle>): Run[] {
  const runs = withEmphasis(codeRuns(text, styles), emphasisIn(text, styles));
  const italic = wholly(text, indexOf(styles).longestItalic, (t) => styles.get(t)?.italic === true);
  return italic ? runs.map((run) => ({ ...run, italic })) : runs;
}

/** A character a piece of a cell may meet the next at: a space, or CJK (whose wrapped lines join without one). */
const PIECE_EDGE = /[\s\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]/u;

/** What every cell of a table looks up in its styles, made once per table's styles. */
interface StylesIndex {
  /** The longest code and italic texts, at most MAX_CODE_SPAN: bounded work in a long cell of a hostile table. */
  longestCode: number;
  longestItalic: number;
  /** The emphasised pieces by their first character. */
  emphasis: Map<string, [string, readonly StyledRange[]][]>;
}

const indexes = new WeakMap<ReadonlyMap<string, TextStyle>, StylesIndex>();

function indexOf(styles: ReadonlyMap<string, TextStyle>): StylesIndex {
  let index = indexes.get(styles);
  if (index) return index;
  index = { longestCode: 0, longestItalic: 0, emphasis: new Map() };
  for (const [piece, style] of styles) {
    const length = Math.min(MAX_CODE_SPAN, piece.length);
    if (style.code) index.longestCode = Math.max(index.longestCode, length);
    if (style.italic) index.longestItalic = Math.max(index.longestItalic, length);
    if (!style.emphasis || piece === '') continue;
    const first = piece[0] as string;
    const same = index.emphasis.get(first);
    if (same) same.push([piece, style.emphasis]);
    else index.emphasis.set(first, [[piece, style.emphasis]]);
  }
  indexes.set(styles, index);
  return index;
}

/** The most pieces a cell tries against its text: a hostile table of many alike pieces costs each cell this much at most (emphasis past it is left plain). */
const MAX_EMPHASIS_TRIES = 400;

/**
 * The emphasised words of the pieces that stand in a cell's text (one piece, or a wrapped cell's
 * lines), each piece found whole, its ends at the text's ends, spaces or CJK: a piece's words
 * say nothing of the same words in another piece's sentence. Looked up by first character, so a
 * long table of emphasised cells costs each cell its own candidates, not every piece's.
 */
function emphasisIn(text: string, styles: ReadonlyMap<string, TextStyle>): StyledRange[] {
  const index = indexOf(styles).emphasis;
  if (index.size === 0) return [];
  const edge = (i: number) => i < 0 || i >= text.length || PIECE_EDGE.test(text[i] as string);
  const found: StyledRange[] = [];
  let tries = 0;
  for (let at = 0; at < text.length && tries < MAX_EMPHASIS_TRIES; at++) {
    if (!(edge(at - 1) || edge(at))) continue;
    for (const [piece, emphasis] of index.get(text[at] as string) ?? []) {
      if (++tries > MAX_EMPHASIS_TRIES) break;
      const end = at + piece.length;
      if (!text.startsWith(piece, at) || !(edge(end) || edge(end - 1))) continue;
      for (const range of emphasis) found.push({ ...range, start: range.start + at, end: range.end + at });
    }
  }
  return found;
}

/** The runs cut where the emphasised words of the cell's text start and end, those words bold or italic. */
function withEmphasis(runs: readonly Run[], emphasis: readonly StyledRange[]): Run[] {
  if (emphasis.length === 0) return [...runs];
  const cuts = new Set(emphasis.flatMap((r) => [r.start, r.end]));
  const out: Run[] = [];
  let at = 0;
  for (const run of runs) {
    const edges = [at, ...[...cuts].filter((c) => c > at && c < at + run.text.length).sort((a, b) => a - b), at + run.text.length];
    for (let k = 0; k + 1 < edges.length; k++) {
      const [from, to] = [edges[k] as number, edges[k + 1] as number];
      const over = emphasis.filter((r) => r.start <= from && to <= r.end);
      out.push({
        ...run,
        text: run.text.slice(from - at, to - at),
        ...(over.some((r) => r.bold) && { bold: true }),
        ...(over.some((r) => r.italic) && { italic: true }),
      });
    }
    at += run.text.length;
  }
  return out;
}

/** Whether a text is made up of styled texts (`is`, none longer than `longest`) a space apart: a cell's wrapped lines, each a piece of it. */
function wholly(text: string, longest: number, is: Styled): boolean {
  if (is(text)) return true;
  if (longest === 0) return false;
  for (let i = 0; i < text.length;) {
    const end = styledEnd(text, i, longest, is);
    if (end === undefined) return false;
    for (i = end; text[i] === ' '; i++);
  }
  return text.length > 0;
}

/** A text's runs: the longest code text starting at each word (and ending at a space or the end) is code. */
function codeRuns(text: string, styles: ReadonlyMap<string, TextStyle>): Run[] {
  const isCode: Styled = (t) => styles.get(t)?.code === true;
  // Spans no longer than the longest code text, and that at most MAX_CODE_SPAN (a longer code piece is left plain).
  const longest = indexOf(styles).longestCode;
  if (longest === 0) return [{ text }];
  const runs: Run[] = [];
  let plain = 0;
  for (let i = 0; i < text.length; i++) {
    if (i > 0 && text[i - 1] !== ' ') continue;
    const end = styledEnd(text, i, longest, isCode);
    if (end === undefined) continue;
    const last = runs.at(-1);
    // Code pieces a space apart are one span: Ghostscript sets a code line's words apart.
    if (last?.code && text.slice(plain, i).trim() === '') last.text += text.slice(plain, end);
    else {
      if (i > plain) runs.push({ text: text.slice(plain, i) });
      runs.push({ text: text.slice(i, end), code: true });
    }
    plain = end;
    i = end - 1;
  }
  if (plain < text.length) runs.push({ text: text.slice(plain) });
  return runs;
}

/** The end of the longest styled text (`is`) at `start` that ends at a space or the text's end. */
function styledEnd(text: string, start: number, longest: number, is: Styled): number | undefined {
  for (let end = Math.min(text.length, start + longest); end > start; end--) {
    if ((end === text.length || text[end] === ' ') && is(text.slice(start, end))) return end;
  }
  return undefined;
}

/** A GFM table when every cell is one plain paragraph and nothing spans; else an HTML table. */
export function table(rows: readonly CellSource[][], toHtmlInline: (blocks: readonly BlockContent[]) => string): RootContent {
  const simple = rows.every((row) =>
    row.every(
      (cell) => !cell.covered && cell.colSpan === 1 && cell.rowSpan === 1 && cell.blocks.length <= 1 && (cell.blocks[0]?.type ?? 'paragraph') === 'paragraph',
    ),
  );
  if (simple) {
    const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
    const gfmRows: TableRow[] = rows.map((row, r) => ({
      type: 'tableRow',
      children: Array.from({ length: width }, (_, i): TableCell => {
        const children = (row[i]?.blocks[0] as Paragraph | undefined)?.children ?? [];
        return { type: 'tableCell', children: r === 0 ? withoutBold(children) : children };
      }),
    }));
    return { type: 'table', align: Array.from({ length: width }, () => null), children: gfmRows } satisfies Table;
  }
  const html = rows
    .map((row, r) => {
      // A header needs a body below it: a table of one row is data.
      const tag = r === 0 && rows.length > 1 ? 'th' : 'td';
      const cells = row
        .filter((cell) => !cell.covered)
        .map(
          (cell) =>
            `<${tag}${cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}${cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}>${toHtmlInline(tag === 'th' ? cell.blocks.map(headerBlock) : cell.blocks)}</${tag}>`,
        );
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  // The cells stay on the node: a writer that rebuilds the document (an editable DOCX) keeps the spans.
  return ownHtml(`<table>\n${html}\n</table>`, { cells: rows });
}

/** A header row is shown bold anyway: its own bold is noise, in a GFM table and an HTML one alike. */
const withoutBold = (children: readonly PhrasingContent[]): PhrasingContent[] => children.flatMap((c) => (c.type === 'strong' ? c.children : [c]));

const headerBlock = (block: BlockContent): BlockContent => (block.type === 'paragraph' ? { ...block, children: withoutBold(block.children) } : block);

/** The cells, with their spans, of a table `table` wrote as HTML; undefined for any other HTML. */
export function htmlTableCells(node: Html): readonly CellSource[][] | undefined {
  return (node.data as { cells?: CellSource[][] } | undefined)?.cells;
}

/** A cell's text: its blocks' text, paragraphs on lines of their own. */
export function cellText(cell: CellSource): string {
  return cell.blocks.map(plainText).join('\n');
}

/** The text of any node, its children's joined. */
export function plainText(node: RootContent | { children?: unknown; value?: unknown }): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node && Array.isArray(node.children)) return (node.children as RootContent[]).map(plainText).join('');
  return '';
}

/** A table block's cells with their spans (a GFM table's as plain cells); undefined: not a table. */
export function tableCells(block: RootContent): readonly CellSource[][] | undefined {
  if (block.type === 'html') return htmlTableCells(block);
  if (block.type !== 'table') return undefined;
  return block.children.map((row) =>
    row.children.map((cell) => ({ blocks: cell.children.length ? [{ type: 'paragraph', children: cell.children }] : [], colSpan: 1, rowSpan: 1 })),
  );
}

/**
 * A style and the styles it inherits from, most general first (Word's basedOn, ODF's parent
 * style): each format then lets the later ones win. A cycle of styles is cut where it closes.
 */
export function styleChain<S>(name: string | undefined, styles: ReadonlyMap<string, S>, parentOf: (style: S) => string | undefined): S[] {
  const chain: S[] = [];
  const seen = new Set<string>();
  for (let current = name; current !== undefined && !seen.has(current);) {
    seen.add(current);
    const style = styles.get(current);
    if (!style) break;
    chain.push(style);
    current = parentOf(style);
  }
  return chain.reverse();
}

/** The properties a style sets, without those it leaves to its parents. */
export const definedOnly = (style: RunStyle): RunStyle => Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined)) as RunStyle;
