// The one form of a deadline in docwasm: `TaskDeadline`, plain data (engine, epoch ms, the
// limit) that crosses into a worker thread as it is; on the main side the same deadline carries
// the AbortSignal that fires at it or when the caller cancels (`Deadline`, made by
// `startDeadline`). Every bounded wait goes through `settleWithin` (a step still running when
// the deadline passes ends in the contract's TIMEOUT, naming the engine's limit and the step) or,
// where passing the time is no error (a shutdown's grace), `settledWithin`. A worker that holds
// itself to a slightly earlier deadline (`forWorker`) can stop a nested engine itself and stay warm.

import { CancelledError, timeoutError } from './job-errors.js';

export interface TaskDeadline {
  /** Names the engine in the TIMEOUT message. */
  engine: string;
  /** Epoch ms by which the step must have settled. */
  at: number;
  /** The job's time limit, as the user set it (the message names it). */
  limitMs: number;
}

/** The main side's deadline: the same data, and the signal that fires at it (or when the caller cancels). */
export interface Deadline extends TaskDeadline {
  /** Aborted when the time limit passes or the caller cancels. */
  signal: AbortSignal;
  /** The error to report once `signal` has fired: TIMEOUT, or the caller's CancelledError. */
  reason(): Error;
  /**
   * The deadline for a worker to hold itself to, `marginMs` before this one: it answers TIMEOUT
   * itself, and in time, rather than be terminated with its warm engine.
   */
  forWorker(marginMs: number): TaskDeadline;
}

/** A job's deadline from now: `limitMs` away, or sooner if `cancel` fires. */
export function startDeadline(engine: string, limitMs: number, { signal: cancel }: { signal?: AbortSignal | undefined } = {}): Deadline {
  const timeout = AbortSignal.timeout(limitMs);
  const signal = cancel ? AbortSignal.any([cancel, timeout]) : timeout;
  const at = Date.now() + limitMs;
  return {
    engine,
    at,
    limitMs,
    signal,
    reason: () => (cancel?.aborted ? new CancelledError() : timeoutError(engine, limitMs)),
    forWorker: (marginMs) => ({ engine, at: at - marginMs, limitMs }),
  };
}

/** `work`'s result, or TIMEOUT (naming `doing`) if it has not settled by the deadline. */
export function raceDeadline<T>(work: Promise<T>, deadline: TaskDeadline, doing: string): Promise<T> {
  return settleWithin(work, deadline.at - Date.now(), () => timeoutError(deadline.engine, deadline.limitMs, doing));
}

/** For work done in steps on one thread (no timer can interrupt it): throws TIMEOUT between steps once the deadline has passed. */
export function checkDeadline(deadline: TaskDeadline, doing: string): void {
  if (Date.now() > deadline.at) throw timeoutError(deadline.engine, deadline.limitMs, doing);
}

/**
 * The one bounded wait: `work`'s result, or `late()`'s error once `ms` have passed (the work
 * itself is the caller's to stop). `keepAlive: false`: the timer alone keeps no process running.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, late: () => Error, { keepAlive = true } = {}): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, ms));
    if (!keepAlive) timer.unref();
  });
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}

/** A grace: waits for `work` at most `ms`, then goes on without it (no error); true when it settled in time. */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = work.then(
    () => true,
    () => true,
  );
  return settleWithin(settled, ms, () => new Error('the grace passed'), { keepAlive: false }).catch(() => false);
}

/** The same deadline, brought forward to at most `ms` from now (a step with a limit of its own). */
export function atMost(deadline: TaskDeadline, ms: number): TaskDeadline {
  return { ...deadline, at: Math.min(deadline.at, Date.now() + ms) };
}
