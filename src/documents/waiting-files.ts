// A request's files on their way to an office, one mechanism for both document backends: each
// file waits in its office supervisor's line (src/jobs/supervisor.ts) in request order, progress
// counts the files answered, and a cancelled request's files that no office has taken yet leave
// the line at once while the request ends with a CancelledError. Which office takes a file, and
// when, is the supervisor's.

import type { JobControl } from '../jobs/policy.js';
import { CancelledError } from '../../core/job-errors.js';
import type { ConversionJob, ConversionOutcome } from './backend.js';

/** The outcome of a file whose request was cancelled (the request itself answers CancelledError). */
export const CANCELLED: ConversionOutcome = { ok: false, code: 'INTERNAL_ERROR', message: 'cancelled' };

/**
 * One outcome per job, in order, each from `convert` (called for every file at once, in order,
 * so that the files join the office's line in order); a CancelledError once `control.signal` fires.
 */
export async function convertFiles(
  jobs: readonly ConversionJob[],
  control: JobControl,
  convert: (job: ConversionJob, signal: AbortSignal | undefined) => Promise<ConversionOutcome>,
): Promise<ConversionOutcome[]> {
  const { signal } = control;
  if (signal?.aborted) throw new CancelledError();
  let answered = 0;
  const outcomes = await Promise.all(
    jobs.map(async (job) => {
      const outcome = await convert(job, signal);
      if (!signal?.aborted) control.progress?.(++answered, jobs.length);
      return outcome;
    }),
  );
  if (signal?.aborted) throw new CancelledError();
  return outcomes;
}
