import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../core/job-errors.js';
import { pipelineInOrder } from '../../src/jobs/bounded.js';

/** An item's job, settled by the test when it chooses. */
interface Pending {
  resolve(value: number): void;
  reject(error: Error): void;
}

/** Jobs the test settles by hand; `started` lists the items in the order they started. */
function manualJobs() {
  const started: number[] = [];
  const pending = new Map<number, Pending>();
  const work = (item: number) =>
    new Promise<number>((resolve, reject) => {
      started.push(item);
      pending.set(item, { resolve, reject });
    });
  const settle = async (item: number, outcome: number | Error) => {
    const job = pending.get(item);
    if (!job) throw new Error(`item ${item} was not started`);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    // Let the window see it and start what it may.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, work, settle };
}

const items = Array.from({ length: 10 }, (_, i) => i);

describe('pipelineInOrder', () => {
  it('starts the next item as soon as any finishes, and consumes in item order', async () => {
    const { started, work, settle } = manualJobs();
    const consumed: number[] = [];
    const run = pipelineInOrder(items.slice(0, 4), { limit: 2, ahead: 4 }, {}, work, (value) => {
      consumed.push(value);
      return false;
    });
    await settle(1, 10);
    // Item 0 still runs: item 2 starts in item 1's place, and nothing is consumed yet.
    expect(started).toEqual([0, 1, 2]);
    expect(consumed).toEqual([]);
    await settle(2, 20);
    await settle(0, 0);
    expect(consumed).toEqual([0, 10, 20]);
    await settle(3, 30);
    await run;
    expect(consumed).toEqual([0, 10, 20, 30]);
  });

  it('starts nothing more than `ahead` items past the first not consumed', async () => {
    const { started, work, settle } = manualJobs();
    const run = pipelineInOrder(items, { limit: 2, ahead: 3 }, {}, work, () => false);
    await settle(1, 1);
    await settle(2, 2);
    // Items 1 and 2 are done but 0 is not: 3 is the last within reach, and only 0 and 3 run.
    expect(started).toEqual([0, 1, 2]);
    await settle(0, 0);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const item of items.slice(3)) await settle(item, item);
    await run;
    expect(started).toEqual(items);
  });

  it('starts nothing once consume says the cut is passed, waits for the jobs under way and drops their failures', async () => {
    const { started, work, settle } = manualJobs();
    const consumed: number[] = [];
    let ended = false;
    const run = pipelineInOrder(items, { limit: 3, ahead: 6 }, {}, work, (value) => {
      consumed.push(value);
      return value === 1;
    }).then(() => (ended = true));
    await settle(0, 0);
    await settle(1, 1);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(ended).toBe(false); // 2, 3 and 4 are still under way
    await settle(2, 2);
    await settle(3, 3);
    await settle(4, new Error('a page past the cut'));
    await run;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(consumed).toEqual([0, 1]);
  });

  it('fails with an item once every item before it is consumed, starting none after it', async () => {
    const { started, work, settle } = manualJobs();
    const consumed: number[] = [];
    const run = pipelineInOrder(items, { limit: 3, ahead: 6 }, {}, work, (value) => {
      consumed.push(value);
      return false;
    });
    const failure = new Error('page 2 is damaged');
    const outcome = expect(run).rejects.toBe(failure);
    await settle(2, failure);
    await settle(1, 1);
    // Item 0 may still pass the cut: the failure waits for it, and nothing past item 2 starts.
    expect(started).toEqual([0, 1, 2]);
    await settle(0, 0);
    await outcome;
    expect(consumed).toEqual([0, 1]);
  });

  it('answers CancelledError once the caller gives up before an item starts', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(
      pipelineInOrder(
        items,
        { limit: 2, ahead: 4 },
        { signal: stop.signal },
        () => Promise.resolve(1),
        () => false,
      ),
    ).rejects.toBeInstanceOf(CancelledError);
  });
});
