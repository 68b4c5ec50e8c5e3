// OCR pool thread: decodes the input with the image engine's decoders, hands the pixels to a
// warm tesseract.js worker for the requested language set and tidies the text.

import { decodeImage } from '../image/decode.js';
import { readInputFile } from '../shared/io.js';
import type { FileRef } from '../../src/shared/file-ref.js';
import type { TaskDeadline } from '../../src/shared/deadline.js';
import { RECYCLE_AFTER } from '../../src/shared/recycle.js';
import { defineTask, serveTasks } from '../shared/task.js';
import { removeCjkSpaces } from './cjk-text.js';
import { greyToPnm, toPnm, type GreyImage } from './pnm.js';
import type { OcrPageLayout } from '../../src/shared/ocr-layout.js';
import { enableRelaxedSimd } from './relaxed-simd.js';
import { WarmWorkers } from './warm-workers.js';

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
}

export interface RecognizeResult {
  text: string;
  confidence: number;
  layout?: OcrPageLayout;
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
  async ({ input, codes, langPath, maxPixels, deadline, layout }: RecognizeTask): Promise<RecognizeResult> => {
    const image = await decodeImage(readInputFile(input), { maxPixels });
    return recognizePnm(toPnm(image), image, { codes, langPath, deadline, layout });
  },
  { shouldRecycle: () => workers.orphaned || grewHeap },
);

const recognizePage = defineTask(
  ({ page, ...options }: RecognizePageTask): Promise<RecognizeResult> => recognizePnm(greyToPnm(page), page, options),
  { shouldRecycle: () => workers.orphaned || grewHeap },
);

async function recognizePnm(pnm: Uint8Array, { width, height }: { width: number; height: number }, options: Omit<RecognizePageTask, 'page'>): Promise<RecognizeResult> {
  const pixels = width * height;
  grewHeap ||= pixels >= RECYCLE_AFTER.ocrImagePixels;
  const { codes, langPath, deadline, layout } = options;
  const { text, confidence, lines } = await workers.recognize(codes, langPath, pnm, pixels, deadline, layout);
  return { text: removeCjkSpaces(text), confidence: Math.round(confidence * 10) / 10, ...(lines && { layout: { width, height, lines } }) };
}

const tasks = { recognize, recognizePage };
export type OcrTasks = typeof tasks;
export default serveTasks(tasks);
