import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/jobs/bounded.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  it('returns results in input order whatever order calls finish in', async () => {
    const results = await mapBounded([3, 1, 2], async (n) => {
      for (let i = 0; i < n; i++) await tick();
      return n * 10;
    });
    expect(results).toEqual([30, 10, 20]);
  });

  it('never has more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await mapBounded(
      Array.from({ length: 50 }, (_, i) => i),
      async () => {
        most = Math.max(most, ++inFlight);
        await tick();
        inFlight--;
      },
      4,
    );
    expect(most).toBe(4);
  });

  it('passes each item with its index', async () => {
    expect(await mapBounded(['a', 'b'], async (item, index) => `${index}:${item}`)).toEqual(['0:a', '1:b']);
  });

  it('handles an empty list', async () => {
    expect(await mapBounded([], async () => 1)).toEqual([]);
  });

  it('rejects when a call rejects', async () => {
    await expect(
      mapBounded([1, 2], async (n) => {
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
  });

  it('after a failure starts no further item, stops those in flight after it and waits for them before throwing', async () => {
    const started: number[] = [];
    let stillRunning = 0;
    const run = mapBounded(
      Array.from({ length: 20 }, (_, i) => i),
      async (n, _index, signal) => {
        started.push(n);
        stillRunning++;
        try {
          if (n === 1) throw new Error('item 1 failed');
          // Items after the failure would run for ever unless told to stop.
          while (n > 1 && !signal?.aborted) await tick();
        } finally {
          stillRunning--;
        }
      },
      3,
    );
    await expect(run).rejects.toThrow('item 1 failed');
    expect(stillRunning).toBe(0);
    expect(started.length).toBeLessThanOrEqual(4);
  });
});
