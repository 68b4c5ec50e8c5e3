// OCR of scanned PDFs and searchable PDF output, over real HTTP against the built service.
// The scans are built here (page images only); poppler and qpdf check the results.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { makePdf } from '../helpers/make-pdf.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

const OCR_TIMEOUT = 300_000;
let service: RunningService;
const file = (name: string) => path.join(service.dir, name);
const noSpaces = (text: string) => text.replace(/\s+/g, '');

beforeAll(async () => {
  service = await startService(['--timeout', '300']);
  const english = await renderText(ENGLISH_TEXT);
  const chinese = await renderText(CHINESE_TEXT, { font: 'cjk' });
  fs.writeFileSync(file('en.png'), english);
  fs.writeFileSync(
    file('scan.pdf'),
    await makeScannedPdf([
      { image: english, dpi: 300 },
      { image: chinese, dpi: 300 },
    ]),
  );
  execFileSync('qpdf', ['--encrypt', 'secret', 'secret', '256', '--', file('scan.pdf'), file('locked.pdf')]);
  fs.writeFileSync(file('typed.pdf'), makePdf({ pages: ['Typed text needs no OCR'] }));
}, 120_000);

afterAll(async () => {
  await service?.stop();
  if (service) fs.rmSync(service.dir, { recursive: true, force: true });
});

function pdfInfo(pdf: string): { pages: number; sizes: string[] } {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '99', pdf]).toString();
  return { pages: Number(/^Pages:\s+(\d+)/m.exec(out)?.[1]), sizes: [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+ x [\d.]+)/gm)].map((m) => m[1] as string) };
}

const pageText = (pdf: string, page: number) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), pdf, '-']).toString();

/** `pdfimages -list` rows: encoding and pixel size of every image. */
function images(pdf: string): string[] {
  return execFileSync('pdfimages', ['-list', pdf])
    .toString()
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((row) => {
      const cols = row.trim().split(/\s+/);
      return `${cols[3]}x${cols[4]} ${cols[8]}`;
    });
}

/** Largest per-channel difference between the two PDFs' pages rendered by poppler. */
async function renderedDifference(a: string, b: string): Promise<number> {
  let worst = 0;
  for (const [i, pdf] of [a, b].entries()) execFileSync('pdftoppm', ['-r', '40', '-gray', '-png', pdf, file(`render-${i}`)]);
  const pages = fs.readdirSync(service.dir).filter((name) => name.startsWith('render-0'));
  for (const name of pages) {
    const left = await sharp(file(name)).raw().toBuffer();
    const right = await sharp(file(name.replace('render-0', 'render-1')))
      .raw()
      .toBuffer();
    expect(right.length).toBe(left.length);
    for (let i = 0; i < left.length; i++) worst = Math.max(worst, Math.abs((left[i] as number) - (right[i] as number)));
  }
  for (const name of fs.readdirSync(service.dir).filter((n) => n.startsWith('render-'))) fs.rmSync(file(name));
  return worst;
}

describe('POST /api/ocr with a PDF', () => {
  it(
    'reads every page in order: text joined by form feeds, data.pages per page',
    async () => {
      const { status, body } = await service.post('/api/ocr', { input: 'scan.pdf' });
      expect(status).toBe(200);
      const pages = String(body.text).split('\f');
      expect(pages).toHaveLength(2);
      expect(wordErrorRate(ENGLISH_TEXT, pages[0] as string)).toBeLessThanOrEqual(0.05);
      expect(noSpaces(pages[1] as string)).toContain('今天天气很好');
      const perPage = body.data?.pages as { page: number; characters: number; confidence: number }[];
      expect(perPage.map((p) => p.page)).toEqual([1, 2]);
      expect(perPage.every((p) => p.characters > 20 && p.confidence > 50)).toBe(true);
    },
    OCR_TIMEOUT,
  );

  it(
    "writes a searchable PDF: same pages and images, looking the same, with each page's words findable (CJK included)",
    async () => {
      const { status, body } = await service.post('/api/ocr', { input: 'scan.pdf', output: 'out/searchable.PDF' });
      expect(status).toBe(200);
      const output = file('out/searchable.PDF');
      expect(body.outputPath).toBe(output);
      expect(pdfInfo(output)).toEqual(pdfInfo(file('scan.pdf')));
      // The page images are the originals: still JPEG (DCT), same sizes, not re-rendered.
      expect(images(output)).toEqual(images(file('scan.pdf')));
      expect(images(output).every((row) => row.endsWith('jpeg'))).toBe(true);
      expect(pageText(output, 1)).toContain('Invoice 4471');
      expect(noSpaces(pageText(output, 2))).toContain('今天天气很好，我们在公园里散步');
      expect(await renderedDifference(file('scan.pdf'), output)).toBeLessThanOrEqual(2);
      expect(execFileSync('pdffonts', [output]).toString()).toContain('GlyphLessFont');
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    },
    OCR_TIMEOUT,
  );

  it(
    'reads an encrypted PDF with its password, only the pages asked for',
    async () => {
      const refused = await service.post('/api/ocr', { input: 'locked.pdf' });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('PASSWORD_REQUIRED');
      const wrong = await service.post('/api/ocr', { input: 'locked.pdf', password: 'nope' });
      expect(wrong.body.code).toBe('PASSWORD_REQUIRED');
      const { status, body } = await service.post('/api/ocr', { input: 'locked.pdf', password: 'secret', pages: '2' });
      expect(status).toBe(200);
      expect(noSpaces(String(body.text))).toContain('本地文件处理服务');
      expect((body.data?.pages as { page: number }[]).map((p) => p.page)).toEqual([2]);
    },
    OCR_TIMEOUT,
  );

  it('with skipText, returns the text of pages that already have some without reading them', async () => {
    const { status, body } = await service.post('/api/ocr', { input: 'typed.pdf', skipText: true });
    expect(status).toBe(200);
    expect(String(body.text)).toContain('Typed text needs no OCR');
    expect(body.data?.pages).toEqual([{ page: 1, characters: 19, confidence: null, skipped: true }]);
  });

  it(
    'reads a 12-page PDF without a process warning (one abort listener per page job piled up: MaxListenersExceededWarning)',
    async () => {
      fs.writeFileSync(file('twelve.pdf'), makePdf({ pages: Array.from({ length: 12 }, (_, i) => `Chapter ${i + 1}`) }));
      const { status, body } = await service.post('/api/ocr', { input: 'twelve.pdf', language: 'eng', dpi: 150 });
      expect(status).toBe(200);
      expect((body.data?.pages as unknown[]).length).toBe(12);
      expect(body.text?.split('\f')[11]).toContain('Chapter 12');
      expect(service.stderr()).not.toMatch(/Warning/);
    },
    OCR_TIMEOUT,
  );

  it('refuses bad pages and dpi before any work', async () => {
    expect((await service.post('/api/ocr', { input: 'scan.pdf', pages: '3' })).body.code).toBe('INVALID_PAGE_RANGE');
    expect((await service.post('/api/ocr', { input: 'scan.pdf', pages: '2-1' })).body.code).toBe('INVALID_PAGE_RANGE');
    expect((await service.post('/api/ocr', { input: 'scan.pdf', dpi: 601 })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.post('/api/ocr', { input: 'scan.pdf', dpi: 71 })).body.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/ocr with an image and a .pdf output', () => {
  it(
    'writes a one-page PDF showing the image with its text layer',
    async () => {
      const { status } = await service.post('/api/ocr', { input: 'en.png', output: 'en.pdf', language: 'eng' });
      expect(status).toBe(200);
      const { width = 0, height = 0 } = await sharp(file('en.png')).metadata();
      const info = pdfInfo(file('en.pdf'));
      expect(info.pages).toBe(1);
      // sharp writes 300 dpi into the PNG (pHYs): the page is the image's size at that resolution.
      const [pageWidth, pageHeight] = (info.sizes[0] as string).split(' x ').map(Number);
      expect(pageWidth).toBeCloseTo((width * 72) / 300, 0);
      expect(pageHeight).toBeCloseTo((height * 72) / 300, 0);
      expect(images(file('en.pdf'))).toEqual([`${width}x${height} image`]);
      expect(wordErrorRate(ENGLISH_TEXT, pageText(file('en.pdf'), 1))).toBeLessThanOrEqual(0.05);
    },
    OCR_TIMEOUT,
  );
});
