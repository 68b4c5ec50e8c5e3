// The one job policy of docwasm, for worker pools and LibreOffice alike: a bounded queue per
// engine (BUSY, with Retry-After, when full), one deadline per job handed down as an
// AbortSignal (TIMEOUT when it fires), cancellation through the caller's signal, and progress
// as items done of a total. Recycling rules are in src/shared/recycle.ts.

import { ApiError } from '../errors.js';

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
}

export function startDeadline(engine: string, limitMs: number, control: JobControl = {}): Deadline {
  const timeout = AbortSignal.timeout(limitMs);
  const signal = control.signal ? AbortSignal.any([control.signal, timeout]) : timeout;
  return {
    signal,
    at: Date.now() + limitMs,
    limitMs,
    reason: () => (control.signal?.aborted ? new CancelledError() : timeoutError(engine, limitMs)),
  };
}

export function timeoutError(engine: string, limitMs: number, detail = ''): ApiError {
  return new ApiError('TIMEOUT', `The ${engine} job ran longer than ${limitMs / 1000} s and was stopped${detail ? ` (${detail})` : ''}`);
}

export function shuttingDownError(engine: string): ApiError {
  return new ApiError('BUSY', `The service is shutting down; the ${engine} job was not finished`);
}

/** Running plus waiting jobs of one engine, bounded: the place where BUSY is decided. */
export class JobQueue {
  private active = 0;
  private closed = false;

  constructor(
    private readonly engine: string,
    private readonly capacity: number,
  ) {}

  /** Takes a place or throws BUSY; the returned function gives the place back. */
  enter(): () => void {
    if (this.closed) throw shuttingDownError(this.engine);
    if (this.active >= this.capacity) throw new ApiError('BUSY', `The ${this.engine} queue is full; retry later`);
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
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
