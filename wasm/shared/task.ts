// Runs inside every engine worker: a worker module declares its tasks as a map and serves them
// through one default export (the pool's entry point). The main side derives a typed client
// from the map's type (src/jobs/engine-pool.ts), so no task name is ever a string there.
// Structured clone drops custom Error fields, so errors are returned (not thrown) as
// `{ok:false, code, message}` (core/task-protocol.ts) and rebuilt as ApiError by src/jobs.
// A task whose output holds large pixel buffers (a rendered page) names them in `transfer`:
// they move to the main thread instead of being copied by structured clone.

import Tinypool from 'tinypool';
import { ApiError } from '../../core/errors.js';
import { LOAD_TASK, type Task, type TaskMessage, type TaskOutcome } from '../../core/task-protocol.js';
import { logInternalError } from '../../core/log.js';

export interface TaskOptions<O = unknown> {
  /** Maps engine-specific exceptions (not ApiError) to a contract error. */
  describeUnexpected?: (err: unknown) => ApiError | undefined;
  /** Asked after every job, success or not. */
  shouldRecycle?: () => boolean;
  /** Buffers of a successful output that move to the main thread (the worker loses them) instead of being copied. */
  transfer?: (output: O) => ArrayBuffer[];
}

export function defineTask<I, O>(run: (input: I) => Promise<O> | O, options: TaskOptions<O> = {}): Task<I, O> {
  return async (input: I) => {
    const settled = await settle(run, input, options);
    const outcome = options.shouldRecycle?.() ? { ...settled, recycle: true } : settled;
    const buffers = outcome.ok && options.transfer ? options.transfer(outcome.value) : [];
    return buffers.length === 0 ? outcome : moving(outcome, buffers);
  };
}

/**
 * The outcome marked for tinypool, which posts it with `buffers` in the transfer list and
 * hands the main thread the outcome itself.
 */
function moving<T>(outcome: TaskOutcome<T>, buffers: ArrayBuffer[]): TaskOutcome<T> {
  const movable = { [Tinypool.transferableSymbol]: buffers, [Tinypool.valueSymbol]: outcome };
  return Tinypool.move(movable as unknown as ArrayBuffer) as unknown as TaskOutcome<T>;
}

/**
 * For tasks that read a document: whatever a reader's own code (or a library it calls) throws
 * on it is that document's fault, INVALID_INPUT, not a 500 (contract v0.5: "No 500 from any
 * document"; issue 41 item 8: hast-util-to-mdast's `new URL` on `<base href="foo">`). File
 * errors and budgets are ApiErrors already; a worker out of memory ends the worker, not a task.
 */
export function documentException(what: string): (err: unknown) => ApiError {
  return (err) => new ApiError('INVALID_INPUT', `${what} cannot be read (${err instanceof Error ? `${err.name}: ${err.message}` : String(err)})`);
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

async function settle<I, O>(run: (input: I) => Promise<O> | O, input: I, options: TaskOptions<O>): Promise<TaskOutcome<O>> {
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
