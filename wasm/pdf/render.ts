// Rendering PDF pages with mupdf: grey pixels for OCR, or an image file per page whose
// encoding is the image engine's (jSquash, imported here so that an image file's pixels never
// cross threads; the grey pixels for OCR do, to the OCR worker).

import * as mupdf from 'mupdf';
import { ApiError } from '../../core/errors.js';
import { checkRangesWithin, type PageRange } from '../../core/page-ranges.js';
import type { OutputFormat } from '../../core/image-formats.js';
import type { RgbaImage } from '../image/rgba.js';
import type { GreyImage } from '../ocr/pnm.js';
import type { FileRef } from '../../core/file-ref.js';
import { writeOutputFile } from '../shared/io.js';
import type { StextPage } from '../read/pdf-page-model.js';
import type { Line } from '../read/pdf-grid.js';
import { mayHoldCells, pageTextOf, PieceCollector, placedChar } from '../read/pdf-pieces.js';
import { BOLD_FONT_NAME, ITALIC_FONT_NAME, MONOSPACE } from '../read/blocks.js';
import { emboldenedType3Names, pageFonts } from './synthetic-bold.js';
import { putRightToLeftInOrder } from './right-to-left-lines.js';

export interface PageSize {
  /** Points, as the page is shown (rotation and crop box applied). */
  width: number;
  height: number;
}

export interface PageSelection {
  pageCount: number;
  /** Page numbers (1-based) of the ranges, in order, each once. */
  pages: number[];
  sizes: PageSize[];
}

/**
 * Checks `ranges` (all pages when absent) against the document and measures those pages; more
 * than `maxPages` of them → TOO_LARGE before any is measured (loading 200,000 pages took a minute).
 */
export function selectPages(doc: mupdf.PDFDocument, ranges: readonly PageRange[] | undefined, maxPages: number): PageSelection {
  const pageCount = doc.countPages();
  if (ranges) checkRangesWithin(ranges, pageCount);
  const listed = ranges
    ? ranges.flatMap(({ first, last }) => Array.from({ length: last - first + 1 }, (_, i) => first + i))
    : Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = [...new Set(listed)];
  if (pages.length > maxPages) {
    throw new ApiError(
      'TOO_LARGE',
      `${pages.length} pages asked for; the budget is ${maxPages} pages per document (--max-pages; or ask for fewer with "pages")`,
    );
  }
  return { pageCount, pages, sizes: pages.map((page) => pageSize(doc, page)) };
}

function pageSize(doc: mupdf.PDFDocument, page: number): PageSize {
  return withPage(doc, page, (loaded) => {
    const [x0, y0, x1, y1] = loaded.getBounds();
    return { width: x1 - x0, height: y1 - y0 };
  });
}

/** The page in grey at `dpi`, one byte per pixel: tesseract reads grey, and it is a third of RGB. */
export function renderGrey(doc: mupdf.PDFDocument, page: number, dpi: number): GreyImage {
  return withPixmap(doc, page, dpi, mupdf.ColorSpace.DeviceGray, (pixmap) => ({
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    pixels: new Uint8Array(pixmap.getPixels()),
  }));
}

/** The text mupdf finds on the page (empty for a scan without a text layer). */
export function pageText(doc: mupdf.PDFDocument, page: number): string {
  return withPage(doc, page, (loaded) => {
    const text = loaded.toStructuredText('preserve-whitespace');
    try {
      return text.asText().trim();
    } finally {
      text.destroy();
    }
  });
}

/**
 * The names of the page's Type 3 fonts that are a face it embeds drawn bold (synthetic-bold.ts),
 * its lines in them marked bold; looked up only when a line is set in a Type 3 font.
 */
function emboldenedFonts(loaded: mupdf.PDFPage, blocks: StextPage['blocks']): Set<string> {
  const lines = blocks.flatMap((b) => b.lines ?? []);
  if (!lines.some((l) => l.font.name?.startsWith('Type3 ('))) return new Set();
  const names = emboldenedType3Names(pageFonts(loaded));
  for (const line of lines) if (names.has(line.font.name ?? '')) line.font.weight = 'bold';
  return names;
}

/**
 * mupdf's structured text of a loaded page, walked character by character so that a line is cut
 * where its glyphs stand apart (pdf-pieces.ts: borderless table cells) or a vertical ruling stands
 * between them (`walls`, asked for only when the page is walked), and its size.
 */
export function stextOf(loaded: mupdf.PDFPage, walls: () => readonly Line[] = () => []): StextPage {
  const [x0, y0, x1, y1] = loaded.getBounds();
  const json = loaded.toStructuredText('preserve-whitespace');
  let blocks: StextPage['blocks'];
  try {
    blocks = (JSON.parse(json.asJSON()) as { blocks: StextPage['blocks'] }).blocks;
  } finally {
    json.destroy();
  }
  const emboldened = emboldenedFonts(loaded, blocks);
  if (!mayHoldCells(blocks)) {
    putRightToLeftInOrder(loaded, blocks);
    return { width: x1 - x0, height: y1 - y0, blocks };
  }
  // mupdf's own spaces would fill the gap between two cells: the pieces write the word spaces.
  const text = loaded.toStructuredText('preserve-whitespace,inhibit-spaces');
  try {
    const collector = new PieceCollector(pageTextOf(blocks), walls());
    // A Font object per character: its facts are read once per font.
    const fonts = new Map<unknown, { font: string; bold: boolean; mono: boolean; italic: boolean }>();
    const fontFacts = (font: mupdf.Font) => {
      let facts = fonts.get(font.pointer);
      if (!facts) {
        const name = font.getName();
        facts = {
          font: name,
          bold: font.isBold() || BOLD_FONT_NAME.test(name) || emboldened.has(name),
          mono: font.isMono() || MONOSPACE.test(name),
          italic: font.isItalic() || ITALIC_FONT_NAME.test(name),
        };
        fonts.set(font.pointer, facts);
      }
      return facts;
    };
    text.walk({
      beginTextBlock: () => collector.beginTextBlock(),
      endTextBlock: () => collector.endTextBlock(),
      beginLine: (_bbox, wmode) => collector.beginLine(wmode),
      endLine: () => collector.endLine(),
      onImageBlock: () => collector.onImageBlock(),
      onChar: (c, origin, font, size, quad) => {
        const facts = fontFacts(font);
        // Released now, not by a finalizer: one wrapper per character would pile up on a small heap.
        font.destroy();
        collector.onChar(placedChar(c, origin, size, quad, facts));
      },
    });
    return { width: x1 - x0, height: y1 - y0, blocks: collector.blocks };
  } finally {
    text.destroy();
  }
}

export interface RenderedFile {
  width: number;
  height: number;
  bytes: number;
}

/** Renders the page in colour at `dpi`, encodes it as `format` and writes it to `output`. */
export async function renderToFile(
  doc: mupdf.PDFDocument,
  page: number,
  dpi: number,
  format: OutputFormat,
  quality: number,
  output: FileRef,
): Promise<RenderedFile> {
  const image = withPixmap(doc, page, dpi, mupdf.ColorSpace.DeviceRGB, rgbaOf);
  // Loaded on first use: the codecs' modules cost a PDF worker ~0.1 s to load, which a merge or
  // any task but rendering to an image file never needs.
  const { encodeImage } = await import('../image/encode.js');
  const encoded = await encodeImage(image, format, { quality, goal: 'speed' });
  writeOutputFile(output, encoded);
  return { width: image.width, height: image.height, bytes: encoded.length };
}

/** RGB samples to opaque RGBA, one 32-bit store per pixel (a loop of byte stores took 5× as long). */
function rgbaOf(pixmap: mupdf.Pixmap): RgbaImage {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const rgb = pixmap.getPixels();
  const data = new Uint8ClampedArray(width * height * 4);
  const words = new Uint32Array(data.buffer);
  const opaque = littleEndian ? 0xff000000 : 0xff;
  for (let s = 0, d = 0; d < words.length; s += 3, d++) {
    const r = rgb[s] as number;
    const g = rgb[s + 1] as number;
    const b = rgb[s + 2] as number;
    words[d] = littleEndian ? (opaque | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | opaque) >>> 0;
  }
  return { data, width, height };
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function withPixmap<T>(doc: mupdf.PDFDocument, page: number, dpi: number, colorspace: mupdf.ColorSpace, use: (pixmap: mupdf.Pixmap) => T): T {
  return withPage(doc, page, (loaded) => {
    const zoom = dpi / 72;
    // Annotations are drawn, as a viewer shows the page.
    const pixmap = loaded.toPixmap(mupdf.Matrix.scale(zoom, zoom), colorspace, false, true);
    try {
      return use(pixmap);
    } finally {
      pixmap.destroy();
    }
  });
}

export function withPage<T>(doc: mupdf.PDFDocument, page: number, use: (loaded: mupdf.PDFPage) => T): T {
  if (page < 1 || page > doc.countPages()) throw new ApiError('INVALID_PAGE_RANGE', `Page ${page} is beyond the last page (${doc.countPages()})`);
  const loaded = doc.loadPage(page - 1);
  try {
    return use(loaded);
  } finally {
    loaded.destroy();
  }
}
