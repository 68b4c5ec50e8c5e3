// Editable documents (issue 44): a ruled table's header row is bold in the DOCX only where the
// PDF sets it bold — a header in the regular weight set bold runs wider and wraps ("Language" and
// "simple" in docling's 2305.03393v1-pg9). A document made by python-docx (two ruled tables, in
// Liberation Serif by name, the first's header regular, the second's bold), printed to PDF by
// LibreOffice and converted in process; the header runs' weight read from the DOCX's XML (unzip),
// the source's weight from its fonts (pdffonts) — never by our own reader.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { PYTHON } from '../helpers/tools.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const DOCUMENT = `
import docx, sys
from docx.shared import Inches, Pt

d = docx.Document()
d.styles['Normal'].font.name = 'Liberation Serif'
d.styles['Normal'].font.size = Pt(11)

def table(rows, bold):
    t = d.add_table(rows=len(rows), cols=len(rows[0]))
    t.style = 'Table Grid'
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            run = t.cell(r, c).paragraphs[0].add_run(text)
            run.bold = bold and r == 0

d.add_paragraph('Languages compared by how they write tables:')
table([['Language', 'simple', 'Tokens'], ['HTML', 'no', '1,204'], ['OTSL', 'yes', '602'], ['Markdown', 'yes', '731']], False)
d.add_paragraph('Parts ordered this month, by code:')
table([['Code', 'Part', 'Quantity'], ['K-101', 'Hex bolts', '120'], ['K-205', 'Flat washers', '300'], ['K-317', 'Lock nuts', '75']], True)
d.add_paragraph('Both tables were checked against the ledger.')
d.save(sys.argv[1])
`;

beforeAll(async () => {
  ops = await inProcess();
  execFileSync(PYTHON, ['-c', DOCUMENT, ops.at('header.docx')]);
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', ops.dir, ops.at('header.docx')]);
  await ops.ok('convert', { input: 'header.pdf', output: 'header-out.docx' });
}, 240_000);
afterAll(() => ops.close());

/** Whether each table's first row sets its text bold, from the DOCX's XML, table by table. */
function headersBold(docx: string): boolean[] {
  const xml = execFileSync('unzip', ['-p', docx, 'word/document.xml']).toString();
  return [...xml.matchAll(/<w:tbl>[\s\S]*?<w:tr[ >]([\s\S]*?)<\/w:tr>/g)].map((table) => {
    const runs = [...(table[1] as string).matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map((run) => run[1] as string);
    return runs.length > 0 && runs.every((run) => /<w:b\/>|<w:b w:val="(?:true|1|on)"\/>/.test(run));
  });
}

describe('convert PDF → docx: a ruled table keeps its header in the PDF’s weight', () => {
  it('sets a header bold where the PDF does, and in the regular weight where the PDF does', () => {
    // The source as printed: Liberation Serif in both weights.
    const fonts = execFileSync('pdffonts', [ops.at('header.pdf')]).toString();
    expect(fonts).toMatch(/LiberationSerif\s/);
    expect(fonts).toMatch(/LiberationSerif-Bold\s/);
    expect(headersBold(ops.at('header-out.docx'))).toEqual([false, true]);
  });
});
