// Text in images for pdf/redact: the pages whose images cover a meaningful part of them are read
// with the service's own OCR, as the `ocr` operation reads a PDF's pages (src/scans/pdf-ocr.ts,
// the request's engine), and every match of the request's strings and patterns that OCR reads
// inside an image becomes an area of that image whose pixels are blanked (grown there to whole
// characters and a margin, as a text match over an image is).

import { DEFAULT_LANGUAGE } from '../ocr/language-store.js';
import { readPdfPages } from '../scans/pdf-ocr.js';
import { selectPdfPages } from '../scans/pdf-pages.js';
import type { FileRef } from '../../core/file-ref.js';
import type { OcrLine, OcrPageLayout, PixelBox } from '../../core/ocr-layout.js';
import { findMatches, type MatchSpan, type TextMatcher } from '../../core/redact-patterns.js';
import type { OcrEngineChoice } from '../../wasm/ocr/worker.js';
import type { RedactArea } from '../../wasm/pdf/engine.js';
import { resolveEngine } from '../engines/ocr-engine.js';
import type { OperationContext } from './operation.js';

/** Pages are read as the `ocr` operation reads them by default. */
const OCR_DPI = 300;

type Rect = [number, number, number, number];

export interface ImageMatches {
  /** The pages read by OCR, ascending. */
  pages: number[];
  areas: RedactArea[];
}

export async function matchesInImages(
  context: OperationContext,
  input: FileRef,
  password: string | undefined,
  matchers: readonly TextMatcher[],
  engine: OcrEngineChoice,
): Promise<ImageMatches> {
  const { engines, config } = context;
  if (matchers.length === 0) return { pages: [], areas: [] };
  const withImages = await engines.pdf.job(context, (tasks) => tasks.pageImages({ input, password }));
  if (withImages.length === 0) return { pages: [], areas: [] };
  const codes = engines.ocr.parseLanguages(DEFAULT_LANGUAGE);
  const ranges = withImages.map(({ page }) => ({ label: String(page), first: page, last: page }));
  const selection = await selectPdfPages(engines, context, { input, password, ranges, dpi: OCR_DPI, maxPixels: config.maxPixels, maxPages: config.maxPages });
  const readings = await readPdfPages(engines, config.workers, context, {
    input,
    password,
    selection,
    dpi: OCR_DPI,
    codes,
    skipText: false,
    layout: true,
    engine: resolveEngine(engine, codes),
  });
  const areas = readings.flatMap(({ page, layout }) => {
    const images = withImages.find((found) => found.page === page)?.boxes ?? [];
    return layout ? matchBoxes(layout, matchers).flatMap((box) => insideImages(box, images).map((rect) => areaOf(page, rect))) : [];
  });
  return { pages: selection.pages, areas };
}

/** The boxes (points, page space) of every match in the lines OCR read: per line, from the first matched character to the last. */
function matchBoxes(layout: OcrPageLayout, matchers: readonly TextMatcher[]): Rect[] {
  const toPoints = 72 / OCR_DPI;
  return layout.lines.flatMap((line) => {
    const { text, starts } = lineText(line);
    return findMatches(text, matchers).flatMap((span) => {
      const pieces = line.words.flatMap((word, i) => wordPart(word.box, starts[i] as number, word.text.length, span));
      if (pieces.length === 0) return [];
      const [x0, y0, x1, y1] = [
        Math.min(...pieces.map((b) => b[0])),
        Math.min(...pieces.map((b) => b[1])),
        Math.max(...pieces.map((b) => b[2])),
        Math.max(...pieces.map((b) => b[3])),
      ];
      // The PDF worker grows it to whole characters and a margin, as the page shows them (redact/ink.ts).
      return [[x0 * toPoints, y0 * toPoints, x1 * toPoints, y1 * toPoints] as Rect];
    });
  });
}

/** A line's words joined by spaces, and where each word starts in that text. */
function lineText(line: OcrLine): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '';
  for (const word of line.words) {
    if (text !== '') text += ' ';
    starts.push(text.length);
    text += word.text;
  }
  return { text, starts };
}

/** The part of a word's box under the span, its characters taken as equally wide; nothing when the span misses the word. */
function wordPart(box: PixelBox, start: number, length: number, span: MatchSpan): PixelBox[] {
  const from = Math.max(span.start, start);
  const to = Math.min(span.end, start + length);
  if (to <= from) return [];
  const width = (box[2] - box[0]) / length;
  return [[box[0] + (from - start) * width, box[1], box[0] + (to - start) * width, box[3]]];
}

/** A match's box cut to each image it lies on: OCR also reads the page's own text, which the text search removes. */
function insideImages(box: Rect, images: readonly Rect[]): Rect[] {
  return images.flatMap((image) => {
    const cut: Rect = [Math.max(box[0], image[0]), Math.max(box[1], image[1]), Math.min(box[2], image[2]), Math.min(box[3], image[3])];
    return cut[2] > cut[0] && cut[3] > cut[1] ? [cut] : [];
  });
}

function areaOf(page: number, [x0, y0, x1, y1]: Rect): RedactArea {
  return { page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
