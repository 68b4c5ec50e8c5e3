// The files waiting for an office, one mechanism for both document backends (the installed
// offices' slots and the WebAssembly office): a request's files queue in order, each is settled
// exactly once with its outcome, progress counts the settled files, and a cancelled request's
// files that no office has taken yet leave the queue at once while the request ends with a
// CancelledError. Which office takes the next file is the backend's (its pump).

import { CancelledError, type JobControl } from '../jobs/policy.js';
import { WaitLine } from '../jobs/wait-line.js';
import type { ConversionJob, ConversionOutcome } from './backend.js';

/** The outcome of a file whose request was cancelled (the request itself answers CancelledError). */
export const CANCELLED: ConversionOutcome = { ok: false, code: 'INTERNAL_ERROR', message: 'cancelled' };

export interface WaitingFile {
  job: ConversionJob;
  /** The request's cancel signal: an office converting this file stops when it fires. */
  signal: AbortSignal | undefined;
  /** Answers the file (once; later calls are ignored). */
  settle: (outcome: ConversionOutcome) => void;
}

export class WaitingFiles {
  /** Each file leaves the line by itself when its request is cancelled (settled CANCELLED). */
  private readonly line = new WaitLine<WaitingFile>();

  /** `arrived` runs after a request's files joined the queue (the backend's pump). */
  constructor(private readonly arrived: () => void) {}

  get size(): number {
    return this.line.size;
  }

  /** Queues a request's files; one outcome per job, in order, or a CancelledError once `control.signal` fires. */
  async submit(jobs: readonly ConversionJob[], control: JobControl = {}): Promise<ConversionOutcome[]> {
    if (control.signal?.aborted) throw new CancelledError();
    let settledFiles = 0;
    const outcomes = jobs.map(
      (job) =>
        new Promise<ConversionOutcome>((resolve) => {
          let settled = false;
          const settle = (outcome: ConversionOutcome) => {
            if (settled) return;
            settled = true;
            resolve(outcome);
            if (!control.signal?.aborted) control.progress?.(++settledFiles, jobs.length);
          };
          this.join({ job, signal: control.signal, settle });
        }),
    );
    this.arrived();
    const settled = await Promise.all(outcomes);
    if (control.signal?.aborted) throw new CancelledError();
    return settled;
  }

  /** The oldest waiting file, taken out of the queue. */
  take(): WaitingFile | undefined {
    return this.line.takeNext()?.item;
  }

  /** A taken file that must wait again (its office went away under it), first in line. */
  putBack(file: WaitingFile): void {
    this.join(file, true);
  }

  /** Answers every waiting file (shutdown, an office that cannot start). */
  settleAll(outcome: (file: WaitingFile) => ConversionOutcome): void {
    for (const { item: file } of this.line.takeAll()) file.settle(outcome(file));
  }

  private join(file: WaitingFile, first = false): void {
    this.line.join({ item: file, signal: file.signal, withdrawn: () => file.settle(CANCELLED) }, first);
  }
}
