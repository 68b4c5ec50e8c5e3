// Async jobs, for any door. `JobStore` is what the doors use, whichever store keeps the jobs:
// this embedded one (the default), or the shared queue of src/queue/ (`--queue redis://…`).
// Here, an operation is started with a JobControl of the registry's own (cancel signal,
// progress recorder, started hook), kept in memory while it runs and for a retention time after
// it ends. A job is accepted once its operation holds its place in an engine's queue
// (`started`), i.e. once every check passed; what ends before that is the caller's to answer
// synchronously. Jobs do not survive a restart.

import { randomUUID } from 'node:crypto';
import { ApiError, reportFailure, toApiError } from '../../core/errors.js';
import type { JobControl } from './policy.js';
import { CancelledError } from '../../core/job-errors.js';
import { settledWithin } from '../../core/deadline.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobProgress {
  done: number;
  total: number;
}

/** What a job looks like from outside: its state, and its outcome once finished. */
export interface JobView<R> {
  jobId: string;
  operation: string;
  status: JobStatus;
  progress: JobProgress;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** Set when `succeeded`. */
  result?: R;
  /** Set when `failed`. */
  error?: ApiError;
  /** Set when the request gave a `callbackUrl`: how its delivery went (src/webhooks/). */
  callback?: CallbackState;
}

export interface CallbackState {
  url: string;
  attempts: number;
  delivered: boolean;
  lastError?: string;
}

/** What a job is asked to do, as plain data: it may travel to another machine. */
export interface JobRequest {
  /** The operation's id. */
  operation: string;
  /** The request's body, without `async` and `callbackUrl`. */
  body: Record<string, unknown>;
  /** Items known before the work starts (the operation may report another total). */
  total: number;
  callbackUrl?: string;
}

/** Runs a request's operation under a job's control (src/operations/run-job.ts). */
export type JobRunner<R> = (request: JobRequest, control: JobControl) => Promise<R>;

/** Either a job (accepted, or already finished well), or the error the operation ended with before it was accepted. */
export type Submission<R> = { job: JobView<R> } | { error: unknown };

/** Where the doors keep async jobs: the embedded registry below, or the shared queue (src/queue/). */
export interface JobStore<R> {
  submit(request: JobRequest): Promise<Submission<R>>;
  get(id: string): Promise<JobView<R>>;
  /** Jobs kept, oldest first, without their outcomes. */
  list(): Promise<JobView<R>[]>;
  /** Cancels a queued or running job and waits for it to end; a finished job is left as it is. */
  cancel(id: string): Promise<JobView<R>>;
  /** For GET /api/health: the queue's state, when jobs are kept in one. */
  health(): Promise<Record<string, unknown> | undefined>;
  /** Shutdown: what is running here is cancelled (embedded) or given back to the queue. */
  close(graceMs: number): Promise<void>;
}

/** Called once a finished job's view is final; delivers its callback and reports each attempt. */
export type FinishedHook<R> = (job: JobView<R>, record: (state: CallbackState) => void) => void;

export interface RegistryOptions<R> {
  /** How long a finished job stays readable. */
  retentionMs: number;
  run: JobRunner<R>;
  /** Refuses a callbackUrl the service may not call (src/webhooks/). */
  check?: (callbackUrl: string) => void;
  finished?: FinishedHook<R>;
  /** Finished jobs kept at most; the oldest go first. */
  maxFinished?: number;
  /** How long DELETE waits for a cancelled job to clean up before answering. */
  cancelWaitMs?: number;
}

interface Job<R> extends JobView<R> {
  controller: AbortController;
  finishedMs?: number;
  /** Resolves once the operation has ended and its cleanup is done. */
  settled: Promise<void>;
}

const FINISHED: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
const isFinished = (job: JobView<unknown>) => FINISHED.includes(job.status);

export class JobRegistry<R> implements JobStore<R> {
  private readonly jobs = new Map<string, Job<R>>();
  private readonly maxFinished: number;
  private readonly cancelWaitMs: number;

  constructor(private readonly options: RegistryOptions<R>) {
    this.maxFinished = options.maxFinished ?? 1_000;
    this.cancelWaitMs = options.cancelWaitMs ?? 30_000;
  }

  /** Starts the operation; answers once it is accepted or has ended, whichever comes first. */
  async submit(request: JobRequest): Promise<Submission<R>> {
    if (request.callbackUrl !== undefined) this.options.check?.(request.callbackUrl);
    const job = this.create(request);
    let accept = () => {};
    const accepted = new Promise<void>((resolve) => (accept = resolve));
    const control: JobControl = {
      signal: job.controller.signal,
      progress: (done, total) => recordProgress(job, done, total),
      started: () => {
        if (job.status !== 'queued') return;
        job.status = 'running';
        job.startedAt = new Date().toISOString();
        accept();
      },
    };
    let thrown: unknown;
    job.settled = this.options.run(request, control).then(
      (result) => this.finish(job, { status: 'succeeded', result }),
      (err: unknown) => this.finish(job, { status: 'failed', error: (thrown = err) }),
    );
    await Promise.race([accepted, job.settled]);
    if (job.status === 'failed' && job.startedAt === undefined) return { error: thrown };
    this.prune();
    this.jobs.set(job.jobId, job);
    // Only an accepted job calls back: one refused before is answered to its caller instead.
    void job.settled.then(() => this.options.finished?.(view(job), (state) => (job.callback = state)));
    return { job: view(job) };
  }

  async get(id: string): Promise<JobView<R>> {
    return view(this.find(id));
  }

  async list(): Promise<JobView<R>[]> {
    this.prune();
    return [...this.jobs.values()].map((job) => view(job, { outcome: false }));
  }

  async health(): Promise<undefined> {
    return undefined;
  }

  /** Cancels a queued or running job and waits for it to end; a finished job is left as it is. */
  async cancel(id: string): Promise<JobView<R>> {
    const job = this.find(id);
    if (!isFinished(job)) {
      job.controller.abort();
      await settledWithin(job.settled, this.cancelWaitMs);
    }
    return view(job);
  }

  /** Shutdown: cancels every unfinished job and waits (up to `graceMs`) for their cleanup. */
  async close(graceMs: number): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => !isFinished(job));
    for (const job of running) job.controller.abort();
    await settledWithin(Promise.all(running.map((job) => job.settled)), graceMs);
  }

  private create(request: JobRequest): Job<R> {
    return {
      jobId: randomUUID(),
      operation: request.operation,
      status: 'queued',
      progress: { done: 0, total: Math.max(0, request.total) },
      ...(request.callbackUrl !== undefined && { callback: { url: request.callbackUrl, attempts: 0, delivered: false } }),
      createdAt: new Date().toISOString(),
      controller: new AbortController(),
      settled: Promise.resolve(),
    };
  }

  private finish(job: Job<R>, outcome: { status: 'succeeded'; result: R } | { status: 'failed'; error: unknown }): void {
    job.finishedMs = Date.now();
    job.finishedAt = new Date(job.finishedMs).toISOString();
    if (outcome.status === 'succeeded') {
      job.status = 'succeeded';
      job.result = outcome.result;
      job.progress = { done: job.progress.total, total: job.progress.total };
    } else if (job.controller.signal.aborted || outcome.error instanceof CancelledError) {
      // Whatever a cancelled operation threw on its way out, the caller asked for this end.
      job.status = 'cancelled';
    } else {
      job.status = 'failed';
      job.error = job.startedAt === undefined ? toApiError(outcome.error) : reportFailure(outcome.error, `job ${job.jobId} (${job.operation}) internal error`);
    }
  }

  private find(id: string): Job<R> {
    this.prune();
    const job = this.jobs.get(id);
    if (!job)
      throw new ApiError(
        'JOB_NOT_FOUND',
        `No job ${id}; jobs are kept ${Math.round(this.options.retentionMs / 1000)} s after they finish, and not across restarts`,
      );
    return job;
  }

  /** Drops finished jobs past their retention, then the oldest finished beyond the bound. */
  private prune(): void {
    const now = Date.now();
    const finished = [...this.jobs.values()].filter((job) => job.finishedMs !== undefined);
    for (const job of finished) if (now - (job.finishedMs as number) >= this.options.retentionMs) this.jobs.delete(job.jobId);
    const kept = finished.filter((job) => this.jobs.has(job.jobId)).sort((a, b) => (a.finishedMs as number) - (b.finishedMs as number));
    for (const job of kept.slice(0, Math.max(0, kept.length - this.maxFinished))) this.jobs.delete(job.jobId);
  }
}

/** Progress only grows; an operation may announce a larger total than the registry guessed. */
function recordProgress(job: JobView<unknown>, done: number, total: number): void {
  if (isFinished(job)) return;
  job.progress = grownProgress(job.progress, done, total);
}

/** The progress after a report of `done` of `total`: neither count ever shrinks. */
export function grownProgress(progress: JobProgress, done: number, total: number): JobProgress {
  const grown = Math.max(progress.done, done);
  return { done: grown, total: Math.max(progress.total, total, grown) };
}

function view<R>(job: Job<R>, { outcome = true } = {}): JobView<R> {
  return {
    jobId: job.jobId,
    operation: job.operation,
    status: job.status,
    progress: { ...job.progress },
    createdAt: job.createdAt,
    ...(job.startedAt !== undefined && { startedAt: job.startedAt }),
    ...(job.finishedAt !== undefined && { finishedAt: job.finishedAt }),
    ...(outcome && job.result !== undefined && { result: job.result }),
    ...(outcome && job.error !== undefined && { error: job.error }),
    ...(job.callback !== undefined && { callback: { ...job.callback } }),
  };
}
