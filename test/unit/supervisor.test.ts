// The one supervisor's own policy (src/jobs/supervisor.ts), on real instances: each instance is a
// node process that only waits, so "running", "stopped" and "retired" are facts about real pids.
// What is checked: one backoff after a failed start, the least recently used idle instance
// retired when the memory budget needs room, replacement after N uses (kept warm), the shutdown
// gate, and waiting in line for the one seat. Runs the built modules (dist/).

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';

type SupervisorModule = typeof import('../../src/jobs/supervisor.js');
type BudgetModule = typeof import('../../src/jobs/memory-budget.js');
type ErrorsModule = typeof import('../../core/errors.js');
const { Supervisor, START_BACKOFF_MS } = (await import(path.resolve('dist/src/jobs/supervisor.js'))) as SupervisorModule;
const { MemoryBudget } = (await import(path.resolve('dist/src/jobs/memory-budget.js'))) as BudgetModule;
const { ApiError } = (await import(path.resolve('dist/core/errors.js'))) as ErrorsModule;

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Real instances: node processes that wait; `failStarts` starts fail before any spawns. */
function sleepers(failStarts = 0) {
  const started: ChildProcess[] = [];
  let failures = failStarts;
  let attempts = 0;
  const process = {
    start: async () => {
      attempts += 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error('no such program');
      }
      const child = stopAtEnd(spawn(globalThis.process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' }));
      await new Promise((resolve) => child.once('spawn', resolve));
      started.push(child);
      return child;
    },
    stop: async (child: ChildProcess) => {
      if (!alive(child)) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    healthy: (child: ChildProcess) => alive(child),
    memory: (child: ChildProcess) => ({ pid: child.pid }),
  };
  return { process, started, attempts: () => attempts };
}

const options = {
  engine: 'test',
  label: 'test instance',
  size: 1,
  costMb: 100,
  idleMs: undefined,
  waitMs: 60_000,
  startFailed: (reason: string) => new ApiError('BACKEND_UNAVAILABLE', `could not be started: ${reason}`),
};

afterEach(() => vi.useRealTimers());

describe('Supervisor', () => {
  it('after a failed start, refuses work at once for the backoff, then tries one start again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { process, started, attempts } = sleepers(2);
    const supervisor = new Supervisor(process, { ...options, startAttempts: 1 });
    try {
      await expect(supervisor.run(undefined, async () => 'done')).rejects.toThrow(/could not be started: no such program/);
      expect(attempts()).toBe(1);
      // Within the backoff: refused without another start.
      await expect(supervisor.run(undefined, async () => 'done')).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
      expect(attempts()).toBe(1);
      vi.setSystemTime(Date.now() + START_BACKOFF_MS + 1);
      await expect(supervisor.run(undefined, async () => 'done')).rejects.toThrow(/no such program/);
      expect(attempts()).toBe(2);
      vi.setSystemTime(Date.now() + START_BACKOFF_MS + 1);
      expect(await supervisor.run(undefined, async (child) => child.pid)).toBe(started[0]?.pid);
      expect(attempts()).toBe(3);
    } finally {
      await supervisor.close();
    }
  });

  it('tries a start `startAttempts` times in a row before it counts as failed', async () => {
    const { process, attempts } = sleepers(2);
    const supervisor = new Supervisor(process, { ...options, startAttempts: 3 });
    try {
      expect(await supervisor.run(undefined, async () => 'done')).toBe('done');
      expect(attempts()).toBe(3);
    } finally {
      await supervisor.close();
    }
  });

  it('makes room in the memory budget by retiring the least recently used idle instance, of any engine', async () => {
    const budget = new MemoryBudget(250);
    const a = sleepers();
    const b = sleepers();
    const first = new Supervisor(a.process, { ...options, engine: 'first', size: 2, budget });
    const second = new Supervisor(b.process, { ...options, engine: 'second', budget });
    try {
      // Two instances of `first`, both idle.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const both = Promise.all([first.run(undefined, () => held), first.run(undefined, () => held)]);
      await vi.waitFor(() => expect(first.instances).toBe(2), { timeout: 30_000 });
      release();
      await both;
      // Used once more: the other instance is now the one used least recently.
      const newer = await first.run(undefined, async (child) => child);
      const older = a.started.find((child) => child !== newer) as ChildProcess;
      // `second` needs 100 MB more than the 50 left: the instance used longest ago goes, the other stays.
      await second.run(undefined, async () => undefined);
      await vi.waitFor(() => expect(alive(older)).toBe(false), { timeout: 30_000 });
      expect(alive(newer)).toBe(true);
      expect(first.instances).toBe(1);
      expect(budget.health().committedMb).toBe(200);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('answers TOO_LARGE when one instance alone is more than the budget, starting nothing', async () => {
    const { process, attempts } = sleepers();
    const supervisor = new Supervisor(process, { ...options, costMb: 300, budget: new MemoryBudget(200) });
    try {
      await expect(supervisor.run(undefined, async () => 'done')).rejects.toMatchObject({ code: 'TOO_LARGE' });
      expect(attempts()).toBe(0);
    } finally {
      await supervisor.close();
    }
  });

  it('replaces an instance after N uses and, kept warm, starts its successor with no work waiting', async () => {
    const { process, started } = sleepers();
    const supervisor = new Supervisor(process, { ...options, recycle: { jobs: 2 }, keepWarm: true });
    try {
      const pids = [await supervisor.run(undefined, async (c) => c.pid), await supervisor.run(undefined, async (c) => c.pid)];
      expect(pids[0]).toBe(pids[1]);
      await vi.waitFor(() => expect(started.length).toBe(2), { timeout: 30_000 });
      expect(alive(started[0] as ChildProcess)).toBe(false);
      await vi.waitFor(() => expect(supervisor.state()).toBe('ready'), { timeout: 30_000 });
      expect(await supervisor.run(undefined, async (c) => c.pid)).toBe(started[1]?.pid);
    } finally {
      await supervisor.close();
    }
  });

  it('replaces an instance its work asked to be replaced, and one found dead, before handing it out again', async () => {
    const { process, started } = sleepers();
    const supervisor = new Supervisor(process, options);
    try {
      await supervisor.run(undefined, async (_, use) => use.replace());
      await vi.waitFor(() => expect(alive(started[0] as ChildProcess)).toBe(false), { timeout: 30_000 });
      const second = await supervisor.run(undefined, async (c) => c);
      second.kill('SIGKILL');
      await vi.waitFor(() => expect(alive(second)).toBe(false), { timeout: 30_000 });
      const third = await supervisor.run(undefined, async (c) => c);
      expect(third).not.toBe(second);
      expect(started).toHaveLength(3);
    } finally {
      await supervisor.close();
    }
  });

  it('serves waiting work oldest first; a cancelled entry leaves the line; close answers the rest BUSY and stops every instance', async () => {
    const { process, started } = sleepers();
    const supervisor = new Supervisor(process, { ...options, gateName: 'test conversion' });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const running = supervisor.run(undefined, () => held.then(() => order.push('first')));
    await vi.waitFor(() => expect(supervisor.state()).toBe('busy'), { timeout: 30_000 });
    const cancel = new AbortController();
    const cancelled = supervisor.run(cancel.signal, async () => order.push('cancelled'));
    const second = supervisor.run(undefined, async () => order.push('second'));
    cancel.abort(new Error('cancelled by its caller'));
    await expect(cancelled).rejects.toThrow('cancelled by its caller');
    release();
    await Promise.all([running, second]);
    expect(order).toEqual(['first', 'second']);

    const again = supervisor.run(undefined, () => new Promise(() => {})); // never ends: close() stops its instance under it
    const waiting = supervisor.run(undefined, async () => 'never').catch((err: unknown) => err);
    await supervisor.close();
    expect(await waiting).toMatchObject({ code: 'BUSY', message: expect.stringMatching(/shutting down; the test conversion job/) });
    await expect(supervisor.run(undefined, async () => 'late')).rejects.toMatchObject({ code: 'BUSY' });
    expect(started.every((child) => !alive(child))).toBe(true);
    void again;
  });
});
