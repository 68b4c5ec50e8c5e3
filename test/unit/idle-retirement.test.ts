import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleRetirement } from '../../src/jobs/idle-retirement.js';

describe('IdleRetirement', () => {
  afterEach(() => vi.useRealTimers());

  it('retires once the idle timeout passes after the last job ends, not before', () => {
    vi.useFakeTimers();
    const retire = vi.fn();
    const idle = new IdleRetirement(1_000, retire);
    const end = idle.begin();
    vi.advanceTimersByTime(5_000);
    expect(retire).not.toHaveBeenCalled();
    end();
    vi.advanceTimersByTime(999);
    expect(retire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(retire).toHaveBeenCalledTimes(1);
  });

  it('waits for every job, and a job begun in the idle time stops the clock', () => {
    vi.useFakeTimers();
    const retire = vi.fn();
    const idle = new IdleRetirement(1_000, retire);
    const endA = idle.begin();
    const endB = idle.begin();
    endA();
    endA(); // ending twice counts once
    vi.advanceTimersByTime(2_000);
    expect(retire).not.toHaveBeenCalled();
    endB();
    vi.advanceTimersByTime(500);
    const endC = idle.begin();
    vi.advanceTimersByTime(2_000);
    expect(retire).not.toHaveBeenCalled();
    endC();
    vi.advanceTimersByTime(1_000);
    expect(retire).toHaveBeenCalledTimes(1);
  });

  it('waits another idle timeout while the engine says it is busy otherwise', () => {
    vi.useFakeTimers();
    const retire = vi.fn();
    let queued = true;
    const idle = new IdleRetirement(1_000, retire, () => queued);
    idle.begin()();
    vi.advanceTimersByTime(1_000);
    expect(retire).not.toHaveBeenCalled();
    queued = false;
    vi.advanceTimersByTime(1_000);
    expect(retire).toHaveBeenCalledTimes(1);
  });

  it('never retires without an idle timeout or once closed', () => {
    vi.useFakeTimers();
    const retire = vi.fn();
    new IdleRetirement(undefined, retire).begin()();
    const closed = new IdleRetirement(1_000, retire);
    closed.begin()();
    closed.close();
    vi.advanceTimersByTime(10_000);
    expect(retire).not.toHaveBeenCalled();
  });
});
