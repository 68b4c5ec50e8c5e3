// The PDF worker's part of reading a PDF as Markdown: each selected page's text laid out into
// blocks (wasm/read/pdf-layout.ts) and rendered as Markdown here, page by page, each page's
// blocks dropped once written (a 1,000-page PDF leaves the worker as text, not as a syntax tree
// copied to the main thread and on to the reader worker); and which pages have no text and must
// be read with OCR.

import type { FileRef } from '../../src/shared/file-ref.js';
import type * as mupdf from 'mupdf';
import { documentBlocks, toPageRows, type PageRows } from '../read/pdf-layout.js';
import { renderedBlocks } from '../read/render.js';
import { selectPages, stextOf, withPage } from './render.js';
import { pageDrawing } from './page-drawing.js';
import { openSource, type PdfSource } from './scan-document.js';
import { checkDecompressedBudget } from './stream-budget.js';
import type { SelectPagesTask } from './scan-tasks.js';

type Read = (file: FileRef) => Uint8Array;

export interface PdfPageMarkdown {
  page: number;
  /** The Markdown of each of the page's blocks. */
  blocks: string[];
  /** No text layer: a scan, to be read with OCR. */
  needsOcr: boolean;
}

/** A page's rows: its structured text, and the lines it draws (tables) when it has text at all. */
function pageLayoutRows(loaded: mupdf.PDFPage): PageRows {
  const stext = stextOf(loaded);
  const hasText = stext.blocks.some((b) => b.lines?.some((l) => l.text.trim() !== ''));
  return toPageRows(stext, hasText ? pageDrawing(loaded) : undefined);
}

export function readPdfMarkdown({ ranges, maxPages, ...source }: SelectPagesTask & PdfSource, read: Read, budget: number): { pageCount: number; pages: PdfPageMarkdown[] } {
  const doc = openSource(source, read, (opened) => checkDecompressedBudget(opened, budget));
  const { pageCount, pages } = selectPages(doc, ranges, maxPages);
  // Each page's structured text is reduced to rows at once: a 1,000-page PDF holds rows, not JSON.
  const rows = pages.map((page) => withPage(doc, page, pageLayoutRows));
  const blocks = documentBlocks(rows);
  // pageRows keeps every line with text, so a page without rows has no text layer.
  const textless = rows.map((page) => page.rows.length === 0);
  rows.length = 0; // laid out: the rows can go before the pages are written
  return {
    pageCount,
    pages: pages.map((page, i) => {
      const markdown = [...renderedBlocks(blocks[i] ?? [])];
      blocks[i] = []; // written: the page's syntax tree can go
      return { page, blocks: markdown, needsOcr: textless[i] ?? false };
    }),
  };
}
