// Long documents (issue 20, item 4): a budget of pages per job (--max-pages → TOO_LARGE before
// any page is measured or rendered), outputs staged page by page as they are rendered (never
// one temp file per page upfront), a cancel honoured within a second with no temp file left,
// and progress counted in pages. The long PDF is made by qpdf from a one-page PDF.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

const PAGES = 3000;
let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

interface JobData {
  status: string;
  progress: { done: number; total: number };
}

beforeAll(async () => {
  service = await startService(['--max-pages', '2000', '--workers', '2']);
  fs.writeFileSync(file('one.pdf'), makePdf({ pages: ['A page of a long document'] }));
  execFileSync('qpdf', ['--empty', '--pages', ...Array.from({ length: PAGES }, () => [file('one.pdf'), '1']).flat(), '--', file('long.pdf')]);
  expect(
    execFileSync('qpdf', ['--show-npages', file('long.pdf')])
      .toString()
      .trim(),
  ).toBe(String(PAGES));
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

const job = async (id: string) => (await service.get(`/api/jobs/${id}`)).body.data as unknown as JobData;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, limitMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > limitMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('pages per job (--max-pages)', () => {
  it('refuses to render or read more pages than the budget, with TOO_LARGE and nothing written', async () => {
    for (const [route, body] of [
      ['/api/pdf/to-images', { input: 'long.pdf', outputDir: 'refused', dpi: 36 }],
      ['/api/ocr', { input: 'long.pdf', language: 'eng', dpi: 72 }],
    ] as const) {
      const started = Date.now();
      const res = await service.post(route, body);
      expect([res.status, res.body.code], `${route}: ${res.body.error}`).toEqual([413, 'TOO_LARGE']);
      expect(res.body.error).toMatch(/3000 pages.*budget is 2000 pages.*--max-pages/);
      expect(Date.now() - started, route).toBeLessThan(10_000);
    }
    expect(fs.existsSync(file('refused'))).toBe(false);
  });

  it("counts the pages asked for, not the document's", async () => {
    const res = await service.post('/api/pdf/to-images', { input: 'long.pdf', outputDir: 'some', dpi: 36, pages: '1-3,2999-3000' });
    expect(res.status, res.body.error).toBe(200);
    expect(fs.readdirSync(file('some')).sort()).toEqual(['long_0001.png', 'long_0002.png', 'long_0003.png', 'long_2999.png', 'long_3000.png']);
  });
});

describe('a long to-images job', () => {
  it('counts progress in pages, stages one temp file per page rendered, and ends cancelled within a second leaving nothing', async () => {
    const submitted = await service.post('/api/pdf/to-images', { input: 'long.pdf', outputDir: 'pages', dpi: 36, pages: `1-${2000}`, async: true });
    expect(submitted.status, submitted.body.error).toBe(202);
    const jobId = (submitted.body.data as { jobId: string }).jobId;
    const early = await until(
      () => job(jobId),
      (data) => data.progress.done >= 3,
    );
    expect(early.status).toBe('running');
    expect(early.progress.total).toBe(2000);
    const later = await until(
      () => job(jobId),
      (data) => data.progress.done >= early.progress.done + 3,
    );
    expect(later.progress.done).toBeGreaterThan(early.progress.done);
    // Temp files exist only for pages done or under way (2 workers + 1), never for all 2000.
    const temps = leftoverTempFiles(file('pages'));
    expect(temps.length).toBeGreaterThan(0);
    expect(temps.length).toBeLessThanOrEqual(later.progress.done + 50);

    const started = Date.now();
    const cancelled = await fetch(`${service.baseUrl}/api/jobs/${jobId}`, { method: 'DELETE' });
    const elapsed = Date.now() - started;
    expect(((await cancelled.json()) as { data: JobData }).data.status).toBe('cancelled');
    expect(elapsed).toBeLessThan(1000);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    // The folder the job made is removed with its last temp file, or is empty while that removal ends.
    expect(fs.existsSync(file('pages')) ? fs.readdirSync(file('pages')) : []).toEqual([]);
  });
});

describe('a long OCR job', () => {
  it('counts progress in pages and ends cancelled within a second', async () => {
    const submitted = await service.post('/api/ocr', { input: 'long.pdf', language: 'eng', dpi: 72, pages: '1-400', output: 'long.txt', async: true });
    expect(submitted.status, submitted.body.error).toBe(202);
    const jobId = (submitted.body.data as { jobId: string }).jobId;
    const early = await until(
      () => job(jobId),
      (data) => data.progress.done >= 2,
      240_000,
    );
    expect(early.status).toBe('running');
    expect(early.progress.total).toBe(400);
    const later = await until(
      () => job(jobId),
      (data) => data.progress.done > early.progress.done,
      120_000,
    );
    expect(later.progress.done).toBeGreaterThan(early.progress.done);

    const started = Date.now();
    const cancelled = await fetch(`${service.baseUrl}/api/jobs/${jobId}`, { method: 'DELETE' });
    expect(((await cancelled.json()) as { data: JobData }).data.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fs.existsSync(file('long.txt'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  }, 400_000);
});
