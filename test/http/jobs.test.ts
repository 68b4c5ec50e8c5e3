// Async jobs over HTTP as docs/api.md states them ("Long work"): 202 once
// accepted, the synchronous answer as the job's result, cancel with no output and no temp file,
// progress that only grows, 404 JOB_NOT_FOUND for unknown and expired jobs.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, TEXT_LINE, type DocumentFixtures } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, tempDir, type ApiResponse, type RunningService } from '../helpers/service.js';
import { pageCount, pdfPageTexts, qpdfCheck } from '../helpers/tools.js';
import { pollJob, type JobState } from '../helpers/jobs.js';

const LONG = 240_000;

let service: RunningService;
let dir: string;
let fx: DocumentFixtures;
const file = (name: string) => path.join(dir, name);

function put(name: string, content: Buffer | string): string {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), content);
  return name;
}

function del(target: RunningService, route: string): Promise<ApiResponse> {
  return fetch(target.baseUrl + route, { method: 'DELETE' }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: (await r.json()) as ApiResponse['body'],
  }));
}

/** Submits with `async: true` and expects 202 with a job id. */
async function submit(route: string, body: Record<string, unknown>, target = service): Promise<string> {
  const response = await target.post(route, { ...body, async: true });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  const data = response.body.data as { jobId: string; status: string; statusUrl: string };
  expect(response.body.success).toBe(true);
  expect(data.statusUrl).toBe(`/api/jobs/${data.jobId}`);
  return data.jobId;
}

/** Every state of the job seen until `until` holds (by default: finished). */
const poll = (jobId: string, until?: (job: JobState) => boolean, target = service, timeoutMs = LONG - 30_000): Promise<JobState[]> =>
  pollJob(target, jobId, { until, timeoutMs });

const last = (states: JobState[]) => states[states.length - 1] as JobState;

beforeAll(async () => {
  dir = tempDir('docwasm-jobs-');
  [fx, service] = await Promise.all([documentFixtures(), startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1', '--queue-limit', '1'])]);
  put('a.pdf', makePdf({ pages: ['Alpha'] }));
  put('b.pdf', makePdf({ pages: ['Bravo', 'Charlie'] }));
  put('broken.pdf', '%PDF-1.7\nthis is not a PDF body at all\n');
  const docx = fs.readFileSync(fx.text[0] as string);
  for (let i = 1; i <= 4; i++) put(`docs/doc${i}.docx`, docx);
  put('docs/corrupt.docx', docx.subarray(0, 1000));
  // Several seconds of PDF export each: with one office, the batch is long by construction.
  for (let i = 1; i <= 6; i++) put(`big/big${i}.docx`, fs.readFileSync(fx.big));
  // Starts the office, so that the cancel test catches a conversion in progress.
  const warm = await service.post('/api/convert', { input: 'docs/doc1.docx', output: 'warm/doc1.pdf', format: 'pdf' });
  expect(warm.status, JSON.stringify(warm.body)).toBe(200);
}, LONG);

afterAll(async () => {
  await service?.stop();
  for (const d of [dir, service?.dir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('async success', () => {
  it('answers 202, then the job succeeds with the synchronous answer as its result', async () => {
    const jobId = await submit('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'merged-async.pdf' });
    const job = last(await poll(jobId));
    const sync = await service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'merged-sync.pdf' });

    expect(job).toMatchObject({ jobId, operation: 'pdf/merge', status: 'succeeded', progress: { done: 2, total: 2 } });
    expect(job.result).toEqual({ ...sync.body, outputPath: file('merged-async.pdf') });
    expect(Date.parse(job.createdAt)).toBeLessThanOrEqual(Date.parse(job.startedAt as string));
    expect(Date.parse(job.startedAt as string)).toBeLessThanOrEqual(Date.parse(job.finishedAt as string));
    expect(qpdfCheck(file('merged-async.pdf'))).toBe(true);
    expect(pageCount(file('merged-async.pdf'))).toBe(3);
    expect(pdfPageTexts(file('merged-async.pdf'))).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });

  it(
    'runs a batch conversion; progress only grows and ends at done = total',
    async () => {
      const files = ['docs/doc1.docx', 'docs/doc2.docx', 'docs/corrupt.docx', 'docs/doc3.docx', 'docs/doc4.docx'];
      const jobId = await submit('/api/convert/batch', { files, format: 'pdf', outputDir: 'batch' });
      const states = await poll(jobId);
      const job = last(states);

      expect(job.status).toBe('succeeded');
      for (const [earlier, later] of states.slice(1).map((s, i) => [states[i] as JobState, s] as const)) {
        expect(later.progress.done).toBeGreaterThanOrEqual(earlier.progress.done);
        expect(later.progress.total).toBeGreaterThanOrEqual(earlier.progress.total);
      }
      for (const state of states) expect(state.progress.done).toBeLessThanOrEqual(state.progress.total);
      expect(job.progress).toEqual({ done: 5, total: 5 });
      // One bad file fails alone: the job did its work, the result says which item failed.
      expect(job.result).toMatchObject({ success: false, data: { total: 5, succeeded: 4, failed: 1 } });
      const results = job.result?.data?.results as { input: string; success: boolean; code?: string }[];
      expect(results.map((r) => [r.input, r.success, r.code])).toEqual([
        ['docs/doc1.docx', true, undefined],
        ['docs/doc2.docx', true, undefined],
        ['docs/corrupt.docx', false, 'INVALID_INPUT'],
        ['docs/doc3.docx', true, undefined],
        ['docs/doc4.docx', true, undefined],
      ]);
      for (const i of [1, 2, 3, 4]) expect(pdfPageTexts(file(`batch/doc${i}.pdf`)).join('\n')).toContain(TEXT_LINE);
      expect(fs.existsSync(file('batch/corrupt.pdf'))).toBe(false);
      expect(leftoverTempFiles(file('batch'))).toEqual([]);
    },
    LONG,
  );
});

describe('async failure', () => {
  it('ends failed, with the error envelope as result, when the operation fails after it started', async () => {
    const jobId = await submit('/api/pdf/merge', { files: ['a.pdf', 'broken.pdf'], output: 'never.pdf' });
    const job = last(await poll(jobId));
    expect(job.status).toBe('failed');
    expect(job.result).toEqual({ success: false, error: expect.any(String), code: 'INVALID_INPUT' });
    expect(job.finishedAt).toBeDefined();
    expect(fs.existsSync(file('never.pdf'))).toBe(false);
    expect(leftoverTempFiles(dir).filter((f) => path.dirname(f) === dir)).toEqual([]);
  });

  it('answers what the synchronous request would have answered when the request fails its checks', async () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['/api/pdf/merge', { files: [] }, 400, 'VALIDATION_ERROR'],
      ['/api/pdf/merge', { files: ['a.pdf'], output: 'x.pdf', async: 'yes' }, 400, 'VALIDATION_ERROR'],
      ['/api/pdf/merge', { files: ['a.pdf', 'missing.pdf'], output: 'x.pdf' }, 404, 'FILE_NOT_FOUND'],
      ['/api/pdf/merge', { files: ['a.pdf', '/etc/hostname'], output: 'x.pdf' }, 403, 'PATH_NOT_ALLOWED'],
      ['/api/convert', { input: 'docs/doc1.docx', output: 'x.xlsx', format: 'xlsx' }, 422, 'UNSUPPORTED_CONVERSION'],
    ];
    for (const [route, body, status, code] of cases) {
      const asyncAnswer = await service.post(route, { async: true, ...body });
      const syncAnswer = await service.post(route, body);
      expect([asyncAnswer.status, asyncAnswer.body.code], route).toEqual([status, code]);
      expect(asyncAnswer.body).toEqual(syncAnswer.body);
    }
    expect(fs.existsSync(file('x.pdf'))).toBe(false);
  });

  it('answers 202 with the job already finished when every item of a batch failed its checks', async () => {
    const response = await service.post('/api/convert/batch', { files: ['docs/corrupt.docx', 'docs/missing.docx'], format: 'pdf', async: true });
    expect(response.status).toBe(202);
    const { jobId, status } = response.body.data as { jobId: string; status: string };
    expect(status).toBe('succeeded');
    const job = last(await poll(jobId));
    expect(job.result).toMatchObject({ success: false, data: { total: 2, succeeded: 0, failed: 2 } });
    expect(job.progress).toEqual({ done: 2, total: 2 });
  });
});

describe('cancel', () => {
  it(
    'stops a running batch: cancelled, no output, no temp file, and the next job is served',
    async () => {
      const files = fs.readdirSync(file('big')).map((name) => `big/${name}`);
      const jobId = await submit('/api/convert/batch', { files, format: 'pdf', outputDir: 'cancelled' });
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      const cancelled = await del(service, `/api/jobs/${jobId}`);
      expect(cancelled.status).toBe(200);
      const job = cancelled.body.data as unknown as JobState;
      expect(job).toMatchObject({ jobId, status: 'cancelled' });
      expect(job.result).toBeUndefined();
      expect(job.progress.done).toBeLessThan(job.progress.total);
      const outputs = fs.existsSync(file('cancelled')) ? fs.readdirSync(file('cancelled')) : [];
      expect(outputs).toEqual([]);
      expect(leftoverTempFiles(dir)).toEqual([]);

      // Stays cancelled; a second DELETE changes nothing.
      expect((await service.get(`/api/jobs/${jobId}`)).body.data).toMatchObject({ status: 'cancelled' });
      expect((await del(service, `/api/jobs/${jobId}`)).body.data).toMatchObject({ status: 'cancelled' });

      const next = await service.post('/api/convert', { input: 'docs/doc2.docx', output: 'after-cancel.pdf', format: 'pdf' });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(pdfPageTexts(file('after-cancel.pdf')).join('\n')).toContain(TEXT_LINE);
    },
    LONG,
  );

  it(
    'obeys the queue: BUSY at submission when it is full',
    async () => {
      const files = fs.readdirSync(file('big')).map((name) => `big/${name}`);
      // One office and --queue-limit 1: two conversions fill the document queue.
      const first = await submit('/api/convert/batch', { files, format: 'pdf', outputDir: 'busy1' });
      const second = await submit('/api/convert/batch', { files, format: 'pdf', outputDir: 'busy2' });
      const refused = await service.post('/api/convert/batch', { files, format: 'pdf', outputDir: 'busy3', async: true });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('BUSY');
      expect(refused.headers.get('retry-after')).toBeTruthy();
      for (const jobId of [second, first]) expect((await del(service, `/api/jobs/${jobId}`)).body.data).toMatchObject({ status: 'cancelled' });
      for (const out of ['busy1', 'busy2', 'busy3']) expect(fs.existsSync(file(out)) ? fs.readdirSync(file(out)) : []).toEqual([]);
      expect(leftoverTempFiles(dir)).toEqual([]);
    },
    LONG,
  );

  it('leaves a finished job as it is', async () => {
    const jobId = await submit('/api/pdf/merge', { files: ['a.pdf'], output: 'kept.pdf' });
    await poll(jobId);
    const response = await del(service, `/api/jobs/${jobId}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'succeeded', result: { success: true } });
    expect(qpdfCheck(file('kept.pdf'))).toBe(true);
  });
});

describe('shutdown', () => {
  it(
    'cancels the running jobs: no output and no temp file are left',
    async () => {
      const other = await startService(['--base-dir', dir, '--workers', '1']);
      try {
        const files = fs.readdirSync(file('big')).map((name) => `big/${name}`);
        await submit('/api/convert/batch', { files, format: 'pdf', outputDir: 'shutdown' }, other);
        expect(await other.stop('SIGTERM')).toBe(0);
        const outputs = fs.existsSync(file('shutdown')) ? fs.readdirSync(file('shutdown')) : [];
        expect(outputs).toEqual([]);
        expect(leftoverTempFiles(dir)).toEqual([]);
      } finally {
        await other.stop();
        fs.rmSync(other.dir, { recursive: true, force: true });
      }
    },
    LONG,
  );
});

describe('job lookup', () => {
  it('answers 404 JOB_NOT_FOUND for an unknown id, on GET and DELETE', async () => {
    for (const response of [await service.get('/api/jobs/no-such-job'), await del(service, '/api/jobs/no-such-job')]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: expect.any(String), code: 'JOB_NOT_FOUND' });
    }
  });

  it('lists the jobs kept, without their results', async () => {
    const jobId = await submit('/api/pdf/merge', { files: ['b.pdf'], output: 'listed.pdf' });
    await poll(jobId);
    const { status, body } = await service.get('/api/jobs');
    expect(status).toBe(200);
    const jobs = (body.data as { jobs: JobState[] }).jobs;
    expect(jobs.find((job) => job.jobId === jobId)).toEqual({
      jobId,
      operation: 'pdf/merge',
      status: 'succeeded',
      progress: { done: 1, total: 1 },
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    expect(jobs.length).toBeGreaterThan(1);
  });

  it('answers 405 for a wrong method on a job', async () => {
    const response = await service.post('/api/jobs/anything', {});
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, DELETE');
  });
});

describe('expiry', () => {
  it('forgets a finished job after the retention time (--job-retention)', async () => {
    const short = await startService(['--job-retention', '1']);
    try {
      fs.writeFileSync(path.join(short.dir, 'a.pdf'), makePdf({ pages: ['Alpha'] }));
      const jobId = await submit('/api/pdf/merge', { files: ['a.pdf'], output: 'out.pdf' }, short);
      const finished = last(await poll(jobId, undefined, short));
      expect(finished.status).toBe('succeeded');
      const deadline = Date.now() + 60_000;
      let response = await short.get(`/api/jobs/${jobId}`);
      while (response.status === 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        response = await short.get(`/api/jobs/${jobId}`);
      }
      expect(Date.now() - Date.parse(finished.finishedAt as string)).toBeGreaterThanOrEqual(1_000);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('JOB_NOT_FOUND');
      const list = await short.get('/api/jobs');
      expect((list.body.data as { jobs: JobState[] }).jobs.map((job) => job.jobId)).not.toContain(jobId);
    } finally {
      await short.stop();
      fs.rmSync(short.dir, { recursive: true, force: true });
    }
  });
});

describe('OpenAPI', () => {
  it('documents the async flag, the 202 answer and the job endpoints', async () => {
    const { body } = await service.get('/openapi.json');
    const paths = body.paths as Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
          responses: Record<string, unknown>;
          parameters?: unknown[];
        }
      >
    >;
    for (const [route, methods] of Object.entries(paths)) {
      if (!methods.post) continue;
      expect(methods.post.requestBody?.content['application/json']?.schema.properties.async, route).toMatchObject({ type: 'boolean' });
      expect(methods.post.responses['202'], route).toBeDefined();
    }
    expect(Object.keys(paths['/api/jobs/{id}'] ?? {}).sort()).toEqual(['delete', 'get']);
    expect(paths['/api/jobs/{id}']?.get?.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(paths['/api/jobs']?.get).toBeDefined();
  });
});
