// The shared job store (`--queue redis://…`): async jobs kept in a BullMQ queue on Redis, where
// any service sharing the queue accepts them and answers for them, and any worker runs them
// (./queue-worker.ts). The job's state is BullMQ's own (waiting, active, completed, failed; its
// progress, result and failure); beside it docwasm keeps two small keys per job: a cancel mark
// (what DELETE asked, read by whichever machine runs or later picks up the job) and the
// callback's delivery state. Redis lost → the store answers BACKEND_UNAVAILABLE until ioredis
// has reconnected by itself; synchronous requests never touch it.

import { randomUUID } from 'node:crypto';
import './no-native.js';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ApiError, isErrorPayload } from '../../core/errors.js';
import { logEvent } from '../../core/log.js';
import type { CallbackState, JobProgress, JobRequest, JobStatus, JobStore, JobView, Submission } from '../jobs/registry.js';
import type { OperationResult } from '../operations/operation.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import { connect, type QueueServer } from './redis.js';

export const QUEUE_NAME = 'docwasm-jobs';
/** The failure a cancelled job ends with, told apart from the operation's own errors. */
export const CANCELLED_REASON = 'docwasm: cancelled';
export const cancelChannel = `docwasm:${QUEUE_NAME}:cancel`;
export const cancelKey = (id: string) => `docwasm:${QUEUE_NAME}:cancelled:${id}`;
const callbackKey = (id: string) => `docwasm:${QUEUE_NAME}:callback:${id}`;

export interface QueuedJob {
  request: JobRequest;
}

export interface QueueStoreOptions {
  /** How long a finished job stays readable. */
  retentionMs: number;
  webhooks: Webhooks;
  /** How long DELETE waits for a running job to end. */
  cancelWaitMs?: number;
}

const WAITING = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children', 'unknown']);

export class QueueStore implements JobStore<OperationResult> {
  readonly queue: Queue<QueuedJob, OperationResult>;
  /** Our own connection: cancel marks, callback states, and the cancel signal's publisher. */
  readonly redis: Redis;

  constructor(
    readonly server: QueueServer,
    private readonly options: QueueStoreOptions,
  ) {
    this.queue = new Queue(QUEUE_NAME, { connection: { ...server.options, enableOfflineQueue: false } });
    this.queue.on('error', () => {});
    this.redis = connect(server);
  }

  async submit(request: JobRequest): Promise<Submission<OperationResult>> {
    if (request.callbackUrl !== undefined) this.options.webhooks.check(request.callbackUrl);
    this.assertConnected();
    const jobId = randomUUID();
    const keep = { age: Math.ceil(this.options.retentionMs / 1000) };
    return this.reached(async () => {
      if (request.callbackUrl !== undefined) await this.recordCallback(jobId, { url: request.callbackUrl, attempts: 0, delivered: false });
      // Errors of the operation are its answer, not worth another try; a worker that dies is
      // another matter: its job runs again (queue-worker.ts, maxStartedAttempts).
      const job = await this.queue.add(request.operation, { request }, { jobId, attempts: 1, removeOnComplete: keep, removeOnFail: keep });
      return { job: await this.view(job) };
    });
  }

  async get(id: string): Promise<JobView<OperationResult>> {
    return this.reached(async () => this.view(await this.find(id)));
  }

  async list(): Promise<JobView<OperationResult>[]> {
    this.assertConnected();
    return this.reached(async () => {
      const jobs = await this.queue.getJobs(['active', 'waiting', 'delayed', 'prioritized', 'completed', 'failed'], 0, 999, true);
      const views = await Promise.all(jobs.filter((job) => job !== undefined).map((job) => this.view(job as Job<QueuedJob, OperationResult>)));
      return views.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(({ result: _result, error: _error, ...state }) => state);
    });
  }

  async cancel(id: string): Promise<JobView<OperationResult>> {
    return this.reached(async () => {
      const job = await this.find(id);
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') return this.view(job);
      // The mark stops a job that is picked up later; the message one that runs now, wherever.
      await this.redis.set(cancelKey(id), new Date().toISOString(), 'PX', this.options.retentionMs + 86_400_000, 'NX');
      await this.redis.publish(cancelChannel, id);
      if (state === 'active') await this.settled(id);
      // A job no worker held ends here; one that ran is called back by its worker.
      else void this.callBack(job);
      return this.view(await this.find(id));
    });
  }

  async health(): Promise<Record<string, unknown>> {
    const connected = this.redis.status === 'ready';
    if (!connected) return { url: this.server.shown, connected, workers: null, waiting: null, active: null };
    try {
      const [workers, counts] = await Promise.all([this.queue.getWorkersCount(), this.queue.getJobCounts('waiting', 'active')]);
      return { url: this.server.shown, connected, workers, waiting: counts.waiting ?? 0, active: counts.active ?? 0 };
    } catch {
      return { url: this.server.shown, connected: false, workers: null, waiting: null, active: null };
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.queue.close(), this.redis.quit()]);
    this.redis.disconnect();
  }

  /** Calls back a job that has ended and asked for it, once, whichever machine comes first. */
  async callBack(job: Job<QueuedJob, OperationResult>): Promise<void> {
    const id = job.id as string;
    try {
      const view = await this.view(job);
      if (view.callback === undefined || view.status === 'queued' || view.status === 'running') return;
      if (!(await this.claimCallback(id))) return;
      await this.options.webhooks.deliverJob(view, (state) => this.recordCallback(id, state));
    } catch (err) {
      logEvent(`docwasm: the callback of job ${id} was not sent: ${(err as Error).message}`);
    }
  }

  /** The delivery state of a job's callback, as its status shows it. */
  private async recordCallback(id: string, state: CallbackState): Promise<void> {
    await this.redis.set(callbackKey(id), JSON.stringify(state), 'PX', this.options.retentionMs + 86_400_000);
  }

  /** True for the one caller that may deliver the job's callback: whichever machine ends the job first. */
  private async claimCallback(id: string): Promise<boolean> {
    return (await this.redis.set(`${callbackKey(id)}:claimed`, '1', 'PX', this.options.retentionMs + 86_400_000, 'NX')) === 'OK';
  }

  /** The job as the doors see it. */
  async view(fetched: Job<QueuedJob, OperationResult>): Promise<JobView<OperationResult>> {
    const id = fetched.id as string;
    const [state, cancelledAt, callback] = await Promise.all([fetched.getState(), this.redis.get(cancelKey(id)), this.redis.get(callbackKey(id))]);
    // A job read just before it ended has no result yet: read it again, now that its state says it ended.
    const ended = state === 'completed' || state === 'failed';
    const job = ended && fetched.finishedOn === undefined ? ((await this.queue.getJob(id)) ?? fetched) : fetched;
    const { status, error } = statusOf(state, job.failedReason, cancelledAt);
    const finishedOn = job.finishedOn ?? (status === 'cancelled' && cancelledAt !== null ? Date.parse(cancelledAt) : undefined);
    const total = job.data.request.total;
    const progress = progressOf(job.progress, total);
    return {
      jobId: id,
      operation: job.data.request.operation,
      status,
      progress: status === 'succeeded' ? { done: progress.total, total: progress.total } : progress,
      createdAt: new Date(job.timestamp).toISOString(),
      ...(job.processedOn !== undefined && status !== 'queued' && { startedAt: new Date(job.processedOn).toISOString() }),
      ...(finishedOn !== undefined && status !== 'queued' && status !== 'running' && { finishedAt: new Date(finishedOn).toISOString() }),
      ...(status === 'succeeded' && { result: job.returnvalue }),
      ...(error !== undefined && { error }),
      ...(callback !== null && { callback: JSON.parse(callback) as CallbackState }),
    };
  }

  private async find(id: string): Promise<Job<QueuedJob, OperationResult>> {
    const job = (await this.queue.getJob(id)) as Job<QueuedJob, OperationResult> | undefined;
    if (!job) throw new ApiError('JOB_NOT_FOUND', `No job ${id}; jobs are kept ${Math.round(this.options.retentionMs / 1000)} s after they finish`);
    return job;
  }

  /** Waits (up to cancelWaitMs) for a job to leave `active`. */
  private async settled(id: string): Promise<void> {
    const until = Date.now() + (this.options.cancelWaitMs ?? 30_000);
    while (Date.now() < until && (await this.queue.getJobState(id)) === 'active') await new Promise((resolve) => setTimeout(resolve, 200));
  }

  private assertConnected(): void {
    if (this.redis.status !== 'ready') throw unavailable();
  }

  /** A Redis command that fails because the connection is down is BACKEND_UNAVAILABLE, not INTERNAL_ERROR. */
  private async reached<T>(work: () => Promise<T>): Promise<T> {
    this.assertConnected();
    try {
      return await work();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (this.redis.status !== 'ready' || /Connection is closed|Stream isn't writeable|ECONNREFUSED|enableOfflineQueue/.test(String(err))) throw unavailable();
      throw err;
    }
  }
}

function unavailable(): ApiError {
  return new ApiError(
    'BACKEND_UNAVAILABLE',
    "The job queue's Redis cannot be reached now; the service reconnects by itself. Synchronous requests are still served.",
  );
}

function statusOf(state: string, failedReason: string | undefined, cancelledAt: string | null): { status: JobStatus; error?: ApiError } {
  if (state === 'completed') return { status: 'succeeded' };
  if (state === 'failed') {
    if (failedReason === CANCELLED_REASON) return { status: 'cancelled' };
    return { status: 'failed', error: failureOf(failedReason) };
  }
  if (cancelledAt !== null && WAITING.has(state)) return { status: 'cancelled' };
  return { status: state === 'active' ? 'running' : 'queued' };
}

/** The worker fails a job with its ApiError as JSON; BullMQ's own failures (a worker that died too often) are internal errors said plainly. */
function failureOf(reason: string | undefined): ApiError {
  try {
    const payload: unknown = JSON.parse(reason ?? '');
    if (isErrorPayload(payload)) return new ApiError(payload.code, payload.message);
  } catch {
    /* not ours */
  }
  return new ApiError('INTERNAL_ERROR', `The job could not finish: ${reason ?? 'unknown reason'}`);
}

function progressOf(reported: unknown, total: number): JobProgress {
  const value = reported as Partial<JobProgress> | null;
  if (typeof value?.done === 'number' && typeof value.total === 'number') return { done: value.done, total: value.total };
  return { done: 0, total: Math.max(0, total) };
}
