// Runs inside every engine worker: a worker module declares its tasks as a map and serves them
// through one default export (the pool's entry point). The main side derives a typed client
// from the map's type (src/jobs/engine-pool.ts), so no task name is ever a string there.
// Structured clone drops custom Error fields, so errors are returned (not thrown) as
// `{ok:false, code, message}` (src/shared/task-protocol.ts) and rebuilt as ApiError by src/jobs.

import { ApiError } from '../../src/errors.js';
import { LOAD_TASK, type Task, type TaskMessage, type TaskOutcome } from '../../src/shared/task-protocol.js';
import { logInternalError } from '../../src/shared/log.js';

export interface TaskOptions {
  /** Maps engine-specific exceptions (not ApiError) to a contract error. */
  describeUnexpected?: (err: unknown) => ApiError | undefined;
  /** Asked after every job, success or not. */
  shouldRecycle?: () => boolean;
}

export function defineTask<I, O>(run: (input: I) => Promise<O> | O, options: TaskOptions = {}): Task<I, O> {
  return async (input: I) => {
    const outcome = await settle(run, input, options);
    return options.shouldRecycle?.() ? { ...outcome, recycle: true } : outcome;
  };
}


/** The worker's entry point: dispatches a message to the task of that name. */
export function serveTasks(tasks: Readonly<Record<string, Task<never, unknown>>>): (message: TaskMessage) => Promise<TaskOutcome<unknown>> {
  return async ({ task, input }) => {
    if (task === LOAD_TASK) return { ok: true, value: null };
    const run = Object.hasOwn(tasks, task) ? tasks[task] : undefined;
    if (!run) return { ok: false, code: 'INTERNAL_ERROR', message: `The worker has no task "${task}"` };
    return run(input as never);
  };
}

async function settle<I, O>(run: (input: I) => Promise<O> | O, input: I, options: TaskOptions): Promise<TaskOutcome<O>> {
  try {
    return { ok: true, value: await run(input) };
  } catch (err) {
    const known = err instanceof ApiError ? err : options.describeUnexpected?.(err);
    if (known) return { ok: false, code: known.code, message: known.message };
    logInternalError('worker: unexpected error', err);
    return { ok: false, code: 'INTERNAL_ERROR', message: 'Internal error in the engine' };
  }
}

export { ApiError };
