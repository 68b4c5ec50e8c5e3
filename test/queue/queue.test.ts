// Many machines (CONTRACT "Many machines", issue 48): async jobs on a shared BullMQ queue in a
// real Redis (redis-server, started here), run by `docwasm worker` processes — two workers, a
// worker killed mid-job, a restarted service, cancel and progress across processes, Redis down
// at start and lost mid-run. Every process is the built CLI (dist/), over real HTTP.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finishedJob, pollJob, submitHeld, type JobState } from '../helpers/jobs.js';
import { makePdf } from '../helpers/make-pdf.js';
import { startRedis, startWorker, type RunningRedis } from '../helpers/redis.js';
import { CLI, freePort, leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { pageCount, qpdfCheck } from '../helpers/tools.js';

const LONG = 300_000;
const PAGES = 600;

let redis: RunningRedis;
let dir: string;
const file = (name: string) => path.join(dir, name);

/** What a test started, stopped after it even when it failed half-way. */
const running: { stop(): Promise<unknown> }[] = [];
const started = <T extends { stop(): Promise<unknown> }>(process: T): T => (running.push(process), process);

/** A service on the shared dir and queue; `--no-local-worker` unless `local`. */
const serve = async (flags: string[] = [], { local = false } = {}) =>
  started(await startService(['--base-dir', dir, '--allow-dir', dir, '--queue', redis.url, ...(local ? [] : ['--no-local-worker']), ...flags]));
const work = async (flags: string[] = []) => started(await startWorker(redis.url, ['--base-dir', dir, '--allow-dir', dir, '--workers', '1', ...flags]));

const del = async (service: RunningService, id: string) => {
  const response = await fetch(`${service.baseUrl}/api/jobs/${id}`, { method: 'DELETE' });
  return { status: response.status, body: (await response.json()) as { data: JobState } };
};
const queueHealth = async (service: RunningService) => (await service.get('/api/health')).body.data?.queue as Record<string, unknown>;
const pngs = (folder: string) => (fs.existsSync(file(folder)) ? fs.readdirSync(file(folder)).filter((name) => name.endsWith('.png')) : []);
/** A long job by construction: PAGES pages rendered one by one. */
const longJob = (outputDir: string) => ({ input: 'long.pdf', outputDir, dpi: 36 });

beforeAll(async () => {
  redis = await startRedis();
  dir = tempDir('docwasm-queue-');
  fs.writeFileSync(file('a.pdf'), makePdf({ pages: ['Alpha'] }));
  fs.writeFileSync(file('b.pdf'), makePdf({ pages: ['Bravo', 'Charlie'] }));
  execFileSync('qpdf', ['--empty', '--pages', ...Array.from({ length: PAGES }, () => [file('a.pdf'), '1']).flat(), '--', file('long.pdf')]);
}, LONG);

afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
});

describe('a service and two workers sharing a Redis queue', () => {
  it(
    'run the jobs the service accepts, both workers at once, and health counts them',
    async () => {
      const service = await serve();
      const workers = [await work(), await work()];
      expect(await queueHealth(service)).toMatchObject({ url: redis.url, connected: true, workers: 2 });
      const long = [await submitHeld(service, '/api/pdf/to-images', longJob('two-1')), await submitHeld(service, '/api/pdf/to-images', longJob('two-2'))];
      // Each worker runs one job at a time (--workers 1): two running means both took one.
      let health = await queueHealth(service);
      for (let tries = 0; health.active !== 2 && tries < 600; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        health = await queueHealth(service);
      }
      expect(health).toMatchObject({ active: 2, workers: 2 });
      const merges = await Promise.all(
        Array.from({ length: 6 }, (_, i) => submitHeld(service, '/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: `merged/${i}.pdf` })),
      );
      for (const id of [...long, ...merges]) expect((await finishedJob(service, id, LONG)).status).toBe('succeeded');
      for (let i = 0; i < 6; i += 1) {
        expect(qpdfCheck(file(`merged/${i}.pdf`))).toBe(true);
        expect(pageCount(file(`merged/${i}.pdf`))).toBe(3);
      }
      expect([pngs('two-1').length, pngs('two-2').length]).toEqual([PAGES, PAGES]);
      // No native code runs: msgpackr's optional addon, should npm have installed it, stays unloaded.
      for (const { child } of workers) expect(fs.readFileSync(`/proc/${child.pid}/maps`, 'utf8')).not.toMatch(/\.node$/m);
      expect(leftoverTempFiles(dir)).toEqual([]);
      for (const worker of workers) await worker.stop();
      await service.stop();
    },
    LONG,
  );
});

describe('a worker killed mid-job (kill -9)', () => {
  it(
    'leaves no partial output: the job runs again on a live worker, once, and ends with every page and no temp file',
    async () => {
      const service = await serve();
      const doomed = await work();
      const id = await submitHeld(service, '/api/pdf/to-images', longJob('killed'));
      // Progress made on the worker reaches the service through Redis.
      await pollJob(service, id, { until: (job) => job.progress.done >= 5, timeoutMs: LONG });
      doomed.child.kill('SIGKILL');
      await new Promise((resolve) => doomed.child.once('exit', resolve));
      expect(pngs('killed')).toEqual([]);
      expect(leftoverTempFiles(file('killed')).length).toBeGreaterThan(0);

      const live = await work();
      const job = await finishedJob(service, id, LONG);
      expect(job.status).toBe('succeeded');
      expect((job.result?.data?.files as unknown[]).length).toBe(PAGES);
      expect(pngs('killed').length).toBe(PAGES);
      expect(leftoverTempFiles(dir)).toEqual([]);
      await live.stop();
      await service.stop();
    },
    LONG,
  );

  it(
    'fails the job with the last error once it started --job-attempts times, leaving nothing',
    async () => {
      const service = await serve(['--job-attempts', '1']);
      const doomed = await work(['--job-attempts', '1']);
      const id = await submitHeld(service, '/api/pdf/to-images', longJob('once'));
      await pollJob(service, id, { until: (job) => job.progress.done >= 5, timeoutMs: LONG });
      doomed.child.kill('SIGKILL');
      await new Promise((resolve) => doomed.child.once('exit', resolve));

      const live = await work(['--job-attempts', '1']);
      const job = await finishedJob(service, id, LONG);
      expect(job.status).toBe('failed');
      expect(job.result).toMatchObject({ success: false, code: 'INTERNAL_ERROR', error: expect.stringMatching(/started more than allowable limit/) });
      // The dead run's temp files go with the failure too.
      await expect.poll(() => leftoverTempFiles(dir), { timeout: 30_000 }).toEqual([]);
      expect(pngs('once')).toEqual([]);
      await live.stop();
      await service.stop();
    },
    LONG,
  );
});

describe('a restarted service', () => {
  it(
    'answers for the jobs it accepted before, and a job it accepted without running is run by the next',
    async () => {
      const first = await serve([], { local: true });
      const done = await submitHeld(first, '/api/pdf/merge', { files: ['b.pdf', 'a.pdf'], output: 'restart/done.pdf' });
      const before = await finishedJob(first, done);
      expect(before.status).toBe('succeeded');
      await first.stop();

      const accepting = await serve();
      const waiting = await submitHeld(accepting, '/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'restart/waiting.pdf' });
      expect((await accepting.get(`/api/jobs/${waiting}`)).body.data).toMatchObject({ status: 'queued' });
      await accepting.stop();

      const second = await serve([], { local: true });
      expect((await second.get(`/api/jobs/${done}`)).body.data).toEqual(before);
      expect((await finishedJob(second, waiting)).status).toBe('succeeded');
      expect(pageCount(file('restart/waiting.pdf'))).toBe(3);
      const listed = (await second.get('/api/jobs')).body.data as { jobs: JobState[] };
      expect(listed.jobs.map((job) => job.jobId)).toEqual(expect.arrayContaining([done, waiting]));
      await second.stop();
    },
    LONG,
  );
});

describe('cancel and progress across processes', () => {
  it(
    'DELETE on one service stops the job a worker runs within seconds: cancelled on every service, no output, no temp file',
    async () => {
      const [accepting, other] = [await serve(), await serve()];
      const worker = await work();
      const id = await submitHeld(accepting, '/api/pdf/to-images', longJob('cancelled'));
      const seen = await pollJob(other, id, { until: (job) => job.progress.done >= 5, timeoutMs: LONG });
      expect(seen.at(-1)).toMatchObject({ status: 'running', progress: { total: PAGES } });

      const cancelled = await del(other, id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ jobId: id, status: 'cancelled' });
      expect(cancelled.body.data.progress.done).toBeLessThan(PAGES);
      expect((await accepting.get(`/api/jobs/${id}`)).body.data).toMatchObject({ status: 'cancelled' });
      expect(pngs('cancelled')).toEqual([]);
      expect(leftoverTempFiles(dir)).toEqual([]);

      // A queued job cancelled before any worker takes it is never run.
      await worker.stop();
      const queued = await submitHeld(accepting, '/api/pdf/merge', { files: ['a.pdf'], output: 'never/run.pdf' });
      expect((await del(accepting, queued)).body.data).toMatchObject({ status: 'cancelled' });
      const next = await work();
      const after = await submitHeld(accepting, '/api/pdf/merge', { files: ['a.pdf'], output: 'never/after.pdf' });
      expect((await finishedJob(accepting, after)).status).toBe('succeeded');
      expect((await other.get(`/api/jobs/${queued}`)).body.data).toMatchObject({ status: 'cancelled' });
      expect(fs.existsSync(file('never/run.pdf'))).toBe(false);
      await next.stop();
      for (const service of [accepting, other]) await service.stop();
    },
    LONG,
  );
});

describe('Redis unreachable', () => {
  it('at start: serve and worker exit 2 saying so', async () => {
    const port = await freePort();
    for (const args of [
      ['serve', '--port', String(await freePort()), '--base-dir', dir, '--queue', `redis://:hunter2@127.0.0.1:${port}`],
      ['worker', '--base-dir', dir, '--queue', `redis://:hunter2@127.0.0.1:${port}`],
    ]) {
      const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toContain(`the job queue's Redis at redis://:***@127.0.0.1:${port} cannot be reached (connect ECONNREFUSED`);
      expect(run.stderr).not.toContain('hunter2');
    }
  });

  it(
    'lost mid-run: async requests answer 503 BACKEND_UNAVAILABLE, sync ones are served, and the service and worker reconnect by themselves',
    async () => {
      const service = await serve();
      const worker = await work();
      await redis.kill();
      const refused = await service.post('/api/pdf/merge', { files: ['a.pdf'], output: 'lost/async.pdf', async: true });
      expect([refused.status, refused.body.code]).toEqual([503, 'BACKEND_UNAVAILABLE']);
      expect((await service.get('/api/jobs/anything')).body.code).toBe('BACKEND_UNAVAILABLE');
      const sync = await service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'lost/sync.pdf' });
      expect(sync.status, JSON.stringify(sync.body)).toBe(200);
      expect(pageCount(file('lost/sync.pdf'))).toBe(3);
      expect(await queueHealth(service)).toMatchObject({ connected: false });

      await redis.restart();
      await expect.poll(async () => (await queueHealth(service)).connected, { timeout: 60_000, interval: 500 }).toBe(true);
      const id = await submitHeld(service, '/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'lost/async.pdf' });
      expect((await finishedJob(service, id, LONG)).status).toBe('succeeded');
      expect(pageCount(file('lost/async.pdf'))).toBe(3);
      await worker.stop();
      await service.stop();
    },
    LONG,
  );
});
