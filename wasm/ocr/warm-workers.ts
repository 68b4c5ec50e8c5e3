// Warm tesseract.js workers inside one OCR pool thread, one per language set, at most
// MAX_WARM of them (least recently used goes first). tesseract.js runs each in a nested
// worker thread whose WASM memory only grows, so each worker has a recycle meter
// (core/recycle.ts): it is retired after RECYCLE_AFTER.ocrJobs jobs, after a very large
// image, after a failed job, or when the process grows past RECYCLE_AFTER.ocrRssBytes.
// Creation and recognition are held to the job's deadline (core/deadline.ts); a
// tesseract.js worker that cannot be reached any more (creation that never settled) marks this
// thread for replacement.

import tesseract from 'tesseract.js';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { ApiError } from '../../core/errors.js';
import { atMost, raceDeadline, type TaskDeadline } from '../../core/deadline.js';
import { RECYCLE_AFTER, RecycleMeter } from '../../core/recycle.js';
import type { OcrLine } from '../../core/ocr-layout.js';
import { layoutLines } from './layout.js';

const MAX_WARM = 2;
const CREATE_TIMEOUT_MS = 60_000;

const RECYCLE_LIMITS = { jobs: RECYCLE_AFTER.ocrJobs, jobSize: RECYCLE_AFTER.ocrImagePixels, rssBytes: RECYCLE_AFTER.ocrRssBytes };

interface Warm {
  worker: tesseract.Worker;
  recycle: RecycleMeter;
  /** Rejects the job in flight when the nested thread dies. */
  onCrash?: (err: Error) => void;
}

export interface Recognition {
  text: string;
  confidence: number;
  /** Where the words are, when asked for (a searchable PDF needs it). */
  lines?: OcrLine[];
}

export class WarmWorkers {
  private readonly warm = new Map<string, Warm>();
  /** A nested thread may be running out of our reach: only replacing this thread frees it. */
  orphaned = false;

  async recognize(
    codes: readonly string[],
    langPath: string,
    image: Uint8Array,
    pixels: number,
    deadline: TaskDeadline,
    withLayout = false,
  ): Promise<Recognition> {
    const key = codes.join('+');
    const warm = await this.acquire(key, langPath, deadline);
    let failed = false;
    try {
      const result = await raceDeadline(
        new Promise<tesseract.RecognizeResult>((resolve, reject) => {
          warm.onCrash = reject;
          warm.worker.recognize(image, {}, { text: true, blocks: withLayout }).then(resolve, (err: unknown) => reject(recognitionError(err)));
        }),
        deadline,
        'recognising text',
      );
      const { text, confidence, blocks } = result.data;
      return { text, confidence, ...(withLayout && { lines: layoutLines(blocks) }) };
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      warm.onCrash = undefined;
      if (warm.recycle.record({ size: pixels, failed })) void this.retire(key);
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.warm.keys()].map((key) => this.retire(key)));
  }

  private async acquire(key: string, langPath: string, deadline: TaskDeadline): Promise<Warm> {
    const existing = this.warm.get(key);
    if (existing) {
      this.warm.delete(key);
      this.warm.set(key, existing);
      return existing;
    }
    while (this.warm.size >= MAX_WARM) await this.retire(this.warm.keys().next().value as string);
    const warm: Warm = { worker: await this.create(key, langPath, deadline), recycle: new RecycleMeter(RECYCLE_LIMITS) };
    watchNestedThread(warm, () => this.warm.get(key) === warm && this.warm.delete(key));
    this.warm.set(key, warm);
    return warm;
  }

  private create(key: string, langPath: string, deadline: TaskDeadline): Promise<tesseract.Worker> {
    let settled = false;
    // Until createWorker resolves there is no handle to terminate its thread with.
    const created = new Promise<tesseract.Worker>((resolve, reject) => {
      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        this.orphaned = true;
        reject(new ApiError('UNSUPPORTED_LANGUAGE', `OCR language data for ${key} could not be loaded: ${message}`));
      };
      tesseract
        .createWorker(key, tesseract.OEM.LSTM_ONLY, {
          langPath,
          gzip: false,
          cacheMethod: 'none',
          // Without it a failed job throws inside a message handler and takes the process down.
          errorHandler: (err: unknown) => fail(String(err)),
        })
        .then(
          (worker) => {
            if (settled) return void worker.terminate();
            settled = true;
            resolve(worker);
          },
          (err: unknown) => fail(String(err)),
        );
    });
    return raceDeadline(created, atMost(deadline, CREATE_TIMEOUT_MS), 'starting the OCR engine').catch((err: unknown) => {
      settled = true;
      if (err instanceof ApiError && err.code === 'TIMEOUT') this.orphaned = true;
      throw err;
    });
  }

  private async retire(key: string): Promise<void> {
    const warm = this.warm.get(key);
    if (!warm) return;
    this.warm.delete(key);
    await warm.worker.terminate().catch(() => undefined);
  }
}

/** tesseract.js sets `onerror` on a Node Worker, which Node never calls; listen properly. */
function watchNestedThread(warm: Warm, forget: () => void): void {
  const thread = (warm.worker as unknown as { worker?: NodeWorker }).worker;
  const crashed = (why: string) => {
    forget();
    warm.onCrash?.(new ApiError('INVALID_INPUT', `The OCR engine failed on this image (${why})`));
  };
  thread?.on('error', (err: Error) => crashed(err.message));
  thread?.on('exit', (code) => crashed(`exit ${code}`));
}

function recognitionError(err: unknown): ApiError {
  const detail = String(err).slice(0, 200);
  // Emscripten's abort when the 32-bit WASM heap cannot grow any further.
  if (/\bOOM\b|enlarge memory|out of memory/i.test(detail)) {
    return new ApiError('TOO_LARGE', "The image is too large for the OCR engine's memory; scale it down or split it");
  }
  return new ApiError('INVALID_INPUT', `The image could not be read by the OCR engine (${detail})`);
}
