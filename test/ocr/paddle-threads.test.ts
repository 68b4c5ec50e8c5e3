// PP-OCR's WebAssembly threads per OCR worker: the cores shared among the pool's workers
// (core/paddle-threads.ts; the measurements behind it are in docs/ocr-measurements.md).

import { describe, expect, it } from 'vitest';
import { paddleThreadsPerWorker } from '../../core/paddle-threads.js';

describe('PP-OCR threads per OCR worker', () => {
  it('gives each worker one thread when the pool runs a worker per core (the default)', () => {
    expect(paddleThreadsPerWorker(2, 2)).toBe(1);
    expect(paddleThreadsPerWorker(8, 8)).toBe(1);
  });

  it('shares the cores out when the pool runs fewer workers than cores, at most 4 threads', () => {
    expect(paddleThreadsPerWorker(2, 1)).toBe(2);
    expect(paddleThreadsPerWorker(8, 3)).toBe(2);
    expect(paddleThreadsPerWorker(16, 1)).toBe(4);
  });

  it('never gives fewer than one thread', () => {
    expect(paddleThreadsPerWorker(1, 4)).toBe(1);
    expect(paddleThreadsPerWorker(2, 0)).toBe(2);
  });
});
