// The PDF tools end to end: real HTTP over loopback to the built service, on both engines, as
// docs/api.md ("PDF tools") states them. Every output is read back with poppler (pdfinfo,
// pdftotext, pdfimages, pdffonts) and qpdf, never with docwasm's own engines; every failure is
// checked for its contract code, for leaving no output and no temp file, and for leaving its
// input as it was.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { makePhotoPdf } from '../helpers/make-photo-pdf.js';
import { compactRawText, isEncrypted, listFonts, listImages, pageRotations, pageText, pdfinfo, qdfText, qpdfCheckStrict } from '../helpers/pdf-inspect.js';
import { pdfOfSizes, pdfWithInfo, tinyPdf } from '../helpers/pdf-tool-fixtures.js';
import { leftoverTempFiles, startService, type ApiResponse, type RunningService } from '../helpers/service.js';
import { pageCount, pdfPageTexts, qpdfCheck, requiresPassword, sha256 } from '../helpers/tools.js';

/** Operations the cpdf engine leaves to mupdf: it answers BACKEND_UNAVAILABLE for them. */
const MUPDF_ONLY = ['pdf/metadata', 'pdf/watermark', 'pdf/compress', 'pdf/to-pdfa'] as const;

const FIVE_PAGES = ['Page one', 'Page two', 'Page three', 'Page four', 'Page five'];

/** A valid request of each operation reading `input` (and `password` as it takes it) and writing `output`. */
const REQUESTS: Record<string, (input: string, output: string, password?: string) => Record<string, unknown>> = {
  'pdf/info': (input, _output, password) => ({ input, password }),
  'pdf/metadata': (input, output, password) => ({ input, output, password, title: 'T' }),
  'pdf/decrypt': (input, output, password) => ({ input, output, password: password ?? 'wrong' }),
  'pdf/rotate': (input, output, password) => ({ input, output, password, degrees: 90 }),
  'pdf/rearrange': (input, output, password) => ({ input, output, password, pages: '1' }),
  'pdf/watermark': (input, output, password) => ({ input, output, password, text: 'DRAFT' }),
  'pdf/compress': (input, output, password) => ({ input, output, password }),
  'pdf/to-pdfa': (input, output, password) => ({ input, output, password }),
  'pdf/merge': (input, output, password) => ({ files: [input], output, password }),
  'pdf/split': (input, output, password) => ({ input, outputDir: output, password, pages: '1' }),
  'pdf/encrypt': (input, output, password) => ({ input, output, inputPassword: password, password: 'fresh' }),
};

describe.each(['mupdf', 'cpdf'] as const)('PDF tools over HTTP on the %s engine', (engine) => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);
  const post = (operation: string, body: Record<string, unknown>) => service.post(`/api/${operation}`, body);
  const unsupported = (operation: string) => engine === 'cpdf' && (MUPDF_ONLY as readonly string[]).includes(operation);
  const fixtureHashes = new Map<string, string>();

  /** Files (not directories) under `dir` of the base dir, recursively; none when it does not exist. */
  const filesUnder = (dir: string) =>
    fs.existsSync(file(dir))
      ? fs
          .readdirSync(file(dir), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name)
      : [];

  /** Posts a request that must fail with `code` (and its status), leaving nothing behind. */
  async function expectFailure(operation: string, body: Record<string, unknown>, status: number, code: string): Promise<ApiResponse> {
    const inputs = [body.input, ...((body.files as unknown[] | undefined) ?? [])].filter(
      (name): name is string => typeof name === 'string' && fs.existsSync(file(name)),
    );
    const before = inputs.map((name) => sha256(file(name)));
    const response = await post(operation, body);
    expect([response.status, response.body.code, response.body.success], `${operation} ${JSON.stringify(body)}: ${response.body.error}`).toEqual([
      status,
      code,
      false,
    ]);
    expect(typeof response.body.error).toBe('string');
    for (const key of ['output', 'outputDir'] as const) {
      const target = body[key];
      if (typeof target === 'string' && !target.includes('plain.txt'))
        expect(fs.existsSync(file(target)) && fs.statSync(file(target)).isFile(), `${target} written`).toBe(false);
    }
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(inputs.map((name) => sha256(file(name)))).toEqual(before);
    return response;
  }

  beforeAll(async () => {
    service = await startService(['--pdf-engine', engine]);
    const fixtures: Record<string, Buffer | Uint8Array> = {
      'five.pdf': makePdf({ pages: FIVE_PAGES }),
      'info.pdf': pdfWithInfo(),
      'turned.pdf': pdfWithInfo({ rotate: 90 }),
      'sizes.pdf': pdfOfSizes([
        [595, 842],
        [842, 595],
        [612, 792],
        [283.46, 419.53],
      ]),
      'photo.pdf': makePhotoPdf().bytes,
      'tiny.pdf': tinyPdf(),
      'garbage.pdf': Buffer.from('this is not a pdf at all, just text\n'.repeat(20)),
      'fake.pdf': Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]),
      'plain.txt': Buffer.from('a file where a directory should be\n'),
    };
    for (const [name, bytes] of Object.entries(fixtures)) fs.writeFileSync(file(name), bytes);
    execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', file('five.pdf'), file('locked.pdf')]);
    execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '128', '--use-aes=y', '--', file('info.pdf'), file('locked-info.pdf')]);
    execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', file('photo.pdf'), file('locked-photo.pdf')]);
    for (const name of fs.readdirSync(service.dir)) fixtureHashes.set(name, sha256(file(name)));
  });

  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  describe('every operation: bad inputs get their code and leave nothing behind', () => {
    const operations = Object.keys(REQUESTS);

    it.each(operations)('%s', async (operation) => {
      const request = REQUESTS[operation] as (typeof REQUESTS)[string];
      const slug = operation.replace('/', '-');
      const out = (label: string) => `bad/${slug}-${label}${operation === 'pdf/split' ? '' : '.pdf'}`;
      const engineCode = (code: string, status = 422): [number, string] => (unsupported(operation) ? [503, 'BACKEND_UNAVAILABLE'] : [status, code]);

      await expectFailure(operation, request('missing.pdf', out('missing')), 404, 'FILE_NOT_FOUND');
      await expectFailure(operation, request('garbage.pdf', out('garbage')), 422, 'INVALID_INPUT');
      await expectFailure(operation, request('fake.pdf', out('fake')), ...engineCode('INVALID_INPUT'));
      if (operation !== 'pdf/decrypt') await expectFailure(operation, request('locked.pdf', out('no-password')), ...engineCode('PASSWORD_REQUIRED'));
      await expectFailure(operation, request('locked.pdf', out('wrong-password'), 'wrong'), ...engineCode('PASSWORD_REQUIRED'));
      if (operation !== 'pdf/info') {
        // The parent of the output is a regular file.
        await expectFailure(operation, request('five.pdf', 'plain.txt/out.pdf'), 409, 'OUTPUT_NOT_WRITABLE');
      }
      const noInput = request('five.pdf', out('no-input'));
      delete noInput.input;
      delete noInput.files;
      await expectFailure(operation, noInput, 400, 'VALIDATION_ERROR');
      await expectFailure(
        operation,
        { ...request('five.pdf', out('empty-password')), [operation === 'pdf/encrypt' ? 'inputPassword' : 'password']: '' },
        400,
        'VALIDATION_ERROR',
      );
      expect(filesUnder('bad')).toEqual([]);
    });
  });

  describe('POST /api/pdf/info', () => {
    it('reports pages, version, encryption, metadata (null when absent) and page sizes', async () => {
      const { status, body } = await post('pdf/info', { input: 'five.pdf' });
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.data).toEqual({
        pages: 5,
        pdfVersion: '1.7',
        encrypted: false,
        title: null,
        author: null,
        subject: null,
        keywords: null,
        creator: null,
        producer: null,
        creationDate: null,
        modDate: null,
        pageSizes: Array(5).fill({ width: 612, height: 792 }),
      });
      const poppler = pdfinfo(file('five.pdf'));
      expect([poppler.Pages, poppler['PDF version']]).toEqual(['5', '1.7']);
    });

    it('reads the Info dictionary and gives each page size in points, as pdfinfo does', async () => {
      const { body } = await post('pdf/info', { input: 'info.pdf' });
      expect(body.data).toMatchObject({
        title: 'Old title',
        author: 'Ann Author',
        producer: 'Handmade',
        creationDate: '2024-01-31T12:00:00+01:00',
        subject: null,
        modDate: null,
      });
      const poppler = pdfinfo(file('info.pdf'));
      expect([poppler.Title, poppler.Author, poppler.Producer]).toEqual(['Old title', 'Ann Author', 'Handmade']);

      const sizes = (await post('pdf/info', { input: 'sizes.pdf' })).body.data?.pageSizes as { width: number; height: number }[];
      const perPage = pdfinfo(file('sizes.pdf'), { pages: 4 });
      const popplerSizes = [1, 2, 3, 4].map((page) =>
        /^([\d.]+) x ([\d.]+) pts/
          .exec(perPage[`Page ${String(page).padStart(4)} size`] ?? '')
          ?.slice(1)
          .map(Number),
      );
      expect(sizes.map((size) => [size.width, size.height])).toEqual(popplerSizes);
      expect(sizes).toEqual([
        { width: 595, height: 842 },
        { width: 842, height: 595 },
        { width: 612, height: 792 },
        { width: 283.46, height: 419.53 },
      ]);
    });

    it('gives the size as a viewer shows the page: the CropBox, turned by /Rotate', async () => {
      const { body } = await post('pdf/info', { input: 'turned.pdf' });
      expect(pdfinfo(file('turned.pdf'))['Page rot']).toBe('90');
      expect(body.data?.pageSizes).toEqual([{ width: 800, height: 500 }]);
    });

    it('says an encrypted PDF is encrypted, and reads it with the user or the owner password', async () => {
      for (const password of ['userpw', 'ownerpw']) {
        const { status, body } = await post('pdf/info', { input: 'locked-info.pdf', password });
        expect(status).toBe(200);
        expect(body.data).toMatchObject({ pages: 1, encrypted: true, title: 'Old title', author: 'Ann Author' });
      }
      const locked = await post('pdf/info', { input: 'locked.pdf', password: 'userpw' });
      expect(locked.body.data).toMatchObject({ pages: 5, encrypted: true });
      expect(locked.body.message).toMatch(/encrypted/);
    });

    it('answers PASSWORD_REQUIRED without a password or with a wrong one', async () => {
      for (const extra of [{}, { password: 'wrong' }]) {
        const { body } = await expectFailure('pdf/info', { input: 'locked-info.pdf', ...extra }, 422, 'PASSWORD_REQUIRED');
        expect(body.error).toMatch(/password/i);
      }
    });
  });

  describe('POST /api/pdf/decrypt', () => {
    it('writes a PDF that opens with no password (user or owner password given)', async () => {
      for (const password of ['userpw', 'ownerpw']) {
        const output = `decrypted-${password}.pdf`;
        const { status, body } = await post('pdf/decrypt', { input: 'locked.pdf', password, output });
        expect(status).toBe(200);
        expect(body).toMatchObject({ success: true, outputPath: file(output), data: { wasEncrypted: true } });
        expect(isEncrypted(file(output))).toBe(false);
        expect(qpdfCheckStrict(file(output)).ok).toBe(true);
        expect(pdfPageTexts(file(output))).toEqual(FIVE_PAGES);
      }
    });

    it('copies a PDF that is not encrypted as it is, with wasEncrypted false', async () => {
      const { status, body } = await post('pdf/decrypt', { input: 'five.pdf', password: 'anything', output: 'copied.pdf' });
      expect(status).toBe(200);
      expect(body.data).toEqual({ wasEncrypted: false });
      expect(fs.readFileSync(file('copied.pdf'))).toEqual(fs.readFileSync(file('five.pdf')));
    });

    it('needs the password: VALIDATION_ERROR without one, PASSWORD_REQUIRED for a wrong one', async () => {
      await expectFailure('pdf/decrypt', { input: 'locked.pdf', output: 'bad-decrypt/none.pdf' }, 400, 'VALIDATION_ERROR');
      await expectFailure('pdf/decrypt', { input: 'locked.pdf', output: 'bad-decrypt/wrong.pdf', password: 'wrong' }, 422, 'PASSWORD_REQUIRED');
    });
  });

  describe('POST /api/pdf/rotate', () => {
    it('adds the degrees to the selected pages only (pdfinfo Page rot per page)', async () => {
      let response = await post('pdf/rotate', { input: 'five.pdf', output: 'rot/1.pdf', degrees: 90, pages: '1-2,4' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ outputPath: file('rot/1.pdf'), data: { degrees: 90 } });
      expect(pageRotations(file('rot/1.pdf'), 5)).toEqual([90, 90, 0, 90, 0]);
      response = await post('pdf/rotate', { input: 'rot/1.pdf', output: 'rot/2.pdf', degrees: 270, pages: '1, 3' });
      expect(response.status).toBe(200);
      expect(pageRotations(file('rot/2.pdf'), 5)).toEqual([0, 90, 270, 90, 0]);
      response = await post('pdf/rotate', { input: 'rot/2.pdf', output: 'rot/3.pdf', degrees: 180 });
      expect(response.status).toBe(200);
      expect(pageRotations(file('rot/3.pdf'), 5)).toEqual([180, 270, 90, 270, 180]);
      expect(qpdfCheckStrict(file('rot/3.pdf')).ok).toBe(true);
      expect(pdfPageTexts(file('rot/3.pdf'))).toEqual(FIVE_PAGES);
      // info sees the turned pages as a viewer does.
      expect((await post('pdf/info', { input: 'rot/1.pdf' })).body.data?.pageSizes).toEqual([
        { width: 792, height: 612 },
        { width: 792, height: 612 },
        { width: 612, height: 792 },
        { width: 792, height: 612 },
        { width: 612, height: 792 },
      ]);
    });

    it('opens an encrypted input with its password and writes it unencrypted', async () => {
      const { status } = await post('pdf/rotate', { input: 'locked.pdf', password: 'userpw', output: 'rot/locked.pdf', degrees: 180, pages: '5' });
      expect(status).toBe(200);
      expect(isEncrypted(file('rot/locked.pdf'))).toBe(false);
      expect(pageRotations(file('rot/locked.pdf'), 5)).toEqual([0, 0, 0, 0, 180]);
    });

    it('replaces the input atomically when output is the input', async () => {
      fs.copyFileSync(file('five.pdf'), file('rot/self.pdf'));
      const { status } = await post('pdf/rotate', { input: 'rot/self.pdf', output: 'rot/self.pdf', degrees: 270 });
      expect(status).toBe(200);
      expect(pageRotations(file('rot/self.pdf'), 5)).toEqual(Array(5).fill(270));
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('answers VALIDATION_ERROR for degrees other than 90, 180, 270 and INVALID_PAGE_RANGE for bad pages', async () => {
      for (const degrees of [0, 45, 360, -90, 450, '90', null]) {
        await expectFailure('pdf/rotate', { input: 'five.pdf', output: 'bad-rot/degrees.pdf', degrees }, 400, 'VALIDATION_ERROR');
      }
      await expectFailure('pdf/rotate', { input: 'five.pdf', output: 'bad-rot/none.pdf' }, 400, 'VALIDATION_ERROR');
      for (const pages of ['6', '0', '3-1', '1-', 'x']) {
        await expectFailure('pdf/rotate', { input: 'five.pdf', output: 'bad-rot/pages.pdf', degrees: 90, pages }, 422, 'INVALID_PAGE_RANGE');
      }
      expect(filesUnder('bad-rot')).toEqual([]);
    });
  });

  describe('POST /api/pdf/rearrange', () => {
    const texts = (name: string) => Array.from({ length: pageCount(file(name)) }, (_, i) => pageText(file(name), i + 1));

    it.each([
      ['3,1-2', ['Page three', 'Page one', 'Page two']],
      ['5-1', [...FIVE_PAGES].reverse()],
      ['2,2,4-3,2', ['Page two', 'Page two', 'Page four', 'Page three', 'Page two']],
      [' 5 , 1 ', ['Page five', 'Page one']],
    ])('"%s" → exactly those pages in that order (pdftotext per page)', async (pages, expected) => {
      const output = `order/${pages.replace(/\W+/g, '_')}.pdf`;
      const { status, body } = await post('pdf/rearrange', { input: 'five.pdf', output, pages });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file(output), data: { pages: expected.length } });
      expect(texts(output)).toEqual(expected);
      expect(qpdfCheckStrict(file(output)).ok).toBe(true);
    });

    it('opens an encrypted input with its password', async () => {
      const { status } = await post('pdf/rearrange', { input: 'locked.pdf', password: 'ownerpw', output: 'order/locked.pdf', pages: '4-5' });
      expect(status).toBe(200);
      expect(isEncrypted(file('order/locked.pdf'))).toBe(false);
      expect(texts('order/locked.pdf')).toEqual(['Page four', 'Page five']);
    });

    it('answers INVALID_PAGE_RANGE for pages beyond the last or malformed, VALIDATION_ERROR for none', async () => {
      for (const pages of ['6', '2,9-1', '0', '1-', 'a', '1;2']) {
        await expectFailure('pdf/rearrange', { input: 'five.pdf', output: 'bad-order/out.pdf', pages }, 422, 'INVALID_PAGE_RANGE');
      }
      for (const pages of ['', undefined, 3]) {
        await expectFailure('pdf/rearrange', { input: 'five.pdf', output: 'bad-order/out.pdf', pages }, 400, 'VALIDATION_ERROR');
      }
      expect(filesUnder('bad-order')).toEqual([]);
    });
  });

  describe('password on merge, split and encrypt', () => {
    it('merge tries the password on each encrypted input', async () => {
      for (const password of ['userpw', 'ownerpw']) {
        const output = `pw/merged-${password}.pdf`;
        const { status, body } = await post('pdf/merge', { files: ['locked.pdf', 'five.pdf', 'locked.pdf'], output, password });
        expect(status).toBe(200);
        expect(body.data).toMatchObject({ pages: 15 });
        expect(isEncrypted(file(output))).toBe(false);
        expect(pdfPageTexts(file(output))).toEqual([...FIVE_PAGES, ...FIVE_PAGES, ...FIVE_PAGES]);
      }
      await expectFailure('pdf/merge', { files: ['five.pdf', 'locked.pdf'], output: 'pw/never.pdf' }, 422, 'PASSWORD_REQUIRED');
      await expectFailure('pdf/merge', { files: ['five.pdf', 'locked.pdf'], output: 'pw/never.pdf', password: 'wrong' }, 422, 'PASSWORD_REQUIRED');
    });

    it('split opens an encrypted input with its password', async () => {
      const { status, body } = await post('pdf/split', { input: 'locked.pdf', password: 'userpw', pages: '1,3-4', outputDir: 'pw/parts' });
      expect(status).toBe(200);
      expect(body.data?.files).toEqual([file('pw/parts/locked_1.pdf'), file('pw/parts/locked_3-4.pdf')]);
      expect(pdfPageTexts(file('pw/parts/locked_1.pdf'))).toEqual(['Page one']);
      expect(pdfPageTexts(file('pw/parts/locked_3-4.pdf'))).toEqual(['Page three', 'Page four']);
      await expectFailure('pdf/split', { input: 'locked.pdf', pages: '1', outputDir: 'pw/never' }, 422, 'PASSWORD_REQUIRED');
      expect(filesUnder('pw/never')).toEqual([]);
    });

    it('encrypt re-encrypts an encrypted input given inputPassword: only the new password opens it', async () => {
      const { status } = await post('pdf/encrypt', { input: 'locked.pdf', inputPassword: 'userpw', password: 'fresh', output: 'pw/re-encrypted.pdf' });
      expect(status).toBe(200);
      expect(requiresPassword(file('pw/re-encrypted.pdf'))).toBe(true);
      expect(qpdfCheck(file('pw/re-encrypted.pdf'), 'fresh')).toBe(true);
      expect(qpdfCheck(file('pw/re-encrypted.pdf'), 'userpw')).toBe(false);
      expect(pdfPageTexts(file('pw/re-encrypted.pdf'), 'fresh')).toEqual(FIVE_PAGES);
      await expectFailure('pdf/encrypt', { input: 'locked.pdf', password: 'fresh', output: 'pw/never.pdf' }, 422, 'PASSWORD_REQUIRED');
      await expectFailure('pdf/encrypt', { input: 'locked.pdf', inputPassword: 'wrong', password: 'fresh', output: 'pw/never.pdf' }, 422, 'PASSWORD_REQUIRED');
    });
  });

  describe.runIf(engine === 'cpdf')('operations that need mupdf', () => {
    it.each(MUPDF_ONLY)('%s answers BACKEND_UNAVAILABLE (503) saying to use the mupdf engine', async (operation) => {
      const request = REQUESTS[operation] as (typeof REQUESTS)[string];
      const { body } = await expectFailure(operation, request('five.pdf', `cpdf-never/${operation.replace('/', '-')}.pdf`), 503, 'BACKEND_UNAVAILABLE');
      expect(body.error).toContain(operation.replace('pdf/', ''));
      expect(body.error).toContain('--pdf-engine mupdf');
      expect(filesUnder('cpdf-never')).toEqual([]);
    });

    it('still validates those requests first (VALIDATION_ERROR beats BACKEND_UNAVAILABLE)', async () => {
      await expectFailure('pdf/metadata', { input: 'five.pdf', output: 'cpdf-never/m.pdf' }, 400, 'VALIDATION_ERROR');
      await expectFailure('pdf/watermark', { input: 'five.pdf', output: 'cpdf-never/w.pdf', text: 'x', opacity: 2 }, 400, 'VALIDATION_ERROR');
      await expectFailure('pdf/to-pdfa', { input: 'five.pdf', output: 'cpdf-never/a.pdf', level: '4b' }, 400, 'VALIDATION_ERROR');
    });
  });

  describe.runIf(engine === 'mupdf')('POST /api/pdf/metadata', () => {
    it('sets the given fields (pdfinfo shows them), clears those given as "", keeps the rest', async () => {
      const { status, body } = await post('pdf/metadata', {
        input: 'info.pdf',
        output: 'meta/set.pdf',
        title: 'New title',
        author: '',
        subject: 'The subject',
        keywords: 'alpha, beta',
        creator: 'docwasm test',
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file('meta/set.pdf') });
      expect((body.data?.fields as string[]).sort()).toEqual(['author', 'creator', 'keywords', 'subject', 'title']);
      const info = pdfinfo(file('meta/set.pdf'));
      expect(info).toMatchObject({ Title: 'New title', Subject: 'The subject', Keywords: 'alpha, beta', Creator: 'docwasm test', Producer: 'Handmade' });
      expect(info.Author).toBeUndefined();
      expect(info.CreationDate).toBeDefined();
      expect(pageText(file('meta/set.pdf'), 1)).toBe('Described');
      expect(qpdfCheckStrict(file('meta/set.pdf')).ok).toBe(true);
      const read = await post('pdf/info', { input: 'meta/set.pdf' });
      expect(read.body.data).toMatchObject({
        title: 'New title',
        author: null,
        subject: 'The subject',
        keywords: 'alpha, beta',
        creator: 'docwasm test',
        producer: 'Handmade',
        creationDate: '2024-01-31T12:00:00+01:00',
      });
    });

    it('leaves the fields not given as they were, and writes CJK values', async () => {
      const { status } = await post('pdf/metadata', { input: 'info.pdf', output: 'meta/author.pdf', author: '张三' });
      expect(status).toBe(200);
      expect(pdfinfo(file('meta/author.pdf'))).toMatchObject({ Title: 'Old title', Author: '张三', Producer: 'Handmade' });
    });

    it('opens an encrypted input with its password', async () => {
      const { status } = await post('pdf/metadata', { input: 'locked-info.pdf', password: 'userpw', output: 'meta/locked.pdf', keywords: 'opened' });
      expect(status).toBe(200);
      expect(isEncrypted(file('meta/locked.pdf'))).toBe(false);
      expect(pdfinfo(file('meta/locked.pdf'))).toMatchObject({ Title: 'Old title', Keywords: 'opened' });
    });

    it('answers VALIDATION_ERROR with no field, or a field that is not a string', async () => {
      await expectFailure('pdf/metadata', { input: 'info.pdf', output: 'bad-meta/out.pdf' }, 400, 'VALIDATION_ERROR');
      await expectFailure('pdf/metadata', { input: 'info.pdf', output: 'bad-meta/out.pdf', producer: 'not settable', unknown: 'x' }, 400, 'VALIDATION_ERROR');
      await expectFailure('pdf/metadata', { input: 'info.pdf', output: 'bad-meta/out.pdf', title: 42 }, 400, 'VALIDATION_ERROR');
      expect(filesUnder('bad-meta')).toEqual([]);
    });
  });

  describe.runIf(engine === 'mupdf')('POST /api/pdf/watermark', () => {
    it('stamps searchable text on every page with the defaults: opacity 0.3, 48 pt, 45°', async () => {
      const { status, body } = await post('pdf/watermark', { input: 'five.pdf', output: 'wm/default.pdf', text: 'CONFIDENTIAL' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file('wm/default.pdf') });
      for (let page = 1; page <= 5; page++) {
        expect(compactRawText(file('wm/default.pdf'), page)).toContain('CONFIDENTIAL');
        expect(pageText(file('wm/default.pdf'), page)).toContain(FIVE_PAGES[page - 1]);
      }
      const qdf = qdfText(file('wm/default.pdf'));
      expect(qdf).toMatch(/\/ca 0?\.3\b/);
      // 48 pt, turned 45° counter-clockwise: cos 45° = sin 45° ≈ 0.707107 in the text matrix.
      expect(qdf).toMatch(/ 48 Tf 0\.70710\d 0\.70710\d -0\.70710\d 0\.70710\d [\d.]+ [\d.]+ Tm/);
      expect(qpdfCheckStrict(file('wm/default.pdf')).ok).toBe(true);
    });

    it('stamps only the selected pages, with the given opacity, size and rotation', async () => {
      const { status } = await post('pdf/watermark', {
        input: 'five.pdf',
        output: 'wm/pages.pdf',
        text: 'MIDDLE',
        pages: '2-3',
        opacity: 0.5,
        fontSize: 30,
        rotation: 0,
      });
      expect(status).toBe(200);
      expect([1, 2, 3, 4, 5].map((page) => compactRawText(file('wm/pages.pdf'), page).includes('MIDDLE'))).toEqual([false, true, true, false, false]);
      expect(qdfText(file('wm/pages.pdf'))).toMatch(/\/ca 0?\.5\b/);
      const bbox = execFileSync('pdftotext', ['-bbox', '-f', '2', '-l', '2', file('wm/pages.pdf'), '-']).toString();
      const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">MIDDLE<\/word>/.exec(bbox);
      expect(word).not.toBeNull();
      const [xMin, yMin, xMax, yMax] = (word as RegExpExecArray).slice(1).map(Number) as [number, number, number, number];
      // Horizontal, centred on the 612 x 792 page, about 30 pt high.
      expect(Math.abs((xMin + xMax) / 2 - 306)).toBeLessThan(20);
      expect(Math.abs((yMin + yMax) / 2 - 396)).toBeLessThan(20);
      expect(yMax - yMin).toBeGreaterThan(20);
      expect(yMax - yMin).toBeLessThan(40);
    });

    it('centres the text on each page as a viewer shows it, turned pages and mixed sizes included', async () => {
      for (const [input, page, centre] of [
        ['turned.pdf', 1, [400, 250]], // CropBox 500 x 800 turned by /Rotate 90: viewed 800 x 500
        ['sizes.pdf', 2, [421, 297.5]], // A4 landscape
        ['sizes.pdf', 4, [141.73, 209.77]],
      ] as const) {
        const output = `wm/centred-${page}-${input}`;
        expect((await post('pdf/watermark', { input, output, text: 'MIDDLE', opacity: 1, fontSize: 20, rotation: 0 })).status).toBe(200);
        const bbox = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file(output), '-']).toString();
        const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">MIDDLE<\/word>/.exec(bbox);
        expect(word, `${input} page ${page}`).not.toBeNull();
        const [xMin, yMin, xMax, yMax] = (word as RegExpExecArray).slice(1).map(Number) as [number, number, number, number];
        expect(Math.abs((xMin + xMax) / 2 - centre[0])).toBeLessThan(15);
        expect(Math.abs((yMin + yMax) / 2 - centre[1])).toBeLessThan(15);
        expect(xMax - xMin).toBeGreaterThan(yMax - yMin); // horizontal for the reader
      }
    });

    it('stamps CJK text through an embedded subset font (pdftotext finds it)', async () => {
      const { status } = await post('pdf/watermark', { input: 'info.pdf', output: 'wm/cjk.pdf', text: '机密文件 仅供内部使用' });
      expect(status).toBe(200);
      expect(compactRawText(file('wm/cjk.pdf'), 1)).toContain('机密文件仅供内部使用');
      const stampFont = listFonts(file('wm/cjk.pdf')).find((font) => font.embedded);
      expect(stampFont?.name).toMatch(/^[A-Z]{6}\+/);
      expect(fs.statSync(file('wm/cjk.pdf')).size - fs.statSync(file('info.pdf')).size).toBeLessThan(100 * 1024);
    });

    it('opens an encrypted input with its password', async () => {
      const { status } = await post('pdf/watermark', { input: 'locked.pdf', password: 'userpw', output: 'wm/locked.pdf', text: 'OPENED', pages: '3' });
      expect(status).toBe(200);
      expect(isEncrypted(file('wm/locked.pdf'))).toBe(false);
      expect(compactRawText(file('wm/locked.pdf'), 3)).toContain('OPENED');
    });

    it('answers VALIDATION_ERROR for bad options and INVALID_PAGE_RANGE for pages beyond the last', async () => {
      for (const extra of [
        { text: '' },
        { text: undefined },
        { text: 'x', opacity: 1.5 },
        { text: 'x', opacity: -0.1 },
        { text: 'x', fontSize: 0 },
        { text: 'x', rotation: 400 },
        { text: 'x', opacity: '0.5' },
      ]) {
        await expectFailure('pdf/watermark', { input: 'five.pdf', output: 'bad-wm/out.pdf', ...extra }, 400, 'VALIDATION_ERROR');
      }
      await expectFailure('pdf/watermark', { input: 'five.pdf', output: 'bad-wm/out.pdf', text: 'x', pages: '4-9' }, 422, 'INVALID_PAGE_RANGE');
      expect(filesUnder('bad-wm')).toEqual([]);
    });
  });

  describe.runIf(engine === 'mupdf')('POST /api/pdf/compress', () => {
    it('downsamples and re-encodes the photos (pdfimages -list), keeps text and page count', async () => {
      const { status, body } = await post('pdf/compress', { input: 'photo.pdf', output: 'small/photo.pdf' });
      expect(status).toBe(200);
      const inputBytes = fs.statSync(file('photo.pdf')).size;
      const outputBytes = fs.statSync(file('small/photo.pdf')).size;
      expect(body.data).toEqual({ inputBytes, outputBytes, unchanged: false });
      expect(outputBytes).toBeLessThan(inputBytes / 4);
      const before = listImages(file('photo.pdf'));
      const after = listImages(file('small/photo.pdf'));
      expect(after).toHaveLength(before.length);
      // maxDpi 150: Raw drawn 400 pt wide → 833 px; Jpeg drawn at most 540 pt wide → 1125 px.
      expect(after.map((image) => image.width)).toEqual([833, 1125, 1125]);
      for (const [i, image] of after.entries()) {
        expect(image.encoding).toBe('jpeg');
        expect(image.bytes).toBeLessThan((before[i] as { bytes: number }).bytes);
      }
      expect(pageCount(file('small/photo.pdf'))).toBe(2);
      expect(pdfPageTexts(file('small/photo.pdf'))).toEqual(['Photo page one', 'Photo page two']);
      expect(listFonts(file('small/photo.pdf')).map((font) => font.name)).toEqual(['Helvetica']);
      expect(qpdfCheckStrict(file('small/photo.pdf')).ok).toBe(true);
    });

    it('follows maxDpi and quality', async () => {
      await post('pdf/compress', { input: 'photo.pdf', output: 'small/72dpi.pdf', maxDpi: 72 });
      expect(listImages(file('small/72dpi.pdf')).map((image) => image.width)).toEqual([400, 540, 540]);
      await post('pdf/compress', { input: 'photo.pdf', output: 'small/q20.pdf', quality: 20 });
      await post('pdf/compress', { input: 'photo.pdf', output: 'small/q90.pdf', quality: 90 });
      expect(fs.statSync(file('small/q20.pdf')).size).toBeLessThan(fs.statSync(file('small/q90.pdf')).size);
      expect(listImages(file('small/q20.pdf')).map((image) => image.width)).toEqual([833, 1125, 1125]);
    });

    it('opens an encrypted input with its password and writes it unencrypted', async () => {
      const { status, body } = await post('pdf/compress', { input: 'locked-photo.pdf', password: 'userpw', output: 'small/locked.pdf' });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ unchanged: false });
      expect(isEncrypted(file('small/locked.pdf'))).toBe(false);
      expect(pdfPageTexts(file('small/locked.pdf'))).toEqual(['Photo page one', 'Photo page two']);
    });

    it('never writes a larger file: an already small PDF is kept byte for byte, unchanged: true', async () => {
      const { status, body } = await post('pdf/compress', { input: 'tiny.pdf', output: 'small/tiny.pdf' });
      expect(status).toBe(200);
      const size = fs.statSync(file('tiny.pdf')).size;
      expect(body.data).toEqual({ inputBytes: size, outputBytes: size, unchanged: true });
      expect(sha256(file('small/tiny.pdf'))).toBe(sha256(file('tiny.pdf')));
    });

    it('answers VALIDATION_ERROR for quality or maxDpi out of range', async () => {
      for (const extra of [{ quality: 0 }, { quality: 101 }, { quality: 50.5 }, { maxDpi: 49 }, { maxDpi: 601 }, { maxDpi: '150' }]) {
        await expectFailure('pdf/compress', { input: 'photo.pdf', output: 'bad-small/out.pdf', ...extra }, 400, 'VALIDATION_ERROR');
      }
      expect(filesUnder('bad-small')).toEqual([]);
    });
  });

  describe.runIf(engine === 'mupdf')('POST /api/pdf/to-pdfa', () => {
    /** The checks of a PDF/A-<part>B file: XMP pdfaid, /OutputIntents, every font embedded. */
    function expectPdfa(output: string, part: string): void {
      // QDF: streams uncompressed, no object streams; the XMP packet is readable text.
      const qdf = qdfText(file(output));
      expect(qdf).toMatch(new RegExp(`pdfaid:part(?:>|=['"])${part}\\b`));
      expect(qdf).toMatch(/pdfaid:conformance(?:>|=['"])B\b/);
      expect(qdf).toMatch(/\/OutputIntents \[?\s*\d+ 0 R/);
      expect(qdf).toContain('/S /GTS_PDFA1');
      expect(qdf).toMatch(/\/DestOutputProfile \d+ 0 R/);
      expect(qdf).not.toContain('/Encrypt');
      const fonts = listFonts(file(output));
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.filter((font) => !font.embedded)).toEqual([]);
      expect(qpdfCheckStrict(file(output)).ok).toBe(true);
    }

    it('writes PDF/A-2b by default: XMP pdfaid 2/B, an output intent, every font embedded', async () => {
      expect(listFonts(file('five.pdf')).every((font) => !font.embedded)).toBe(true); // Helvetica, not embedded
      const { status, body } = await post('pdf/to-pdfa', { input: 'five.pdf', output: 'archive/default.pdf' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file('archive/default.pdf'), data: { level: '2b' } });
      expectPdfa('archive/default.pdf', '2');
      expect(pdfPageTexts(file('archive/default.pdf'))).toEqual(FIVE_PAGES);
    });

    it.each([
      ['1b', '1', '1.4'],
      ['3b', '3', '1.7'],
    ])('writes PDF/A-%s', async (level, part, version) => {
      const output = `archive/${level}.pdf`;
      const { status, body } = await post('pdf/to-pdfa', { input: 'five.pdf', output, level });
      expect(status).toBe(200);
      expect(body.data).toEqual({ level });
      expectPdfa(output, part);
      expect(pdfinfo(file(output))['PDF version']).toBe(version);
    });

    it('converts an encrypted input given its password, to an unencrypted PDF/A', async () => {
      const { status } = await post('pdf/to-pdfa', { input: 'locked.pdf', password: 'userpw', output: 'archive/locked.pdf' });
      expect(status).toBe(200);
      expect(isEncrypted(file('archive/locked.pdf'))).toBe(false);
      expectPdfa('archive/locked.pdf', '2');
      expect(pageText(file('archive/locked.pdf'), 4)).toBe('Page four');
    });

    it('answers VALIDATION_ERROR for an unknown level', async () => {
      for (const level of ['4b', '2a', '2u', 2, '']) {
        await expectFailure('pdf/to-pdfa', { input: 'five.pdf', output: 'bad-archive/out.pdf', level }, 400, 'VALIDATION_ERROR');
      }
      expect(filesUnder('bad-archive')).toEqual([]);
    });
  });

  it('left every input file as it was', () => {
    for (const [name, hash] of fixtureHashes) expect(sha256(file(name)), name).toBe(hash);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});
