// The HTTP face of async jobs: `"async": true` on any POST operation, answered 202 with the
// job's id once the job is accepted (every check passed, its place in the queue taken), and
// GET /api/jobs, GET /api/jobs/:id, DELETE /api/jobs/:id. What ends before it is accepted is
// answered as the synchronous request would have been: errors with their status; a success
// (e.g. a batch whose every file failed its checks) as 202 with the job already finished.
// The routes speak to a JobStore: the embedded registry or the shared queue alike.

import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { JobStore } from '../jobs/registry.js';
import type { OperationResult } from '../operations/operation.js';
import { jobBody } from '../operations/envelope.js';
import type { DeleteRoute, GetRoute, RouteAnswer } from './route.js';

export const JOBS_PATH = '/api/jobs';
const JOBS_TAG = 'Jobs';

const jobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

export const asyncFlag = z.boolean().optional().describe('run as a job: answered 202 with a jobId once the request passed its checks; poll GET /api/jobs/{id}');

export const callbackUrlField = z
  .string()
  .optional()
  .describe('with async: when the job ends, its GET /api/jobs/{id} body is POSTed here (signed with --webhook-secret; hosts allowed by --webhook-allow)');

export const acceptedData = z.object({
  jobId: z.string(),
  status: jobStatus,
  statusUrl: z.string().describe('GET it for the status, progress and result'),
});

const jobState = z.object({
  jobId: z.string(),
  operation: z.string().describe('the operation id, e.g. pdf/merge'),
  status: jobStatus,
  progress: z.object({ done: z.number().int(), total: z.number().int() }).describe('items (files, pages) done of total; only grows'),
  createdAt: z.string().describe('ISO 8601'),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  callback: z
    .object({ url: z.string(), attempts: z.number().int(), delivered: z.boolean(), lastError: z.string().optional() })
    .optional()
    .describe("the callbackUrl's delivery, when the request gave one"),
});

const jobData = jobState.extend({
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('once finished: the body the synchronous request would have answered (an error envelope when failed)'),
});

/** The fields that ask for a job rather than being the operation's: `async`, `callbackUrl`. */
export interface JobFields {
  runAsync: boolean;
  callbackUrl: string | undefined;
  /** The body without them: the operation's own request. */
  body: Record<string, unknown>;
}

/** `async` must be a boolean when given (`true` asks for a job); `callbackUrl` a string, and only with it. */
export function jobFields(raw: Readonly<Record<string, unknown>>): JobFields {
  const { async: flag, callbackUrl, ...body } = raw;
  if (flag !== undefined && typeof flag !== 'boolean') throw new ApiError('VALIDATION_ERROR', 'Invalid request: async: must be a boolean');
  if (callbackUrl !== undefined && typeof callbackUrl !== 'string') throw new ApiError('VALIDATION_ERROR', 'Invalid request: callbackUrl: must be a string');
  if (callbackUrl !== undefined && flag !== true)
    throw new ApiError('VALIDATION_ERROR', 'Invalid request: callbackUrl is for async requests: add "async": true');
  return { runAsync: flag === true, callbackUrl, body };
}

export async function submitJob(jobs: JobStore<OperationResult>, operation: string, fields: JobFields, input: unknown): Promise<RouteAnswer> {
  const { body, callbackUrl } = fields;
  const submission = await jobs.submit({ operation, body, total: itemCount(input), ...(callbackUrl !== undefined && { callbackUrl }) });
  if ('error' in submission) throw submission.error;
  const { jobId, status } = submission.job;
  const statusUrl = `${JOBS_PATH}/${jobId}`;
  return { status: 202, message: `Job ${jobId} accepted; GET ${statusUrl} for its progress and result`, data: { jobId, status, statusUrl } };
}

export function jobRoutes(jobs: JobStore<OperationResult>): (GetRoute | DeleteRoute)[] {
  return [
    {
      method: 'GET',
      path: JOBS_PATH,
      summary: 'List the async jobs kept (running, and finished ones for the retention time)',
      tag: JOBS_TAG,
      data: z.object({ jobs: z.array(jobState) }),
      handle: async () => {
        const list = await jobs.list();
        return { message: `${list.length} job(s)`, data: { jobs: list.map(jobBody) } };
      },
    },
    {
      method: 'GET',
      path: `${JOBS_PATH}/:id`,
      summary: "An async job's status, progress and, once finished, its result",
      tag: JOBS_TAG,
      data: jobData,
      handle: async ({ id }) => {
        const job = await jobs.get(String(id));
        return { message: `Job ${job.status}`, data: jobBody(job) };
      },
    },
    {
      method: 'DELETE',
      path: `${JOBS_PATH}/:id`,
      summary: 'Cancel a queued or running job (no output, no temp file); a finished job is left as it is',
      tag: JOBS_TAG,
      data: jobData,
      handle: async ({ id }) => {
        const job = await jobs.cancel(String(id));
        return { message: job.status === 'cancelled' ? 'Job cancelled' : `Job already ${job.status}`, data: jobBody(job) };
      },
    },
  ];
}

/** Operations that take several files count them; the others are one item until they report (pages). */
function itemCount(input: unknown): number {
  const files = (input as { files?: unknown } | null)?.files;
  return Array.isArray(files) ? files.length : 1;
}
