// Editable documents (issue 44): headings where the PDF's body text is not where read looked
// for it. PDFs made by LibreOffice from python-docx documents, converted to DOCX over HTTP and
// checked with independent tools only: the DOCX's XML (unzip) for heading styles, pandoc for text.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { docxMarkdown, zipPart } from '../helpers/documents.js';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;

const DOCUMENTS = `
import docx
from docx.shared import Pt

# Every sentence in a table's cells, each table under a Heading 2 title set in the body's weight
# (told apart by its size alone): the page's only text outside tables is its titles.
d = docx.Document()
for title in ['Prices by region', 'Staff by plant', 'Energy by month']:
    d.add_heading(title, 2).runs[0].font.bold = False
    t = d.add_table(rows=3, cols=2)
    t.style = 'Table Grid'
    for r in range(3):
        for c in range(2):
            t.cell(r, c).text = f'{title.split()[0]} row {r + 1}, column {c + 1}, holds a sentence of ordinary text.'
d.save('titled-tables.docx')

# The other way round: short sentences of prose at 11 pt, one a line, and a long table in 8 pt
# small print holding more text than they do: the prose is body text, not headings.
s = docx.Document()
for n in range(1, 5):
    s.add_paragraph(f'Paragraph {n} is one short sentence of prose.')
t = s.add_table(rows=12, cols=3)
t.style = 'Table Grid'
for r in range(12):
    for c in range(3):
        cell = t.cell(r, c)
        cell.text = f'Small print {r + 1}.{c + 1} of the schedule'
        cell.paragraphs[0].runs[0].font.size = Pt(8)
s.save('small-print.docx')

# For a scan: a heading in each of two sizes over paragraphs of body text, one of them a short
# line of its own (a size read from a scan must not make it a heading).
r = docx.Document()
r.add_heading('Plant inspection summary', 1)
r.add_paragraph('The inspection covered every production line of the northern plant over two days in March, with the safety officer present throughout the visit.')
r.add_heading('Findings on the lines', 2)
r.add_paragraph('Two guards on the packing line were loose and have been fixed. The other lines met every point of the checklist used by the inspectors.')
r.add_paragraph('No further action.')
r.add_heading('Next inspection', 2)
r.add_paragraph('The next inspection is planned for the autumn, when the new line has run for six months and its first maintenance is done.')
r.save('inspection.docx')
`;

beforeAll(async () => {
  dir = tempDir('docwasm-editable-headings-');
  const work = tempDir('docwasm-editable-headings-src-');
  execFileSync(PYTHON, ['-c', DOCUMENTS], { cwd: work });
  const sources = ['titled-tables.docx', 'small-print.docx', 'inspection.docx'].map((name) => path.join(work, name));
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, ...sources]);
  // The inspection scanned at 300 dpi, as a scanner's PDF.
  execFileSync('pdftoppm', ['-r', '300', '-f', '1', '-l', '1', '-png', '-singlefile', path.join(dir, 'inspection.pdf'), path.join(work, 'inspection')]);
  fs.writeFileSync(path.join(dir, 'inspection-scan.pdf'), await makeScannedPdf([{ image: fs.readFileSync(path.join(work, 'inspection.png')), dpi: 300 }]));
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

describe('convert PDF → docx: headings', () => {
  it("writes the titles over tables as heading styles when the document's prose is all in table cells", async () => {
    const answer = await service.post('/api/convert', { input: 'titled-tables.pdf', output: 'titled-tables.docx' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ headings: 3, tables: 3 });
    const out = path.join(dir, 'titled-tables.docx');
    const document = zipPart(out, 'word/document.xml');
    for (const title of ['Prices by region', 'Staff by plant', 'Energy by month'])
      expect(document).toMatch(
        new RegExp(`<w:pStyle w:val="Heading\\d"/>(<w:spacing[^>]*/>)?</w:pPr><w:r>(<w:rPr>(?:(?!</w:rPr>).)*</w:rPr>)?<w:t[^>]*>${title}<`),
      );
    expect(docxMarkdown(out)).toMatch(/^#{1,6} Staff by plant$/m);
  }, 120_000);

  it('keeps short sentences of prose as body text beside a table of more text in small print', async () => {
    const answer = await service.post('/api/convert', { input: 'small-print.pdf', output: 'small-print.docx' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ headings: 0, tables: 1 });
    const text = docxMarkdown(path.join(dir, 'small-print.docx'));
    expect(text).toMatch(/^Paragraph 3 is one short sentence of prose\.$/m);
    expect(text).not.toMatch(/^#/m);
  }, 120_000);
});

describe('convert a scan → docx: headings', () => {
  it('finds headings on a scanned page by the size OCR measures, at two levels, and keeps a short line of body text a paragraph', async () => {
    const answer = await service.post('/api/convert', { input: 'inspection-scan.pdf', output: 'inspection-scan.docx', language: 'eng', engine: 'tesseract' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ ocrPages: [1], headings: 3 });
    const out = path.join(dir, 'inspection-scan.docx');
    const styleOf = (text: string) =>
      new RegExp(`<w:pStyle w:val="(Heading\\d)"/>(?:<w:spacing[^>]*/>)?</w:pPr><w:r>(?:<w:rPr>(?:(?!</w:rPr>).)*</w:rPr>)?<w:t[^>]*>${text}`).exec(
        zipPart(out, 'word/document.xml'),
      )?.[1];
    expect(styleOf('Plant inspection summary')).toBe('Heading1');
    expect(styleOf('Findings on the lines')).toBe('Heading2');
    expect(styleOf('Next inspection')).toBe('Heading2');
    expect(docxMarkdown(out)).toMatch(/^No further action\.$/m);
  }, 300_000);
});
