// The PDF worker's part of reading a PDF as Markdown, in two passes so that memory stays bounded
// per page (a 1,000-page PDF streams). The first pass reduces each page to rows and keeps only
// what the layout measures over the whole document: how often each line of the header and
// footer bands repeats, and the text style (body size, font, colour, heading sizes) as counts.
// The second pass lays each page out with those statistics, renders it to Markdown and drops it,
// and stops once the Markdown passes `maxCharacters`: pages past the cut are neither laid out
// nor, being scans, read with OCR. The rows of the first WINDOW_PAGES pages are kept between the
// passes; later pages are read from mupdf again (that second read costs as much CPU as the first:
// 1,000 pages ~4.3 s → ~8 s), so a document of up to a hundred pages is read once, as before.

import type { FileRef } from '../../core/file-ref.js';
import type * as mupdf from 'mupdf';
import type { RootContent } from 'mdast';
import { pageBlocks } from '../read/pdf-layout.js';
import { joinContinuedTable } from '../read/pdf-table-pages.js';
import { StyleTally, type DocumentStyle } from '../read/pdf-headings.js';
import { OutlineLevels, outlineEntries } from '../read/pdf-outline.js';
import { toPageRows } from '../read/pdf-rows.js';
import type { PageRows, Row } from '../read/pdf-page-model.js';
import { readingRows } from '../read/pdf-reading-order.js';
import { bandKeys, RunningLines } from '../read/pdf-running-lines.js';
import { renderedBlocks } from '../read/render.js';
import { joinedLength, pageMarker } from '../../core/markdown-join.js';
import { selectPages, stextOf, withPage, type PageSize } from './render.js';
import { pageDrawing } from './page-drawing.js';
import { mergeRulings, type PageDrawing } from '../read/pdf-grid.js';
import { behindText, pagePictures, PictureBudget, type PagePicture } from './page-pictures.js';
import { openSource } from './scan-document.js';
import { checkDecompressedBudget } from './stream-budget.js';
import type { SelectPagesTask } from './scan-tasks.js';

type Read = (file: FileRef) => Uint8Array;

export interface ReadMarkdownTask extends SelectPagesTask {
  /** The read's cut: pages are laid out only until their Markdown passes it. */
  maxCharacters: number;
}

export interface PdfPageMarkdown {
  page: number;
  /** The Markdown of each of the page's blocks. */
  blocks: string[];
  /** No text layer: a scan, to be read with OCR. */
  needsOcr: boolean;
}

export interface PdfMarkdown {
  pageCount: number;
  /** How many pages were selected. */
  selected: number;
  /** The selected pages in order up to the one that passes `maxCharacters`. */
  pages: PdfPageMarkdown[];
}

/** Pages whose rows the first pass keeps for the second (~0.05 MB a page: ~5 MB at most). */
const WINDOW_PAGES = 100;

/** A page's rows: its structured text, and the lines it draws (tables) when it has text at all. */
function pageLayoutRows(loaded: mupdf.PDFPage): PageRows {
  // The drawing is made once, and only for a page with text: its vertical rulings cut the text between cells.
  let drawing: PageDrawing | undefined;
  const drawn = () => (drawing ??= pageDrawing(loaded));
  const stext = stextOf(loaded, () => mergeRulings(drawn().rulings).vertical);
  const hasText = stext.blocks.some((b) => b.lines?.some((l) => l.text.trim() !== ''));
  return toPageRows(stext, hasText ? drawn() : undefined);
}

/** A page counted with a guess of which band lines repeat: the keys guessed repeated. */
interface Guess {
  index: number;
  keys: string[];
  guessed: boolean[];
}

/**
 * First pass: running lines and text style counted page by page. A page's style is counted with
 * its running lines as guessed so far; the few pages whose guess the whole count proves wrong
 * (mostly the first ones) are read again and counted anew, so the result is the whole-document one.
 */
function measure(pages: readonly number[], rowsOf: (page: number) => PageRows, outline: OutlineLevels): { running: RunningLines; style: StyleTally } {
  const running = new RunningLines(pages.length);
  const style = new StyleTally(outline);
  const guesses: Guess[] = [];
  pages.forEach((page, index) => {
    const rows = rowsOf(page);
    const keys = bandKeys(rows);
    running.addPage(keys);
    const guessed = keys.map((k) => running.likelyRepeated(k));
    style.addPage(
      readingRows(rows, (k) => guessed[keys.indexOf(k)] ?? false),
      1,
    );
    if (keys.length) guesses.push({ index, keys, guessed });
  });
  for (const { index, keys, guessed } of guesses) {
    if (keys.every((k, i) => running.repeated(k) === guessed[i])) continue;
    const rows = rowsOf(pages[index] as number);
    style.addPage(
      readingRows(rows, (k) => guessed[keys.indexOf(k)] ?? false),
      -1,
    );
    style.addPage(
      readingRows(rows, (k) => running.repeated(k)),
      1,
    );
  }
  return { running, style };
}

/** One page as laid out: its blocks (none for a scan, which OCR reads), and its size in points. */
export interface LaidOutPage {
  page: number;
  blocks: RootContent[];
  /** No text layer: a scan, to be read with OCR. */
  needsOcr: boolean;
  width: number;
  height: number;
  /** Points from each edge to the text the page holds; absent for a page without text. */
  margins?: { top: number; right: number; bottom: number; left: number } | undefined;
  /** For an editable document: the pictures its `image` blocks name (url `picture:<index>`). */
  pictures?: PagePicture[];
  /** For an editable document: the running lines `read` leaves out, at the top and the bottom. */
  header?: RunningText | undefined;
  footer?: RunningText | undefined;
}

/** Running lines of a page's top or bottom band, in order, and how far the band's outer line is from that edge (points). */
export interface RunningText {
  lines: string[];
  edge: number;
}

/** The PNG bytes an editable document's pictures may take together (the model crosses threads whole). */
const PICTURE_BYTES = 64 * 1024 * 1024;

/**
 * A page's margins are taken as its text's, up to two inches. The left and the top, where its
 * lines start, to the twip and from the page's edge: a receipt's text stands under a quarter inch
 * from its edge, and at 50 dpi a line moved by a point is another image. The right and the bottom
 * a quarter inch at least and to the point, as before: a column a fraction of a point wider than
 * the PDF's takes a word onto a line the PDF wrapped, and every line under it rises.
 */
const MARGIN_RANGE = [18, 144] as const;
const clampMargin = (points: number) => Math.round(Math.min(MARGIN_RANGE[1], Math.max(MARGIN_RANGE[0], points)));
const startMargin = (points: number) => Math.round(20 * Math.min(MARGIN_RANGE[1], Math.max(0, points))) / 20;

function marginsOf({ rows, width, height }: { rows: readonly Row[]; width: number; height: number }): LaidOutPage['margins'] {
  if (rows.length === 0) return undefined;
  const left = Math.min(...rows.map((r) => r.x));
  const right = Math.max(...rows.map((r) => r.right));
  const top = Math.min(...rows.map((r) => r.top));
  const bottom = Math.max(...rows.map((r) => r.bottom));
  return { top: startMargin(top), right: clampMargin(width - right), bottom: clampMargin(height - bottom), left: startMargin(left) };
}

/**
 * Both passes over the selected pages: each page laid out with the whole document's statistics
 * and handed to `visit` in order, until `visit` answers true (the read's cut).
 */
function layOutPages(
  { ranges, maxPages, ...source }: SelectPagesTask,
  read: Read,
  budget: number,
  visit: (page: LaidOutPage) => boolean,
  pictures?: PictureBudget,
): { pageCount: number; selected: number; style: DocumentStyle } {
  const doc = openSource(source, read, (opened) => checkDecompressedBudget(opened, budget));
  const { pageCount, pages, sizes } = selectPages(doc, ranges, maxPages);
  const kept = new Map<number, PageRows>();
  const extract = (page: number) => withPage(doc, page, pageLayoutRows);
  // The first pass keeps the window's rows; the second takes each page's rows once.
  const rowsOf = (page: number) => {
    const rows = kept.get(page) ?? extract(page);
    if (kept.size < WINDOW_PAGES) kept.set(page, rows);
    return rows;
  };
  const { running, style } = measure(pages, rowsOf, selectedOutline(doc, pages));
  const documentStyle = style.style();
  for (const [index, page] of pages.entries()) {
    const rows = kept.get(page) ?? extract(page);
    kept.delete(page);
    const repeated = (k: string) => running.repeated(k);
    const pageStyle = documentStyle.outline
      ? { ...documentStyle, outline: { ...documentStyle.outline, page: documentStyle.outline.levels.onPage(page) } }
      : documentStyle;
    const size = sizes[index] as PageSize;
    const laid = { page, needsOcr: rows.rows.length === 0, width: size.width, height: size.height };
    // Rows keep every line with text, so a page without rows has no text layer.
    if (rows.rows.length === 0) {
      if (visit({ ...laid, blocks: [], margins: undefined })) break;
    } else if (!pictures) {
      if (visit({ ...laid, blocks: pageBlocks(readingRows(rows, repeated), pageStyle), margins: marginsOf(rows) })) break;
    } else {
      const found = withPage(doc, page, (loaded) => pagePictures(loaded, pictures)).filter((picture) => !behindText(picture, rows.rows));
      const blocks = blocksWithPictures(readingRows(rows, repeated), found, pageStyle);
      if (visit({ ...laid, blocks, pictures: found, ...furniture(rows, repeated) })) break;
    }
  }
  return { pageCount, selected: pages.length, style: documentStyle };
}

/**
 * The outline's entries that point into the selected pages (or nowhere in particular). A damaged
 * outline (a loop, nesting past the stack) is no outline: the headings come from the text alone.
 */
function selectedOutline(doc: mupdf.PDFDocument, pages: readonly number[]): OutlineLevels {
  const selected = new Set(pages);
  try {
    return new OutlineLevels(outlineEntries(doc.loadOutline()).filter((e) => e.page === undefined || selected.has(e.page + 1)));
  } catch {
    return new OutlineLevels([]);
  }
}

/** The page's blocks with its pictures in the flow: each before the first row, in reading order, at or below its top. */
function blocksWithPictures(ordered: readonly Row[], pictures: readonly PagePicture[], style: DocumentStyle): RootContent[] {
  const out: RootContent[] = [];
  let from = 0;
  const byTop = [...pictures.keys()].sort((a, b) => (pictures[a] as PagePicture).top - (pictures[b] as PagePicture).top);
  for (const k of byTop) {
    const top = (pictures[k] as PagePicture).top;
    const at = ordered.findIndex((row, i) => i >= from && row.top >= top);
    const to = at < 0 ? ordered.length : at;
    if (to > from) out.push(...pageBlocks(ordered.slice(from, to), style));
    out.push({ type: 'image', url: `picture:${k}` });
    from = to;
  }
  if (from < ordered.length) out.push(...pageBlocks(ordered.slice(from), style));
  return out;
}

/**
 * The page's running lines (those `read` leaves out) as its header and footer, and its margins
 * measured on the body's text alone: the header and footer stand in the margins, as in Word.
 */
function furniture(page: PageRows, repeated: (key: string) => boolean): Pick<LaidOutPage, 'margins' | 'header' | 'footer'> {
  const body = RunningLines.kept(page, repeated);
  const kept = new Set(body);
  const running = page.rows.filter((r) => !kept.has(r)).sort((a, b) => a.top - b.top || a.x - b.x);
  const top = running.filter((r) => r.bottom <= page.height / 2);
  const bottom = running.filter((r) => r.bottom > page.height / 2);
  const text = (rows: readonly Row[], edge: number): RunningText | undefined => (rows.length ? { lines: rows.map((r) => r.text), edge } : undefined);
  return {
    margins: marginsOf({ rows: body.length ? body : page.rows, width: page.width, height: page.height }),
    header: text(top, Math.min(...top.map((r) => r.top))),
    footer: text(bottom, page.height - Math.max(...bottom.map((r) => r.bottom))),
  };
}

export function readPdfMarkdown({ maxCharacters, ...task }: ReadMarkdownTask, read: Read, budget: number): PdfMarkdown {
  const out: PdfPageMarkdown[] = [];
  // The length the Markdown joined so far has (as joinBlocks counts it; scans count nothing yet).
  let length = 0;
  // The last page with blocks, as a model: a table ending it goes on with the next page's first
  // block (pdf-table-pages.ts). It is rendered again once, when the table stops going on (a table
  // over hundreds of pages is not rendered a page at a time).
  let previous: { markdown: PdfPageMarkdown; model: RootContent[]; joined: boolean } | undefined;
  const settle = () => {
    if (previous?.joined) previous.markdown.blocks = [...renderedBlocks(previous.model)];
  };
  const { pageCount, selected } = layOutPages(task, read, budget, ({ page, blocks: laid, needsOcr }) => {
    const model = [...laid];
    const first = model[0];
    if (first && previous && joinContinuedTable(previous.model, model)) {
      previous.joined = true;
      // The rows carried onto the table above count toward the cut as they would on their own.
      length = joinedLength(length, [...renderedBlocks([first])]);
    }
    const blocks = [...renderedBlocks(model)];
    out.push({ page, blocks, needsOcr });
    if (model.length || needsOcr) {
      settle();
      previous = model.length ? { markdown: out.at(-1) as PdfPageMarkdown, model, joined: false } : undefined;
    }
    length = joinedLength(length, [pageMarker(page), ...blocks]);
    return length > maxCharacters;
  });
  settle();
  return { pageCount, selected, pages: out };
}

export interface PdfModel {
  pageCount: number;
  pages: LaidOutPage[];
  /** The body text's size (points) and font name, as measured over the pages. */
  body: { size: number; font: string };
  /** Heading sizes in points by level (index 0: level 1). */
  headingSizes: number[];
}

/** Every selected page's blocks as the model itself, for a writer that rebuilds the document (an editable DOCX). */
export function readPdfModel(task: SelectPagesTask, read: Read, budget: number): PdfModel {
  const pages: LaidOutPage[] = [];
  const { pageCount, style } = layOutPages(
    task,
    read,
    budget,
    (page) => {
      pages.push(page);
      return false;
    },
    new PictureBudget(PICTURE_BYTES),
  );
  const headingSizes = [...style.levels].sort((a, b) => a[1] - b[1]).map(([size]) => size);
  return { pageCount, pages, body: { size: style.body, font: style.font }, headingSizes };
}
