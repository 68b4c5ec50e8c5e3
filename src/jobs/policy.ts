// The one job policy of docwasm, for worker pools and LibreOffice alike: a bounded queue per
// engine (BUSY, with Retry-After, when full), one deadline per job handed down as an
// AbortSignal (TIMEOUT when it fires), cancellation through the caller's signal, and progress
// as items done of a total. The other parts of an engine's lifecycle, composed by every engine:
// idle-retirement.ts, shutdown-gate.ts, core/recycle.ts (when an instance is replaced),
// core/deadline.ts (the deadline inside a worker) and core/job-errors.ts (the words).

import type { ApiError } from '../../core/errors.js';
import type { TaskDeadline } from '../../core/deadline.js';
import { queueFullError, timeoutError } from '../../core/job-errors.js';
import { ShutdownGate } from './shutdown-gate.js';

/** What a caller gives a job: a way to cancel it and to hear of its progress. */
export interface JobControl {
  /** Aborted when the caller gives up (an async job cancelled, a CLI interrupted). */
  signal?: AbortSignal | undefined;
  /** Items done of total; `done` only grows. */
  progress?: ((done: number, total: number) => void) | undefined;
  /**
   * Called when the job holds its place in an engine's queue: the request passed every check
   * (body, paths, matrix, capacity) and its work begins. Async jobs answer 202 from here.
   */
  started?: (() => void) | undefined;
}

/** A job that its caller cancelled: it ends with no output; not an error of the request. */
export class CancelledError extends Error {
  constructor() {
    super('The job was cancelled');
    this.name = 'CancelledError';
  }
}

export interface Deadline {
  /** Aborted when the time limit passes or the caller cancels. */
  signal: AbortSignal;
  /** Epoch ms by which the job must be answered. */
  at: number;
  limitMs: number;
  /** The error to report once `signal` has fired. */
  reason(): ApiError | CancelledError;
  /**
   * The deadline for a worker to hold itself to, `marginMs` before this one: it answers TIMEOUT
   * itself, and in time, rather than be terminated with its warm engine (core/deadline.ts).
   */
  forWorker(marginMs: number): TaskDeadline;
}

export function startDeadline(engine: string, limitMs: number, control: JobControl = {}): Deadline {
  const timeout = AbortSignal.timeout(limitMs);
  const signal = control.signal ? AbortSignal.any([control.signal, timeout]) : timeout;
  const at = Date.now() + limitMs;
  return {
    signal,
    at,
    limitMs,
    reason: () => (control.signal?.aborted ? new CancelledError() : timeoutError(engine, limitMs)),
    forWorker: (marginMs) => ({ engine, at: at - marginMs, limitMs }),
  };
}

/** Running plus waiting jobs of one engine, bounded: the place where BUSY is decided. */
export class JobQueue {
  private active = 0;
  constructor(
    private readonly engine: string,
    private readonly capacity: number,
    /** Closed when the engine shuts down (its supervisor's): the queue takes no job after it. */
    readonly gate: ShutdownGate = new ShutdownGate(engine),
  ) {}

  /** Takes a place or throws BUSY; the returned function gives the place back. */
  enter(): () => void {
    this.gate.admit();
    if (this.active >= this.capacity) throw queueFullError(this.engine);
    this.active += 1;
    let left = false;
    return () => {
      if (!left) this.active -= 1;
      left = true;
    };
  }

  /** Runs `work` holding a place in the queue; tells `control.started` once it holds it. */
  async hold<T>(control: JobControl, work: () => Promise<T>): Promise<T> {
    const leave = this.enter();
    try {
      control.started?.();
      return await work();
    } finally {
      leave();
    }
  }

  close(): void {
    this.gate.close();
  }

  get isClosed(): boolean {
    return this.gate.isClosed;
  }
}
