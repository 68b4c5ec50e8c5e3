// The per-document budget of decompressed bytes (issue 20, item 4): a small PDF whose content
// stream inflates to hundreds of MB ran to-images, compress and to-pdfa to the TIMEOUT; now
// every stream but images is decoded with a bound before such work and the job answers
// TOO_LARGE in seconds, leaving no output, the service healthy. The bombs are real PDFs
// (test/helpers/pdf-bombs.ts, checked by qpdf); the budget is --max-decompressed-bytes.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { makePhotoPdf } from '../helpers/make-photo-pdf.js';
import { contentBombPdf, jpegImagePdf } from '../helpers/pdf-bombs.js';
import { jpegWithScans } from '../helpers/image-bombs.js';
import { fromRaw, photoPixels } from '../helpers/images.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { pageCount, qpdfCheck } from '../helpers/tools.js';

/** Each operation that interprets a document's content, as the request body for `input`. */
const OPERATIONS: Record<string, (input: string) => Record<string, unknown>> = {
  '/api/pdf/to-images': (input) => ({ input, outputDir: 'out/images', dpi: 36 }),
  '/api/pdf/compress': (input) => ({ input, output: 'out/compressed.pdf' }),
  '/api/pdf/to-pdfa': (input) => ({ input, output: 'out/archived.pdf' }),
  '/api/ocr': (input) => ({ input, language: 'eng', dpi: 72 }),
};

/** 300 MB of operators: over the default budget (128 MiB), minutes of interpretation. */
const BOMB_BYTES = 300_000_000;

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

beforeAll(async () => {
  // A limit far above a refusal's cost (~1 s) and far below what rendering the bombs took (minutes).
  service = await startService(['--timeout', '60']);
  fs.writeFileSync(file('page-bomb.pdf'), contentBombPdf({ decompressedBytes: BOMB_BYTES }));
  fs.writeFileSync(file('form-bomb.pdf'), contentBombPdf({ decompressedBytes: BOMB_BYTES, inForm: true, twice: true }));
  execFileSync('qpdf', ['--encrypt', 'pw', 'pw', '256', '--', file('form-bomb.pdf'), file('locked-bomb.pdf')]);
  const progressive = await fromRaw(photoPixels(640, 480)).jpeg({ progressive: true }).toBuffer();
  fs.writeFileSync(file('scans-bomb.pdf'), jpegImagePdf(jpegWithScans(progressive, 600), 640, 480));
  fs.writeFileSync(file('progressive.pdf'), jpegImagePdf(progressive, 640, 480));
  fs.writeFileSync(file('report.pdf'), makePdf({ pages: ['Quarterly report', 'Second page'] }));
  fs.writeFileSync(file('photo.pdf'), makePhotoPdf(1200, 900).bytes);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

async function expectRefusedQuickly(input: string, mentions = /decompress.*--max-decompressed-bytes/): Promise<void> {
  for (const [route, body] of Object.entries(OPERATIONS)) {
    const started = Date.now();
    const res = await service.post(route, body(input));
    expect([res.status, res.body.code], `${route} ${input}: ${res.body.error}`).toEqual([413, 'TOO_LARGE']);
    expect(res.body.error, route).toMatch(mentions);
    expect(Date.now() - started, route).toBeLessThan(20_000);
  }
  expect(fs.existsSync(file('out')) ? fs.readdirSync(file('out'), { recursive: true }) : []).toEqual([]);
  expect(leftoverTempFiles(service.dir)).toEqual([]);
}

describe('decompressed bytes per document', () => {
  it('refuses a small PDF whose page content inflates to 300 MB on to-images, compress, to-pdfa and OCR', async () => {
    // A real PDF (qpdf --check would parse the 300 MB of content itself, for minutes).
    expect(pageCount(file('page-bomb.pdf'))).toBe(1);
    expect(fs.statSync(file('page-bomb.pdf')).size).toBeLessThan(400_000);
    await expectRefusedQuickly('page-bomb.pdf');
  });

  it('counts streams wherever they are and however many filters deep (a form XObject deflated twice)', async () => {
    expect(qpdfCheck(file('form-bomb.pdf'))).toBe(true);
    expect(fs.statSync(file('form-bomb.pdf')).size).toBeLessThan(10_000);
    await expectRefusedQuickly('form-bomb.pdf');
  });

  it('decodes the streams of an encrypted PDF opened with its password (AES-256)', async () => {
    for (const route of ['/api/pdf/to-images', '/api/pdf/compress'] as const) {
      const res = await service.post(route, { ...OPERATIONS[route]?.('locked-bomb.pdf'), password: 'pw' });
      expect([res.status, res.body.code], `${route}: ${res.body.error}`).toEqual([413, 'TOO_LARGE']);
    }
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });

  it('holds a JPEG image inside a PDF to the budget of scans', async () => {
    expect(qpdfCheck(file('scans-bomb.pdf'))).toBe(true);
    await expectRefusedQuickly('scans-bomb.pdf', /more than 500 scans/);
    const ok = await service.post('/api/pdf/to-images', { input: 'progressive.pdf', outputDir: 'ok/progressive', dpi: 72 });
    expect(ok.status, ok.body.error).toBe(200);
  });

  it('still renders, compresses and converts ordinary PDFs, and the service stays healthy', async () => {
    for (const input of ['report.pdf', 'photo.pdf']) {
      for (const [route, body] of Object.entries(OPERATIONS)) {
        const request = body(input);
        const res = await service.post(route, {
          ...request,
          ...('output' in request && { output: `ok/${input}-${path.basename(route)}.pdf` }),
          ...('outputDir' in request && { outputDir: `ok/${input}` }),
        });
        expect(res.status, `${route} ${input}: ${res.body.error}`).toBe(200);
      }
    }
    expect((await service.get('/api/health')).status).toBe(200);
  });

  it('is set with --max-decompressed-bytes, and counts no image (mupdf decodes no more of one than its declared size)', async () => {
    const strict = await startService(['--max-decompressed-bytes', '10000']);
    try {
      const lines = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of a page whose content stream is longer than the budget`);
      fs.writeFileSync(path.join(strict.dir, 'long.pdf'), makePdf({ pages: [lines.join(') Tj T* (')] }));
      const res = await strict.post('/api/pdf/to-images', { input: 'long.pdf', outputDir: 'images' });
      expect([res.status, res.body.code], res.body.error).toEqual([413, 'TOO_LARGE']);
      expect(res.body.error).toContain('10000 bytes');
      // 1200×900 RGB samples deflated: 3.2 MB once decoded, far over 10000 bytes, and not counted.
      fs.writeFileSync(path.join(strict.dir, 'photo.pdf'), makePhotoPdf(1200, 900).bytes);
      const photo = await strict.post('/api/pdf/to-images', { input: 'photo.pdf', outputDir: 'images', dpi: 36 });
      expect(photo.status, photo.body.error).toBe(200);
    } finally {
      await strict.stop();
    }
  });
});
