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
  return settleWithin(work, deadline.at - Date.now(), () => timeoutError(deadline.engine, deadline.limitMs, doing));
}

/** For work done in steps on one thread (no timer can interrupt it): throws TIMEOUT between steps once the deadline has passed. */
export function checkDeadline(deadline: TaskDeadline, doing: string): void {
  if (Date.now() > deadline.at) throw timeoutError(deadline.engine, deadline.limitMs, doing);
}

/** The one bounded wait: `work`'s result, or `late()`'s error once `ms` have passed (the work itself is the caller's to stop). */
export function settleWithin<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, ms));
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

/** The same deadline, brought forward to at most `ms` from now (a step with a limit of its own). */
export function atMost(deadline: TaskDeadline, ms: number): TaskDeadline {
  return { ...deadline, at: Math.min(deadline.at, Date.now() + ms) };
}
