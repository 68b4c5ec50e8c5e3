// Async jobs seen from a test, for cases that need a job observably holding an engine: a POST with
// `async: true` is answered 202 only once the job holds its place in its engine's queue
// (docs/api.md, "Long work"), whatever this machine's speed.

import { expect } from 'vitest';
import type { RunningService } from './service.js';

export interface JobState {
  jobId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: { done: number; total: number };
  result?: Record<string, unknown>;
}

const FINISHED: readonly string[] = ['succeeded', 'failed', 'cancelled'];

/** Submits `body` to `route` as an async job; resolves once it holds its place (202). */
export async function submitHeld(service: RunningService, route: string, body: Record<string, unknown>): Promise<string> {
  const response = await service.post(route, { ...body, async: true });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return (response.body.data as { jobId: string }).jobId;
}

/** Polls the job until it has finished; fails past `timeoutMs` (a bound against hangs only). */
export async function finishedJob(service: RunningService, jobId: string, timeoutMs = 120_000): Promise<JobState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await service.get(`/api/jobs/${jobId}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const job = body.data as unknown as JobState;
    if (FINISHED.includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
