// Document conversion in process, one `describe` per operation and one `it` per rule of
// docs/api.md ("Documents"), with the real LibreOffice. Outputs are read with poppler and unzip.

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, SOFFICE, TEXT_LINE, pdfText, zipParts } from '../helpers/documents.js';
import { leftoverTempFiles } from '../helpers/service.js';
import { codeOf, inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  for (const name of ['text-docx.docx', 'text-odt.odt', 'text-rtf.rtf', 'sheet-xlsx.xlsx', 'slides-pptx.pptx', 'locked.odt'])
    ops.put(name, fs.readFileSync(`${DOCUMENT_FIXTURES}/${name}`));
});
afterAll(() => ops.close());

describe('convert', () => {
  it('turns a docx into a PDF with its text', async () => {
    const answer = await ops.ok('convert', { input: 'text-docx.docx', output: 'out/text.pdf', format: 'pdf' });
    expect(answer.data).toMatchObject({ format: 'pdf', backend: 'libreoffice' });
    expect(pdfText(ops.at('out/text.pdf'))).toContain(TEXT_LINE);
  });

  it('re-saves to an office format of the input row (odt → docx is a real OOXML package)', async () => {
    await ops.ok('convert', { input: 'text-odt.odt', output: 'text.docx', format: 'docx' });
    expect(zipParts(ops.at('text.docx'))).toContain('word/document.xml');
  });

  it('answers VALIDATION_ERROR for a format outside every row', async () => {
    expect(codeOf(await ops.run('convert', { input: 'text-docx.docx', output: 'x.abc', format: 'abc' }))).toBe('VALIDATION_ERROR');
  });

  it("answers UNSUPPORTED_CONVERSION for a format outside the input's row", async () => {
    expect(codeOf(await ops.run('convert', { input: 'sheet-xlsx.xlsx', output: 'x.docx', format: 'docx' }))).toBe('UNSUPPORTED_CONVERSION');
  });

  it('answers PASSWORD_REQUIRED for a password-protected document, leaving nothing', async () => {
    expect(codeOf(await ops.run('convert', { input: 'locked.odt', output: 'locked.pdf', format: 'pdf' }))).toBe('PASSWORD_REQUIRED');
    expect(fs.existsSync(ops.at('locked.pdf'))).toBe(false);
    expect(leftoverTempFiles(ops.dir)).toEqual([]);
  });
});

describe('convert/batch', () => {
  it('writes <outputDir>/<stem>.<format> per input, in input order, one bad file failing only itself', async () => {
    ops.put('broken.docx', 'not a document');
    const answer = await ops.run('convert/batch', { files: ['text-docx.docx', 'broken.docx', 'text-rtf.rtf'], format: 'pdf', outputDir: 'batch' });
    expect(answer.success).toBe(false);
    const data =
      'data' in answer
        ? (answer.data as { total: number; succeeded: number; failed: number; results: { input: string; success: boolean; code?: string }[] })
        : undefined;
    expect(data).toMatchObject({ total: 3, succeeded: 2, failed: 1 });
    expect(data?.results.map((r) => [r.success, r.code])).toEqual([
      [true, undefined],
      [false, 'INVALID_INPUT'],
      [true, undefined],
    ]);
    expect(fs.readdirSync(ops.at('batch')).sort()).toEqual(['text-docx.pdf', 'text-rtf.pdf']);
  });

  it('refuses two inputs that would write the same file before any work', async () => {
    ops.put('twin/text-docx.docx', fs.readFileSync(`${DOCUMENT_FIXTURES}/text-docx.docx`));
    expect(codeOf(await ops.run('convert/batch', { files: ['text-docx.docx', 'twin/text-docx.docx'], format: 'pdf', outputDir: 'twins' }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(fs.existsSync(ops.at('twins'))).toBe(false);
  });
});
