// The limits every image endpoint enforces: pixel cap from the header (decompression bombs),
// allowed dirs, a full queue (BUSY) and the per-job timeout (TIMEOUT, worker replaced).

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { fromRaw, photoPixels, pngBomb, readBack, writeFixture } from '../helpers/images.js';

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

describe('image limits: queue and timeout', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService(['--workers', '1', '--queue-limit', '1', '--timeout', '1.5']);
    await writeFixture(svc.dir, 'slow.png', fromRaw(photoPixels(3000, 2000)).png());
    await writeFixture(svc.dir, 'small.png', fromRaw(photoPixels(64, 64)).png());
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers BUSY with Retry-After when the queue is full', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => svc.post('/api/image/convert', { input: 'small.png', output: `busy/${i}.avif` })));
    const busy = results.filter((r) => r.body.code === 'BUSY');
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((r) => r.status === 503 && Number(r.headers.get('retry-after')) > 0)).toBe(true);
    expect(results.some((r) => r.status === 200)).toBe(true);
  });

  it('stops a job over the time limit with TIMEOUT, leaves no output or temp file, and keeps serving', async () => {
    const res = await svc.post('/api/image/compress', { input: 'slow.png', output: 'slow-out.png' });
    expect([res.status, res.body.code]).toEqual([504, 'TIMEOUT']);
    expect(fs.existsSync(path.join(svc.dir, 'slow-out.png'))).toBe(false);
    expect(leftoverTempFiles(svc.dir)).toEqual([]);
    const after = await svc.post('/api/image/convert', { input: 'small.png', output: 'after.webp' });
    expect(after.status).toBe(200);
    expect((await readBack(path.join(svc.dir, 'after.webp'))).width).toBe(64);
  });
});
