// OCR pool thread: decodes the input with the image engine's decoders, hands the pixels to
// PP-OCR or to a warm tesseract.js worker for the requested language set and tidies the text.
// `auto` (chosen by the caller when the languages include Chinese) reads with PP-OCR, after a
// small sample of the page's lines; a page that sample finds Latin script goes to tesseract,
// which reads it in a fraction of PP-OCR's time and knows the letters of the other requested
// languages (PP-OCR's dictionary lacks ß, ç, ñ…).

import { decodeImage, probeImage, type RgbaImage } from '../image/decode.js';
import { decodeApart } from '../image/decode-apart.js';
import { readInputFile } from '../shared/io.js';
import type { FileRef } from '../../core/file-ref.js';
import type { TaskDeadline } from '../../core/deadline.js';
import { RECYCLE_AFTER } from '../../core/recycle.js';
import { defineTask, serveTasks } from '../shared/task.js';
import { removeCjkSpaces } from '../../core/cjk-text.js';
import { greyOf, greyToPnm, toPnm, type GreyImage } from './pnm.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import { enableRelaxedSimd } from './relaxed-simd.js';
import { WarmWorkers } from './warm-workers.js';
import { readWithPaddle } from './paddle-reader.js';
import type { Raster } from './paddle/raster.js';

/** `auto` here means PP-OCR with tesseract for Latin pages; the caller resolves `auto` without Chinese to `tesseract`. */
export type OcrEngineChoice = 'auto' | 'paddle' | 'tesseract';
/** The engine that produced a page's text. */
export type OcrEngineName = 'paddle' | 'tesseract';

/**
 * A page whose sample PP-OCR reads as at least this share Latin letters (of Latin letters and
 * Han characters) goes to tesseract under `auto`. English pages sample at 1.00; Chinese pages
 * with English sentences and words at 0.67–0.72 (a line holds some 2.5 Latin letters per Han
 * character), and PP-OCR reads their English as well as tesseract does, their Chinese far better.
 */
const LATIN_PAGE_SHARE = 0.9;
/** Images of at least this many pixels are decoded in a thread of their own (A4 at 200 dpi is 3.7 MP). */
const DECODE_APART_PIXELS = 3_000_000;

export interface RecognizeTask {
  input: FileRef;
  /** Installed language codes, in priority order. */
  codes: string[];
  /** Folder holding `<code>.traineddata` for each code. */
  langPath: string;
  maxPixels: number;
  /** By when the job must be answered: just before the pool's own timeout, so the thread survives. */
  deadline: TaskDeadline;
  /** Also tell where the words are (for a searchable PDF). */
  layout?: boolean;
  engine: OcrEngineChoice;
}

export interface RecognizeResult {
  text: string;
  confidence: number;
  layout?: OcrPageLayout;
  engine: OcrEngineName;
}

/** A page the PDF worker rendered, recognised without touching the disk. */
export interface RecognizePageTask extends Omit<RecognizeTask, 'input' | 'maxPixels'> {
  page: GreyImage;
}

enableRelaxedSimd();
const workers = new WarmWorkers();
/** A large image grew this thread's decoder heap for good: ask the pool for a fresh thread. */
let grewHeap = false;

const recognize = defineTask(
  async ({ input, codes, langPath, maxPixels, deadline, layout, engine }: RecognizeTask): Promise<RecognizeResult> => {
    const { raster, pnm } = pixelsOf(await decode(readInputFile(input), maxPixels, engine));
    return recognizeImage(raster, pnm, { codes, langPath, deadline, layout, engine });
  },
  { shouldRecycle: () => workers.orphaned || grewHeap },
);

const recognizePage = defineTask(
  ({ page, ...options }: RecognizePageTask): Promise<RecognizeResult> =>
    recognizeImage({ width: page.width, height: page.height, channels: 1, data: page.pixels }, () => greyToPnm(page), options),
  { shouldRecycle: () => workers.orphaned || grewHeap },
);

/**
 * A large image PP-OCR may read is decoded in a thread of its own (decode-apart.ts), so the
 * decoder's memory does not stay beside PP-OCR's models through the read (one-shot dense A4 page
 * −60 MB) at ~0.2 s of CPU for the thread; a small image, or one only tesseract reads (its models
 * live in a thread of their own), here.
 */
function decode(bytes: Uint8Array, maxPixels: number, engine: OcrEngineChoice): Promise<RgbaImage> {
  const { width, height } = probeImage(bytes).dims;
  const apart = engine !== 'tesseract' && width * height >= DECODE_APART_PIXELS;
  return apart ? decodeApart(bytes, { maxPixels }) : decodeImage(bytes, { maxPixels });
}

/**
 * The pixels the readers get: a grey image's own grey plane, the decoded RGBA only when it is in
 * colour. Nothing here holds the RGBA of a grey image (its PNM is made from the grey plane,
 * bound, not closed over), so it is freed before the read: 35 MB for an A4 page at 300 dpi.
 */
function pixelsOf(image: RgbaImage): { raster: Raster; pnm: () => Uint8Array } {
  const grey = greyOf(image);
  if (grey) return { raster: { width: grey.width, height: grey.height, channels: 1, data: grey.pixels }, pnm: greyToPnm.bind(undefined, grey) };
  return { raster: { width: image.width, height: image.height, channels: 4, data: image.data }, pnm: toPnm.bind(undefined, image) };
}

async function recognizeImage(image: Raster, pnm: () => Uint8Array, options: Omit<RecognizePageTask, 'page'>): Promise<RecognizeResult> {
  const { width, height } = image;
  const pixels = width * height;
  grewHeap ||= pixels >= RECYCLE_AFTER.ocrImagePixels;
  const { codes, langPath, deadline, layout, engine } = options;
  if (engine !== 'tesseract') {
    const latinFallback = engine === 'auto' && codes.some((code) => !code.startsWith('chi_'));
    const read = await readWithPaddle(image, deadline, layout === true, latinFallback ? LATIN_PAGE_SHARE : undefined);
    const latinPage = latinFallback && read.latinShare >= LATIN_PAGE_SHARE;
    if (!latinPage)
      return { text: read.text, confidence: read.confidence, engine: 'paddle', ...(read.lines && { layout: { width, height, lines: read.lines } }) };
  }
  const { text, confidence, lines } = await workers.recognize(codes, langPath, pnm(), pixels, deadline, layout);
  return { text: removeCjkSpaces(text), confidence: Math.round(confidence * 10) / 10, engine: 'tesseract', ...(lines && { layout: { width, height, lines } }) };
}

const tasks = { recognize, recognizePage };
export type OcrTasks = typeof tasks;
export default serveTasks(tasks);
