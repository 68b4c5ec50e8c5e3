// The PDF worker's tasks for scanned documents: page selection and sizes, rendering a page for
// OCR or to an image file, and writing a searchable PDF (the input with text layers added).
// Each takes the worker's `read`, which counts the bytes read for the recycle rule, and the
// document's budget of decompressed bytes, checked once when the document is opened.

import type { FileRef } from '../../core/file-ref.js';
import type { OutputFormat } from '../../core/image-formats.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import type { PageRange } from '../../core/page-ranges.js';
import type { GreyImage } from '../ocr/pnm.js';
import { writeOutputFile } from '../shared/io.js';
import { pageText, renderGrey, renderToFile as renderPageToFile, selectPages as selectDocumentPages, type PageSelection, type RenderedFile } from './render.js';
import { openPdf } from './mupdf-document.js';
import { openSource, type PdfSource } from './scan-document.js';
import { checkDecompressedBudget } from './stream-budget.js';
import { TextLayerWriter, type PageRect } from './text-layer.js';

type Read = (file: FileRef) => Uint8Array;

function open(source: PdfSource, read: Read, budget: number) {
  return openSource(source, read, (doc) => checkDecompressedBudget(doc, budget));
}

export interface SelectPagesTask extends PdfSource {
  /** Absent: every page. */
  ranges?: PageRange[] | undefined;
  /** More pages selected → TOO_LARGE. */
  maxPages: number;
}

export function selectPages({ ranges, maxPages, ...source }: SelectPagesTask, read: Read, budget: number): PageSelection {
  return selectDocumentPages(open(source, read, budget), ranges, maxPages);
}

export interface RenderForOcrTask extends PdfSource {
  page: number;
  dpi: number;
  /** A page that already has text is not rendered; its text is returned instead. */
  skipText: boolean;
}

export type RenderForOcrResult = { image: GreyImage } | { existingText: string };

export function renderForOcr({ page, dpi, skipText, ...source }: RenderForOcrTask, read: Read, budget: number): RenderForOcrResult {
  const doc = open(source, read, budget);
  if (skipText) {
    const existingText = pageText(doc, page);
    if (existingText !== '') return { existingText };
  }
  return { image: renderGrey(doc, page, dpi) };
}

export interface RenderToFileTask extends PdfSource {
  page: number;
  dpi: number;
  format: OutputFormat;
  quality: number;
  /** Staged temp file. */
  output: FileRef;
}

export function renderToFile({ page, dpi, format, quality, output, ...source }: RenderToFileTask, read: Read, budget: number): Promise<RenderedFile> {
  return renderPageToFile(open(source, read, budget), page, dpi, format, quality, output);
}

export interface TextLayerTask extends PdfSource {
  /** Staged temp file; may be `input` itself (it is read in full first). */
  output: FileRef;
  pages: { page: number; layout: OcrPageLayout; rect?: PageRect | undefined }[];
}

/** The input with an invisible text layer on each listed page; everything else kept as it is. */
export function addTextLayers({ output, pages, ...source }: TextLayerTask, read: Read): { pages: number } {
  const doc = openPdf(read(source.input), source.password);
  try {
    const writer = new TextLayerWriter(doc);
    for (const { page, layout, rect } of pages) writer.addToPage(page - 1, { layout, rect });
    // Appending the changes keeps every original byte, page streams and images included.
    const buffer = doc.saveToBuffer(doc.canBeSavedIncrementally() ? 'incremental' : '');
    try {
      writeOutputFile(output, buffer.asUint8Array());
    } finally {
      buffer.destroy();
    }
    return { pages: doc.countPages() };
  } finally {
    doc.destroy();
  }
}
