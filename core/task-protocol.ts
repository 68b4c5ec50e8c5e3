// What crosses the thread boundary between the engine pools (src/jobs/engine-pool.ts) and the
// workers (wasm/shared/task.ts): the message naming a task, and the task's outcome.

import type { ErrorCode } from './errors.js';

export type TaskOutcome<T> = ({ ok: true; value: T } | { ok: false; code: ErrorCode; message: string }) & {
  /** The worker asks to be replaced (see core/recycle.ts). */
  recycle?: boolean;
};

export type Task<I, O> = (input: I) => Promise<TaskOutcome<O>>;

/** What the pool sends a worker: which task of its map, and its input. */
export interface TaskMessage {
  task: string;
  input: unknown;
}

/** A task every worker answers once its module (and so its engine) has loaded. */
export const LOAD_TASK = '.loaded';
