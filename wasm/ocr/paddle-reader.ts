// PP-OCR inside an OCR pool thread: the models are loaded on the first page this thread
// reads and kept for the thread's life (the pool retires idle or grown threads); each page is
// read within the job's deadline, checked between model calls.

import { ApiError } from '../../core/errors.js';
import type { OcrLine } from '../../core/ocr-layout.js';
import { loadModels, type PaddleModels } from './paddle/models.js';
import { layoutLines, pageText, readingOrder } from './paddle/page-text.js';
import type { Raster } from './paddle/raster.js';
import { readPage, SYSTEM_DEFAULTS, type PageLine } from './paddle/system.js';
import { checkDeadline, type TaskDeadline } from '../../core/deadline.js';

export interface PaddleReading {
  text: string;
  /** Mean character confidence, 0–100 (tesseract's scale). */
  confidence: number;
  lines?: OcrLine[];
  /** Share of the letters read that are Latin script (0–1). */
  latinShare: number;
}

let models: Promise<PaddleModels> | undefined;

/**
 * Reads a page with PP-OCR. With `latinCutoff`, a page whose sample (paddle/sample.ts: the
 * beginnings of lines spread over the page, found at a third of the scale) is at least that share Latin letters is abandoned (latinShare 1, no text):
 * tesseract will read it.
 */
export async function readWithPaddle(image: Raster, deadline: TaskDeadline, withLayout: boolean, latinCutoff?: number): Promise<PaddleReading> {
  const checkpoint = () => checkDeadline(deadline, 'recognising text');
  models ??= loadModels().catch((err: unknown) => {
    models = undefined;
    throw new ApiError('INTERNAL_ERROR', `The PP-OCR models could not be loaded: ${String(err).slice(0, 200)}`);
  });
  const abandonAfterSample =
    latinCutoff === undefined ? undefined : (sample: readonly { text: string }[]) => latinShare(sample.map((line) => line.text).join('')) >= latinCutoff;
  const { lines, abandoned } = await readPage(await models, image, { ...SYSTEM_DEFAULTS, checkpoint, abandonAfterSample });
  if (abandoned) return { text: '', confidence: 0, latinShare: 1 };
  const paragraphs = readingOrder(lines);
  const text = pageText(paragraphs);
  return { text, confidence: meanConfidence(lines), latinShare: latinShare(text), ...(withLayout && { lines: layoutLines(paragraphs) }) };
}

function meanConfidence(lines: readonly PageLine[]): number {
  let weighted = 0;
  let count = 0;
  for (const line of lines) {
    weighted += line.confidence * line.chars.length;
    count += line.chars.length;
  }
  return count === 0 ? 0 : Math.round((1000 * weighted) / count) / 10;
}

/** Latin letters over Latin letters and Han characters. */
export function latinShare(text: string): number {
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  return latin + han === 0 ? 0 : latin / (latin + han);
}
