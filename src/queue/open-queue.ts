// Opens the shared job queue of `--queue`, for `serve` (a store, and a worker unless
// --no-local-worker) and for `docwasm worker` (a worker, and the store it reads jobs through):
// an unreachable Redis at start is a ConfigError (exit 2), not a service that waits.
// BullMQ and ioredis are optional peer dependencies, loaded only here: BullMQ's msgpackr brings an
// optional native decoder, and what a default install brings must hold no native code. Where
// they are not installed, --queue says how to add them.

import type { Config } from '../config.js';
import type { OperationContext, OperationResult } from '../operations/operation.js';
import { jobRunner } from '../operations/run-job.js';
import type { JobStore } from '../jobs/registry.js';
import { Webhooks } from '../webhooks/webhooks.js';
import { ConfigError } from '../config.js';

export interface OpenQueue {
  store: JobStore<OperationResult>;
  /** The queue's URL as logs may show it (no password). */
  shown: string;
  /** Stops this process's worker (its jobs go back to the queue), then the store's connections. */
  close(): Promise<void>;
}

export async function openQueue(url: string, config: Config, context: OperationContext, { localWorker }: { localWorker: boolean }): Promise<OpenQueue> {
  const { QueueStore, QueueWorker, checkReachable, queueServer } = await import('./bullmq-parts.js').catch(notInstalled);
  const server = queueServer(url);
  await checkReachable(server);
  const store = new QueueStore(server, { retentionMs: config.jobRetentionMs, webhooks: new Webhooks(config) });
  const worker = localWorker ? new QueueWorker(store, jobRunner(context), { concurrency: config.workers, attempts: config.jobAttempts }) : undefined;
  await worker?.ready();
  return {
    store,
    shown: server.shown,
    close: async () => {
      await worker?.close();
      await store.close();
    },
  };
}

/** BullMQ or ioredis missing: say how to add them; anything else is what it is. */
function notInstalled(err: unknown): never {
  const missing = (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /'(bullmq|ioredis)'/.exec(String((err as Error).message));
  if (!missing) throw err;
  throw new ConfigError(
    `--queue needs ${missing[1]}, which a default install leaves out: run \`npm install bullmq ioredis\` where docwasm is installed (docs/scaling-out.md)`,
  );
}
