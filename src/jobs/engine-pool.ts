// The one adapter between docwasm's job policy (src/jobs/policy.ts) and worker threads: jobs
// enter the engine's bounded queue, run under one deadline (an abort ends the task; its thread
// is replaced), and a worker that asks for it — its WASM heap grew past core/recycle.ts's
// thresholds — is replaced. The threads themselves are the supervisor's (supervisor.ts): it
// starts them (one at first, one more for a task that finds every thread busy, up to
// `threads`), hands them to tasks, retires them when idle or when the memory budget needs room,
// and closes them. This file only says how to start, stop and health-check one thread (a
// one-thread tinypool, for its message protocol) and what a task's end means. The main side
// talks to a worker through a client typed from the worker's task map (no task names as strings).
//
// Workers start with the first job (a service that never runs OCR never loads it), one at first:
// a one-shot command pays for one worker, not one per core. A job's deadline starts once that
// worker has loaded.

import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import { ApiError, isErrorCode } from '../../core/errors.js';
import { settleWithin, startDeadline, type Deadline } from '../../core/deadline.js';
import type { PathPolicy } from '../files/paths.js';
import { withStagedOutputs, type StagedFiles } from '../files/staging.js';
import { LOAD_TASK, type Task, type TaskMessage, type TaskOutcome } from '../../core/task-protocol.js';
import { JobQueue, type JobControl } from './policy.js';
import { CancelledError } from '../../core/job-errors.js';
import { logEvent } from '../../core/log.js';
import type { MemoryBudget } from './memory-budget.js';
import { Supervisor, type Process } from './supervisor.js';

/**
 * A worker's start data. A function (a function is never cloneable workerData itself) makes it at
 * each start, for what depends on the moment (core/paddle-threads.ts: the idle cores).
 */
export type WorkerStartData = object | (() => Promise<object>);

export interface EnginePoolOptions {
  /** Engine name used in messages (`pdf`, `image`, `ocr`); also names dist/wasm/<name>/worker.js. */
  name: string;
  threads: number;
  maxQueue: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** V8 heap cap per worker; WASM memory is outside it. */
  maxOldGenerationSizeMb?: number | undefined;
  /** Handed to each worker as it starts (structured-cloned): fixed, or made at each start. */
  workerData?: WorkerStartData | undefined;
  /** The service's memory budget and what one of this pool's threads costs in it (memory-budget.ts). */
  budget?: { of: MemoryBudget; threadCostMb: number } | undefined;
}

/**
 * The main side of a worker's task map: each task a typed async function. `transfer` lists
 * buffers of the input that move to the worker (the caller loses them) instead of being copied.
 */
export type TaskClient<M> = {
  [K in keyof M]: M[K] extends Task<infer I, infer O> ? (input: I, transfer?: ArrayBuffer[]) => Promise<O> : never;
};

/** Longest a worker may take to load its engine (WASM compilation on a slow, busy machine). */
const LOAD_LIMIT_MS = 120_000;

export class EnginePool<M> {
  private readonly supervisor: Supervisor<Tinypool>;
  private readonly queue: JobQueue;

  constructor(private readonly options: EnginePoolOptions) {
    const { name, threads, maxQueue, timeoutMs, idleTimeoutMs, budget } = options;
    this.supervisor = new Supervisor(this.threadProcess(), {
      engine: name,
      label: `${name} workers`,
      size: threads,
      costMb: budget?.threadCostMb ?? 0,
      budget: budget?.of,
      idleMs: idleTimeoutMs,
      waitMs: timeoutMs,
      startFailed: () => new ApiError('INTERNAL_ERROR', `The ${name} engine could not be started`),
    });
    this.queue = new JobQueue(name, threads + maxQueue, this.supervisor.gate);
  }

  /**
   * Runs `work` as one job: a place in the queue is taken first (BUSY before anything is
   * touched), a worker is loaded, then `work` gets the worker's tasks bound to the job's
   * deadline.
   */
  job<T>(control: JobControl, work: (tasks: TaskClient<M>, deadline: Deadline) => Promise<T>): Promise<T> {
    return this.queue.hold(control, async () => {
      const end = this.supervisor.begin();
      try {
        await this.supervisor.ready(control.signal).catch((err: unknown) => {
          throw control.signal?.aborted ? new CancelledError() : err;
        });
        const deadline = startDeadline(this.options.name, this.options.timeoutMs, control);
        return await work(this.client(deadline), deadline);
      } finally {
        end();
      }
    });
  }

  /**
   * `job` for tasks that write files: once the job holds its place in the queue, each target gets
   * a staged temp file (src/files/staging.ts) that `work` hands to the worker; the files replace
   * their targets only when `work` succeeds. `[target]` gives `[file]`.
   */
  jobWriting<const T extends readonly string[], R>(
    control: JobControl,
    paths: PathPolicy,
    targets: T,
    work: (tasks: TaskClient<M>, outputs: StagedFiles<T>, deadline: Deadline) => Promise<R>,
  ): Promise<R> {
    return this.job(control, (tasks, deadline) => withStagedOutputs(paths, targets, (outputs) => work(tasks, outputs, deadline)));
  }

  close(): Promise<void> {
    return this.supervisor.close();
  }

  /** Worker threads alive now (they start with the first job, one at first). */
  get workers(): number {
    return this.supervisor.instances;
  }

  private client(deadline: Deadline): TaskClient<M> {
    const run = (task: string) => (input: unknown, transfer?: ArrayBuffer[]) => this.run(task, input, deadline, transfer);
    return new Proxy({}, { get: (_, task) => run(String(task)) }) as TaskClient<M>;
  }

  private async run(task: string, input: unknown, deadline: Deadline, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (deadline.signal.aborted) throw deadline.reason();
    const message: TaskMessage = { task, input };
    let outcome: TaskOutcome<unknown>;
    try {
      outcome = await this.supervisor.run(deadline.signal, async (thread, use) => {
        try {
          const done = (await thread.run(message, { signal: deadline.signal, ...(transfer && { transferList: transfer }) })) as TaskOutcome<unknown>;
          if (done.recycle) use.replace();
          return done;
        } catch (err) {
          // Aborted, crashed or out of memory: the thread is in doubt, a fresh one serves the next task.
          use.replace();
          throw err;
        }
      });
    } catch (err) {
      // close() terminates the workers under running jobs: that is a shutdown, not an engine fault.
      throw this.supervisor.gate.isClosed ? this.supervisor.gate.error() : this.translate(err, deadline);
    }
    if (outcome.ok) return outcome.value;
    throw new ApiError(isErrorCode(outcome.code) ? outcome.code : 'INTERNAL_ERROR', outcome.message);
  }

  /** One thread: a tinypool of one worker (its message protocol and transfer lists), loaded before it is handed out. */
  private threadProcess(): Process<Tinypool> {
    return {
      start: ({ signal }) => this.startThread(signal),
      stop: (pool) => pool.destroy().catch(() => undefined),
      healthy: (pool) => pool.threads.length > 0,
      memory: () => 'service',
    };
  }

  private async startThread(signal: AbortSignal): Promise<Tinypool> {
    const { name, workerData, maxOldGenerationSizeMb } = this.options;
    const pool = new Tinypool({
      runtime: 'worker_threads',
      filename: fileURLToPath(new URL(`../../wasm/${name}/worker.js`, import.meta.url)),
      minThreads: 1,
      maxThreads: 1,
      // A worker is kept between tasks (warm WASM); recycle.ts decides when it is replaced.
      isolateWorkers: false,
      workerData: typeof workerData === 'function' ? await workerData() : workerData,
      ...(maxOldGenerationSizeMb !== undefined && { resourceLimits: { maxOldGenerationSizeMb } }),
    });
    // A worker that dies between tasks is reported here; one that dies under a task fails that task.
    pool.on('error', (err: unknown) => logEvent(`docwasm ${name} pool: ${String(err)}`));
    const load: TaskMessage = { task: LOAD_TASK, input: null };
    try {
      await settleWithin(pool.run(load, { signal }), LOAD_LIMIT_MS, () => new Error(`the worker did not load within ${LOAD_LIMIT_MS / 1000} s`));
      return pool;
    } catch (err) {
      await pool.destroy().catch(() => undefined);
      throw err;
    }
  }

  private translate(err: unknown, deadline: Deadline): ApiError | CancelledError {
    const e = err as { name?: string; code?: string; message?: string };
    if (e?.name === 'AbortError' || deadline.signal.aborted) return deadline.reason();
    // The budget's TOO_LARGE or TIMEOUT, or the start's failure: already in the contract's words.
    if (err instanceof ApiError) return err;
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ApiError('TOO_LARGE', `The ${this.options.name} job ran out of memory; the input is too large`);
    }
    logEvent(`docwasm ${this.options.name} worker failed: ${e?.message ?? String(err)}`);
    return new ApiError('INTERNAL_ERROR', `The ${this.options.name} engine failed unexpectedly`);
  }
}
