import { describe, expect, it } from 'vitest';
import { BoundedQueue, mapBounded } from '../../src/jobs/bounded.js';
import { codeFiles, codeOf } from '../helpers/code-files.js';

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

// Bounded-concurrency helpers: 1 (issue 43; docs/lifecycle.md). What a hand-written one looks like,
// from the four that were (files/bounded.ts's lanes, pipeline/run.ts's runEach, the first
// pipelineInOrder, the watcher's FileRunner.pump): each has at least one of these shapes.
const PUMP_SHAPES: Readonly<Record<string, RegExp>> = {
  'a loop that starts work while fewer than a limit are under way':
    /\b(while|for)\s*\([^{;\n]*\.(size|length)\s*<(?!=)[^{;)\n]*\b(limit|concurrency|parallel|workers|lanes|max\w*)/i,
  'a race over the work under way': /Promise\.race\(\s*(\[\s*\.\.\.)?(this\.)?\w+\s*\]?\s*\)/,
  'a fixed number of lanes pulling from one index': /Promise\.all\(\s*Array\.from\(\s*\{\s*length:/,
  'a pump or drain of its own': /^\s*(private\s+|async\s+|function\s+)*(pump|drain)\s*\(/m,
};

/** The shapes of a hand-written bounded-concurrency mechanism `code` has. */
const pumpShapes = (code: string): string[] => Object.keys(PUMP_SHAPES).filter((shape) => PUMP_SHAPES[shape]?.test(code));

describe('bounded-concurrency helpers: 1', () => {
  it('no module but src/jobs/bounded.ts runs work a few at a time by a mechanism of its own', () => {
    // The supervisor hands engine instances to waiting work (its `pump`): it is the one owner of
    // instances, not a helper over items; its bound is its seats and the memory budget.
    const allowed: Readonly<Record<string, readonly string[]>> = { 'src/jobs/supervisor.ts': ['a pump or drain of its own'] };
    const found = codeFiles('core', 'src', 'wasm')
      .filter((file) => file !== 'src/jobs/bounded.ts')
      .map((file) => ({ file, shapes: pumpShapes(codeOf(file)).filter((shape) => !allowed[file]?.includes(shape)) }))
      .filter(({ shapes }) => shapes.length > 0);
    expect(found).toEqual([]);
  });

  it('knows the shapes of the four mechanisms there were, and not a loop filling an array', () => {
    const fileRunner = `private pump(): void {
    while (this.lanes.size < Math.max(1, this.options.concurrency) && this.waiting.size > 0) {
      const lane: Promise<void> = this.drain().finally(() => this.lanes.delete(lane));`;
    const lanes = `const lane = async () => { while (next < items.length) results[next] = await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));`;
    const window = `while (next < end && running.size < limit) start(next++);
      await Promise.race(running);`;
    expect(pumpShapes(fileRunner)).toEqual(['a loop that starts work while fewer than a limit are under way', 'a pump or drain of its own']);
    expect(pumpShapes(lanes)).toEqual(['a fixed number of lanes pulling from one index']);
    expect(pumpShapes(window)).toEqual(['a loop that starts work while fewer than a limit are under way', 'a race over the work under way']);
    expect(pumpShapes('while (head.length < columns) head.push(""); for (; chain.length <= MAX_CHAIN; ) next();')).toEqual([]);
    expect(pumpShapes(codeOf('src/jobs/bounded.ts')).length).toBeGreaterThan(0);
  });
});

describe('BoundedQueue (work that arrives over time: a watched folder)', () => {
  /** A queue whose runs the test ends by hand. */
  function manualQueue(limit: number) {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const failures: string[] = [];
    const counts: [number, number][] = [];
    const queue = new BoundedQueue<string>({
      limit,
      run: (item) =>
        new Promise<void>((resolve, reject) => {
          started.push(item);
          finish.set(item, () => (item.startsWith('bad') ? reject(new Error(item)) : resolve()));
        }),
      failed: (item, error) => failures.push(`${item}: ${(error as Error).message}`),
      ended: (ended, added) => counts.push([ended, added]),
    });
    const end = async (item: string) => {
      finish.get(item)?.();
      finish.delete(item);
      for (let i = 0; i < 5; i++) await tick();
    };
    return { queue, started, failures, counts, end };
  }

  it('runs at most `limit` at once, oldest first, the next as soon as one ends, a failure told and the queue going on', async () => {
    const { queue, started, failures, counts, end } = manualQueue(2);
    for (const item of ['a', 'bad', 'c', 'd']) queue.add(item);
    expect(started).toEqual(['a', 'bad']);
    await end('bad');
    expect(started).toEqual(['a', 'bad', 'c']);
    expect(failures).toEqual(['bad: bad']);
    await end('a');
    await end('c');
    await end('d');
    expect(started).toEqual(['a', 'bad', 'c', 'd']);
    expect(counts.at(-1)).toEqual([4, 4]);
  });

  it('runs an item once at a time: added while waiting it keeps its place, added while running it runs once more after', async () => {
    const { queue, started, end } = manualQueue(1);
    queue.add('a');
    queue.add('b');
    queue.add('b');
    queue.add('a');
    queue.add('a');
    expect(started).toEqual(['a']);
    await end('a');
    expect(started).toEqual(['a', 'b']);
    await end('b');
    expect(started).toEqual(['a', 'b', 'a']);
    await end('a');
    expect(started).toEqual(['a', 'b', 'a']);
  });

  it('close() drops what waits, takes nothing more and resolves once what runs has ended', async () => {
    const { queue, started, end } = manualQueue(1);
    queue.add('a');
    queue.add('b');
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    queue.add('c');
    await tick();
    expect(closed).toBe(false);
    await end('a');
    await closing;
    expect(started).toEqual(['a']);
  });
});
