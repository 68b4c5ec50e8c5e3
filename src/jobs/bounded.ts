// The one bounded-concurrency mechanism: work over many items (pages, images, files, a
// pipeline's items) with at most `limit` under way. Results are handed on in item order, so
// memory holds at most `ahead` items however long the document. A failure fails the run once
// every item before it is handed on; the work still running is then cancelled and awaited.
// mapBounded is the case of results gathered into an array (file-system work over many paths).

import type { JobControl } from './policy.js';
import { CancelledError } from '../../core/job-errors.js';

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface PipelineWindow {
  /** Items under way at once. */
  limit: number;
  /** No item is started this many items past the first not yet consumed (default `limit`). */
  ahead?: number;
}

/**
 * The next item starts as soon as any finishes (a slow item does not hold the others up), none
 * more than `ahead` items past the first not yet consumed (that bounds the results held out of
 * order), and the results are handed to `consume` in item order. When `consume` answers true no
 * later item is needed: none is started, and those under way are waited for (an abort would end
 * their warm worker) and dropped, failures included. A failed item fails the run once every item
 * before it is consumed, so whether a run fails does not hang on which items happened to start.
 */
export async function pipelineInOrder<T, R>(
  items: readonly T[],
  { limit, ahead = limit }: PipelineWindow,
  control: JobControl,
  work: (item: T, index: number, control: JobControl) => Promise<R>,
  consume: (result: R, index: number) => boolean | void | Promise<boolean | void>,
): Promise<void> {
  const stop = new AbortController();
  const itemControl: JobControl = { signal: control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal };
  const outcomes = new Map<number, Outcome<R>>();
  const running = new Set<Promise<void>>();
  let next = 0;
  // No item from `end` on is started: past a failure none is needed.
  let end = items.length;
  let consumed = 0;
  const fill = () => {
    while (next < Math.min(end, consumed + ahead) && running.size < limit && !itemControl.signal?.aborted) {
      const index = next++;
      const settle = (outcome: Outcome<R>) => {
        outcomes.set(index, outcome);
        if (!outcome.ok) end = Math.min(end, index + 1);
      };
      const job: Promise<void> = work(items[index] as T, index, itemControl)
        .then(
          (value) => settle({ ok: true, value }),
          (error: unknown) => settle({ ok: false, error }),
        )
        .finally(() => running.delete(job));
      running.add(job);
    }
  };
  try {
    while (consumed < end) {
      fill();
      const outcome = outcomes.get(consumed);
      if (!outcome) {
        if (!running.size) throw new CancelledError(); // nothing under way: the caller gave up
        await Promise.race(running);
        continue;
      }
      outcomes.delete(consumed);
      if (!outcome.ok) throw outcome.error;
      if (await consume(outcome.value, consumed++)) break;
    }
  } catch (err) {
    stop.abort();
    throw err;
  } finally {
    await Promise.allSettled(running);
  }
}

/** File-system work over many paths at once: a request naming 10,000 files must not open 10,000 descriptors (EMFILE) nor stall every other request. */
export const FS_CONCURRENCY = 16;

/**
 * `work` over `items` with at most `limit` under way; results in input order. The first failure
 * (in item order) is thrown once every item before it has settled, after the work still running
 * has been told to stop (its signal aborts) and has ended.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  work: (item: T, index: number, signal: AbortSignal | undefined) => Promise<R>,
  limit = FS_CONCURRENCY,
  control: JobControl = {},
): Promise<R[]> {
  const results = new Array<R>(items.length);
  await pipelineInOrder(
    items,
    { limit, ahead: items.length },
    control,
    (item, index, itemControl) => work(item, index, itemControl.signal),
    (result, index) => {
      results[index] = result;
    },
  );
  return results;
}
