// The one adapter between docwasm's job policy (src/jobs/policy.ts) and the worker-pool library
// (tinypool, pure JS): jobs enter the engine's bounded queue, run under one deadline (an abort
// terminates the worker; the next task starts a fresh one), and a worker that asks for it — its
// WASM heap grew past core/recycle.ts's thresholds — is replaced with its whole pool.
// Idle retirement (idle-retirement.ts) stops the workers after the idle timeout without a job;
// the shutdown gate (shutdown-gate.ts) turns work cut off by close() into BUSY. The main side
// talks to a worker through a client typed from the worker's task map (no task names as strings).
//
// Tasks wait for a thread here, not in tinypool's queue: tinypool starts no worker for queued
// tasks when a worker leaves (abort, crash), so they would sit until the next submission.
//
// Workers start with the first job (a service that never runs OCR never loads it), one at first:
// a one-shot command pays for one worker, not one per core. A job's deadline starts once that
// worker has loaded; a task that finds every worker busy makes tinypool start one more.

import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import { ApiError, isErrorCode } from '../../core/errors.js';
import type { PathPolicy } from '../files/paths.js';
import { withStagedOutputs, type StagedFiles } from '../files/staging.js';
import { LOAD_TASK, type Task, type TaskMessage, type TaskOutcome } from '../../core/task-protocol.js';
import { IdleRetirement } from './idle-retirement.js';
import { CancelledError, JobQueue, startDeadline, type Deadline, type JobControl } from './policy.js';
import { logEvent } from '../../core/log.js';
import { logEngineRetired, logEngineStarted } from './engine-events.js';
import type { MemoryBudget } from './memory-budget.js';
import { WaitLine } from './wait-line.js';

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

/** One tinypool and the tasks running on it; a recycled generation ends once they finish. */
interface Generation {
  pool: Tinypool;
  running: number;
  retired: boolean;
  /** Settles once the first worker has loaded its module. */
  loaded?: Promise<void>;
}

/** Longest a worker may take to load its engine (WASM compilation on a slow, busy machine). */
const LOAD_LIMIT_MS = 120_000;

export class EnginePool<M> {
  private generation: Generation | undefined;
  private readonly generations = new Set<Generation>();
  private readonly queue: JobQueue;
  private readonly threads: ThreadGate;
  private readonly idle: IdleRetirement;
  private readonly budgeted: { used(): void; changed(): void } | undefined;

  constructor(private readonly options: EnginePoolOptions) {
    this.queue = new JobQueue(options.name, options.threads + options.maxQueue);
    this.threads = new ThreadGate(options.threads);
    this.idle = new IdleRetirement(options.idleTimeoutMs, (idleMs) => this.stopIdleWorkers(idleMs));
    this.budgeted = options.budget?.of.register({
      engine: options.name,
      costMb: options.budget.threadCostMb,
      instances: () => this.workers,
      busy: () => this.idle.running > 0,
      retire: () => this.stopWorkers(),
      state: () => (this.workers === 0 ? 'idle' : this.idle.running > 0 ? 'busy' : 'ready'),
    });
  }

  /**
   * Runs `work` as one job: a place in the queue is taken first (BUSY before anything is
   * touched), the workers are loaded, then `work` gets the worker's tasks bound to the job's
   * deadline.
   */
  job<T>(control: JobControl, work: (tasks: TaskClient<M>, deadline: Deadline) => Promise<T>): Promise<T> {
    return this.queue.hold(control, async () => {
      const end = this.idle.begin();
      this.budgeted?.used();
      try {
        // A job that will make the pool start a thread asks the memory budget first (its wait counts against --timeout).
        if (this.startsAThread()) await this.options.budget?.of.admit(this.options.name, control, this.options.timeoutMs);
        await this.loaded(control);
        const deadline = startDeadline(this.options.name, this.options.timeoutMs, control);
        return await work(this.client(deadline), deadline);
      } finally {
        end();
        this.budgeted?.changed();
      }
    });
  }

  /** No thread yet, or every thread busy with fewer than the pool may have: this job makes tinypool start one. */
  private startsAThread(): boolean {
    const workers = this.workers;
    return workers === 0 || (workers < this.options.threads && this.idle.running > workers);
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

  async close(): Promise<void> {
    this.idle.close();
    this.queue.close();
    this.threads.close(this.queue.gate.error());
    await Promise.all([...this.generations].map((g) => g.pool.destroy()));
    this.generations.clear();
  }

  /** Worker threads alive now (they start with the first job, one at first). */
  get workers(): number {
    return [...this.generations].reduce((sum, g) => sum + g.pool.threads.length, 0);
  }

  private client(deadline: Deadline): TaskClient<M> {
    const run = (task: string) => (input: unknown, transfer?: ArrayBuffer[]) => this.run(task, input, deadline, transfer);
    return new Proxy({}, { get: (_, task) => run(String(task)) }) as TaskClient<M>;
  }

  private async run(task: string, input: unknown, deadline: Deadline, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (deadline.signal.aborted) throw deadline.reason();
    const leave = await this.threads.enter(deadline.signal).catch((err: unknown) => {
      throw err instanceof ApiError ? err : deadline.reason();
    });
    this.generation ??= this.startGeneration();
    const generation = this.generation;
    generation.running += 1;
    let outcome: TaskOutcome<unknown>;
    try {
      const message: TaskMessage = { task, input };
      outcome = (await generation.pool.run(message, { signal: deadline.signal, ...(transfer && { transferList: transfer }) })) as TaskOutcome<unknown>;
      if (outcome.recycle) this.retire(generation);
    } catch (err) {
      // close() terminates the workers under running jobs: that is a shutdown, not an engine fault.
      throw this.queue.isClosed ? this.queue.gate.error() : this.translate(err, deadline);
    } finally {
      generation.running -= 1;
      leave();
      this.endIfDrained(generation);
    }
    if (outcome.ok) return outcome.value;
    throw new ApiError(isErrorCode(outcome.code) ? outcome.code : 'INTERNAL_ERROR', outcome.message);
  }

  /** Starts the first worker if none runs, and waits until it has loaded its engine. */
  private async loaded(control: JobControl): Promise<void> {
    // Removed once loaded: many jobs share one signal (a document's pages), and a listener
    // left per job piles up (MaxListenersExceededWarning at the 11th page).
    let onAbort = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => reject(new CancelledError());
      control.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await this.loadedOrCancelled(cancelled);
    } finally {
      control.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async loadedOrCancelled(cancelled: Promise<never>): Promise<void> {
    for (;;) {
      this.generation ??= this.startGeneration();
      const generation = this.generation;
      generation.loaded ??= this.load(generation).catch((err: unknown) => {
        generation.loaded = undefined;
        throw err;
      });
      try {
        return await Promise.race([generation.loaded, cancelled]);
      } catch (err) {
        // Recycled while it loaded (another job asked for fresh workers): load the new ones.
        if (!generation.retired || this.queue.isClosed || err instanceof CancelledError) throw err;
      }
    }
  }

  private async load(generation: Generation): Promise<void> {
    const message: TaskMessage = { task: LOAD_TASK, input: null };
    const signal = AbortSignal.timeout(LOAD_LIMIT_MS);
    const started = performance.now();
    try {
      await generation.pool.run(message, { signal });
      logEngineStarted(`${this.options.name} workers`, performance.now() - started, 'service');
    } catch (err) {
      if (this.queue.isClosed) throw this.queue.gate.error();
      if (generation.retired) throw err;
      logEvent(`docwasm ${this.options.name} workers failed to start: ${(err as Error)?.message ?? String(err)}`);
      throw new ApiError('INTERNAL_ERROR', `The ${this.options.name} engine could not be started`);
    }
  }

  /** No job for the idle timeout: the workers stop (their memory goes back to the system). */
  private stopIdleWorkers(idleMs: number): void {
    if (!this.generation) return;
    logEngineRetired(`${this.options.name} workers`, idleMs, 'service');
    this.stopWorkers();
  }

  /** The workers stop once their tasks end; the next job starts new ones. */
  private stopWorkers(): void {
    const generation = this.generation;
    if (!generation) return;
    this.generation = undefined;
    generation.retired = true;
    this.endIfDrained(generation);
  }

  /** Replaces the workers: later tasks go to a fresh pool, running ones finish on the old one. */
  private retire(generation: Generation): void {
    if (this.queue.isClosed || generation !== this.generation) return;
    generation.retired = true;
    this.generation = undefined;
    this.endIfDrained(generation);
  }

  private endIfDrained(generation: Generation): void {
    if (!generation.retired || generation.running > 0) return;
    this.generations.delete(generation);
    void generation.pool.destroy().catch(() => undefined);
  }

  private startGeneration(): Generation {
    const { name, threads, workerData, maxOldGenerationSizeMb, idleTimeoutMs } = this.options;
    const pool = new Tinypool({
      runtime: 'worker_threads',
      filename: fileURLToPath(new URL(`../../wasm/${name}/worker.js`, import.meta.url)),
      // One worker starts with the first job; tinypool adds one for a task that finds every
      // worker busy (a one-shot command pays for one worker, not one per core) and stops the
      // added ones after the idle timeout. The ThreadGate keeps tasks to `threads`.
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: idleTimeoutMs,
      // A worker is kept between tasks (warm WASM); recycle.ts decides when it is replaced.
      isolateWorkers: false,
      workerData,
      ...(maxOldGenerationSizeMb !== undefined && { resourceLimits: { maxOldGenerationSizeMb } }),
    });
    // A worker that dies between tasks is reported here; one that dies under a task fails that task.
    pool.on('error', (err: unknown) => logEvent(`docwasm ${name} pool: ${String(err)}`));
    const generation: Generation = { pool, running: 0, retired: false };
    this.generations.add(generation);
    return generation;
  }

  private translate(err: unknown, deadline: Deadline): ApiError | CancelledError {
    const e = err as { name?: string; code?: string; message?: string };
    if (e?.name === 'AbortError' || deadline.signal.aborted) return deadline.reason();
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ApiError('TOO_LARGE', `The ${this.options.name} job ran out of memory; the input is too large`);
    }
    logEvent(`docwasm ${this.options.name} worker failed: ${e?.message ?? String(err)}`);
    return new ApiError('INTERNAL_ERROR', `The ${this.options.name} engine failed unexpectedly`);
  }
}

/** At most `size` tasks on threads at once; the rest wait in order (a WaitLine), each until its signal fires. */
class ThreadGate {
  private busy = 0;
  private readonly line = new WaitLine<{ admit: () => void; refuse: (err: unknown) => void }>();
  private closedWith: ApiError | undefined;

  constructor(private readonly size: number) {}

  /** Resolves with the function that gives the thread back. */
  enter(signal: AbortSignal): Promise<() => void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.busy < this.size) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const item = { admit: () => resolve(this.take()), refuse: reject };
      this.line.join({ item, signal, withdrawn: () => reject(signal.reason) });
    });
  }

  close(reason: ApiError): void {
    this.closedWith = reason;
    for (const waiting of this.line.takeAll()) waiting.item.refuse(reason);
  }

  private take(): () => void {
    this.busy += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.busy -= 1;
      this.line.takeNext()?.item.admit();
    };
  }
}
