import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WaitLine } from '../../src/jobs/wait-line.js';

describe('the one waiting line (src/jobs/wait-line.ts)', () => {
  it('serves the oldest first, and a taken item put back goes first', () => {
    const line = new WaitLine<string>();
    for (const item of ['a', 'b', 'c']) line.join({ item });
    const a = line.takeNext();
    expect(a?.item).toBe('a');
    line.join(a as NonNullable<typeof a>, true);
    expect([line.takeNext()?.item, line.takeNext()?.item, line.takeNext()?.item, line.takeNext()]).toEqual(['a', 'b', 'c', undefined]);
  });

  it('lets an entry whose signal fires leave at once, telling it so, and leaves the others waiting', () => {
    const line = new WaitLine<string>();
    const withdrawn: string[] = [];
    const cancel = new AbortController();
    line.join({ item: 'kept' });
    line.join({ item: 'cancelled', signal: cancel.signal, withdrawn: (item) => withdrawn.push(item) });
    expect(line.has('cancelled')).toBe(true);
    cancel.abort();
    expect(withdrawn).toEqual(['cancelled']);
    expect(line.size).toBe(1);
    expect(line.has('cancelled')).toBe(false);
  });

  it('withdraws every entry of a fired signal in line order, and only those', () => {
    const line = new WaitLine<string>();
    const first = new AbortController();
    const second = new AbortController();
    const withdrawn: string[] = [];
    const tell = (item: string) => withdrawn.push(item);
    for (const [item, signal] of [
      ['a', first.signal],
      ['b', second.signal],
      ['c', first.signal],
      ['d', undefined],
    ] as const)
      line.join({ item, signal, withdrawn: tell });
    first.abort();
    expect(withdrawn).toEqual(['a', 'c']);
    expect([line.takeNext()?.item, line.takeNext()?.item, line.size]).toEqual(['b', 'd', 0]);
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
  });

  it('never queues an entry whose signal has already fired', () => {
    const line = new WaitLine<number>();
    const withdrawn: number[] = [];
    line.join({ item: 7, signal: AbortSignal.abort(), withdrawn: (item) => withdrawn.push(item) });
    expect([line.size, withdrawn]).toEqual([0, [7]]);
  });

  it('forgets a taken entry: its signal no longer withdraws it, and no listener is left on the signal', () => {
    const line = new WaitLine<string>();
    const cancel = new AbortController();
    const withdrawn: string[] = [];
    // Many entries on one signal (a document's pages, a request's files) must not pile up listeners.
    for (let i = 0; i < 20; i += 1) line.join({ item: `page ${i}`, signal: cancel.signal, withdrawn: (item) => withdrawn.push(item) });
    // One listener for the twenty: a listener each would warn at the eleventh (MaxListenersExceededWarning).
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1);
    line.join(line.takeNext() as NonNullable<ReturnType<typeof line.takeNext>>, true);
    const taken = line.takeAll();
    expect(taken).toHaveLength(20);
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
    cancel.abort();
    expect(withdrawn).toEqual([]);
  });
});
