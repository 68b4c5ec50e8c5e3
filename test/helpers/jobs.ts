// Async jobs seen from a test: submitted with `async: true` (answered 202 once the job holds its
// place in its engine's queue, docs/api.md "Long work", whatever this machine's speed) and
// polled at GET /api/jobs/<id> until a state the test waits for.

import { expect } from 'vitest';
import type { RunningService } from './service.js';

export interface JobState {
  jobId: string;
  operation: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: { done: number; total: number };
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  result?: Record<string, unknown> & { success?: boolean; text?: string; data?: Record<string, unknown> };
}

const FINISHED: readonly string[] = ['succeeded', 'failed', 'cancelled'];
export const isFinished = (job: JobState): boolean => FINISHED.includes(job.status);

/** Submits `body` to `route` as an async job; resolves once it holds its place (202). */
export async function submitHeld(service: RunningService, route: string, body: Record<string, unknown>): Promise<string> {
  const response = await service.post(route, { ...body, async: true });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return (response.body.data as { jobId: string }).jobId;
}

/**
 * Polls the job, backing off from 20 ms to 500 ms, until `until` holds (by default: finished);
 * answers every state seen. Fails past `timeoutMs`, a bound against hangs only.
 */
export async function pollJob(
  service: RunningService,
  jobId: string,
  { until = isFinished, timeoutMs = 120_000 }: { until?: (job: JobState) => boolean; timeoutMs?: number } = {},
): Promise<JobState[]> {
  const seen: JobState[] = [];
  const deadline = Date.now() + timeoutMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    const { status, body } = await service.get(`/api/jobs/${jobId}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const job = body.data as unknown as JobState;
    seen.push(job);
    if (until(job)) return seen;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** The job's state once it has finished. */
export async function finishedJob(service: RunningService, jobId: string, timeoutMs?: number): Promise<JobState> {
  return (await pollJob(service, jobId, { timeoutMs })).at(-1) as JobState;
}
