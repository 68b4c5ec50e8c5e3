// Editable documents (issue 44): a table the PDF sets without lines keeps its columns where the
// PDF has them — rendered, each cell's text starts where the PDF's does, not at a column of equal
// width — from the PDF's text and from a scan of it read by OCR. A document made by python-docx
// (two borderless tables of uneven columns, one widest first, one widest second), printed to PDF by
// LibreOffice and scanned (pdftoppm, 200 dpi, grey; img2pdf); the DOCX rendered back by
// LibreOffice, each cell's box compared with the source PDF's by pdftotext (never by our own reader).

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

const DOCUMENT = `
import docx
from docx.shared import Inches, Mm

d = docx.Document()
s = d.sections[0]
s.page_width, s.page_height = Mm(210), Mm(297)
s.left_margin = s.right_margin = s.top_margin = s.bottom_margin = Inches(1)

def table(widths, rows):
    t = d.add_table(rows=len(rows), cols=len(widths))
    t.autofit = False
    # LibreOffice lays a table out by its grid's widths, Word by its cells'.
    for c, width in enumerate(widths):
        t.columns[c].width = Inches(width)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            cell = t.cell(r, c)
            cell.width = Inches(widths[c])
            cell.text = text

d.add_paragraph('Parts ordered this month, by code:')
table([1.1, 3.2, 0.8, 0.9], [['Code', 'Description', 'Qty', 'Unit'], ['K-101', 'Hex bolts, zinc plated', '120', 'box'], ['K-205', 'Flat washers, steel', '300', 'bag'], ['K-317', 'Lock nuts, nylon insert', '75', 'pack']])
d.add_paragraph('Hours worked by each team in the quarter:')
table([2.9, 0.9, 1.4, 0.8], [['Team and site', 'Staff', 'Hours', 'Rate'], ['Assembly at Northgate', '14', '6,020', '0.91'], ['Packing at Riverside', '9', '3,870', '0.88'], ['Dispatch at Eastfield', '6', '2,410', '0.93']])
d.add_paragraph('Both tables were checked against the ledger.')
d.save('columns.docx')
`;

/** The cells' texts, each only once in the document. */
const CELLS = [
  ...['Code', 'Description', 'Qty', 'Unit', 'K-101', 'Hex bolts, zinc plated', 'K-205', 'Flat washers, steel', 'K-317', 'Lock nuts, nylon insert'],
  ...['Team and site', 'Staff', 'Hours', 'Rate', 'Assembly at Northgate', '14', '6,020', 'Packing at Riverside', '3,870', 'Dispatch at Eastfield', '2,410'],
];

beforeAll(async () => {
  dir = tempDir('docwasm-editable-columns-');
  work = tempDir('docwasm-editable-columns-src-');
  execFileSync(PYTHON, ['-c', DOCUMENT], { cwd: work });
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, path.join(work, 'columns.docx')]);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', path.join(dir, 'columns.pdf'), path.join(work, 'scan')]);
  execFileSync('img2pdf', ['-o', path.join(dir, 'columns-scan.pdf'), path.join(work, 'scan.png')]);
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

/** Where each word group pdftotext finds starts (points from the page's left), by its text. */
function lefts(pdf: string): Map<string, number> {
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  const found = new Map<string, number>();
  for (const line of boxes.matchAll(/<line xMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const text = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    found.set(text, Number(line[1]));
  }
  return found;
}

/** The PDF converted to DOCX and rendered back by LibreOffice: each cell's left there less the source's. */
async function cellShifts(input: string): Promise<Map<string, number | undefined>> {
  const output = input.replace(/\.pdf$/, '-out.docx');
  expect((await service.post('/api/convert', { input, output })).status).toBe(200);
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', path.join(work, 'rendered'), path.join(dir, output)]);
  const [source, back] = [lefts(path.join(dir, 'columns.pdf')), lefts(path.join(work, 'rendered', output.replace(/\.docx$/, '.pdf')))];
  return new Map(CELLS.map((cell) => [cell, back.has(cell) ? Math.round((back.get(cell) as number) - (source.get(cell) as number)) : undefined]));
}

describe('convert PDF → docx: a table set without lines keeps its columns where the PDF has them', () => {
  it("starts each cell's text within 3 points of the PDF's, in tables whose widest column is the first or the second", async () => {
    const shifts = await cellShifts('columns.pdf');
    const off = [...shifts].filter(([, shift]) => shift === undefined || Math.abs(shift) > 3);
    expect(off).toEqual([]);
  }, 240_000);

  it("does so from a scan of the page read by OCR: each cell's text found starts within 4 points of the PDF's", async () => {
    const shifts = await cellShifts('columns-scan.pdf');
    const found = [...shifts].filter(([, shift]) => shift !== undefined);
    // OCR may read a word otherwise; those it reads as the PDF has them are compared.
    expect(found.length).toBeGreaterThanOrEqual(CELLS.length * 0.8);
    expect(found.filter(([, shift]) => Math.abs(shift as number) > 4)).toEqual([]);
  }, 240_000);
});
