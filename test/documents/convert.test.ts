// /api/convert and /api/convert/batch as docs/api.md ("Documents") states them, against both real
// document backends: the installed LibreOffice (where there is one) and LibreOffice in WebAssembly
// (always: --document-backend wasm). One service per backend for the whole file (the WebAssembly
// office starts once); the support matrix is checked through batches (one per output format),
// every output read back with pdftotext, unzip or plain text.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentFixtures,
  oleContainer,
  pdfText,
  SECOND_LINE,
  SECOND_SHEET_ROWS,
  SHEET_ROWS,
  SLIDE_TEXT,
  TEXT_LINE,
  zipPart,
  zipParts,
  type DocumentFixtures,
} from '../helpers/documents.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { finishedJob, submitHeld } from '../helpers/jobs.js';
import { backendsUnderTest, waitForOfficeReady, WASM_TEST_TIMEOUT_MS } from '../helpers/wasm-office.js';
import { pdfPageTexts } from '../helpers/tools.js';

interface BatchData {
  total: number;
  succeeded: number;
  failed: number;
  results: { input: string; success: boolean; outputPath?: string; error?: string; code?: string }[];
}

/**
 * A CSV file's rows as values: the installed LibreOffice 7.4 writes `42`, LibreOffice 24.8 in
 * WebAssembly `"42"` — the same value (RFC 4180). The fixtures' fields hold no comma or quote.
 */
const csvRows = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(',').map((field) => field.replace(/^"(.*)"$/, '$1')));

/** The character data of an XML part: runs and spans split text arbitrarily. */
const xmlText = (xml: string) => xml.replace(/<[^>]+>/g, '');

const TEXT_CHECKS: Record<string, (file: string) => void> = {
  pdf: (file) => {
    const text = pdfText(file);
    expect(text).toContain(TEXT_LINE);
    expect(text).toContain(SECOND_LINE);
  },
  docx: (file) => expect(xmlText(zipPart(file, 'word/document.xml'))).toContain(TEXT_LINE),
  odt: (file) => expect(xmlText(zipPart(file, 'content.xml'))).toContain(TEXT_LINE),
  txt: (file) => {
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false); // no BOM
    expect(bytes.toString('utf8')).toContain(`${TEXT_LINE}\n${SECOND_LINE}`);
  },
};

const SHEET_CHECKS: Record<string, (file: string) => void> = {
  // A row on one line as pdftotext -layout places it: the WebAssembly office draws a right-aligned
  // number before the row's text, so pdftotext's reading order puts 42 first without -layout.
  pdf: (file) => expect(pdfPageTexts(file).join('\n')).toMatch(/张三\s+北京\s+42/),
  xlsx: (file) => {
    expect(xmlText(zipPart(file, 'xl/sharedStrings.xml'))).toContain('张三');
    expect(zipParts(file).filter((p) => /^xl\/worksheets\/sheet\d+\.xml$/.test(p)).length).toBeGreaterThanOrEqual(1);
  },
  ods: (file) => expect(xmlText(zipPart(file, 'content.xml'))).toContain('张三'),
  csv: (file) => expect(csvRows(file)).toEqual(SHEET_ROWS),
};

const SLIDE_CHECKS: Record<string, (file: string) => void> = {
  pdf: (file) => expect(pdfText(file)).toContain(SLIDE_TEXT),
  pptx: (file) => expect(xmlText(zipPart(file, 'ppt/slides/slide1.xml'))).toContain(SLIDE_TEXT),
  odp: (file) => expect(xmlText(zipPart(file, 'content.xml'))).toContain(SLIDE_TEXT),
};

describe.each(backendsUnderTest())('document conversion (--document-backend %s)', { timeout: WASM_TEST_TIMEOUT_MS }, (backend) => {
  const name = backend === 'wasm' ? 'libreoffice-wasm' : 'libreoffice';
  let service: RunningService;
  let fx: DocumentFixtures;
  const file = (name: string) => path.join(service.dir, name);
  const copy = (from: string, name = path.basename(from)) => {
    fs.mkdirSync(path.dirname(file(name)), { recursive: true });
    fs.copyFileSync(from, file(name));
    return name;
  };

  beforeAll(async () => {
    [fx, service] = await Promise.all([documentFixtures(), startService(['--workers', '2', '--document-backend', backend])]);
    for (const f of [...fx.text, ...fx.spreadsheet, ...fx.presentation]) copy(f, path.join('in', path.basename(f)));
    await waitForOfficeReady(service);
  }, WASM_TEST_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
  });

  describe('GET /api/health', () => {
    it('names the backend, its version and path', async () => {
      const { body } = await service.get('/api/health');
      // The WebAssembly office was waited for; the installed offices start with the first file.
      const where =
        backend === 'wasm'
          ? {
              sandbox: 'wasm',
              state: 'ready',
              path: expect.stringContaining('libreoffice-converter'),
              version: expect.stringMatching(/^LibreOffice\S* \d+\.\d+.*, npm @matbee\/libreoffice-converter \d/),
            }
          : { state: 'idle', path: expect.stringContaining('soffice'), version: expect.stringMatching(/^\d+\.\d+/) };
      expect(body.data?.document).toMatchObject({ available: true, engine: name, backend: name, ...where });
    });
  });

  describe('support matrix (every input type × every allowed format, content checked)', () => {
    const families = () => [
      { inputs: fx.text, checks: TEXT_CHECKS },
      { inputs: fx.spreadsheet, checks: SHEET_CHECKS },
      { inputs: fx.presentation, checks: SLIDE_CHECKS },
    ];

    it('converts all 41 pairs, same-format re-saves included', async () => {
      const formats = ['pdf', 'docx', 'odt', 'txt', 'xlsx', 'ods', 'csv', 'pptx', 'odp'];
      const filesFor = (format: string) =>
        families()
          .filter((f) => format in f.checks)
          .flatMap((f) => f.inputs.map((i) => path.join('in', path.basename(i))));
      const body = (format: string) => ({ files: filesFor(format), format, outputDir: `matrix/${format}` });
      // The installed office's slots take the batches side by side, each answered in its
      // request. The one WebAssembly office takes them one after another, and a batch whose
      // every file is the first of its kind can outlast the client's own 300 s header timeout on
      // a loaded machine: there they go as async jobs, all queued at once, each polled to its end.
      const sync = async (format: string) => ({ format, files: filesFor(format), response: await service.post('/api/convert/batch', body(format)) });
      const queued = async (format: string) => ({ format, jobId: await submitHeld(service, '/api/convert/batch', body(format)) });
      const responses = [];
      if (backend === 'wasm') {
        const jobs = [];
        for (const format of formats) jobs.push(await queued(format));
        for (const { format, jobId } of jobs) {
          const job = await finishedJob(service, jobId, WASM_TEST_TIMEOUT_MS - 60_000);
          expect(job.status, JSON.stringify(job.result)).toBe('succeeded');
          responses.push({ format, files: filesFor(format), response: { status: 200, body: job.result as { data?: Record<string, unknown> } } });
        }
      } else responses.push(...(await Promise.all(formats.map(sync))));
      let pairs = 0;
      for (const { format, files, response } of responses) {
        expect(response.status).toBe(200);
        const data = response.body.data as unknown as BatchData;
        expect(
          data.results.filter((r) => !r.success),
          format,
        ).toEqual([]);
        for (const input of files) {
          const output = file(path.join('matrix', format, `${path.basename(input, path.extname(input))}.${format}`));
          const family = families().find((f) => f.inputs.some((i) => path.basename(i) === path.basename(input)));
          family?.checks[format]?.(output);
          pairs++;
        }
      }
      expect(pairs).toBe(41);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });
  });

  describe('POST /api/convert', () => {
    it('converts one file and reports format, backend and duration', async () => {
      const { status, body } = await service.post('/api/convert', { input: 'in/text-docx.docx', output: 'single/out.pdf', format: 'pdf' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file('single/out.pdf'), data: { format: 'pdf', backend: name, durationMs: expect.any(Number) } });
      TEXT_CHECKS.pdf?.(file('single/out.pdf'));
    });

    it('judges the input extension case-insensitively', async () => {
      copy(fx.text[0] as string, 'upper/REPORT.DOCX');
      const { status } = await service.post('/api/convert', { input: 'upper/REPORT.DOCX', output: 'upper/report.odt', format: 'odt' });
      expect(status).toBe(200);
      TEXT_CHECKS.odt?.(file('upper/report.odt'));
    });

    it('takes the first sheet for CSV output', async () => {
      const { status } = await service.post('/api/convert', { input: 'in/sheet-ods.ods', output: 'single/first.csv', format: 'csv' });
      expect(status).toBe(200);
      const rows = csvRows(file('single/first.csv'));
      expect(rows).toContainEqual(['张三', '北京', '42']);
      expect(rows).not.toContainEqual(SECOND_SHEET_ROWS[0]);
    });

    it('replaces the input atomically when output equals input', async () => {
      copy(fx.text[0] as string, 'same/doc.docx');
      const { status } = await service.post('/api/convert', { input: 'same/doc.docx', output: 'same/doc.docx', format: 'docx' });
      expect(status).toBe(200);
      TEXT_CHECKS.docx?.(file('same/doc.docx'));
      expect(fs.readdirSync(file('same'))).toEqual(['doc.docx']);
    });

    it('answers VALIDATION_ERROR for a format that is not an output format', async () => {
      const { status, body } = await service.post('/api/convert', { input: 'in/text-docx.docx', output: 'x.png', format: 'png' });
      expect(status).toBe(400);
      expect(body.code).toBe('VALIDATION_ERROR');
    });

    it('answers UNSUPPORTED_CONVERSION for a known format outside the matrix', async () => {
      for (const [input, format] of [
        ['in/text-docx.docx', 'xlsx'],
        ['in/sheet-xlsx.xlsx', 'docx'],
        ['in/slides-pptx.pptx', 'txt'],
        ['in/text-odt.odt', 'csv'],
      ] as const) {
        const { status, body } = await service.post('/api/convert', { input, output: 'never.out', format });
        expect(status, `${input} → ${format}`).toBe(422);
        expect(body.code).toBe('UNSUPPORTED_CONVERSION');
      }
      fs.writeFileSync(file('notes.md'), '# notes\n');
      const { body } = await service.post('/api/convert', { input: 'notes.md', output: 'notes.pdf', format: 'pdf' });
      expect(body.code).toBe('UNSUPPORTED_CONVERSION');
      expect(fs.existsSync(file('never.out'))).toBe(false);
    });

    it('answers FILE_NOT_FOUND for a missing input', async () => {
      const { status, body } = await service.post('/api/convert', { input: 'nope.docx', output: 'nope.pdf', format: 'pdf' });
      expect(status).toBe(404);
      expect(body.code).toBe('FILE_NOT_FOUND');
    });

    it('answers INVALID_INPUT for an empty file', async () => {
      fs.writeFileSync(file('empty.docx'), '');
      const { status, body } = await service.post('/api/convert', { input: 'empty.docx', output: 'empty.pdf', format: 'pdf' });
      expect(status).toBe(422);
      expect(body).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringContaining('empty') });
      expect(fs.existsSync(file('empty.pdf'))).toBe(false);
    });

    it('answers INVALID_INPUT for random bytes and for a truncated document, leaving nothing', async () => {
      fs.writeFileSync(file('random.docx'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251)));
      fs.writeFileSync(file('truncated.docx'), fs.readFileSync(fx.text[0] as string).subarray(0, 1500));
      for (const input of ['random.docx', 'truncated.docx']) {
        const { status, body } = await service.post('/api/convert', { input, output: `${input}.pdf`, format: 'pdf' });
        expect(status, input).toBe(422);
        expect(body.code).toBe('INVALID_INPUT');
        expect(fs.existsSync(file(`${input}.pdf`))).toBe(false);
      }
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('answers INVALID_INPUT naming what the file really is when content and extension disagree', async () => {
      copy(fx.spreadsheet[0] as string, 'really-a-sheet.docx');
      const { status, body } = await service.post('/api/convert', { input: 'really-a-sheet.docx', output: 'x.pdf', format: 'pdf' });
      expect(status).toBe(422);
      expect(body).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringContaining('Excel workbook') });
      fs.writeFileSync(file('really-a-pdf.csv'), '%PDF-1.7\n%âãÏÓ\n1 0 obj\n');
      const csv = await service.post('/api/convert', { input: 'really-a-pdf.csv', output: 'x.xlsx', format: 'xlsx' });
      expect(csv.body).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringContaining('PDF') });
    });

    it('refuses RTF content named .doc (RTF converts only as .rtf: its fields can link other files)', async () => {
      copy(fx.text[2] as string, 'rtf-inside.doc');
      const { status, body } = await service.post('/api/convert', { input: 'rtf-inside.doc', output: 'rtf-inside.txt', format: 'txt' });
      expect(status).toBe(422);
      expect(body.code).toBe('INVALID_INPUT');
      expect(fs.existsSync(file('rtf-inside.txt'))).toBe(false);
    });

    it('answers PASSWORD_REQUIRED for password-protected documents', async () => {
      copy(fx.lockedOdt, 'locked.odt');
      copy(fx.lockedDoc, 'locked.doc');
      fs.writeFileSync(file('locked.docx'), oleContainer(['EncryptionInfo', 'EncryptedPackage']));
      for (const input of ['locked.odt', 'locked.doc', 'locked.docx']) {
        const { status, body } = await service.post('/api/convert', { input, output: `${input}.pdf`, format: 'pdf' });
        expect(status, input).toBe(422);
        expect(body.code, input).toBe('PASSWORD_REQUIRED');
        expect(fs.existsSync(file(`${input}.pdf`))).toBe(false);
      }
    });

    it('answers OUTPUT_NOT_WRITABLE when the output parent is a file', async () => {
      fs.writeFileSync(file('a-file'), 'x');
      const { status, body } = await service.post('/api/convert', { input: 'in/text-docx.docx', output: 'a-file/out.pdf', format: 'pdf' });
      expect(status).toBe(409);
      expect(body.code).toBe('OUTPUT_NOT_WRITABLE');
    });
  });

  describe('the other doors onto the same backend', () => {
    it('converts as an async job (202, then the job succeeds with the same answer)', async () => {
      const jobId = await submitHeld(service, '/api/convert', { input: 'in/text-odt.odt', output: 'async/out.pdf', format: 'pdf' });
      const job = await finishedJob(service, jobId, WASM_TEST_TIMEOUT_MS - 60_000);
      expect(job.status, JSON.stringify(job.result)).toBe('succeeded');
      expect(job.result).toMatchObject({ success: true, data: { backend: name } });
      TEXT_CHECKS.pdf?.(file('async/out.pdf'));
    });

    it('reads a legacy .doc as Markdown through the backend', async () => {
      const { status, body } = await service.post('/api/read', { input: 'in/text-doc.doc' });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.text).toContain(TEXT_LINE);
    });
  });

  describe('POST /api/convert/batch', () => {
    it('writes <input dir>/<stem>.<format> by default and reports every item in input order', async () => {
      copy(fx.text[0] as string, 'b1/alpha.docx');
      copy(fx.text[3] as string, 'b2/beta.odt');
      const { status, body } = await service.post('/api/convert/batch', { files: ['b1/alpha.docx', 'b2/beta.odt'], format: 'pdf' });
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      expect(body.data).toEqual({
        total: 2,
        succeeded: 2,
        failed: 0,
        format: 'pdf',
        durationMs: expect.any(Number),
        results: [
          { input: 'b1/alpha.docx', success: true, outputPath: file('b1/alpha.pdf') },
          { input: 'b2/beta.odt', success: true, outputPath: file('b2/beta.pdf') },
        ],
      });
      TEXT_CHECKS.pdf?.(file('b1/alpha.pdf'));
      TEXT_CHECKS.pdf?.(file('b2/beta.pdf'));
    });

    it('fails only the bad items (corrupt, missing, unsupported), answering 200 with success false', async () => {
      fs.mkdirSync(file('mixed'), { recursive: true });
      copy(fx.text[0] as string, 'mixed/good1.docx');
      fs.writeFileSync(file('mixed/corrupt.docx'), fs.readFileSync(fx.text[0] as string).subarray(0, 1000));
      copy(fx.text[3] as string, 'mixed/good2.odt');
      copy(fx.spreadsheet[0] as string, 'mixed/sheet.xlsx');
      const files = ['mixed/good1.docx', 'mixed/corrupt.docx', 'mixed/missing.docx', 'mixed/sheet.xlsx', 'mixed/good2.odt'];
      const { status, body } = await service.post('/api/convert/batch', { files, format: 'docx', outputDir: 'mixed-out' });
      expect(status).toBe(200);
      expect(body.success).toBe(false);
      const data = body.data as unknown as BatchData;
      expect(data).toMatchObject({ total: 5, succeeded: 2, failed: 3 });
      expect(data.results.map((r) => [r.input, r.success, r.code])).toEqual([
        ['mixed/good1.docx', true, undefined],
        ['mixed/corrupt.docx', false, 'INVALID_INPUT'],
        ['mixed/missing.docx', false, 'FILE_NOT_FOUND'],
        ['mixed/sheet.xlsx', false, 'UNSUPPORTED_CONVERSION'],
        ['mixed/good2.odt', true, undefined],
      ]);
      expect(fs.readdirSync(file('mixed-out')).sort()).toEqual(['good1.docx', 'good2.docx']);
      TEXT_CHECKS.docx?.(file('mixed-out/good2.docx'));
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('fails only the files whose output cannot be written (OUTPUT_NOT_WRITABLE)', async () => {
      copy(fx.text[0] as string, 'w1/ok.docx');
      copy(fx.text[3] as string, 'w2/blocked.odt');
      fs.mkdirSync(file('w2/blocked.pdf/occupied'), { recursive: true }); // a directory where the output should go
      const { status, body } = await service.post('/api/convert/batch', { files: ['w1/ok.docx', 'w2/blocked.odt'], format: 'pdf' });
      expect(status).toBe(200);
      expect((body.data as unknown as BatchData).results.map((r) => [r.success, r.code])).toEqual([
        [true, undefined],
        [false, 'OUTPUT_NOT_WRITABLE'],
      ]);
      TEXT_CHECKS.pdf?.(file('w1/ok.pdf'));

      fs.writeFileSync(file('parent-is-a-file'), 'x');
      const blocked = await service.post('/api/convert/batch', { files: ['w1/ok.docx'], format: 'odt', outputDir: 'parent-is-a-file/sub' });
      expect(blocked.status).toBe(200);
      expect((blocked.body.data as unknown as BatchData).results[0]?.code).toBe('OUTPUT_NOT_WRITABLE');
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('rejects two inputs mapping to one output with VALIDATION_ERROR before any work', async () => {
      copy(fx.text[0] as string, 'd1/report.docx');
      copy(fx.text[3] as string, 'd2/report.odt');
      const { status, body } = await service.post('/api/convert/batch', { files: ['d1/report.docx', 'd2/report.odt'], format: 'pdf', outputDir: 'dup-out' });
      expect(status).toBe(400);
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(fs.existsSync(file('dup-out'))).toBe(false);
    });

    it('answers VALIDATION_ERROR for an empty file list or an unknown format', async () => {
      expect((await service.post('/api/convert/batch', { files: [], format: 'pdf' })).body.code).toBe('VALIDATION_ERROR');
      expect((await service.post('/api/convert/batch', { files: ['in/text-docx.docx'], format: 'bmp' })).body.code).toBe('VALIDATION_ERROR');
    });

    it('keeps files with the same stem from different folders apart when they go to different dirs', async () => {
      copy(fx.text[0] as string, 's1/same.docx');
      copy(fx.spreadsheet[0] as string, 's2/same.xlsx');
      const { body } = await service.post('/api/convert/batch', { files: ['s1/same.docx', 's2/same.xlsx'], format: 'pdf' });
      expect(body.success).toBe(true);
      TEXT_CHECKS.pdf?.(file('s1/same.pdf'));
      SHEET_CHECKS.pdf?.(file('s2/same.pdf'));
    });
  });
});
