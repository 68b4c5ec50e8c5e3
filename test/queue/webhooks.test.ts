// Webhooks (CONTRACT "Many machines"): an async request's callbackUrl is POSTed the job's final
// GET /api/jobs/<id> body, signed with --webhook-secret (checked with openssl, not our code),
// retried with backoff, never redirected, only to hosts --webhook-allow names (default:
// loopback); with a shared queue, one callback per job whichever process ended it.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finishedJob, submitHeld, type JobState } from '../helpers/jobs.js';
import { makePdf } from '../helpers/make-pdf.js';
import { startRedis, startWorker, type RunningRedis } from '../helpers/redis.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';

const LONG = 180_000;
const SECRET = 'webhook secret, for the test only';

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: answers each POST with the next status of `answers` (then 200), records what came. */
async function receiver(answers: number[] = [], location?: string): Promise<{ url: string; port: number; got: Delivery[]; close(): Promise<void> }> {
  const got: Delivery[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body });
      const status = answers.shift() ?? 200;
      res.writeHead(status, location && status >= 300 && status < 400 ? { location } : {}).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, port, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const opened: { close(): Promise<void> }[] = [];
const open = async (...args: Parameters<typeof receiver>) => {
  const r = await receiver(...args);
  opened.push(r);
  return r;
};

let dir: string;
let service: RunningService;
const merge = (output: string, callbackUrl: string) => ({ files: ['a.pdf', 'b.pdf'], output, callbackUrl });
const job = async (target: RunningService, id: string) =>
  (await target.get(`/api/jobs/${id}`)).body.data as unknown as JobState & { callback?: Record<string, unknown> };

beforeAll(async () => {
  dir = tempDir('docwasm-webhooks-');
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha'] }));
  fs.writeFileSync(path.join(dir, 'b.pdf'), makePdf({ pages: ['Bravo'] }));
  service = await startService(['--base-dir', dir, '--allow-dir', dir], { DOCWASM_WEBHOOK_SECRET: SECRET });
}, LONG);

afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await service?.stop();
});

describe('callbackUrl, without a queue', () => {
  it('POSTs the final job body once, signed with HMAC-SHA256 of the raw body and named by X-Docwasm-Job', async () => {
    const hook = await open();
    const id = await submitHeld(service, '/api/pdf/merge', merge('signed.pdf', hook.url));
    await expect.poll(() => hook.got.length, { timeout: 60_000 }).toBe(1);
    const [delivery] = hook.got as [Delivery];
    expect(delivery.path).toBe('/hook');
    expect(delivery.headers['x-docwasm-job']).toBe(id);
    expect(delivery.headers['content-type']).toBe('application/json');
    const hmac = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r'], { input: delivery.body }).toString().split(' ')[0];
    expect(delivery.headers['x-docwasm-signature']).toBe(`sha256=${hmac}`);

    const posted = JSON.parse(delivery.body) as { success: boolean; data: JobState & { callback: unknown } };
    await expect.poll(async () => (await job(service, id)).callback, { timeout: 30_000 }).toEqual({ url: hook.url, attempts: 1, delivered: true });
    // The callback's own state moves on once delivered; the rest is the final body as GET answers it.
    const final: Record<string, unknown> = { ...((await service.get(`/api/jobs/${id}`)).body.data as Record<string, unknown>) };
    const sent: Record<string, unknown> = { ...posted.data };
    delete final.callback;
    delete sent.callback;
    expect(posted.success).toBe(true);
    expect(sent).toEqual(final);
    expect(sent).toMatchObject({ jobId: id, status: 'succeeded', result: { success: true, outputPath: path.join(dir, 'signed.pdf') } });
  });

  it(
    'tries again with backoff after a non-2xx answer, and the status shows the attempts',
    async () => {
      const hook = await open([500, 503]);
      const id = await submitHeld(service, '/api/pdf/merge', merge('retried.pdf', hook.url));
      await expect
        .poll(async () => (await job(service, id)).callback, { timeout: 120_000, interval: 500 })
        .toEqual({ url: hook.url, attempts: 3, delivered: true });
      expect(hook.got.length).toBe(3);
      expect(new Set(hook.got.map((d) => d.body)).size).toBe(1);
      for (const delivery of hook.got) expect(delivery.headers['x-docwasm-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    },
    LONG,
  );

  it('does not follow a redirect: the status says so, the place it pointed to gets nothing', async () => {
    const elsewhere = await open();
    const hook = await open([302, 302, 302, 302, 302], elsewhere.url);
    const id = await submitHeld(service, '/api/pdf/merge', merge('redirected.pdf', hook.url));
    await expect.poll(async () => (await job(service, id)).callback?.attempts, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    expect((await job(service, id)).callback).toMatchObject({ delivered: false, lastError: expect.stringContaining('302 (a redirect, not followed)') });
    expect(elsewhere.got).toEqual([]);
  });

  it('refuses, before any job, a callbackUrl on a host not allowed, not http(s), or without async', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ callbackUrl: 'http://example.com/hook', async: true }, /host example.com is not allowed/],
      [{ callbackUrl: 'http://127.0.0.1.nip.io/hook', async: true }, /not allowed/],
      [{ callbackUrl: 'http://[::ffff:10.0.0.1]/hook', async: true }, /not allowed/],
      [{ callbackUrl: 'file:///etc/passwd', async: true }, /must be http or https/],
      [{ callbackUrl: 'not a url', async: true }, /not a URL/],
      [{ callbackUrl: 'http://127.0.0.1/hook' }, /add "async": true/],
    ];
    for (const [fields, message] of cases) {
      const response = await service.post('/api/pdf/merge', { files: ['a.pdf'], output: 'refused.pdf', ...fields });
      expect([response.status, response.body.code], JSON.stringify(fields)).toEqual([400, 'VALIDATION_ERROR']);
      expect(response.body.error).toMatch(message);
    }
    expect(fs.existsSync(path.join(dir, 'refused.pdf'))).toBe(false);
  });

  it('calls only the hosts --webhook-allow names when given, and sends no signature without a secret', async () => {
    const hook = await open();
    const allowed = await startService(['--base-dir', dir, '--allow-dir', dir, '--webhook-allow', `127.0.0.1:${hook.port}`]);
    try {
      const otherPort = await open();
      const refused = await allowed.post('/api/pdf/merge', { ...merge('other-port.pdf', otherPort.url), async: true });
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      const id = await submitHeld(allowed, '/api/pdf/merge', merge('allowed.pdf', hook.url));
      await expect.poll(() => hook.got.length, { timeout: 60_000 }).toBe(1);
      expect(hook.got[0]?.headers['x-docwasm-job']).toBe(id);
      expect(hook.got[0]?.headers['x-docwasm-signature']).toBeUndefined();
    } finally {
      await allowed.stop();
    }
  });
});

describe('callbackUrl, with a queue', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, LONG);

  it(
    'calls back each job exactly once, whichever of two workers ran it, and a queued job cancelled before any ran',
    async () => {
      const hook = await open();
      const queueFlags = ['--base-dir', dir, '--allow-dir', dir, '--queue', redis.url];
      const front = await startService([...queueFlags, '--no-local-worker'], { DOCWASM_WEBHOOK_SECRET: SECRET });
      const cancelled = await submitHeld(front, '/api/pdf/merge', merge('queued-cancelled.pdf', hook.url));
      await fetch(`${front.baseUrl}/api/jobs/${cancelled}`, { method: 'DELETE' });
      const workers = await Promise.all([1, 2].map(() => startWorker(redis.url, [...queueFlags, '--workers', '1'], { DOCWASM_WEBHOOK_SECRET: SECRET })));
      try {
        const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submitHeld(front, '/api/pdf/merge', merge(`queued-${i}.pdf`, hook.url))));
        for (const id of ids) expect((await finishedJob(front, id, LONG)).status).toBe('succeeded');
        await expect.poll(() => hook.got.length, { timeout: 60_000 }).toBe(7);
        // Whatever else arrives late would be a second callback.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const jobs = hook.got.map((d) => d.headers['x-docwasm-job']);
        expect(jobs.sort()).toEqual([...ids, cancelled].sort());
        for (const delivery of hook.got) {
          const hmac = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r'], { input: delivery.body }).toString().split(' ')[0];
          expect(delivery.headers['x-docwasm-signature']).toBe(`sha256=${hmac}`);
        }
        const statuses = Object.fromEntries(hook.got.map((d) => [d.headers['x-docwasm-job'], (JSON.parse(d.body) as { data: JobState }).data.status]));
        expect(statuses[cancelled]).toBe('cancelled');
        for (const id of ids) expect(statuses[id]).toBe('succeeded');
        await expect
          .poll(async () => (await job(front, ids[0] as string)).callback, { timeout: 30_000 })
          .toEqual({ url: hook.url, attempts: 1, delivered: true });
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
        await front.stop();
      }
    },
    LONG,
  );
});
