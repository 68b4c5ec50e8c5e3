// The one adapter between docwasm's policy and piscina: a bounded queue (BUSY + Retry-After),
// per-job timeouts (TIMEOUT; piscina terminates the worker and starts a fresh one), memory
// limits per worker, and recycling of a whole pool after a job that grew WASM memory (a WASM
// heap never shrinks, so only a new worker gives it back).

import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { ApiError, isErrorCode } from '../errors.js';
import { withStagedOutputs } from '../files/atomic.js';
import { workerFile } from './worker-file.js';
import type { TaskOutcome } from '../../wasm/shared/task.js';

export interface EnginePoolOptions {
  /** Engine name used in messages (`pdf`, `image`, `ocr`). */
  name: string;
  workerFile: URL;
  threads: number;
  maxQueue: number;
  timeoutMs: number;
  /** V8 heap cap per worker; WASM memory is outside it. */
  maxOldGenerationSizeMb?: number;
  workerData?: unknown;
}

export interface RunOptions {
  timeoutMs?: number;
  /** The job is known to be heavy: replace the workers once it is done. */
  recycleAfter?: boolean;
}

/**
 * The V8 heap cap of a worker: the engine's own, lowered by DOCWASM_WORKER_HEAP_MB when set (for
 * machines with little memory, and so the reliability suite can make a worker run out of memory).
 */
function heapLimitMb(engineCapMb: number | undefined): number | undefined {
  const raw = process.env.DOCWASM_WORKER_HEAP_MB;
  const envCapMb = Number(raw);
  if (raw === undefined || !Number.isInteger(envCapMb) || envCapMb <= 0) return engineCapMb;
  return engineCapMb === undefined ? envCapMb : Math.min(envCapMb, engineCapMb);
}

/** piscina's rejection of a task whose pool was destroyed before or while it ran. */
function isThreadTermination(err: unknown): boolean {
  return err instanceof Error && err.message === 'Terminating worker thread';
}

/** A pool for `dist/wasm/<name>/worker.js`, sized and limited by the service configuration. */
export function createEnginePool(config: Config, name: string, extra: Pick<EnginePoolOptions, 'maxOldGenerationSizeMb' | 'workerData'> = {}): EnginePool {
  return new EnginePool({
    name,
    workerFile: workerFile(name),
    threads: config.workers,
    maxQueue: config.queueLimit,
    timeoutMs: config.timeoutMs,
    ...extra,
  });
}

export class EnginePool {
  private pool: Piscina;
  private readonly options: EnginePoolOptions;
  private closed = false;

  constructor(options: EnginePoolOptions) {
    this.options = options;
    this.pool = this.createPiscina();
  }

  /** Throws BUSY when a job submitted now would be refused; call it before preparing a job. */
  assertCapacity(): void {
    if (this.closed) throw this.shuttingDown();
    if (this.pool.queueSize >= this.options.maxQueue) throw this.busy();
  }

  /**
   * Runs a task that writes files: outputs are staged (src/files/atomic.ts) and committed only when
   * the task succeeds. Capacity is checked first, so a refused job touches no file.
   */
  async runToOutputs<I, O>(task: string, finalPaths: readonly string[], buildInput: (tempPaths: string[]) => I, runOptions: RunOptions = {}): Promise<O> {
    this.assertCapacity();
    return withStagedOutputs(finalPaths, (tempPaths) => this.run<I, O>(task, buildInput(tempPaths), runOptions));
  }

  /** Runs `task` (an export of the worker module) and unwraps its outcome. */
  async run<I, O>(task: string, input: I, runOptions: RunOptions = {}): Promise<O> {
    this.assertCapacity();
    const timeoutMs = runOptions.timeoutMs ?? this.options.timeoutMs;
    const pool = this.pool;
    let outcome: TaskOutcome<O> & { recycle?: boolean };
    try {
      outcome = await pool.run(input, { name: task, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      // close() terminates the workers under running jobs: that is a shutdown, not an engine fault.
      if (this.closed) throw this.shuttingDown();
      // A recycled pool drops the jobs still queued in it once its running ones finish: those
      // jobs never started, so they go to the fresh pool instead of failing.
      if (pool !== this.pool && isThreadTermination(err)) return this.run(task, input, runOptions);
      throw this.translate(err, timeoutMs);
    }
    if (runOptions.recycleAfter || outcome.recycle) this.recycle(pool);
    if (outcome.ok) return outcome.value;
    throw new ApiError(isErrorCode(outcome.code) ? outcome.code : 'INTERNAL_ERROR', outcome.message);
  }

  get threads(): number {
    return this.options.threads;
  }

  /** Replaces the workers; running jobs finish on the old ones. */
  recycle(expected: Piscina = this.pool): void {
    if (this.closed || expected !== this.pool) return;
    const old = this.pool;
    this.pool = this.createPiscina();
    void old.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }

  private createPiscina(): Piscina {
    const { threads, maxQueue, workerFile, workerData } = this.options;
    const maxOldGenerationSizeMb = heapLimitMb(this.options.maxOldGenerationSizeMb);
    const pool = new Piscina({
      filename: workerFile.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      // A recycled pool closes once its running jobs end; give them their whole time limit.
      closeTimeout: this.options.timeoutMs,
      maxQueue,
      workerData,
      ...(maxOldGenerationSizeMb !== undefined && { resourceLimits: { maxOldGenerationSizeMb } }),
    });
    pool.on('error', (err: unknown) => process.stderr.write(`docwasm ${this.options.name} pool: ${String(err)}\n`));
    return pool;
  }

  private shuttingDown(): ApiError {
    return new ApiError('BUSY', `The service is shutting down; the ${this.options.name} job was not finished`);
  }

  private busy(): ApiError {
    return new ApiError('BUSY', `The ${this.options.name} queue is full; retry later`);
  }

  private translate(err: unknown, timeoutMs: number): ApiError {
    const e = err as { name?: string; code?: string; message?: string };
    if (e?.name === 'AbortError') {
      return new ApiError('TIMEOUT', `The ${this.options.name} job ran longer than ${timeoutMs / 1000} s and was stopped`);
    }
    if (e?.message?.includes('queue is at limit')) return this.busy();
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ApiError('TOO_LARGE', `The ${this.options.name} job ran out of memory; the input is too large`);
    }
    process.stderr.write(`docwasm ${this.options.name} worker failed: ${e?.message ?? String(err)}\n`);
    return new ApiError('INTERNAL_ERROR', `The ${this.options.name} engine failed unexpectedly`);
  }
}
