// The PDF worker's part of reading a PDF as Markdown: each selected page's text laid out into
// blocks (wasm/read/pdf-layout.ts), and which pages have no text and must be read with OCR.

import type { RootContent } from 'mdast';
import type { FileRef } from '../../src/shared/file-ref.js';
import { documentBlocks } from '../read/pdf-layout.js';
import { pageStext, selectPages } from './render.js';
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

export function readPdfBlocks({ ranges, maxPages, ...source }: SelectPagesTask & PdfSource, read: Read, budget: number): { pageCount: number; pages: PdfPageBlocks[] } {
  const doc = openSource(source, read, (opened) => checkDecompressedBudget(opened, budget));
  const { pageCount, pages } = selectPages(doc, ranges, maxPages);
  const stext = pages.map((page) => pageStext(doc, page));
  const blocks = documentBlocks(stext);
  return {
    pageCount,
    pages: pages.map((page, i) => ({ page, blocks: blocks[i] ?? [], needsOcr: !(stext[i]?.blocks ?? []).some((b) => b.lines?.some((l) => l.text.trim() !== '')) })),
  };
}
