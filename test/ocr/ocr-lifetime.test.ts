// OCR engine lifetime on a one-thread pool: a job past --timeout answers TIMEOUT, its
// tesseract.js thread is stopped (no thread piles up in the service process) and the engine
// keeps serving; warm workers are retired after a number of jobs and replaced; memory grown
// by a large image is given back.

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_TEXT, renderText, slowOcrImage } from '../helpers/ocr-images.js';
import { wordErrorRate } from '../helpers/ocr-accuracy.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;

function residentMb(): number {
  const status = fs.readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/**
 * OS thread ids of the service process (main, pools, and the engines' nested threads), once
 * they have stopped changing for a second (a stopped thread can take a while to go on a
 * loaded machine), or after 20 s.
 */
async function settledThreads(of: RunningService = service): Promise<string[]> {
  const read = () => fs.readdirSync(`/proc/${of.child.pid}/task`).sort();
  const deadline = Date.now() + 20_000;
  let last = read();
  let stableSince = Date.now();
  while (Date.now() < deadline && Date.now() - stableSince < 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = read();
    if (now.join() !== last.join()) stableSince = Date.now();
    last = now;
  }
  return last;
}

let timed: RunningService;

beforeAll(async () => {
  // No limit here depends on this machine's speed. The lifetime service's limit (300 s) is far
  // above any of its jobs; the timed service's (30 s) is far above a fresh tesseract worker's
  // start plus one line, and far below its slow-by-construction job.
  [service, timed] = await Promise.all([startService(['--timeout', '300', '--workers', '1']), startService(['--timeout', '30', '--workers', '1'])]);
  // Nine A4 pages of Chinese in 5 pt type (slowOcrImage), far past the 30 s limit on any machine.
  // Eight pages at 12 pt, used before, took 168 s here under load: 5.6× the limit, within reach
  // of a fast quiet machine.
  fs.writeFileSync(path.join(timed.dir, 'page.png'), await slowOcrImage());
  const line = await renderText(ENGLISH_TEXT);
  const word = await renderText('Recycle', { width: 400 });
  for (const dir of [service.dir, timed.dir]) {
    fs.writeFileSync(path.join(dir, 'line.png'), line);
    fs.writeFileSync(path.join(dir, 'word.png'), word);
  }
  const blank = sharp({ create: { width: 5200, height: 5000, channels: 3, background: '#ffffff' } });
  fs.writeFileSync(path.join(service.dir, 'large.png'), await blank.composite([{ input: line, top: 100, left: 100 }]).png().toBuffer());
}, 180_000);

afterAll(async () => {
  await Promise.all([service?.stop(), timed?.stop()]);
});

describe('POST /api/ocr engine lifetime', () => {
  it('answers TIMEOUT past --timeout, leaves no thread or temp file behind, and keeps working', async () => {
    expect((await timed.post('/api/ocr', { input: 'word.png' })).status).toBe(200);
    const baseline = (await settledThreads(timed)).length;
    // One TIMEOUT is enough to see a thread pile up: a stopped job whose thread stayed would leave
    // the count above the baseline (each further one adds a thread, and 30 s of waiting).
    const { status, body } = await timed.post('/api/ocr', { input: 'page.png', output: 'page.txt' });
    expect(status).toBe(504);
    expect(body.code).toBe('TIMEOUT');
    expect((await settledThreads(timed)).length).toBeLessThanOrEqual(baseline);
    expect(fs.existsSync(path.join(timed.dir, 'page.txt'))).toBe(false);
    expect(leftoverTempFiles(timed.dir)).toEqual([]);
    const after = await timed.post('/api/ocr', { input: 'line.png' });
    expect(after.status).toBe(200);
    expect(wordErrorRate(ENGLISH_TEXT, String(after.body.text))).toBeLessThanOrEqual(0.05);
  }, 180_000);

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
