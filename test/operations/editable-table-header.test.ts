// Editable documents (issue 44): a ruled table's header row is bold in the DOCX only where the
// PDF sets it bold — a header in the regular weight set bold runs wider and wraps ("Language" and
// "simple" in docling's 2305.03393v1-pg9) — and a row the PDF pads around its text is as tall as
// the PDF draws it, its text in the middle as the PDF's (it was as tall as its text: SPARSE-2024's
// 20-pt rows of one 9-pt line came out 11 pt, and all below rose up the page). A document made by
// python-docx (three ruled tables in Liberation Serif by name: the first's header regular, the
// others' bold, the third's rows 24 pt tall with their text centred), printed to PDF by
// LibreOffice and converted in process; the header runs' weight read from the DOCX's XML (unzip),
// the source's weights from its fonts (pdffonts), the DOCX rendered back by LibreOffice and its
// rows placed by pdftotext's boxes — never by our own reader.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { PYTHON } from '../helpers/tools.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const DOCUMENT = `
import docx, sys
from docx.enum.table import WD_CELL_VERTICAL_ALIGNMENT, WD_ROW_HEIGHT_RULE
from docx.shared import Inches, Pt

d = docx.Document()
d.styles['Normal'].font.name = 'Liberation Serif'
d.styles['Normal'].font.size = Pt(11)

def table(rows, bold, height=None):
    t = d.add_table(rows=len(rows), cols=len(rows[0]))
    t.style = 'Table Grid'
    for r, row in enumerate(rows):
        if height:
            t.rows[r].height, t.rows[r].height_rule = Pt(height), WD_ROW_HEIGHT_RULE.EXACTLY
        for c, text in enumerate(row):
            run = t.cell(r, c).paragraphs[0].add_run(text)
            run.bold = bold and r == 0
            if height:
                t.cell(r, c).vertical_alignment = WD_CELL_VERTICAL_ALIGNMENT.CENTER

d.add_paragraph('Languages compared by how they write tables:')
table([['Language', 'simple', 'Tokens'], ['HTML', 'no', '1,204'], ['OTSL', 'yes', '602'], ['Markdown', 'yes', '731']], False)
d.add_paragraph('Parts ordered this month, by code:')
table([['Code', 'Part', 'Quantity'], ['K-101', 'Hex bolts', '120'], ['K-205', 'Flat washers', '300'], ['K-317', 'Lock nuts', '75']], True)
d.add_paragraph('Items audited, each row 24 points tall:')
table([['Item', 'Site', 'Audited'], ['Crate 1', 'North', '2024-10-15'], ['Crate 2', 'South', '2024-10-22'], ['Crate 3', 'East', '2024-11-01'], ['Crate 4', 'West', '2024-11-05']], True, 24)
d.add_paragraph('The tables were checked against the ledger.')
d.save(sys.argv[1])
`;

beforeAll(async () => {
  ops = await inProcess();
  execFileSync(PYTHON, ['-c', DOCUMENT, ops.at('header.docx')]);
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', ops.dir, ops.at('header.docx')]);
  await ops.ok('convert', { input: 'header.pdf', output: 'header-out.docx' });
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', path.join(ops.dir, 'rendered'), ops.at('header-out.docx')]);
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

/** Points from the first page's top to the first line starting with `text`. */
function topOf(pdf: string, text: string): number {
  const boxes = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', pdf, '-']).toString();
  for (const line of boxes.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const words = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    if (words.startsWith(text)) return Number(line[1]);
  }
  throw new Error(`no line starting with ${text} in ${pdf}`);
}

describe('convert PDF → docx: a ruled table keeps its header’s weight and its padded rows’ heights', () => {
  it('sets a header bold where the PDF does, and in the regular weight where the PDF does', () => {
    // The source as printed: Liberation Serif in both weights.
    const fonts = execFileSync('pdffonts', [ops.at('header.pdf')]).toString();
    expect(fonts).toMatch(/LiberationSerif\s/);
    expect(fonts).toMatch(/LiberationSerif-Bold\s/);
    expect(headersBold(ops.at('header-out.docx'))).toEqual([false, true, true]);
  });

  it('keeps each row the PDF pads around its text as tall as the PDF draws it, so what follows stands where the PDF has it', () => {
    const [source, back] = [ops.at('header.pdf'), path.join(ops.dir, 'rendered', 'header-out.pdf')].map((pdf) =>
      ['Crate 1', 'Crate 4', 'The tables were'].map((text) => topOf(pdf, text)),
    ) as [number[], number[]];
    // Three rows of 24 points from the first crate to the last (each as tall as its text, 13 points, before).
    expect((source[1] as number) - (source[0] as number)).toBeCloseTo(72, 0);
    expect(Math.abs((back[1] as number) - (back[0] as number) - 72)).toBeLessThanOrEqual(1.5);
    expect(Math.abs((back[2] as number) - (source[2] as number))).toBeLessThanOrEqual(3);
  });

  it('sets the text of a padded row in its middle where the PDF does', () => {
    // From the line over the table to the first crate's text and the last's: each ~5.5 points lower than at its row's top.
    const [source, back] = [ops.at('header.pdf'), path.join(ops.dir, 'rendered', 'header-out.pdf')].map((pdf) => {
      const [over, first, last] = ['Items audited', 'Crate 1', 'Crate 4'].map((text) => topOf(pdf, text)) as [number, number, number];
      return [first - over, last - over];
    }) as [number[], number[]];
    for (const k of [0, 1]) expect(Math.abs((back[k] as number) - (source[k] as number))).toBeLessThanOrEqual(1.5);
  });
});
