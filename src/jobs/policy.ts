// The one job policy of docwasm, for worker pools and LibreOffice alike: a bounded queue per
// engine (BUSY, with Retry-After, when full), one deadline per job handed down as an
// AbortSignal (TIMEOUT when it fires), cancellation through the caller's signal, and progress
// as items done of a total. The engines' instances are the supervisor's (supervisor.ts), which
// composes idle-retirement.ts, shutdown-gate.ts and core/recycle.ts; core/deadline.ts is the one
// deadline form and core/job-errors.ts the words.

import { queueFullError } from '../../core/job-errors.js';
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
