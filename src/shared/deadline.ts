// A job's deadline as it crosses into a worker thread (plain data), and the one way work inside
// the thread is held to it: a step that is still running when the deadline passes ends in the
// contract's TIMEOUT, naming the engine's limit and the step. The main side's deadline, an
// AbortSignal that terminates the whole worker, is src/jobs/policy.ts's `startDeadline`; a
// worker that holds itself to a slightly earlier one (`Deadline.forWorker`) can stop a nested
// engine itself and stay warm.

import { timeoutError } from './job-errors.js';

export interface TaskDeadline {
  /** Names the engine in the TIMEOUT message. */
  engine: string;
  /** Epoch ms by which the step must have settled. */
  at: number;
  /** The job's time limit, as the user set it (the message names it). */
  limitMs: number;
}

/** `work`'s result, or TIMEOUT (naming `doing`) if it has not settled by the deadline. */
export function raceDeadline<T>(work: Promise<T>, deadline: TaskDeadline, doing: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(deadline.engine, deadline.limitMs, doing)), Math.max(0, deadline.at - Date.now()));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The same deadline, brought forward to at most `ms` from now (a step with a limit of its own). */
export function atMost(deadline: TaskDeadline, ms: number): TaskDeadline {
  return { ...deadline, at: Math.min(deadline.at, Date.now() + ms) };
}
