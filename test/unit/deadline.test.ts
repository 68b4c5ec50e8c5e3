import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { startDeadline } from '../../core/deadline.js';
import { atMost, raceDeadline } from '../../core/deadline.js';

const never = new Promise<never>(() => undefined);

describe('a deadline inside a worker (core/deadline.ts)', () => {
  it('answers the work when it settles in time', async () => {
    const deadline = { engine: 'ocr', at: Date.now() + 60_000, limitMs: 60_000 };
    await expect(raceDeadline(Promise.resolve('text'), deadline, 'recognising text')).resolves.toBe('text');
  });

  it('answers TIMEOUT naming the engine, the limit the user set and the step, once it passes', async () => {
    const deadline = { engine: 'ocr', at: Date.now() + 20, limitMs: 30_000 };
    const late = raceDeadline(never, deadline, 'recognising text');
    await expect(late).rejects.toThrow(ApiError);
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT', message: 'The ocr job ran longer than 30 s and was stopped (recognising text)' });
  });

  it('brings a deadline forward for a step with a limit of its own, never later', () => {
    const far = { engine: 'ocr', at: Date.now() + 600_000, limitMs: 600_000 };
    expect(atMost(far, 1_000).at).toBeLessThanOrEqual(Date.now() + 1_000);
    const near = { engine: 'ocr', at: Date.now() + 10, limitMs: 600_000 };
    expect(atMost(near, 60_000)).toEqual(near);
  });

  it('is the pool deadline less the margin the worker keeps, with the same limit and engine', () => {
    const deadline = startDeadline('ocr', 30_000);
    expect(deadline.forWorker(1_000)).toEqual({ engine: 'ocr', at: deadline.at - 1_000, limitMs: 30_000 });
  });
});
