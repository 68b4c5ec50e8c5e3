// Reading over HTTP as a long job: `/api/read` with `"async": true` answers 202, the job's
// progress counts the PDF's pages and only grows, its result is the synchronous answer, and the
// service stays healthy after hostile inputs.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { pollJob, type JobState } from '../helpers/jobs.js';

let service: RunningService;
let dir: string;

beforeAll(async () => {
  dir = tempDir('docwasm-read-http-');
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
  const pages = await Promise.all(
    ['First scanned page', 'Second scanned page', 'Third scanned page'].map(async (text) => ({ image: await renderText(text), dpi: 300 })),
  );
  fs.writeFileSync(path.join(dir, 'scans.pdf'), await makeScannedPdf(pages));
}, 120_000);
afterAll(() => service.stop());

const poll = (jobId: string): Promise<JobState[]> => pollJob(service, jobId);

describe('read over HTTP, async', () => {
  it('reports per-page progress for a multi-page PDF and ends with the Markdown of every page', async () => {
    const submitted = await service.post('/api/read', { input: 'scans.pdf', language: 'eng', async: true });
    expect(submitted.status).toBe(202);
    const states = await poll((submitted.body.data as { jobId: string }).jobId);
    const job = states.at(-1) as JobState;
    expect(job.status).toBe('succeeded');
    expect(job.progress).toEqual({ done: 3, total: 3 });
    for (const [earlier, later] of states.slice(1).map((s, i) => [states[i] as JobState, s] as const))
      expect(later.progress.done).toBeGreaterThanOrEqual(earlier.progress.done);
    for (const state of states) expect(state.progress.done).toBeLessThanOrEqual(Math.max(state.progress.total, 0));
    expect(job.result?.data).toMatchObject({ format: 'pdf', pages: 3, ocrPages: [1, 2, 3] });
    const text = job.result?.text ?? '';
    expect(text.indexOf('<!-- page 3 -->')).toBeGreaterThan(text.indexOf('<!-- page 2 -->'));
    expect(text).toMatch(/Third scanned page/);
  }, 240_000);

  it('stays healthy after a billion-laughs docx and a corrupt zip, and leaves no temp file', async () => {
    const entities = ['<!ENTITY a0 "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`)].join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE d [${entities}]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&a9;</w:t></w:r></w:p></w:body></w:document>`;
    fs.writeFileSync(path.join(dir, 'laughs.docx'), makeZip([{ name: 'word/document.xml', data: xml }]));
    fs.writeFileSync(path.join(dir, 'corrupt.docx'), Buffer.from('PK\u0003\u0004 then nothing a zip reader can use'));
    for (const input of ['laughs.docx', 'corrupt.docx']) {
      const answer = await service.post('/api/read', { input });
      expect(answer.body.code).toBe('INVALID_INPUT');
    }
    expect((await service.get('/api/health')).status).toBe(200);
    fs.writeFileSync(path.join(dir, 'page.html'), '<h1>Still</h1><p>serving</p>');
    expect((await service.post('/api/read', { input: 'page.html' })).body.text).toContain('# Still');
    expect(leftoverTempFiles(dir)).toEqual([]);
  });
});
