// Opens the shared job queue of `--queue`, for `serve` (a store, and a worker unless
// --no-local-worker) and for `docwasm worker` (a worker, and the store it reads jobs through):
// an unreachable Redis at start is a ConfigError (exit 2), not a service that waits.

import type { Config } from '../config.js';
import type { OperationContext, OperationResult } from '../operations/operation.js';
import { jobRunner } from '../operations/run-job.js';
import type { JobStore } from '../jobs/registry.js';
import { Webhooks } from '../webhooks/webhooks.js';
import { QueueStore } from './queue-store.js';
import { QueueWorker } from './queue-worker.js';
import { checkReachable, queueServer } from './redis.js';

export interface OpenQueue {
  store: JobStore<OperationResult>;
  /** Stops this process's worker (its jobs go back to the queue), then the store's connections. */
  close(): Promise<void>;
}

export async function openQueue(url: string, config: Config, context: OperationContext, { localWorker }: { localWorker: boolean }): Promise<OpenQueue> {
  const server = queueServer(url);
  await checkReachable(server);
  const store = new QueueStore(server, { retentionMs: config.jobRetentionMs, webhooks: new Webhooks(config) });
  const worker = localWorker ? new QueueWorker(store, jobRunner(context), { concurrency: config.workers, attempts: config.jobAttempts }) : undefined;
  await worker?.ready();
  return {
    store,
    close: async () => {
      await worker?.close();
      await store.close();
    },
  };
}
