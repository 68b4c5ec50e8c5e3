import { describe, expect, it } from 'vitest';
import { RECYCLE_AFTER, RecycleMeter } from '../../core/recycle.js';

describe('RecycleMeter', () => {
  it('is due after the number of jobs, then counts again from zero', () => {
    const meter = new RecycleMeter({ jobs: 3 });
    expect([meter.record(), meter.record(), meter.record()]).toEqual([false, false, true]);
    expect([meter.record(), meter.record(), meter.record()]).toEqual([false, false, true]);
  });

  it('counts a job of several files as that many (an office invocation)', () => {
    const meter = new RecycleMeter({ jobs: RECYCLE_AFTER.officeFiles });
    expect(meter.record({ count: RECYCLE_AFTER.officeFiles - 1 })).toBe(false);
    expect(meter.record({ count: 2 })).toBe(true);
  });

  it('is due at once after a job as large as the size limit, or a failed job', () => {
    const meter = new RecycleMeter({ jobs: 40, jobSize: RECYCLE_AFTER.ocrImagePixels });
    expect(meter.record({ size: RECYCLE_AFTER.ocrImagePixels - 1 })).toBe(false);
    expect(meter.record({ size: RECYCLE_AFTER.ocrImagePixels })).toBe(true);
    expect(meter.record({ failed: true })).toBe(true);
  });

  it('is due when the process grew past the resident limit', () => {
    let rss = 100;
    const meter = new RecycleMeter({ rssBytes: 1_000 }, () => rss);
    expect(meter.record()).toBe(false);
    rss = 1_001;
    expect(meter.record()).toBe(true);
  });

  it('is never due without limits', () => {
    const meter = new RecycleMeter({});
    for (let i = 0; i < 1_000; i++) expect(meter.record({ size: Number.MAX_SAFE_INTEGER })).toBe(false);
  });
});
