// The name a document is staged under never shows in an output (issue 19): LibreOffice names a
// CSV's sheet after its file and prints the sheet name as the page header, and PDF titles and
// fields come from the file name too. Plain soffice uses the file's own name; so does docwasm —
// the first design staged every input as j0, j1, … and printed those.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, SHEET_ROWS, waitFor, zipPart } from '../helpers/documents.js';
import { startService, type RunningService } from '../helpers/service.js';

const CSV = `${SHEET_ROWS.map((row) => row.join(',')).join('\n')}\n`;
/** Staged names of the first design, as a whole word. */
const STAGED_NAME = /\bj\d+\b/;

/** Every metadata value pdfinfo shows, one "Key: value" per line. */
const pdfInfo = (file: string) => execFileSync('pdfinfo', [file]).toString();

describe('outputs carry the input’s own name, never the staged one', () => {
  let service: RunningService;
  const at = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService(['--workers', '1']);
    fs.writeFileSync(at('quarterly-report.csv'), CSV);
    fs.writeFileSync(at('odd #name% ü.csv'), CSV);
    fs.copyFileSync((await documentFixtures()).text[0] as string, at('letter.docx'));
  });

  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  const convert = async (input: string, output: string, format: string) => {
    const { status, body } = await service.post('/api/convert', { input, output, format });
    expect(status, JSON.stringify(body)).toBe(200);
    return at(output);
  };

  it('CSV → xlsx names the sheet after the file (xl/workbook.xml)', async () => {
    const workbook = zipPart(await convert('quarterly-report.csv', 'report.xlsx', 'xlsx'), 'xl/workbook.xml');
    expect(workbook).toMatch(/<sheet name="quarterly-report"/);
    expect(workbook).not.toMatch(STAGED_NAME);
  });

  it('CSV → ods names the table after the file (content.xml)', async () => {
    const content = zipPart(await convert('quarterly-report.csv', 'report.ods', 'ods'), 'content.xml');
    expect(content).toContain('table:name="quarterly-report"');
    expect(content).not.toMatch(STAGED_NAME);
  });

  it('CSV → pdf prints the file name as the page header, and nothing staged in text or metadata', async () => {
    const pdf = await convert('quarterly-report.csv', 'report.pdf', 'pdf');
    expect(pdfText(pdf)).toContain('quarterly-report');
    expect(pdfText(pdf)).not.toMatch(STAGED_NAME);
    expect(pdfInfo(pdf)).not.toMatch(STAGED_NAME);
  });

  it('a name with URL and shell characters is kept readable (sanitized), never replaced by a staged one', async () => {
    const workbook = zipPart(await convert('odd #name% ü.csv', 'odd.xlsx', 'xlsx'), 'xl/workbook.xml');
    expect(workbook).toMatch(/<sheet name="odd _name_ ü"/);
  });

  it('docx → pdf metadata holds no staged name', async () => {
    const pdf = await convert('letter.docx', 'letter.pdf', 'pdf');
    expect(pdfInfo(pdf)).not.toMatch(STAGED_NAME);
  });
});
