// PP-OCR's WebAssembly threads per OCR worker: the cores shared among the pool's workers, and of
// those only the cores the machine leaves idle when a worker starts (core/paddle-threads.ts,
// src/engines/idle-cores.ts; the measurements behind it are in docs/ocr-measurements.md and
// docs/ocr-engines.md, issue 46).

import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { paddleThreadsPerWorker } from '../../core/paddle-threads.js';
import { idleCores } from '../../src/engines/idle-cores.js';
import { stopAtEnd } from '../helpers/cleanup.js';

describe('PP-OCR threads per OCR worker', () => {
  it('gives each worker one thread when the pool runs a worker per core (the default)', () => {
    expect(paddleThreadsPerWorker(2, 2)).toBe(1);
    expect(paddleThreadsPerWorker(8, 8)).toBe(1);
    expect(paddleThreadsPerWorker(2, 2, 2)).toBe(1);
  });

  it('shares the cores out when the pool runs fewer workers than cores, at most 4 threads', () => {
    expect(paddleThreadsPerWorker(2, 1)).toBe(2);
    expect(paddleThreadsPerWorker(8, 3)).toBe(2);
    expect(paddleThreadsPerWorker(16, 1)).toBe(4);
    expect(paddleThreadsPerWorker(2, 1, 1.85)).toBe(2);
  });

  it('gives one thread when other processes keep the cores busy, even to a lone worker (2 threads were twice as slow then)', () => {
    expect(paddleThreadsPerWorker(2, 1, 0.3)).toBe(1);
    expect(paddleThreadsPerWorker(2, 1, 1.2)).toBe(1);
    // Only the idle cores: 4 cores of which 2.7 are idle give 2 threads, not 4.
    expect(paddleThreadsPerWorker(4, 1, 2.7)).toBe(2);
  });

  it('never gives fewer than one thread', () => {
    expect(paddleThreadsPerWorker(1, 4)).toBe(1);
    expect(paddleThreadsPerWorker(2, 0)).toBe(2);
    expect(paddleThreadsPerWorker(2, 1, 0)).toBe(1);
  });
});

describe('idle cores', () => {
  it('counts a core kept busy by another process as not idle', { timeout: 60_000 }, async () => {
    // One busy loop per core the kernel lists (idleCores counts them all): less than one stays idle.
    const cores = os.cpus().length;
    const burners = Array.from({ length: cores }, () => stopAtEnd(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const idle = await idleCores();
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(idle).toBeLessThan(1);
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
    }
  });
});
