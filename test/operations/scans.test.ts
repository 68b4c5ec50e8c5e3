// OCR and the scan operations in process, one `describe` per operation and one `it` per rule of
// docs/api.md ("OCR", "Scanned documents"). Text is checked against what was rendered, PDFs with
// poppler, images with ImageMagick.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { CHINESE_TEXT, ENGLISH_TEXT, renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { makePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles } from '../helpers/service.js';
import { pageCount, pdfPageTexts } from '../helpers/tools.js';
import { codeOf, inProcess, type InProcess } from './in-process.js';

let ops: InProcess;
const squash = (text: string) => text.replace(/\s+/g, '');

beforeAll(async () => {
  ops = await inProcess();
  ops.put('english.png', await renderText(ENGLISH_TEXT));
  ops.put('chinese.png', await renderText(CHINESE_TEXT, { font: 'cjk' }));
  ops.put(
    'scan.pdf',
    await makeScannedPdf([
      { image: await renderText('First scanned page'), dpi: 300 },
      { image: await renderText('Second scanned page'), dpi: 300 },
    ]),
  );
  ops.put('twelve.pdf', makePdf({ pages: Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`) }));
}, 120_000);
afterAll(() => ops.close());

describe('ocr', () => {
  it('reads English with the default language chi_sim+eng and answers text at the top level', async () => {
    const answer = await ops.ok('ocr', { input: 'english.png' });
    expect(characterErrorRate(ENGLISH_TEXT, answer.text ?? '')).toBeLessThan(0.05);
    expect(answer.data).toMatchObject({ language: 'chi_sim+eng' });
    expect(answer.data?.confidence).toBeGreaterThan(50);
  });

  it('reads Chinese with no spaces between the characters', async () => {
    const answer = await ops.ok('ocr', { input: 'chinese.png', language: 'chi_sim' });
    expect(characterErrorRate(squash(CHINESE_TEXT), squash(answer.text ?? ''))).toBeLessThan(0.1);
    expect(answer.text).not.toMatch(/[\u4e00-\u9fff] [\u4e00-\u9fff]/);
  });

  it('writes the text UTF-8 to output when given', async () => {
    const answer = await ops.ok('ocr', { input: 'chinese.png', language: 'chi_sim', output: 'chinese.txt' });
    expect(fs.readFileSync(ops.at('chinese.txt'), 'utf8')).toBe(answer.text);
  });

  it('reads the pages of a PDF in order, joined by form feeds, with data.pages', async () => {
    const answer = await ops.ok('ocr', { input: 'scan.pdf', language: 'eng' });
    expect((answer.text ?? '').split('\f').map((t) => t.trim())).toEqual(['First scanned page', 'Second scanned page']);
    expect((answer.data?.pages as { page: number }[]).map((p) => p.page)).toEqual([1, 2]);
  });

  it('writes a searchable PDF for an output ending in .pdf: same pages, text findable', async () => {
    await ops.ok('ocr', { input: 'scan.pdf', language: 'eng', output: 'searchable.PDF' });
    expect(pageCount(ops.at('searchable.PDF'))).toBe(2);
    expect(pdfPageTexts(ops.at('searchable.PDF'))).toEqual(['First scanned page', 'Second scanned page']);
  });

  it('answers UNSUPPORTED_LANGUAGE listing the installed languages', async () => {
    const answer = await ops.run('ocr', { input: 'english.png', language: 'xxx' });
    expect(codeOf(answer)).toBe('UNSUPPORTED_LANGUAGE');
    expect('error' in answer && answer.error).toMatch(/eng/);
  });

  it('answers INVALID_PAGE_RANGE for pages beyond the PDF', async () => {
    expect(codeOf(await ops.run('ocr', { input: 'scan.pdf', pages: '3' }))).toBe('INVALID_PAGE_RANGE');
  });
});

describe('pdf/to-images', () => {
  it('writes <stem>_<n> per page, n padded to the digits of the page count, round(points × dpi / 72) px', async () => {
    const progress: number[] = [];
    const answer = await ops.run('pdf/to-images', { input: 'twelve.pdf', outputDir: 'pages', dpi: 72, pages: '1,10-12' }, (done) => progress.push(done));
    expect(answer.success).toBe(true);
    expect(fs.readdirSync(ops.at('pages')).sort()).toEqual(['twelve_01.png', 'twelve_10.png', 'twelve_11.png', 'twelve_12.png']);
    expect(execFileSync('identify', ['-format', '%w %h', ops.at('pages/twelve_10.png')]).toString()).toBe('612 792');
    expect(progress.at(-1)).toBe(4);
  });

  it('takes jpeg and webp', async () => {
    await ops.ok('pdf/to-images', { input: 'twelve.pdf', outputDir: 'jpeg', format: 'jpeg', pages: '2' });
    expect(execFileSync('identify', ['-format', '%m', ops.at('jpeg/twelve_02.jpg')]).toString()).toBe('JPEG');
  });

  it('answers TOO_LARGE before rendering a page over --max-pixels', async () => {
    const small = await inProcess({ 'max-pixels': '1000' });
    small.put('one.pdf', makePdf({ pages: ['One'] }));
    try {
      expect(codeOf(await small.run('pdf/to-images', { input: 'one.pdf', outputDir: 'out' }))).toBe('TOO_LARGE');
      expect(leftoverTempFiles(small.dir)).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('pdf/from-images', () => {
  it('makes one page per image in order, fit: the image size at its resolution (else 96 dpi)', async () => {
    const answer = await ops.ok('pdf/from-images', { files: ['english.png', 'chinese.png'], output: 'book.pdf' });
    expect(answer.data?.pages).toBe(2);
    expect(pageCount(ops.at('book.pdf'))).toBe(2);
  });

  it('centres images on A4 with pageSize a4', async () => {
    await ops.ok('pdf/from-images', { files: ['english.png'], output: 'a4.pdf', pageSize: 'a4' });
    expect(execFileSync('pdfinfo', [ops.at('a4.pdf')]).toString()).toMatch(/Page size:\s+595\.\d* x 841\.\d*/);
  });
});
