// Idle retirement (contract: --idle-timeout): an engine that has run no job for the idle timeout
// stops its workers or offices, which give their memory back; the next job starts them again.
// The clock runs only while no job is under way, and counts from the end of the last one.

export class IdleRetirement {
  private jobs = 0;

  /** When the last job ended (performance.now()): the least recently used of several retires first. */
  lastEnded = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * @param idleMs no retirement when undefined.
   * @param retire stops the engine's idle instances (given the idle timeout, for its log line).
   * @param busy work the engine has besides jobs begun here (files queued, an office starting):
   *   while it says so, retirement waits for another idle timeout.
   */
  constructor(
    private readonly idleMs: number | undefined,
    private readonly retire: (idleMs: number) => void,
    private readonly busy: () => boolean = () => false,
  ) {}

  /** A job begins: the clock stops until every job has ended. Returns the function that ends it (once). */
  begin(): () => void {
    this.jobs += 1;
    clearTimeout(this.timer);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.jobs -= 1;
      this.lastEnded = performance.now();
      if (this.jobs === 0) this.arm();
    };
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.idleMs === undefined || this.closed) return;
    clearTimeout(this.timer);
    // unref: an idle engine must not keep a finished one-shot command alive.
    this.timer = setTimeout(() => this.fire(), this.idleMs).unref();
  }

  private fire(): void {
    if (this.jobs > 0 || this.closed) return;
    if (this.busy()) return this.arm();
    this.retire(this.idleMs as number);
  }
}
