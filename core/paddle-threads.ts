// How many WebAssembly threads onnxruntime-web gets in each OCR worker for PP-OCR: the cores
// shared out among the pool's OCR workers, which may all read at once, and of those only the
// cores the machine leaves idle when the worker starts. Measured on 2 cores
// (docs/ocr-measurements.md): one page on 2 threads took 4.1 s against 6.1 s on 1 thread, but two
// workers each on 2 threads read two pages at once in 14.5 s where 1 thread each took 6.1 s —
// the threads of one model call wait for each other, so one descheduled thread stalls the call.
// For the same reason a 2-thread worker on cores busy with other processes read the 2556 × 954
// block in 7.5–9.5 s against 3.8–6.4 s on 1 thread (issue 46, docs/ocr-engines.md).
// onnxruntime-web fixes the count once per WebAssembly instance (its global thread pool: session
// options carry no thread count on the wasm backend), so it is decided when a worker starts.

/** onnxruntime-web's own default never goes above 4 threads; more is not measured here. */
const MAX_THREADS = 4;
/**
 * Idle share of a core another process may still be using for that core to count as free: the
 * background a quiet machine keeps (a second thread waits on every model call for the core it
 * runs on, so a core busy more than this half-stalls the calls).
 */
const IDLE_SLACK = 0.2;

/** What the OCR pool hands each of its workers. */
export interface OcrWorkerData {
  paddleThreads: number;
}

/**
 * `idleCores`: cores the machine left idle just before the worker starts (e.g. 1.9 of 2), from
 * the CPU times; omitted: every core is taken as idle.
 */
export function paddleThreadsPerWorker(cores: number, workers: number, idleCores = cores): number {
  const share = Math.floor(cores / Math.max(1, workers));
  const free = Math.floor(idleCores + IDLE_SLACK);
  return Math.min(MAX_THREADS, Math.max(1, Math.min(share, free)));
}
