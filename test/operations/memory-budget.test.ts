// One memory budget (contract v0.5, --memory-budget): engines start within it, the least
// recently used idle engine retires to make room, and an engine that alone needs more than the
// budget answers TOO_LARGE with nothing written. Health shows the budget, the engines' instances
// and the service's resident memory. Real services, real engines, their own logs.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, SOFFICE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

interface MemoryHealth {
  budgetMb: number;
  committedMb: number;
  residentMb: number;
  engines: { engine: string; instances: number; state: string; costMb: number }[];
}

async function memoryOf(service: RunningService): Promise<MemoryHealth> {
  return (await service.get('/api/health')).body.data?.memory as MemoryHealth;
}

const instancesOf = (memory: MemoryHealth, engine: string) => memory.engines.find((e) => e.engine === engine)?.instances ?? 0;

describe('a budget smaller than one engine', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(['--memory-budget', '200']);
    fs.writeFileSync(path.join(service.dir, 'a.pdf'), makePdf({ pages: ['one'] }));
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers TOO_LARGE naming the budget, writes nothing, and health shows the budget', async () => {
    const r = await service.post('/api/pdf/merge', { files: ['a.pdf', 'a.pdf'], output: 'merged.pdf' });
    expect(r.status, JSON.stringify(r.body)).toBe(413);
    expect(r.body.code).toBe('TOO_LARGE');
    expect(r.body.error ?? r.body.message).toMatch(/memory budget of 200 MB/);
    expect(fs.existsSync(path.join(service.dir, 'merged.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    const memory = await memoryOf(service);
    expect(memory.budgetMb).toBe(200);
    expect(instancesOf(memory, 'pdf')).toBe(0);
    expect(memory.residentMb).toBeGreaterThan(10);
  });
});

describe.runIf(fs.existsSync(SOFFICE))('a budget two engines do not fit in together', () => {
  let service: RunningService;

  beforeAll(async () => {
    // OCR's threads cost 650 MB each, an installed office 300: both together are more than 900.
    service = await startService(['--memory-budget', '900', '--document-backend', 'libreoffice', '--workers', '1']);
    fs.writeFileSync(path.join(service.dir, 'page.png'), await renderText(ENGLISH_TEXT));
    fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(service.dir, 'sample.docx'));
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('retires the idle engine used least recently to make room, and every request succeeds', async () => {
    const ocr = await service.post('/api/ocr', { input: 'page.png', language: 'eng', engine: 'tesseract' });
    expect(ocr.status, JSON.stringify(ocr.body)).toBe(200);
    expect(instancesOf(await memoryOf(service), 'ocr')).toBe(1);

    const converted = await service.post('/api/convert', { input: 'sample.docx', output: 'sample.pdf' });
    expect(converted.status, JSON.stringify(converted.body)).toBe(200);
    let memory = await memoryOf(service);
    expect(instancesOf(memory, 'ocr')).toBe(0);
    expect(instancesOf(memory, 'libreoffice')).toBe(1);
    expect(memory.committedMb).toBeLessThanOrEqual(900);
    expect(service.stderr()).toMatch(/docwasm ocr: retired to make room for libreoffice within the memory budget of 900 MB/);

    const again = await service.post('/api/ocr', { input: 'page.png', language: 'eng', engine: 'tesseract' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    memory = await memoryOf(service);
    expect(instancesOf(memory, 'libreoffice')).toBe(0);
    expect(instancesOf(memory, 'ocr')).toBe(1);
    expect(service.stderr()).toMatch(/docwasm libreoffice: retired to make room for ocr/);
  }, 300_000);
});

// Room is made one instance at a time: an engine with two idle threads gives back only as many as
// the new instance needs (before the supervisor, the budget stopped every thread of that engine).
describe('a budget that one idle thread more would overshoot', () => {
  let service: RunningService;

  beforeAll(async () => {
    // Two PDF threads (300 MB each) and an OCR thread (650 MB) are 1,250 MB: one PDF thread must go, not both.
    service = await startService(['--memory-budget', '950', '--workers', '2']);
    const pages = Array.from({ length: 400 }, (_, i) => `page ${i + 1}`);
    fs.writeFileSync(path.join(service.dir, 'long.pdf'), makePdf({ pages }));
    fs.writeFileSync(path.join(service.dir, 'page.png'), await renderText(ENGLISH_TEXT));
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('retires only the least recently used idle thread the new instance needs room for', async () => {
    // Requests at once until one finds the first thread busy and a second starts.
    for (let round = 0; round < 10 && instancesOf(await memoryOf(service), 'pdf') < 2; round++) {
      const merged = await Promise.all(
        [1, 2, 3, 4].map((i) => service.post('/api/pdf/merge', { files: ['long.pdf', 'long.pdf'], output: `merged-${round}-${i}.pdf` })),
      );
      expect(merged.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    }
    expect(instancesOf(await memoryOf(service), 'pdf')).toBe(2);

    const ocr = await service.post('/api/ocr', { input: 'page.png', language: 'eng', engine: 'tesseract' });
    expect(ocr.status, JSON.stringify(ocr.body)).toBe(200);
    const memory = await memoryOf(service);
    expect(instancesOf(memory, 'ocr')).toBe(1);
    expect(instancesOf(memory, 'pdf')).toBe(1);
    expect(memory.committedMb).toBe(950);
    expect(service.stderr()).toMatch(/docwasm pdf: retired to make room for ocr within the memory budget of 950 MB \(1 instance\(s\)/);
  }, 300_000);
});
