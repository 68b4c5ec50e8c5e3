// OCR engine lifetime on a one-thread pool: warm workers are retired after a number of jobs and
// replaced; memory grown by a large image is given back. (A job past --timeout, its tesseract.js
// thread stopped and the engine serving on, is the OCR case of test/reliability/faults.test.ts.)

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { wordErrorRate } from '../helpers/ocr-accuracy.js';
import { startService, type RunningService } from '../helpers/service.js';
import { settledThreads as settledThreadsOf } from '../reliability/proc.js';

let service: RunningService;

function residentMb(): number {
  const status = fs.readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** OS thread ids of the service process, settled (see settledThreadsOf). */
const settledThreads = () => settledThreadsOf(service.child.pid as number);

beforeAll(async () => {
  // No limit here depends on this machine's speed: 300 s is far above any of these jobs.
  service = await startService(['--timeout', '300', '--workers', '1']);
  const line = await renderText(ENGLISH_TEXT);
  fs.writeFileSync(path.join(service.dir, 'word.png'), await renderText('Recycle', { width: 400 }));
  const blank = sharp({ create: { width: 5200, height: 5000, channels: 3, background: '#ffffff' } });
  fs.writeFileSync(
    path.join(service.dir, 'large.png'),
    await blank
      .composite([{ input: line, top: 100, left: 100 }])
      .png()
      .toBuffer(),
  );
}, 180_000);

afterAll(async () => {
  await service?.stop();
});

describe('POST /api/ocr engine lifetime', () => {
  it('retires a warm tesseract.js worker after 40 jobs and carries on with a fresh one', async () => {
    expect((await service.post('/api/ocr', { input: 'word.png', language: 'eng' })).status).toBe(200);
    const before = await settledThreads();
    for (let i = 0; i < 45; i++) {
      const { status, body } = await service.post('/api/ocr', { input: 'word.png', language: 'eng' });
      expect(status).toBe(200);
      expect(String(body.text).trim()).toBe('Recycle');
    }
    const after = await settledThreads();
    expect(after.length).toBeLessThanOrEqual(before.length);
    // The retired worker's thread is gone and a fresh one took its place.
    expect(before.filter((tid) => !after.includes(tid)).length).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('gives back the memory a large image took (26 MP: the pool thread is replaced)', async () => {
    expect((await service.post('/api/ocr', { input: 'word.png', language: 'eng' })).status).toBe(200);
    await settledThreads();
    const before = residentMb();
    const { status, body } = await service.post('/api/ocr', { input: 'large.png', language: 'eng' });
    expect(status).toBe(200);
    expect(wordErrorRate(ENGLISH_TEXT, String(body.text))).toBeLessThanOrEqual(0.05);
    await settledThreads();
    // Kept, the decoder's and tesseract's WASM heaps would hold ~250 MB more.
    expect(residentMb()).toBeLessThan(before + 120);
  }, 180_000);
});
