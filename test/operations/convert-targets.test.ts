// What convert answers for a pair outside its matrix (issue 42, item 10): the error lists every
// format the input converts to, Markdown among them, and each format it lists for md really
// converts. No office here (an installed LibreOffice that is missing): the matrix is checked
// before any office is asked, and Markdown is made by the readers.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, TEXT_LINE } from '../helpers/documents.js';
import { ROOT, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;

beforeAll(async () => {
  service = await startService(['--soffice', '/nonexistent/lo/soffice', '--document-backend', 'libreoffice']);
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(service.dir, 'report.docx'));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'sheet-xlsx.xlsx'), path.join(service.dir, 'sheet.xlsx'));
  fs.copyFileSync(path.join(ROOT, 'fixtures/pdf/text.pdf'), path.join(service.dir, 'text.pdf'));
}, 60_000);
afterAll(() => service.stop());

/** The formats an UNSUPPORTED_CONVERSION answer says the input converts to. */
async function listedTargets(input: string, format: string): Promise<string[]> {
  const { status, body } = await service.post('/api/convert', { input, output: `never.${format}`, format });
  expect([status, body.code], JSON.stringify(body)).toEqual([422, 'UNSUPPORTED_CONVERSION']);
  const listed = new RegExp(`\\.${path.extname(input).slice(1)} converts to ([a-z, ]+)$`).exec(body.error ?? '');
  expect(listed, body.error).not.toBeNull();
  return (listed?.[1] ?? '').split(', ');
}

describe('convert outside the matrix: the error lists what the input converts to', () => {
  it('docx → xlsx lists md beside pdf, docx, odt, txt; and docx → md converts', async () => {
    expect(await listedTargets('report.docx', 'xlsx')).toEqual(['pdf', 'docx', 'odt', 'txt', 'md']);
    const made = await service.post('/api/convert', { input: 'report.docx', output: 'report.md', format: 'md' });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    expect(fs.readFileSync(path.join(service.dir, 'report.md'), 'utf8')).toContain(TEXT_LINE);
  });

  it('xlsx → docx lists md too', async () => {
    expect(await listedTargets('sheet.xlsx', 'docx')).toEqual(['pdf', 'xlsx', 'ods', 'csv', 'md']);
  });

  it('pdf → pptx lists the editable formats a PDF is rebuilt as, and md (not that .pdf is an unsupported input)', async () => {
    expect(await listedTargets('text.pdf', 'pptx')).toEqual(['docx', 'odt', 'xlsx', 'md']);
    expect(fs.existsSync(path.join(service.dir, 'never.pptx'))).toBe(false);
  });
});
