// The OCR pool's engines: its worker pool (wasm/ocr/worker.ts: warm tesseract.js workers per
// language set, and PP-OCR's models on onnxruntime-web, loaded once per thread) and the
// tesseract language data it is served from (src/ocr/language-store.ts). `engine` picks the
// recogniser per call (resolveEngine).

import type { EnginePool } from '../jobs/engine-pool.js';
import type { JobControl } from '../jobs/policy.js';
import type { LanguageStore } from '../ocr/language-store.js';
import { packageVersion } from '../version.js';
import { resolveEngine, type OcrEngine, type OcrOptions, type OcrReading, type OcrSource } from './ocr-engine.js';
import type { OcrTasks } from '../../wasm/ocr/worker.js';
import { ownedBuffers } from '../../core/transfer.js';

/**
 * Time kept back from a job's deadline: the pool thread answers TIMEOUT itself and stops its
 * nested tesseract.js thread, instead of being terminated with its warm workers.
 */
const deadlineMargin = (limitMs: number) => Math.min(1_000, limitMs / 10);

export class TesseractEngine implements OcrEngine {
  readonly name = 'tesseract.js';
  readonly version = packageVersion('tesseract.js');

  constructor(
    private readonly pool: EnginePool<OcrTasks>,
    private readonly store: LanguageStore,
  ) {}

  get languages(): readonly string[] {
    return this.store.codes;
  }

  parseLanguages(language: string): string[] {
    return this.store.parse(language);
  }

  recognize(source: OcrSource, { codes, layout, engine }: OcrOptions, control: JobControl): Promise<OcrReading> {
    return this.pool.job(control, async (tasks, deadline) => {
      const langPath = await this.store.prepare(codes);
      const job = { codes: [...codes], langPath, layout, engine: resolveEngine(engine, codes), deadline: deadline.forWorker(deadlineMargin(deadline.limitMs)) };
      // A rendered page's pixels move to the OCR thread: this side does not read them again.
      return 'page' in source
        ? tasks.recognizePage({ ...job, page: source.page }, ownedBuffers(source.page.pixels))
        : tasks.recognize({ ...job, input: source.image, maxPixels: source.maxPixels });
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.pool.close(), this.store.close()]);
  }
}
