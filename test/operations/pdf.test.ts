// The PDF operations in process, one `describe` per operation and one `it` per rule of
// docs/api.md ("PDF", "PDF tools"). Outputs are read back with qpdf and poppler, never with docwasm.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { compactRawText, pdfinfo, pageRotations, qdfText } from '../helpers/pdf-inspect.js';
import { pdfWithInfo, tinyPdf } from '../helpers/pdf-tool-fixtures.js';
import { leftoverTempFiles } from '../helpers/service.js';
import { outlineTitles, pageCount, pdfPageTexts, qpdfCheck, requiresPassword, sha256 } from '../helpers/tools.js';
import { codeOf, inProcess, type InProcess } from './in-process.js';

let ops: InProcess;
const pages = (n: number, word = 'Page') => makePdf({ pages: Array.from({ length: n }, (_, i) => `${word} ${i + 1}`) });

beforeAll(async () => {
  ops = await inProcess();
  ops.put('three.pdf', makePdf({ pages: ['Alpha', 'Beta', 'Gamma'], bookmarks: [{ title: 'Start', page: 0 }] }));
  ops.put('two.pdf', pages(2, 'Other'));
  ops.put('info.pdf', pdfWithInfo());
  ops.put('broken.pdf', Buffer.from('%PDF-1.7\nthis is not a PDF body\n'));
});
afterAll(() => ops.close());

describe('pdf/merge', () => {
  it('writes the files in order and answers data.pages', async () => {
    const answer = await ops.ok('pdf/merge', { files: ['three.pdf', 'two.pdf'], output: 'merged.pdf' });
    expect(answer.data?.pages).toBe(5);
    expect(pdfPageTexts(ops.at('merged.pdf'))).toEqual(['Alpha', 'Beta', 'Gamma', 'Other 1', 'Other 2']);
    expect(qpdfCheck(ops.at('merged.pdf'))).toBe(true);
  });

  it('keeps the bookmarks of the inputs', async () => {
    await ops.ok('pdf/merge', { files: ['two.pdf', 'three.pdf'], output: 'marks.pdf' });
    expect(outlineTitles(ops.at('marks.pdf'))).toEqual([{ title: 'Start', page: 3 }]);
  });

  it('answers FILE_NOT_FOUND for a missing input and writes nothing', async () => {
    expect(codeOf(await ops.run('pdf/merge', { files: ['three.pdf', 'missing.pdf'], output: 'none.pdf' }))).toBe('FILE_NOT_FOUND');
    expect(fs.existsSync(ops.at('none.pdf'))).toBe(false);
  });

  it('answers INVALID_INPUT for a file that is not a PDF, leaving no temp file', async () => {
    expect(codeOf(await ops.run('pdf/merge', { files: ['three.pdf', 'broken.pdf'], output: 'none.pdf' }))).toBe('INVALID_INPUT');
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });
});

describe('pdf/split', () => {
  it('writes <stem>_<item>.pdf per item in outputDir, in item order', async () => {
    const answer = await ops.ok('pdf/split', { input: 'three.pdf', pages: '1-2, 3', outputDir: 'parts' });
    expect(answer.outputPath).toBe(ops.at('parts'));
    expect(answer.data?.files).toEqual([ops.at('parts/three_1-2.pdf'), ops.at('parts/three_3.pdf')]);
    expect(pdfPageTexts(ops.at('parts/three_1-2.pdf'))).toEqual(['Alpha', 'Beta']);
    expect(pdfPageTexts(ops.at('parts/three_3.pdf'))).toEqual(['Gamma']);
  });

  for (const bad of ['0', '3-1', '1-4', 'x', '1,,2']) {
    it(`refuses pages "${bad}" with INVALID_PAGE_RANGE`, async () => {
      const outputDir = `refused-${bad.replace(/\W/g, '_')}`;
      expect(codeOf(await ops.run('pdf/split', { input: 'three.pdf', pages: bad, outputDir }))).toBe('INVALID_PAGE_RANGE');
      expect(fs.existsSync(ops.at(outputDir)), 'the refused split left its output folder').toBe(false);
    });
  }
});

describe('pdf/encrypt', () => {
  it('writes AES-256 by default: the output opens only with the password', async () => {
    await ops.ok('pdf/encrypt', { input: 'three.pdf', output: 'locked.pdf', password: 'open sesame' });
    expect(requiresPassword(ops.at('locked.pdf'))).toBe(true);
    expect(qpdfCheck(ops.at('locked.pdf'), 'open sesame')).toBe(true);
    expect(pdfPageTexts(ops.at('locked.pdf'), 'open sesame')).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('takes algorithm aes128', async () => {
    await ops.ok('pdf/encrypt', { input: 'three.pdf', output: 'locked128.pdf', password: 'pw', algorithm: 'aes128' });
    expect(requiresPassword(ops.at('locked128.pdf'))).toBe(true);
  });

  it('refuses an empty password with VALIDATION_ERROR', async () => {
    expect(codeOf(await ops.run('pdf/encrypt', { input: 'three.pdf', output: 'x.pdf', password: '' }))).toBe('VALIDATION_ERROR');
  });

  it('answers PASSWORD_REQUIRED when its input is encrypted and no password is given', async () => {
    await ops.ok('pdf/encrypt', { input: 'three.pdf', output: 'again.pdf', password: 'a' });
    expect(codeOf(await ops.run('pdf/encrypt', { input: 'again.pdf', output: 'x.pdf', password: 'b' }))).toBe('PASSWORD_REQUIRED');
  });
});

describe('pdf/decrypt', () => {
  it('writes a file that opens with no password', async () => {
    await ops.ok('pdf/encrypt', { input: 'two.pdf', output: 'to-open.pdf', password: 'pw' });
    const answer = await ops.ok('pdf/decrypt', { input: 'to-open.pdf', output: 'opened.pdf', password: 'pw' });
    expect(answer.data?.wasEncrypted).toBe(true);
    expect(requiresPassword(ops.at('opened.pdf'))).toBe(false);
    expect(pdfPageTexts(ops.at('opened.pdf'))).toEqual(['Other 1', 'Other 2']);
  });

  it('copies an input that is not encrypted and says so', async () => {
    const answer = await ops.ok('pdf/decrypt', { input: 'two.pdf', output: 'copy.pdf', password: 'whatever' });
    expect(answer.data?.wasEncrypted).toBe(false);
    expect(pageCount(ops.at('copy.pdf'))).toBe(2);
  });

  it('answers PASSWORD_REQUIRED for a wrong password', async () => {
    await ops.ok('pdf/encrypt', { input: 'two.pdf', output: 'wrong.pdf', password: 'right' });
    expect(codeOf(await ops.run('pdf/decrypt', { input: 'wrong.pdf', output: 'x.pdf', password: 'wrong' }))).toBe('PASSWORD_REQUIRED');
  });
});

describe('pdf/info', () => {
  it('answers pages, version, metadata and page sizes in points, absent fields null', async () => {
    const { data } = await ops.ok('pdf/info', { input: 'info.pdf' });
    expect(data).toMatchObject({ pages: 1, encrypted: false, title: 'Old title', author: 'Ann Author', subject: null, keywords: null });
    expect(data?.pageSizes).toEqual([{ width: 500, height: 800 }]);
  });
});

describe('pdf/metadata', () => {
  it('sets the given fields and keeps the rest (pdfinfo)', async () => {
    await ops.ok('pdf/metadata', { input: 'info.pdf', output: 'meta.pdf', title: 'New title', subject: 'Tests' });
    expect(pdfinfo(ops.at('meta.pdf'))).toMatchObject({ Title: 'New title', Subject: 'Tests', Author: 'Ann Author' });
  });

  it('clears a field given as an empty string', async () => {
    await ops.ok('pdf/metadata', { input: 'info.pdf', output: 'cleared.pdf', author: '' });
    expect(pdfinfo(ops.at('cleared.pdf')).Author).toBeUndefined();
  });

  it('refuses a request with no field to set', async () => {
    expect(codeOf(await ops.run('pdf/metadata', { input: 'info.pdf', output: 'x.pdf' }))).toBe('VALIDATION_ERROR');
  });
});

describe('pdf/rotate', () => {
  it('adds the degrees to the listed pages only', async () => {
    await ops.ok('pdf/rotate', { input: 'three.pdf', output: 'rotated.pdf', degrees: 90, pages: '2-3' });
    expect(pageRotations(ops.at('rotated.pdf'), 3)).toEqual([0, 90, 90]);
  });

  it('refuses degrees that are not 90, 180 or 270', async () => {
    expect(codeOf(await ops.run('pdf/rotate', { input: 'three.pdf', output: 'x.pdf', degrees: 45 }))).toBe('VALIDATION_ERROR');
  });
});

describe('pdf/rearrange', () => {
  it('holds exactly the listed pages in the listed order, descending ranges backwards, repeats allowed', async () => {
    const answer = await ops.ok('pdf/rearrange', { input: 'three.pdf', output: 'order.pdf', pages: '3-1,2' });
    expect(answer.data?.pages).toBe(4);
    expect(pdfPageTexts(ops.at('order.pdf'))).toEqual(['Gamma', 'Beta', 'Alpha', 'Beta']);
  });
});

describe('pdf/watermark', () => {
  it('stamps the text as text on every page, CJK included', async () => {
    await ops.ok('pdf/watermark', { input: 'two.pdf', output: 'marked.pdf', text: 'DRAFT 草稿' });
    for (const page of [1, 2]) expect(compactRawText(ops.at('marked.pdf'), page)).toContain('DRAFT草稿');
  });
});

describe('pdf/compress', () => {
  it('writes the input bytes and says unchanged when the result would not be smaller', async () => {
    ops.put('tiny.pdf', tinyPdf());
    const answer = await ops.ok('pdf/compress', { input: 'tiny.pdf', output: 'tiny-out.pdf' });
    expect(answer.data?.unchanged).toBe(true);
    expect(sha256(ops.at('tiny-out.pdf'))).toBe(sha256(ops.at('tiny.pdf')));
  });

  it('keeps text as text and the page count', async () => {
    await ops.ok('pdf/compress', { input: 'three.pdf', output: 'small.pdf' });
    expect(pdfPageTexts(ops.at('small.pdf'))).toEqual(['Alpha', 'Beta', 'Gamma']);
  });
});

describe('pdf/to-pdfa', () => {
  it('writes the level asked for into the XMP (pdfaid part and conformance)', async () => {
    await ops.ok('pdf/to-pdfa', { input: 'two.pdf', output: 'archive.pdf', level: '2b' });
    const xmp = qdfText(ops.at('archive.pdf'));
    expect(xmp).toMatch(/pdfaid:part(?:>|=['"])2\b/);
    expect(xmp).toMatch(/pdfaid:conformance(?:>|=['"])B\b/);
  });
});

describe('every PDF operation', () => {
  it('replaces its input atomically when output equals input', async () => {
    ops.put('same.pdf', pages(3));
    await ops.ok('pdf/rotate', { input: 'same.pdf', output: 'same.pdf', degrees: 180 });
    expect(pageRotations(ops.at('same.pdf'), 3)).toEqual([180, 180, 180]);
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });

  it("leaves a failing job's input untouched and no temp file", async () => {
    const before = sha256(ops.at('three.pdf'));
    expect(codeOf(await ops.run('pdf/rearrange', { input: 'three.pdf', output: 'three.pdf', pages: '9' }))).toBe('INVALID_PAGE_RANGE');
    expect(sha256(ops.at('three.pdf'))).toBe(before);
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });
});
