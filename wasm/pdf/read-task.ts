// The PDF worker's part of reading a PDF as Markdown: each selected page's text laid out into
// blocks (wasm/read/pdf-layout.ts), and which pages have no text and must be read with OCR.

import type { RootContent } from 'mdast';
import type { FileRef } from '../../src/shared/file-ref.js';
import type * as mupdf from 'mupdf';
import { documentBlocks, toPageRows, type PageRows } from '../read/pdf-layout.js';
import { selectPages, stextOf, withPage } from './render.js';
import { pageDrawing } from './page-drawing.js';
import { openSource, type PdfSource } from './scan-document.js';
import { checkDecompressedBudget } from './stream-budget.js';
import type { SelectPagesTask } from './scan-tasks.js';

type Read = (file: FileRef) => Uint8Array;

export interface PdfPageBlocks {
  page: number;
  blocks: RootContent[];
  /** No text layer: a scan, to be read with OCR. */
  needsOcr: boolean;
}

/** A page's rows: its structured text, and the lines it draws (tables) when it has text at all. */
function pageLayoutRows(loaded: mupdf.PDFPage): PageRows {
  const stext = stextOf(loaded);
  const hasText = stext.blocks.some((b) => b.lines?.some((l) => l.text.trim() !== ''));
  return toPageRows(stext, hasText ? pageDrawing(loaded) : undefined);
}

export function readPdfBlocks({ ranges, maxPages, ...source }: SelectPagesTask & PdfSource, read: Read, budget: number): { pageCount: number; pages: PdfPageBlocks[] } {
  const doc = openSource(source, read, (opened) => checkDecompressedBudget(opened, budget));
  const { pageCount, pages } = selectPages(doc, ranges, maxPages);
  // Each page's structured text is reduced to rows at once: a 1,000-page PDF holds rows, not JSON.
  const rows = pages.map((page) => withPage(doc, page, pageLayoutRows));
  const blocks = documentBlocks(rows);
  return {
    pageCount,
    // pageRows keeps every line with text, so a page without rows has no text layer.
    pages: pages.map((page, i) => ({ page, blocks: blocks[i] ?? [], needsOcr: (rows[i]?.rows.length ?? 0) === 0 })),
  };
}
