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
import { pageBlocks } from '../read/pdf-layout.js';
import { StyleTally } from '../read/pdf-headings.js';
import { toPageRows } from '../read/pdf-rows.js';
import type { PageRows } from '../read/pdf-page-model.js';
import { readingRows } from '../read/pdf-reading-order.js';
import { bandKeys, RunningLines } from '../read/pdf-running-lines.js';
import { renderedBlocks } from '../read/render.js';
import { joinedLength, pageMarker } from '../../core/markdown-join.js';
import { selectPages, stextOf, withPage } from './render.js';
import { pageDrawing } from './page-drawing.js';
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
  const stext = stextOf(loaded);
  const hasText = stext.blocks.some((b) => b.lines?.some((l) => l.text.trim() !== ''));
  return toPageRows(stext, hasText ? pageDrawing(loaded) : undefined);
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
function measure(pages: readonly number[], rowsOf: (page: number) => PageRows): { running: RunningLines; style: StyleTally } {
  const running = new RunningLines(pages.length);
  const style = new StyleTally();
  const guesses: Guess[] = [];
  pages.forEach((page, index) => {
    const rows = rowsOf(page);
    const keys = bandKeys(rows);
    running.addPage(keys);
    const guessed = keys.map((k) => running.likelyRepeated(k));
    style.addPage(readingRows(rows, (k) => guessed[keys.indexOf(k)] ?? false), 1);
    if (keys.length) guesses.push({ index, keys, guessed });
  });
  for (const { index, keys, guessed } of guesses) {
    if (keys.every((k, i) => running.repeated(k) === guessed[i])) continue;
    const rows = rowsOf(pages[index] as number);
    style.addPage(readingRows(rows, (k) => guessed[keys.indexOf(k)] ?? false), -1);
    style.addPage(readingRows(rows, (k) => running.repeated(k)), 1);
  }
  return { running, style };
}

export function readPdfMarkdown({ ranges, maxPages, maxCharacters, ...source }: ReadMarkdownTask, read: Read, budget: number): PdfMarkdown {
  const doc = openSource(source, read, (opened) => checkDecompressedBudget(opened, budget));
  const { pageCount, pages } = selectPages(doc, ranges, maxPages);
  const kept = new Map<number, PageRows>();
  const extract = (page: number) => withPage(doc, page, pageLayoutRows);
  // The first pass keeps the window's rows; the second takes each page's rows once.
  const rowsOf = (page: number) => {
    const rows = kept.get(page) ?? extract(page);
    if (kept.size < WINDOW_PAGES) kept.set(page, rows);
    return rows;
  };
  const { running, style } = measure(pages, rowsOf);
  const documentStyle = style.style();
  const out: PdfPageMarkdown[] = [];
  // The length the Markdown joined so far has (as joinBlocks counts it; scans count nothing yet).
  let length = 0;
  for (const page of pages) {
    if (length > maxCharacters) break;
    const rows = kept.get(page) ?? extract(page);
    kept.delete(page);
    // Rows keep every line with text, so a page without rows has no text layer.
    const blocks = rows.rows.length === 0 ? [] : [...renderedBlocks(pageBlocks(readingRows(rows, (k) => running.repeated(k)), documentStyle))];
    out.push({ page, blocks, needsOcr: rows.rows.length === 0 });
    length = joinedLength(length, [pageMarker(page), ...blocks]);
  }
  return { pageCount, selected: pages.length, pages: out };
}
