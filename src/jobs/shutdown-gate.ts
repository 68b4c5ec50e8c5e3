// Shutdown (contract: BUSY while the service stops): once an engine is closed it takes no new
// job, and a job cut short by the shutdown — its worker terminated, its office killed — ends in
// BUSY "shutting down", not in the engine failure its cut-off work looks like.

import type { ApiError } from '../../core/errors.js';
import { shuttingDownError } from '../../core/job-errors.js';

export class ShutdownGate {
  private closed = false;

  /** @param engine names the engine in the BUSY message. */
  constructor(private readonly engine: string) {}

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
  }

  /** Throws BUSY once closed: a new job is refused before it touches anything. */
  admit(): void {
    if (this.closed) throw this.error();
  }

  /** The BUSY "shutting down" error; `detail` names what was not finished (a file). */
  error(detail = ''): ApiError {
    return shuttingDownError(this.engine, detail);
  }
}
