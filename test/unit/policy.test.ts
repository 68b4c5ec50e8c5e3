import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { JobQueue } from '../../src/jobs/policy.js';
import { CancelledError } from '../../core/job-errors.js';
import { startDeadline } from '../../core/deadline.js';

const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('JobQueue', () => {
  it('gives places up to its capacity, then answers BUSY with Retry-After', () => {
    const queue = new JobQueue('pdf', 2);
    queue.enter();
    queue.enter();
    expect(() => queue.enter()).toThrow(expect.objectContaining({ code: 'BUSY', headers: { 'Retry-After': expect.any(String) } }));
  });

  it('takes a place back once, however often it is given back', () => {
    const queue = new JobQueue('pdf', 1);
    const leave = queue.enter();
    leave();
    leave();
    queue.enter();
    expect(() => queue.enter()).toThrow(ApiError);
  });

  it('holds a place while work runs, tells the caller it started, and frees it after a failure', async () => {
    const queue = new JobQueue('image', 1);
    const events: string[] = [];
    await expect(
      queue.hold({ started: () => events.push('started') }, async () => {
        expect(() => queue.enter()).toThrow(expect.objectContaining({ code: 'BUSY' }));
        throw new Error('engine failed');
      }),
    ).rejects.toThrow('engine failed');
    expect(events).toEqual(['started']);
    expect(() => queue.enter()).not.toThrow();
  });

  it('answers BUSY (shutting down) once closed, without starting the work', async () => {
    const queue = new JobQueue('ocr', 5);
    queue.close();
    let ran = false;
    await expect(queue.hold({}, async () => (ran = true))).rejects.toThrow(
      expect.objectContaining({ code: 'BUSY', message: expect.stringContaining('shutting down') }),
    );
    expect(ran).toBe(false);
    expect(queue.isClosed).toBe(true);
  });
});

describe('startDeadline', () => {
  it('fires after its limit and reports TIMEOUT naming the engine and the limit', async () => {
    const deadline = startDeadline('pdf', 20);
    expect(deadline.signal.aborted).toBe(false);
    await aborted(deadline.signal);
    const reason = deadline.reason();
    expect(reason).toBeInstanceOf(ApiError);
    expect(reason).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('pdf job ran longer than 0.02 s') });
  });

  it('fires at once when the caller cancels, and reports a cancellation, not a timeout', async () => {
    const caller = new AbortController();
    const deadline = startDeadline('image', 60_000, { signal: caller.signal });
    caller.abort();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.reason()).toBeInstanceOf(CancelledError);
  });

  it('says by when the job must be answered', () => {
    const before = Date.now();
    const deadline = startDeadline('ocr', 5_000);
    expect(deadline.limitMs).toBe(5_000);
    expect(deadline.at).toBeGreaterThanOrEqual(before + 5_000);
  });
});
