// The one adapter between docwasm's job policy (src/jobs/policy.ts) and the worker-pool library
// (piscina): jobs enter the engine's bounded queue, run under one deadline (piscina terminates
// the worker and starts a fresh one when it fires), and a worker that asks for it — its WASM
// heap grew past src/shared/recycle.ts's thresholds — is replaced with its whole pool. Workers
// idle longer than the idle timeout stop and start again with the next job. The main side talks
// to a worker through a client typed from the worker's task map (no task names as strings).

import { Piscina } from 'piscina';
import { ApiError, isErrorCode } from '../errors.js';
import type { Task, TaskMessage, TaskOutcome } from '../../wasm/shared/task.js';
import { CancelledError, JobQueue, shuttingDownError, startDeadline, type Deadline, type JobControl } from './policy.js';

export interface EnginePoolOptions {
  /** Engine name used in messages (`pdf`, `image`, `ocr`); also names dist/wasm/<name>/worker.js. */
  name: string;
  threads: number;
  maxQueue: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** V8 heap cap per worker; WASM memory is outside it. */
  maxOldGenerationSizeMb?: number | undefined;
  workerData?: unknown;
}

/** The main side of a worker's task map: each task a typed async function. */
export type TaskClient<M> = {
  [K in keyof M]: M[K] extends Task<infer I, infer O> ? (input: I) => Promise<O> : never;
};

/** piscina's rejection of a task whose pool was destroyed before or while it ran. */
function isThreadTermination(err: unknown): boolean {
  return err instanceof Error && err.message === 'Terminating worker thread';
}

export class EnginePool<M> {
  private pool: Piscina;
  private readonly queue: JobQueue;

  constructor(private readonly options: EnginePoolOptions) {
    this.queue = new JobQueue(options.name, options.threads + options.maxQueue);
    this.pool = this.createPiscina();
  }

  /**
   * Runs `work` as one job: a place in the queue is taken first (BUSY before anything is
   * touched), then `work` gets the worker's tasks bound to the job's deadline.
   */
  job<T>(control: JobControl, work: (tasks: TaskClient<M>, deadline: Deadline) => Promise<T>): Promise<T> {
    return this.queue.hold(control, () => {
      const deadline = startDeadline(this.options.name, this.options.timeoutMs, control);
      return work(this.client(deadline), deadline);
    });
  }

  async close(): Promise<void> {
    this.queue.close();
    await this.pool.destroy();
  }

  private client(deadline: Deadline): TaskClient<M> {
    const run = (task: string) => (input: unknown) => this.run(task, input, deadline);
    return new Proxy({}, { get: (_, task) => run(String(task)) }) as TaskClient<M>;
  }

  private async run(task: string, input: unknown, deadline: Deadline): Promise<unknown> {
    if (deadline.signal.aborted) throw deadline.reason();
    const pool = this.pool;
    const message: TaskMessage = { task, input };
    let outcome: TaskOutcome<unknown>;
    try {
      outcome = await pool.run(message, { signal: deadline.signal });
    } catch (err) {
      // close() terminates the workers under running jobs: that is a shutdown, not an engine fault.
      if (this.queue.isClosed) throw shuttingDownError(this.options.name);
      // A recycled pool drops the jobs still queued in it once its running ones finish: those
      // jobs never started, so they go to the fresh pool instead of failing.
      if (pool !== this.pool && isThreadTermination(err)) return this.run(task, input, deadline);
      throw this.translate(err, deadline);
    }
    if (outcome.recycle) this.recycle(pool);
    if (outcome.ok) return outcome.value;
    throw new ApiError(isErrorCode(outcome.code) ? outcome.code : 'INTERNAL_ERROR', outcome.message);
  }

  /** Replaces the workers; running jobs finish on the old ones. */
  private recycle(expected: Piscina): void {
    if (this.queue.isClosed || expected !== this.pool) return;
    const old = this.pool;
    this.pool = this.createPiscina();
    void old.close().catch(() => undefined);
  }

  private createPiscina(): Piscina {
    const { name, threads, workerData, maxOldGenerationSizeMb, idleTimeoutMs, timeoutMs } = this.options;
    const pool = new Piscina({
      filename: new URL(`../../wasm/${name}/worker.js`, import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: idleTimeoutMs,
      // A recycled pool closes once its running jobs end; give them their whole time limit.
      closeTimeout: timeoutMs,
      workerData,
      ...(maxOldGenerationSizeMb !== undefined && { resourceLimits: { maxOldGenerationSizeMb } }),
    });
    pool.on('error', (err: unknown) => process.stderr.write(`docwasm ${name} pool: ${String(err)}\n`));
    return pool;
  }

  private translate(err: unknown, deadline: Deadline): ApiError | CancelledError {
    const e = err as { name?: string; code?: string; message?: string };
    if (e?.name === 'AbortError' || deadline.signal.aborted) return deadline.reason();
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ApiError('TOO_LARGE', `The ${this.options.name} job ran out of memory; the input is too large`);
    }
    process.stderr.write(`docwasm ${this.options.name} worker failed: ${e?.message ?? String(err)}\n`);
    return new ApiError('INTERNAL_ERROR', `The ${this.options.name} engine failed unexpectedly`);
  }
}
