// OCR pool thread: decodes the input with the image engine's decoders, hands the pixels to a
// warm tesseract.js worker for the requested language set and tidies the text.

import { decodeImage } from '../image/decode.js';
import { readInputFile } from '../shared/io.js';
import type { FileRef } from '../../src/shared/file-ref.js';
import { RECYCLE_AFTER } from '../../src/shared/recycle.js';
import { defineTask, serveTasks } from '../shared/task.js';
import { removeCjkSpaces } from './cjk-text.js';
import { toPnm } from './pnm.js';
import { enableRelaxedSimd } from './relaxed-simd.js';
import { WarmWorkers, type Deadline } from './warm-workers.js';

export interface RecognizeTask {
  input: FileRef;
  /** Installed language codes, in priority order. */
  codes: string[];
  /** Folder holding `<code>.traineddata` for each code. */
  langPath: string;
  maxPixels: number;
  /** By when the job must be answered: just before the pool's own timeout, so the thread survives. */
  deadline: Deadline;
}

export interface RecognizeResult {
  text: string;
  confidence: number;
}

enableRelaxedSimd();
const workers = new WarmWorkers();
/** A large image grew this thread's decoder heap for good: ask the pool for a fresh thread. */
let grewHeap = false;

const recognize = defineTask(
  async ({ input, codes, langPath, maxPixels, deadline }: RecognizeTask): Promise<RecognizeResult> => {
    const image = await decodeImage(readInputFile(input), { maxPixels });
    const pixels = image.width * image.height;
    grewHeap ||= pixels >= RECYCLE_AFTER.ocrImagePixels;
    const { text, confidence } = await workers.recognize(codes, langPath, toPnm(image), pixels, deadline);
    return { text: removeCjkSpaces(text), confidence: Math.round(confidence * 10) / 10 };
  },
  { shouldRecycle: () => workers.orphaned || grewHeap },
);

const tasks = { recognize };
export type OcrTasks = typeof tasks;
export default serveTasks(tasks);
