// OCR engine lifetime on a one-thread pool: a job past --timeout answers TIMEOUT, its
// tesseract.js thread is stopped (no thread piles up in the service process) and the engine
// keeps serving; warm workers are retired after a number of jobs and replaced; memory grown
// by a large image is given back.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHINESE_TEXT, ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { wordErrorRate } from '../helpers/ocr-accuracy.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;

function residentMb(): number {
  const status = fs.readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** OS thread ids of the service process (main, pools, and the engines' nested threads). */
async function settledThreads(): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return fs.readdirSync(`/proc/${service.child.pid}/task`);
}

beforeAll(async () => {
  service = await startService(['--timeout', '10', '--workers', '1']);
  // Two A4 pages of Chinese at 300 dpi: over 12 s even natively, past the 10 s limit.
  const page = await renderText(Array(24).fill(CHINESE_TEXT + CHINESE_TEXT).join('\n\n'), { font: 'cjk', page: { width: 2480, height: 7016 } });
  fs.writeFileSync(path.join(service.dir, 'page.png'), page);
  fs.writeFileSync(path.join(service.dir, 'line.png'), await renderText(ENGLISH_TEXT));
  fs.writeFileSync(path.join(service.dir, 'word.png'), await renderText('Recycle', { width: 400 }));
  const blank = sharp({ create: { width: 5200, height: 5000, channels: 3, background: '#ffffff' } });
  fs.writeFileSync(path.join(service.dir, 'large.png'), await blank.composite([{ input: await renderText(ENGLISH_TEXT), top: 100, left: 100 }]).png().toBuffer());
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

describe('POST /api/ocr engine lifetime', () => {
  it('answers TIMEOUT past --timeout, leaves no thread or temp file behind, and keeps working', async () => {
    expect((await service.post('/api/ocr', { input: 'word.png' })).status).toBe(200);
    const baseline = (await settledThreads()).length;
    for (let i = 0; i < 2; i++) {
      const { status, body } = await service.post('/api/ocr', { input: 'page.png', output: 'page.txt' });
      expect(status).toBe(504);
      expect(body.code).toBe('TIMEOUT');
    }
    expect((await settledThreads()).length).toBeLessThanOrEqual(baseline);
    expect(fs.existsSync(path.join(service.dir, 'page.txt'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    const after = await service.post('/api/ocr', { input: 'line.png' });
    expect(after.status).toBe(200);
    expect(wordErrorRate(ENGLISH_TEXT, String(after.body.text))).toBeLessThanOrEqual(0.05);
  }, 60_000);

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
  }, 60_000);

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
  }, 60_000);
});
