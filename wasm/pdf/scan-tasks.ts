// The PDF worker's tasks for scanned documents: page selection and sizes, rendering a page for
// OCR or to an image file, and writing a searchable PDF (the input with text layers added).
// Each takes the worker's `read`, which counts the bytes read for the recycle rule, and the
// document's budget of decompressed bytes, checked once when the document is opened.

import type * as mupdf from 'mupdf';
import type { FileRef } from '../../core/file-ref.js';
import type { OutputFormat } from '../../core/image-formats.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import type { PageRange } from '../../core/page-ranges.js';
import type { GreyImage } from '../ocr/pnm.js';
import { writeOutputFile } from '../shared/io.js';
import { pageText, renderGrey, renderToFile as renderPageToFile, selectPages as selectDocumentPages, type PageSelection, type RenderedFile } from './render.js';
import { openPdf } from './mupdf-document.js';
import { imageBoxes } from './redact/ink.js';
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

/**
 * An image smaller than this share of its page holds no text worth reading (a rule, a logo's
 * mark): 0.5 % of A4 is some 100 × 24 points.
 */
const MEANINGFUL_IMAGE_SHARE = 0.005;

export interface PageImages {
  page: number;
  /** Page space (points, origin top left, as the page is shown). */
  boxes: mupdf.Rect[];
}

/** The pages whose images cover a meaningful part of them, with those images' boxes. */
export type PageImagesTask = PdfSource;

export function pageImages(source: PageImagesTask, read: Read, budget: number): PageImages[] {
  const doc = open(source, read, budget);
  const found: PageImages[] = [];
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const least = (x1 - x0) * (y1 - y0) * MEANINGFUL_IMAGE_SHARE;
      const boxes = imageBoxes(page).filter(([bx0, by0, bx1, by1]) => (bx1 - bx0) * (by1 - by0) >= least);
      if (boxes.length > 0) found.push({ page: index + 1, boxes });
    } finally {
      page.destroy();
    }
  }
  return found;
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
