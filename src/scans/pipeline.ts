// Many engine jobs, one per item (page, image), with at most `limit` under way: results are
// handed on in item order, so memory holds at most `limit` items however long the document.
// The first failure cancels the jobs still running and is the one reported.

import { CancelledError, type JobControl } from '../jobs/policy.js';

export async function pipelineInOrder<T, R>(
  items: readonly T[],
  limit: number,
  control: JobControl,
  work: (item: T, index: number, control: JobControl) => Promise<R>,
  consume: (result: R, index: number) => Promise<void> | void,
): Promise<void> {
  const stop = new AbortController();
  const signal = control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal;
  const itemControl: JobControl = { signal };
  const running = new Map<number, Promise<R>>();
  let next = 0;
  const fill = () => {
    while (next < items.length && running.size < limit && !signal.aborted) {
      const index = next++;
      const job = work(items[index] as T, index, itemControl);
      job.catch(() => undefined); // awaited below, in order
      running.set(index, job);
    }
  };
  try {
    for (let index = 0; index < items.length; index++) {
      fill();
      const job = running.get(index);
      if (!job) throw new CancelledError(); // nothing started: the caller gave up
      const result = await job;
      running.delete(index);
      await consume(result, index);
    }
  } catch (err) {
    stop.abort();
    throw err;
  } finally {
    await Promise.allSettled(running.values());
  }
}
