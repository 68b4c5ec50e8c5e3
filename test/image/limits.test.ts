// The limits every image endpoint enforces: pixel cap from the header (decompression bombs),
// allowed dirs, a full queue (BUSY) and the per-job timeout (TIMEOUT, worker replaced).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { fromRaw, photoPixels, pngBomb, readBack, writeFixture } from '../helpers/images.js';
import { finishedJob, submitHeld } from '../helpers/jobs.js';

const ENDPOINTS = ['/api/image/convert', '/api/image/compress', '/api/image/resize'] as const;
const extra = (endpoint: string) => (endpoint.endsWith('resize') ? { scale: 0.5 } : {});

describe('image limits: pixels and allowed dirs', () => {
  let svc: RunningService;
  let root: string;
  beforeAll(async () => {
    root = tempDir();
    fs.mkdirSync(path.join(root, 'allowed'));
    svc = await startService(['--base-dir', root, '--allow-dir', path.join(root, 'allowed'), '--max-pixels', '50000']);
    await writeFixture(root, 'allowed/ok.png', fromRaw(photoPixels(200, 200)).png());
    await writeFixture(root, 'allowed/big.png', fromRaw(photoPixels(300, 200)).png());
    await writeFixture(root, 'allowed/bomb.png', pngBomb(60_000, 60_000));
    await writeFixture(root, 'outside.png', fromRaw(photoPixels(20, 20)).png());
    // Warm: the timed refusals below measure the header check, not the worker's start-up.
    expect((await svc.post('/api/image/convert', { input: 'allowed/ok.png', output: 'allowed/warm.webp' })).status).toBe(200);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('refuses an image over --max-pixels with TOO_LARGE (judged from the header) on every endpoint', async () => {
    for (const endpoint of ENDPOINTS) {
      for (const input of ['allowed/big.png', 'allowed/bomb.png']) {
        const started = Date.now();
        const res = await svc.post(endpoint, { input, output: 'allowed/out.webp', ...extra(endpoint) });
        expect([res.status, res.body.code], `${endpoint} ${input}`).toEqual([413, 'TOO_LARGE']);
        expect(Date.now() - started).toBeLessThan(5000); // a 3.6 GP canvas is never allocated
      }
      const ok = await svc.post(endpoint, { input: 'allowed/ok.png', output: 'allowed/ok.webp', ...extra(endpoint) });
      expect(ok.status, endpoint).toBe(200);
    }
    expect(fs.existsSync(path.join(root, 'allowed/out.webp'))).toBe(false);
  });

  it('refuses paths outside the allowed dirs with PATH_NOT_ALLOWED', async () => {
    for (const endpoint of ENDPOINTS) {
      const input = await svc.post(endpoint, { input: 'outside.png', output: 'allowed/x.png', ...extra(endpoint) });
      expect([input.status, input.body.code], endpoint).toEqual([403, 'PATH_NOT_ALLOWED']);
      const output = await svc.post(endpoint, { input: 'allowed/ok.png', output: 'elsewhere/x.png', ...extra(endpoint) });
      expect([output.status, output.body.code], endpoint).toEqual([403, 'PATH_NOT_ALLOWED']);
    }
    expect(fs.existsSync(path.join(root, 'elsewhere'))).toBe(false);
  });
});

// No limit below depends on how fast this machine is: the engine is warmed before a timed case,
// a job that must succeed has a limit far above its cost (a small job takes well under 0.5 s
// warm, a worker start a few seconds on a loaded 2-core machine), and a job that must time out
// is slow by construction (lossless optimisation of a 100 MP photo-like PNG: 67 s of CPU here,
// 13× its 5 s limit).

describe('image limits: queue (BUSY)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(['--workers', '1', '--queue-limit', '1', '--timeout', '120']);
    await writeFixture(svc.dir, 'small.png', fromRaw(photoPixels(64, 64)).png());
    await writeFixture(svc.dir, 'large.png', fromRaw(photoPixels(3000, 3000)).png());
    // Warm: the worker and the AVIF encoder are loaded before the queue is filled.
    expect((await svc.post('/api/image/convert', { input: 'small.png', output: 'warm.avif' })).status).toBe(200);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers BUSY with Retry-After when the queue is full', async () => {
    // A 9 MP AVIF encode (3.6–6.3 s here on a loaded 2-core machine; a 1 MP one, used before,
    // took 0.18 s, too close to the small jobs' arrival) holds the one worker, seen holding it
    // (202) before the small jobs are sent: one waits, the rest find the queue full.
    const held = await submitHeld(svc, '/api/image/convert', { input: 'large.png', output: 'busy/large.avif' });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => svc.post('/api/image/convert', { input: 'small.png', output: `busy/${i}.avif` })));
    const busy = results.filter((r) => r.body.code === 'BUSY');
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((r) => r.status === 503 && Number(r.headers.get('retry-after')) > 0)).toBe(true);
    expect(results.some((r) => r.status === 200)).toBe(true);
    expect((await finishedJob(svc, held)).status).toBe('succeeded');
  });
});

describe('image limits: timeout and encoder memory', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(['--workers', '1', '--timeout', '5']);
    await writeFixture(svc.dir, 'small.png', fromRaw(photoPixels(64, 64)).png());
    // 10,000 × 10,000, upscaled by sharp from a 2,500² photo-like image: 89 MB of PNG.
    await writeFixture(svc.dir, 'huge.png', fromRaw(photoPixels(2500, 2500)).resize(10_000, 10_000).png({ compressionLevel: 6 }));
    // Warm: the worker is up before the clock of the timed job runs.
    expect((await svc.post('/api/image/convert', { input: 'small.png', output: 'warm.webp' })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
  });

  it('stops a job over the time limit with TIMEOUT, leaves no output or temp file, and keeps serving', async () => {
    const res = await svc.post('/api/image/compress', { input: 'huge.png', output: 'slow-out.png' });
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([504, 'TIMEOUT']);
    expect(fs.existsSync(path.join(svc.dir, 'slow-out.png'))).toBe(false);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
    const after = await svc.post('/api/image/convert', { input: 'small.png', output: 'after.webp' });
    expect(after.status).toBe(200);
    expect((await readBack(path.join(svc.dir, 'after.webp'))).width).toBe(64);
  }, 120_000);

  it('refuses an AVIF output over the pixels its encoder holds in 2 GiB with TOO_LARGE, before any work', async () => {
    // 9,000² = 81 MP: under --max-pixels (100 MP), over what the AVIF encoder holds (64 Mi pixels).
    const started = Date.now();
    const res = await svc.post('/api/image/resize', { input: 'small.png', output: 'huge.avif', width: 9000, height: 9000 });
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([413, 'TOO_LARGE']);
    expect(res.body.error).toMatch(/AVIF/);
    expect(Date.now() - started).toBeLessThan(4000); // refused from the plan, within the 5 s limit
    const converted = await svc.post('/api/image/convert', { input: 'huge.png', output: 'huge.avif' });
    expect([converted.status, converted.body.code], JSON.stringify(converted.body)).toEqual([413, 'TOO_LARGE']);
    expect(fs.existsSync(path.join(svc.dir, 'huge.avif'))).toBe(false);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
  });
});
