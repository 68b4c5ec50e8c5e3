// Editable documents from PDFs and scans (issue 44): convert of a PDF (made by LibreOffice from a
// python-docx document) or a scan to DOCX and XLSX over HTTP, checked with independent tools only:
// the DOCX's XML (unzip) for heading styles, numbering, tables, a section per page and no text
// boxes or frames; pandoc for its text; openpyxl for the workbook's cells, types and merges.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxMarkdown, zipPart } from '../helpers/documents.js';
import { runSoffice } from '../helpers/soffice.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { DEBIAN_TESSDATA, PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;

const REPORT_DOCX = `
import docx
d = docx.Document()
d.add_heading('Annual plant report', 1)
d.add_paragraph('This report covers the output of every plant over the year, with the figures the board asked for in March. It is long enough to wrap onto a second line so that its lines are joined.')
d.add_heading('Output by plant', 2)
d.add_paragraph('The plants are listed below.')
for t in ['North plant in Leeds', 'South plant in Bristol', 'East plant in Norwich']:
    d.add_paragraph(t, style='List Number')
d.add_paragraph('Each plant reports:')
for t in ['output', 'staff', 'energy']:
    d.add_paragraph(t, style='List Bullet')
t = d.add_table(rows=5, cols=4)
t.style = 'Table Grid'
for r, row in enumerate([['Plant', 'Code', 'Output', 'Share'], ['North', '00123', '1,234.50', '12.5%'], ['South', '00456', '$2,000.00', '40%'], ['East', '00789', '(300)', '7%'], ['Total', '', '2,934.50', '']]):
    for c, text in enumerate(row):
        t.cell(r, c).text = text
t.cell(4, 0).merge(t.cell(4, 1))
d.add_page_break()
d.add_heading('Second page', 1)
d.add_paragraph('The second page holds a closing paragraph of text.')
d.save('report.docx')

z = docx.Document()
z.add_heading('年度工作报告', 1)
z.add_paragraph('本报告介绍了今年各个工厂的生产情况，以及董事会在三月份要求提供的数据。')
z.add_heading('生产情况', 2)
z.add_paragraph('北方工厂的产量比去年增加了百分之十二。')
z.save('chinese.docx')

# A5 pages with 0.8-inch margins, a running header and a numbered footer, a picture between two
# paragraphs, and text set in colour, italic and bold.
from docx.shared import Inches, Mm, RGBColor
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
f = docx.Document()
s = f.sections[0]
s.page_width, s.page_height = Mm(148), Mm(210)
s.top_margin = s.bottom_margin = s.left_margin = s.right_margin = Inches(0.8)
s.header.paragraphs[0].text = 'Acme quarterly report'
footer = s.footer.paragraphs[0]
footer.add_run('Page ')
field = OxmlElement('w:fldSimple')
field.set(qn('w:instr'), 'PAGE')
run = OxmlElement('w:r')
text = OxmlElement('w:t')
text.text = '1'
run.append(text)
field.append(run)
footer._p.append(field)
f.add_heading('Furniture and pictures', 1)
f.add_paragraph('Before the picture comes this paragraph of ordinary body text.')
f.add_picture('picture.png', width=Inches(2))
f.add_paragraph('After the picture comes another paragraph of body text.')
f.add_paragraph().add_run('A warning set in red for the reader.').font.color.rgb = RGBColor(0xCC, 0x00, 0x00)
f.add_paragraph().add_run('A remark set in italic for the reader.').italic = True
f.add_paragraph().add_run('A notice set in bold for the reader.').bold = True
for n in (2, 3):
    f.add_page_break()
    f.add_paragraph(f'Page {n} holds a paragraph of its own, and a blue line below it.')
    f.add_paragraph().add_run('A line set in blue.').font.color.rgb = RGBColor(0x00, 0x33, 0xCC)
f.save('furniture.docx')
`;

/** The workbook as openpyxl sees it: per sheet, each cell's value, type, format and boldness, and the merged ranges. */
function workbook(file: string): Record<string, { cells: Record<string, [unknown, string, string, boolean]>; merged: string[] }> {
  const script = `
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(json.dumps({ws.title: {'cells': {c.coordinate: [c.value, c.data_type, c.number_format, bool(c.font.b)] for row in ws.iter_rows() for c in row if c.value is not None}, 'merged': [str(r) for r in ws.merged_cells.ranges]} for ws in wb.worksheets}))
`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file]).toString()) as ReturnType<typeof workbook>;
}

/** Neither a text box nor a positioned frame anywhere in the document. */
function expectFlowingText(document: string): void {
  expect(document).not.toMatch(/w:txbxContent|w:framePr|wps:txbx|v:textbox|wp:anchor/);
}

beforeAll(async () => {
  dir = tempDir('docwasm-editable-');
  const work = tempDir('docwasm-editable-src-');
  // A 300 × 150 picture: a gradient, so its PNG is not trivially small.
  execFileSync('convert', ['-size', '300x150', 'gradient:#2060c0-#f0c020', path.join(work, 'picture.png')]);
  execFileSync(PYTHON, ['-c', REPORT_DOCX], { cwd: work });
  const sources = ['report.docx', 'chinese.docx', 'furniture.docx'].map((name) => path.join(work, name));
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, ...sources]);
  execFileSync('qpdf', ['--encrypt', 'open-sesame', 'owner-pass', '256', '--', path.join(dir, 'report.pdf'), path.join(dir, 'locked.pdf')]);
  // A scan: the report's first page as a 300-dpi picture, and the same picture as a phone photo would be a file.
  execFileSync('pdftoppm', ['-r', '300', '-f', '1', '-l', '1', '-png', '-singlefile', path.join(dir, 'report.pdf'), path.join(dir, 'photo')]);
  fs.writeFileSync(path.join(dir, 'scan.pdf'), await makeScannedPdf([{ image: fs.readFileSync(path.join(dir, 'photo.png')), dpi: 300 }]));
  // The Chinese report scanned; and the English scan as OCR software leaves it: the page's picture under an invisible text layer (tesseract's PDF).
  execFileSync('pdftoppm', ['-r', '300', '-f', '1', '-l', '1', '-png', '-singlefile', path.join(dir, 'chinese.pdf'), path.join(work, 'chinese-page')]);
  fs.writeFileSync(path.join(dir, 'chinese-scan.pdf'), await makeScannedPdf([{ image: fs.readFileSync(path.join(work, 'chinese-page.png')), dpi: 300 }]));
  execFileSync('tesseract', [path.join(dir, 'photo.png'), path.join(dir, 'searchable'), '-l', 'eng', '--tessdata-dir', DEBIAN_TESSDATA, 'pdf'], {
    stdio: 'ignore',
  });
  fs.writeFileSync(path.join(dir, 'corrupt.pdf'), Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> broken beyond repair'));
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

describe('convert PDF → docx', () => {
  it('rebuilds headings, numbered and bulleted lists, a table with a merged cell and a page per PDF page, all in flowing text', async () => {
    const answer = await service.post('/api/convert', { input: 'report.pdf', output: 'report.docx' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ format: 'docx', pages: 2, headings: 3, tables: 1, images: 0, ocrPages: [] });
    const out = path.join(dir, 'report.docx');
    const document = zipPart(out, 'word/document.xml');
    expect(document).toMatch(/<w:pStyle w:val="Heading1"\/><\/w:pPr><w:r>(<w:rPr>.*?<\/w:rPr>)?<w:t[^>]*>Annual plant report/);
    expect(document).toMatch(/<w:pStyle w:val="Heading2"\/>/);
    expect(document.match(/<w:numPr>/g)?.length).toBe(6);
    expect(zipPart(out, 'word/numbering.xml')).toMatch(/w:numFmt w:val="decimal"[\s\S]*|w:numFmt w:val="bullet"/);
    expect(zipPart(out, 'word/numbering.xml')).toContain('w:val="bullet"');
    expect(document.match(/<w:tbl>/g)?.length).toBe(1);
    expect(document).toMatch(/<w:gridSpan w:val="2"\/>/);
    // One section a PDF page, each starting a new page, at the PDF's size (Letter: 612 × 792 pt).
    expect(document.match(/<w:sectPr>/g)?.length).toBe(2);
    expect(document.match(/<w:pgSz w:w="12240" w:h="15840"/g)?.length).toBe(2);
    expectFlowingText(document);
    const text = docxMarkdown(out);
    expect(text).toMatch(/^# Annual plant report$/m);
    expect(text).toMatch(/^## Output by plant$/m);
    expect(text).toMatch(/It is long enough to wrap onto a\s+second line so that its lines are joined\./);
    expect(text).toMatch(/^1\.\s+North plant in Leeds$/m);
    expect(text).toMatch(/^-\s+staff$/m);
    expect(text).toMatch(/North.*00123.*1,234\.50.*12\.5%/);
    expect(text.indexOf('# Second page')).toBeGreaterThan(text.indexOf('East'));
  }, 120_000);

  it('sets a Chinese document in an East Asian font, its headings as heading styles', async () => {
    const answer = await service.post('/api/convert', { input: 'chinese.pdf', output: 'chinese.docx' });
    expect(answer.status).toBe(200);
    const out = path.join(dir, 'chinese.docx');
    expect(zipPart(out, 'word/styles.xml')).toMatch(/<w:rFonts [^>]*w:eastAsia="SimSun"/);
    const text = docxMarkdown(out);
    expect(text).toMatch(/^# 年度工作报告$/m);
    expect(text).toMatch(/^## 生产情况$/m);
    expect(text).toContain('北方工厂的产量比去年增加了百分之十二。');
    expectFlowingText(zipPart(out, 'word/document.xml'));
  }, 120_000);

  it('opens an encrypted PDF with its password, and answers PASSWORD_REQUIRED without it, writing nothing', async () => {
    expect((await service.post('/api/convert', { input: 'locked.pdf', output: 'locked-none.docx' })).body.code).toBe('PASSWORD_REQUIRED');
    expect(fs.existsSync(path.join(dir, 'locked-none.docx'))).toBe(false);
    const answer = await service.post('/api/convert', { input: 'locked.pdf', output: 'locked.docx', password: 'open-sesame', pages: '2' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ pages: 1 });
    expect(docxMarkdown(path.join(dir, 'locked.docx'))).toMatch(/^# Second page$/m);
  }, 120_000);

  it('reads a scanned PDF and a photo of a page with OCR into the same editable document', async () => {
    for (const input of ['scan.pdf', 'photo.png']) {
      const output = `${path.parse(input).name}-ocr.docx`;
      const answer = await service.post('/api/convert', { input, output, language: 'eng', engine: 'tesseract' });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ format: 'docx', pages: 1, ocrPages: [1] });
      const document = zipPart(path.join(dir, output), 'word/document.xml');
      expectFlowingText(document);
      // What read finds on the scan: its numbered list and its table, as real ones.
      expect(document).toMatch(/<w:numPr>/);
      expect(document).toMatch(/<w:tbl>/);
      const text = docxMarkdown(path.join(dir, output));
      expect(text).toMatch(/Annual plant report/);
      expect(text).toMatch(/^1\.\s+North plant in Leeds$/m);
    }
  }, 300_000);

  it('rebuilds a Chinese scan, and a scan under an OCR text layer, as flowing text, not as pictures of the page', async () => {
    const chinese = await service.post('/api/convert', { input: 'chinese-scan.pdf', output: 'chinese-scan.docx' });
    expect(chinese.status).toBe(200);
    expect(chinese.body.data).toMatchObject({ pages: 1, images: 0, ocrPages: [1] });
    const document = zipPart(path.join(dir, 'chinese-scan.docx'), 'word/document.xml');
    expectFlowingText(document);
    expect(document).not.toContain('<w:drawing>');
    const text = docxMarkdown(path.join(dir, 'chinese-scan.docx')).replace(/\s+/g, '');
    expect(text).toContain('本报告介绍了今年各个工厂的生产情况');
    expect(text).toContain('北方工厂的产量比去年增加了百分之十二');
    expect(zipPart(path.join(dir, 'chinese-scan.docx'), 'word/styles.xml')).toMatch(/<w:rFonts [^>]*w:eastAsia="SimSun"/);
    // tesseract's searchable PDF: its text layer is read, its page-sized picture is not copied into the document.
    const searchable = await service.post('/api/convert', { input: 'searchable.pdf', output: 'searchable.docx' });
    expect(searchable.status).toBe(200);
    expect(searchable.body.data).toMatchObject({ images: 0, ocrPages: [] });
    expect(zipPart(path.join(dir, 'searchable.docx'), 'word/document.xml')).not.toContain('<w:drawing>');
    expect(docxMarkdown(path.join(dir, 'searchable.docx'))).toMatch(/Annual plant report/);
  }, 300_000);

  it('answers INVALID_INPUT for a corrupt PDF, leaving nothing behind, and converts a batch file by file', async () => {
    const answer = await service.post('/api/convert', { input: 'corrupt.pdf', output: 'corrupt.docx' });
    expect(answer.body.code).toBe('INVALID_INPUT');
    expect(fs.existsSync(path.join(dir, 'corrupt.docx'))).toBe(false);
    const batch = await service.post('/api/convert/batch', { files: ['report.pdf', 'corrupt.pdf'], format: 'docx', outputDir: 'batch' });
    expect(batch.body.data).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    expect(fs.readdirSync(path.join(dir, 'batch'))).toEqual(['report.docx']);
    expect(docxMarkdown(path.join(dir, 'batch', 'report.docx'))).toMatch(/^# Annual plant report$/m);
    expect(leftoverTempFiles(dir)).toEqual([]);
  }, 120_000);
});

describe('convert PDF → docx: what the page carries besides its text', () => {
  it("puts the PDF's picture in the flow at its size, running lines in the header and footer, colour, italic and bold on the runs, and the page's size", async () => {
    const answer = await service.post('/api/convert', { input: 'furniture.pdf', output: 'furniture.docx' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ format: 'docx', pages: 3, images: 1 });
    const out = path.join(dir, 'furniture.docx');
    const document = zipPart(out, 'word/document.xml');
    expectFlowingText(document);
    // The picture: inline between its two paragraphs, 2 inches wide (1,828,800 EMU), 1 high, its pixels as the PDF's.
    const drawing = document.indexOf('<w:drawing>');
    expect(document.indexOf('Before the picture')).toBeLessThan(drawing);
    expect(document.indexOf('After the picture')).toBeGreaterThan(drawing);
    const [, cx = '0', cy = '0'] = /<wp:inline[^>]*>\s*<wp:extent cx="(\d+)" cy="(\d+)"/.exec(document) ?? [];
    expect(Math.abs(Number(cx) - 1_828_800)).toBeLessThan(1_828_800 * 0.03);
    expect(Math.abs(Number(cy) - 914_400)).toBeLessThan(914_400 * 0.03);
    const media = execFileSync('unzip', ['-Z1', out])
      .toString()
      .split('\n')
      .filter((name) => name.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    const [, width, height] =
      /\n\s*1\s+\d+\s+image\s+(\d+)\s+(\d+)/.exec(execFileSync('pdfimages', ['-list', path.join(dir, 'furniture.pdf')]).toString()) ?? [];
    fs.writeFileSync(path.join(dir, 'media.png'), execFileSync('unzip', ['-p', out, media[0] as string]));
    expect(execFileSync('identify', ['-format', '%w %h', path.join(dir, 'media.png')]).toString()).toBe(`${width} ${height}`);
    fs.rmSync(path.join(dir, 'media.png'));
    // The running header and the page number are the header's and footer's, not the body's; the number is Word's PAGE field.
    expect(document).not.toContain('Acme quarterly report');
    const parts = execFileSync('unzip', ['-Z1', out]).toString().split('\n');
    const headers = parts.filter((name) => /^word\/header\d+\.xml$/.test(name)).map((name) => zipPart(out, name));
    const footers = parts.filter((name) => /^word\/footer\d+\.xml$/.test(name)).map((name) => zipPart(out, name));
    expect(headers).toHaveLength(3);
    for (const header of headers) expect(header).toContain('Acme quarterly report');
    expect(footers).toHaveLength(3);
    for (const footer of footers) expect(footer).toMatch(/Page <\/w:t>.*<w:instrText[^>]*>PAGE<\/w:instrText>/s);
    expect(document.match(/<w:pgNumType w:start="(\d)"/g)).toEqual(['<w:pgNumType w:start="1"', '<w:pgNumType w:start="2"', '<w:pgNumType w:start="3"']);
    expect(docxMarkdown(out)).not.toMatch(/Acme quarterly report|^Page \d$/m);
    // Colour, italic and bold where the PDF sets them; ordinary text in neither.
    const runOf = (text: string) => new RegExp(`<w:r>(<w:rPr>(?:(?!</w:rPr>).)*</w:rPr>)?<w:t[^>]*>${text}`).exec(document)?.[1] ?? '';
    expect(runOf('A warning set in red')).toContain('<w:color w:val="CC0000"/>');
    expect(runOf('A line set in blue')).toContain('<w:color w:val="0033CC"/>');
    expect(runOf('A remark set in italic')).toMatch(/<w:i\/>/);
    expect(runOf('A notice set in bold')).toMatch(/<w:b\/>/);
    expect(runOf('Before the picture')).not.toMatch(/<w:color|<w:i\/>|<w:b\/>/);
    // A5 (148 × 210 mm: 8391 × 11906 twips) with the body's 0.8-inch margins (1152 twips), within a few points.
    expect(document.match(/<w:pgSz w:w="839\d" w:h="1190\d"/g)).toHaveLength(3);
    const left = Number(/<w:pgMar [^>]*w:left="(\d+)"/.exec(document)?.[1]);
    expect(Math.abs(left - 1152)).toBeLessThan(100);
  }, 120_000);
});

describe('convert in a pipeline', () => {
  it('takes a PDF from an earlier step and rebuilds it as docx', async () => {
    const answer = await service.post('/api/pipeline', {
      input: 'report.pdf',
      steps: [{ operation: 'pdf/compress' }, { operation: 'convert', format: 'docx' }],
      output: 'chain.docx',
    });
    expect(answer.body).toMatchObject({ success: true });
    expect(docxMarkdown(path.join(dir, 'chain.docx'))).toMatch(/^# Annual plant report$/m);
  }, 120_000);
});

describe('convert PDF → odt', () => {
  it('writes the same document as OpenDocument text: outline headings and lists', async () => {
    const answer = await service.post('/api/convert', { input: 'report.pdf', output: 'report.odt' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ format: 'odt', pages: 2, headings: 3, tables: 1 });
    const content = zipPart(path.join(dir, 'report.odt'), 'content.xml');
    expect(content).toMatch(/<text:h [^>]*text:outline-level="1"[^>]*>(<text:span [^>]*>)?Annual plant report/);
    expect(content).toMatch(/<text:list /);
    expect(content).toMatch(/<table:table /);
    expect(content).not.toMatch(/<draw:text-box/);
  }, 180_000);
});

describe('convert PDF → xlsx', () => {
  it('writes each table as a sheet, cells typed, leading zeros kept, the header bold and merged cells merged', async () => {
    const answer = await service.post('/api/convert', { input: 'report.pdf', output: 'report.xlsx' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ format: 'xlsx', pages: 2, sheets: 1, tables: 1 });
    const book = workbook(path.join(dir, 'report.xlsx'));
    expect(Object.keys(book)).toEqual(['Table 1']);
    const { cells, merged } = book['Table 1'] as (typeof book)[string];
    expect(cells.A1).toEqual(['Plant', 's', 'General', true]);
    expect(cells.B2?.slice(0, 2)).toEqual(['00123', 's']);
    expect(cells.C2?.slice(0, 2)).toEqual([1234.5, 'n']);
    expect(cells.D2?.slice(0, 2)).toEqual([0.125, 'n']);
    expect(cells.C3?.slice(0, 3)).toEqual([2000, 'n', '"$"#,##0.00']);
    expect(cells.C4?.slice(0, 2)).toEqual([-300, 'n']);
    expect(cells.A5?.slice(0, 2)).toEqual(['Total', 's']);
    expect(merged).toEqual(['A5:B5']);
  }, 120_000);

  it('answers INVALID_INPUT for a PDF without a table, writing nothing', async () => {
    const answer = await service.post('/api/convert', { input: 'chinese.pdf', output: 'chinese.xlsx' });
    expect(answer.body.code).toBe('INVALID_INPUT');
    expect(answer.body.error).toMatch(/no table was found on the pages read/);
    expect(fs.existsSync(path.join(dir, 'chinese.xlsx'))).toBe(false);
    expect(leftoverTempFiles(dir)).toEqual([]);
  }, 120_000);
});
