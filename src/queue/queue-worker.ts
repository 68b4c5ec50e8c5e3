// Runs the shared queue's jobs in this process (`docwasm worker`, or a `serve --queue` without
// --no-local-worker) with the same runner, engines, limits and path confinement as the service.
// BullMQ holds a lock on each job it gives us and renews it while we run it: a worker that dies
// (even kill -9) stops renewing, the job is found stalled and runs again on a live worker, at
// most --job-attempts times in all. Outputs commit through docwasm's staging (src/files/
// staging.ts), so a worker that dies mid-job has written none of them. DELETE reaches a running
// job through Redis pub/sub (the cancel channel) and a job picked up later through its cancel
// mark. A job's end is called back (webhooks) by the process that ended it, once.

import fs from 'node:fs/promises';
import path from 'node:path';
import './no-native.js';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { reportFailure } from '../../core/errors.js';
import { withTempJournal } from '../files/staging.js';
import { CancelledError } from '../../core/job-errors.js';
import { grownProgress, type JobRunner } from '../jobs/registry.js';
import type { OperationResult } from '../operations/operation.js';
import { CANCELLED_REASON, cancelChannel, cancelKey, QUEUE_NAME, type QueuedJob, type QueueStore } from './queue-store.js';
import { connect } from './redis.js';

export interface QueueWorkerOptions {
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Times a job may start in all: a worker that died mid-job counts one. */
  attempts: number;
}

/** A lost worker's job waits this long before another takes it (BullMQ renews the lock at half of it). */
const LOCK_MS = 15_000;
const STALLED_CHECK_MS = 5_000;
/** The temp files a job's runs created, kept while it may run again. */
const tempsKey = (id: string) => `docwasm:${QUEUE_NAME}:temps:${id}`;
const TEMPS_KEPT_MS = 7 * 86_400_000;

export class QueueWorker {
  private readonly worker: Worker<QueuedJob, OperationResult>;
  private readonly subscriber: Redis;
  private closing = false;

  constructor(
    private readonly store: QueueStore,
    private readonly run: JobRunner<OperationResult>,
    private readonly options: QueueWorkerOptions,
  ) {
    this.worker = new Worker(QUEUE_NAME, (job, token, signal) => this.process(job, token, signal), {
      connection: { ...store.server.options, maxRetriesPerRequest: null },
      concurrency: options.concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      // Stalls are counted by maxStartedAttempts alone: a job that started that often has failed.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      maxStartedAttempts: options.attempts,
    });
    this.worker.on('error', () => {});
    this.worker.on('completed', (job) => void store.callBack(job));
    this.worker.on('failed', (job) => {
      if (!job) return;
      // A job that failed before it ran again (it started --job-attempts times) still had its dead run's temp files.
      void this.removeLeftovers(job.id as string).catch(() => {});
      void store.callBack(job);
    });
    this.subscriber = connect(store.server);
    this.subscriber.on('message', (_channel: string, id: string) => this.worker.cancelJob(id, CANCELLED_REASON));
    void this.subscriber.subscribe(cancelChannel).catch(() => {});
    // A subscription does not outlive a reconnection by itself.
    this.subscriber.on('ready', () => void this.subscriber.subscribe(cancelChannel).catch(() => {}));
  }

  /** Resolves once this worker is registered with Redis and takes jobs. */
  async ready(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  /**
   * Stops taking jobs; jobs running here are stopped (no output, no temp file) and given back to
   * the queue, to run again on a live worker.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.worker.cancelAllJobs('docwasm: worker stopping');
    await Promise.allSettled([this.worker.close(), this.subscriber.quit()]);
    this.subscriber.disconnect();
  }

  private async process(job: Job<QueuedJob, OperationResult>, token: string | undefined, signal: AbortSignal | undefined): Promise<OperationResult> {
    const id = job.id as string;
    if ((await this.store.redis.exists(cancelKey(id))) === 1) throw new UnrecoverableError(CANCELLED_REASON);
    let progress = { done: 0, total: job.data.request.total };
    const report = (done: number, total: number) => {
      progress = grownProgress(progress, done, total);
      job.updateProgress(progress).catch(() => {});
    };
    await this.removeLeftovers(id);
    const journal = async (temp: string) => {
      // Kept by its real path: removeLeftovers removes it only where that path still leads.
      const real = path.join(await fs.realpath(path.dirname(temp)), path.basename(temp));
      await this.store.redis.multi().sadd(tempsKey(id), real).pexpire(tempsKey(id), TEMPS_KEPT_MS).exec();
    };
    try {
      const result = await withTempJournal(journal, () => this.run(job.data.request, { signal, progress: report }));
      await this.store.redis.del(tempsKey(id)).catch(() => {});
      return result;
    } catch (err) {
      await this.store.redis.del(tempsKey(id)).catch(() => {});
      if (this.closing) {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (signal?.aborted || err instanceof CancelledError) throw new UnrecoverableError(CANCELLED_REASON);
      const { code, message } = reportFailure(err, `job ${id} (${job.data.request.operation}) internal error`);
      throw new UnrecoverableError(JSON.stringify({ code, message }));
    }
  }

  /** A run that died (kill -9) left its temp files: they go before the job runs again. */
  private async removeLeftovers(id: string): Promise<void> {
    const temps = await this.store.redis.smembers(tempsKey(id));
    // Only files named as staging names its temp files, in the real folder staging checked (not one swapped for a link since).
    for (const temp of temps) {
      const folder = path.dirname(temp);
      const real = await fs.realpath(folder).catch(() => undefined);
      if (path.basename(temp).endsWith('.docwasm.tmp') && real === folder) await fs.rm(temp, { force: true });
    }
    if (temps.length > 0) await this.store.redis.del(tempsKey(id));
  }
}
