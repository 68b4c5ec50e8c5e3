// How many WebAssembly threads onnxruntime-web gets in each OCR worker for PP-OCR: the cores
// shared out among the pool's OCR workers, which may all read at once. Measured on 2 cores
// (docs/ocr-measurements.md): one page on 2 threads took 4.1 s against 6.1 s on 1 thread, but two
// workers each on 2 threads read two pages at once in 14.5 s where 1 thread each took 6.1 s —
// the threads of one model call wait for each other, so one descheduled thread stalls the call.
// So a worker gets more than one thread only when the pool cannot fill the cores without it
// (`--workers` below the core count).

/** onnxruntime-web's own default never goes above 4 threads; more is not measured here. */
const MAX_THREADS = 4;

/** What the OCR pool hands each of its workers. */
export interface OcrWorkerData {
  paddleThreads: number;
  /** Detect in bands of ≤ 0.6 MP (a lean instance: src/engines/engines.ts decides). */
  lean: boolean;
}

export function paddleThreadsPerWorker(cores: number, workers: number): number {
  return Math.min(MAX_THREADS, Math.max(1, Math.floor(cores / Math.max(1, workers))));
}
