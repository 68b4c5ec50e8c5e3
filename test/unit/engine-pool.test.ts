// The engine pool's start (issue 19, first-use latency): one worker for the first job, more only
// for tasks that find every worker busy. Runs the built pool (dist/): its workers are the built
// wasm/*/worker.js.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PdfTasks } from '../../wasm/pdf/worker.js';

type EnginePoolModule = typeof import('../../src/jobs/engine-pool.js');
const { EnginePool } = (await import(path.resolve('dist/src/jobs/engine-pool.js'))) as EnginePoolModule;

describe('EnginePool start', () => {
  it('starts one worker for the first job and grows, up to its threads, only when tasks find every worker busy', async () => {
    const pool = new EnginePool<PdfTasks>({
      name: 'pdf',
      threads: 3,
      maxQueue: 10,
      timeoutMs: 120_000,
      idleTimeoutMs: 600_000,
      workerData: { engine: 'mupdf' },
    });
    try {
      expect(pool.workers).toBe(0);
      await pool.job({}, async () => undefined);
      expect(pool.workers).toBe(1);
      // Four tasks at once (each fails at once: its file is not there); the fourth waits for a thread.
      const missing = { path: path.resolve('no-such-dir', 'missing.pdf') };
      const outcomes = await pool.job({}, (tasks) => Promise.allSettled([1, 2, 3, 4].map(() => tasks.info({ input: missing }))));
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      expect(pool.workers).toBe(3);
    } finally {
      await pool.close();
    }
    expect(pool.workers).toBe(0);
  });
});
