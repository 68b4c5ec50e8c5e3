// Runs inside every engine worker: wraps a task function so that its outcome crosses the
// thread boundary as plain data. Structured clone drops custom Error fields, so errors are
// returned (not thrown) as `{ok:false, code, message}` and rebuilt as ApiError by src/jobs.

import { ApiError, type ErrorCode } from '../../src/errors.js';

export type TaskOutcome<T> = ({ ok: true; value: T } | { ok: false; code: ErrorCode; message: string }) & {
  /** The worker asks to be replaced (its WASM memory grew past what it should keep). */
  recycle?: boolean;
};

export interface TaskOptions {
  /** Maps engine-specific exceptions (not ApiError) to a contract error. */
  describeUnexpected?: (err: unknown) => ApiError | undefined;
  /** Asked after every job, success or not. */
  shouldRecycle?: () => boolean;
}

export function defineTask<I, O>(run: (input: I) => Promise<O> | O, options: TaskOptions = {}): (input: I) => Promise<TaskOutcome<O>> {
  return async (input: I) => {
    const outcome = await settle(run, input, options);
    return options.shouldRecycle?.() ? { ...outcome, recycle: true } : outcome;
  };
}

async function settle<I, O>(run: (input: I) => Promise<O> | O, input: I, options: TaskOptions): Promise<TaskOutcome<O>> {
  try {
    return { ok: true, value: await run(input) };
  } catch (err) {
    const known = err instanceof ApiError ? err : options.describeUnexpected?.(err);
    if (known) return { ok: false, code: known.code, message: known.message };
    process.stderr.write(`docwasm worker: unexpected error: ${String((err as Error)?.stack ?? err)}\n`);
    return { ok: false, code: 'INTERNAL_ERROR', message: 'Internal error in the engine' };
  }
}

export { ApiError };
