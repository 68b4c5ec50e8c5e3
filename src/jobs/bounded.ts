// The one bounded-concurrency mechanism: work over many items (pages, images, files, a
// pipeline's items, a watched folder's files) with at most `limit` under way, started by one
// pump (Lanes). pipelineInOrder hands results on in item order, so memory holds at most `ahead`
// items however long the document; a failure fails the run once every item before it is handed
// on, and the work still running is then cancelled and awaited. mapBounded is the case of
// results gathered into an array (file-system work over many paths). BoundedQueue takes work as
// it arrives (a watched folder's files), oldest first. No other module writes a pump of its own
// (test/unit/bounded.test.ts, "bounded-concurrency helpers: 1").

import type { JobControl } from './policy.js';
import { CancelledError } from '../../core/job-errors.js';

/**
 * The pump: runs `work` on what `next` hands out while fewer than `limit` are under way, and
 * pumps again each time one ends. `next` answers undefined when nothing may start now (none
 * left, a window full, a run stopped); its owner calls pump() when that changes. `work` settles
 * its own failures: it never rejects.
 */
class Lanes<T> {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly limit: number,
    private readonly next: () => T | undefined,
    private readonly work: (item: T) => Promise<void>,
  ) {}

  get size(): number {
    return this.running.size;
  }

  pump(): void {
    for (let item = this.takeIfRoom(); item !== undefined; item = this.takeIfRoom()) {
      const run: Promise<void> = this.work(item).finally(() => {
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  /** Resolves when one piece of work under way ends. */
  oneEnded(): Promise<void> {
    return Promise.race(this.running);
  }

  /** Resolves when no work is under way (work started meanwhile included). */
  async allEnded(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled(this.running);
  }

  private takeIfRoom(): T | undefined {
    return this.running.size < this.limit ? this.next() : undefined;
  }
}

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
  let next = 0;
  // No item from `end` on is started: past a failure none is needed, nor once the run ends.
  let end = items.length;
  let consumed = 0;
  const lanes = new Lanes<number>(
    limit,
    () => (next < Math.min(end, consumed + ahead) && !itemControl.signal?.aborted ? next++ : undefined),
    async (index) => {
      let outcome: Outcome<R>;
      try {
        outcome = { ok: true, value: await work(items[index] as T, index, itemControl) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      outcomes.set(index, outcome);
      if (!outcome.ok) end = Math.min(end, index + 1);
    },
  );
  try {
    while (consumed < end) {
      lanes.pump();
      const outcome = outcomes.get(consumed);
      if (!outcome) {
        if (!lanes.size) throw new CancelledError(); // nothing under way: the caller gave up
        await lanes.oneEnded();
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
    end = 0;
    await lanes.allEnded();
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

/** What a BoundedQueue runs, and whom it tells. */
export interface QueueWork<T> {
  /** Items under way at once (at least 1). */
  limit: number;
  run(item: T): Promise<void>;
  /** `run` rejected: told here, the queue goes on. */
  failed(item: T, error: unknown): void;
  /** After each run: how many have ended, and how many were added (re-runs included). */
  ended?(ended: number, added: number): void;
}

/**
 * Work that arrives over time (a watched folder's files): at most `limit` under way, oldest
 * first, each item once at a time. An item added while it waits keeps its place; one added while
 * under way (it changed meanwhile) runs once more when that run ends. close() drops what waits,
 * takes nothing more, and resolves once what runs has ended.
 */
export class BoundedQueue<T> {
  /** Oldest first (a Set keeps insertion order). */
  private readonly waiting = new Set<T>();
  private readonly running = new Set<T>();
  private readonly again = new Set<T>();
  private readonly lanes: Lanes<T>;
  private closed = false;
  private added = 0;
  private ended = 0;

  constructor(private readonly work: QueueWork<T>) {
    this.lanes = new Lanes(
      Math.max(1, work.limit),
      () => this.takeNext(),
      (item) => this.run(item),
    );
  }

  add(item: T): void {
    if (this.closed || this.waiting.has(item)) return;
    if (this.running.has(item)) return void this.again.add(item);
    this.waiting.add(item);
    this.added += 1;
    this.lanes.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    await this.lanes.allEnded();
  }

  private takeNext(): T | undefined {
    const [item] = this.waiting;
    if (item !== undefined) this.waiting.delete(item);
    return item;
  }

  private async run(item: T): Promise<void> {
    this.running.add(item);
    try {
      await this.work.run(item);
    } catch (err) {
      this.work.failed(item, err);
    } finally {
      this.running.delete(item);
      this.ended += 1;
      this.work.ended?.(this.ended, this.added);
      if (this.again.delete(item)) this.add(item);
    }
  }
}
