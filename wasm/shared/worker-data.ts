// The data the engine pool (src/jobs/engine-pool.ts) gave this worker. The pool library, tinypool,
// wraps it: worker_threads' `workerData` is `[tinypool's own, ours]`.

import { workerData } from 'node:worker_threads';

export function poolWorkerData<T>(): T {
  return (workerData as readonly [unknown, T])[1];
}
