// Editable documents (issue 44): the DOCX rendered looks like the PDF — its lines where the PDF
// sets them and as many pages, two columns as two columns, lists nested, tables with the PDF's
// borders or none. Documents made by python-docx (and docling's list document), printed to PDF by
// LibreOffice, and a receipt ReportLab printed, converted to DOCX over HTTP, the DOCX rendered
// back by LibreOffice; where each line stands is read from both PDFs by pdftotext's boxes, the
// rest from the DOCX's XML (unzip) and pandoc (never by our own reader).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxMarkdown } from '../helpers/documents.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT, startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

const DOCUMENTS = `
import docx
from docx.shared import Pt, Inches

def page_setup(d):
    s = d.sections[0]
    s.page_width, s.page_height = docx.shared.Mm(210), docx.shared.Mm(297)
    s.left_margin = s.right_margin = s.top_margin = s.bottom_margin = Inches(1)

# Paragraphs at 1.5 lines with 12 pt after each, a bulleted list and a table between them, over
# two pages: the first page filled to its foot.
d = docx.Document()
page_setup(d)
def para(text):
    p = d.add_paragraph(text)
    p.paragraph_format.line_spacing = 1.5
    p.paragraph_format.space_after = Pt(12)
for n in range(1, 4):
    para(f'Opening paragraph {n}: ' + 'its words run on over several lines, left aligned, so that each line stops short of the right margin. ' * 2)
for n in range(1, 4):
    d.add_paragraph(f'Bulleted point {n} of the list, one line long.', style='List Bullet')
t = d.add_table(rows=4, cols=3)
t.style = 'Table Grid'
for r in range(4):
    for c in range(3):
        t.cell(r, c).text = f'Cell {r + 1}.{c + 1}'
for n in range(1, 13):
    para(f'Closing paragraph {n}: ' + 'more words that run on over two lines of the page, to fill it down to its foot and beyond. ' * 2)
d.save('spaced.docx')

# A page of tight single-spaced prose with 6 pt after each paragraph, filled to its foot.
s = docx.Document()
page_setup(s)
for n in range(1, 15):
    p = s.add_paragraph(f'Dense paragraph {n}: ' + 'single-spaced words fill the page down to its very last line. ' * 4)
    p.paragraph_format.line_spacing = 1.0
    p.paragraph_format.space_after = Pt(6)
s.save('dense.docx')

# A title and a paragraph across the page, then two columns (the left one longer, ended by a
# column break), then a closing paragraph across the page again: three sections on one page.
from docx.enum.section import WD_SECTION
from docx.enum.text import WD_BREAK
from docx.oxml.ns import qn
c = docx.Document()
page_setup(c)
def columns(section, count):
    cols = section._sectPr.find(qn('w:cols'))
    if cols is None:
        cols = section._sectPr.makeelement(qn('w:cols'), {})
        section._sectPr.append(cols)
    cols.set(qn('w:num'), str(count))
    cols.set(qn('w:space'), '567')
c.add_heading('Two columns under a title', level=1)
c.add_paragraph('An opening paragraph runs across the whole width of the page, above the columns. ' * 2)
columns(c.add_section(WD_SECTION.CONTINUOUS), 2)
for n in range(1, 6):
    p = c.add_paragraph(f'Left column paragraph {n}: ' + ' '.join(f'words {n}.{k} set in the narrow column on the left.' for k in range(1, 4)))
    p.paragraph_format.space_after = Pt(6)
p.add_run().add_break(WD_BREAK.COLUMN)
for n in range(1, 4):
    p = c.add_paragraph(f'Right column paragraph {n}: ' + ' '.join(f'words {n}.{k} set in the narrow column on the right.' for k in range(1, 4)))
    p.paragraph_format.space_after = Pt(6)
columns(c.add_section(WD_SECTION.CONTINUOUS), 1)
c.add_paragraph('A closing paragraph runs across the whole width of the page again, under both columns. ' * 2)
c.save('columns.docx')

# Portuguese prose whose paragraphs open with the article "o", a word, not Word's "o" bullet.
pt = docx.Document()
page_setup(pt)
for text in ['o livro está na mesa da sala desde ontem.', 'o gato dorme ao sol da tarde.', 'o rio corre para o mar.']:
    pt.add_paragraph(text)
pt.save('portuguese.docx')

# A table set without lines (its columns lined up by their text), then one drawn with a grid.
tb = docx.Document()
tb.add_paragraph('A table set without lines, its columns lined up by their text:')
t = tb.add_table(rows=5, cols=3)
for r, row in enumerate([['Item', 'Quantity', 'Price'], ['Bolts', '120', '14.40'], ['Nuts', '300', '9.00'], ['Washers', '250', '5.25'], ['Screws', '80', '3.20']]):
    for col, text in enumerate(row):
        t.cell(r, col).text = text
tb.add_paragraph('A table drawn with a grid of lines:')
g = tb.add_table(rows=3, cols=3)
g.style = 'Table Grid'
for r, row in enumerate([['Region', 'Sales', 'Share'], ['North', '1,200', '40%'], ['South', '1,800', '60%']]):
    for col, text in enumerate(row):
        g.cell(r, col).text = text
tb.add_paragraph('The end.')
tb.save('tables.docx')

# Two columns: the left one ends with numbered notes in small print (the second continued by an
# indented paragraph below it), the right one's paragraphs start at its top, first lines indented.
n = docx.Document()
page_setup(n)
columns(n.sections[0], 2)
for k in range(1, 4):
    n.add_paragraph(f'Left column paragraph {k}: ' + ' '.join(f'words {k}.{j} set in the narrow column on the left.' for j in range(1, 4)))
def note(text, style='List Number', indent=None):
    p = n.add_paragraph(text, style=style)
    if indent is not None:
        p.paragraph_format.left_indent = indent
    for run in p.runs:
        run.font.size = Pt(8)
    return p
note('Note one of the column, in small print, set on one line.')
note('Note two of the column, in small print, set on one line.')
note('A paragraph indented under note two goes on with it below.', style=None, indent=Inches(0.5))
note('Note three of the column, in small print, set on one line.').add_run().add_break(WD_BREAK.COLUMN)
for k in range(1, 4):
    p = n.add_paragraph(f'Right column paragraph {k}: ' + ' '.join(f'words {k}.{j} set in the narrow column on the right.' for j in range(1, 4)))
    p.paragraph_format.first_line_indent = Pt(24)
n.save('notes.docx')

# A table set without lines whose rows stand 0.4 inch apart (an exact height), each cell one line,
# then a paragraph under it.
from docx.enum.table import WD_ROW_HEIGHT_RULE
r = docx.Document()
page_setup(r)
r.add_paragraph('Stock counted at the warehouse, one row a product:')
t = r.add_table(rows=8, cols=4)
for i, row in enumerate(t.rows):
    row.height, row.height_rule = Inches(0.4), WD_ROW_HEIGHT_RULE.EXACTLY
    for col, text in enumerate(['Product', 'Location', 'Counted', 'Status'] if i == 0 else [f'SKU-{8840 + i}', f'A-{10 + i}', str(100 * i + 7), 'checked']):
        row.cells[col].text = text
r.add_paragraph('Every product was counted twice, by two people, on the same day.')
r.save('tallrows.docx')

# Lines ended short by the author (a paragraph of labels, each after a line break) above prose that wraps.
b = docx.Document()
page_setup(b)
p = b.add_paragraph()
for k, label in enumerate(['Report ID: INV-2024-1234', 'Warehouse: Distribution Center East', 'Report Date: 2024-11-15', 'Prepared By: Sarah Martinez']):
    run = p.add_run(label)
    if k < 3:
        run.add_break()
b.add_paragraph('The prose under the labels wraps where the column ends: ' + 'its words run on across the page and onto the next line, ' * 5)
b.save('breaks.docx')

# A letterhead: a logo centred at the top of the page, prose under it, a picture set at the right
# 18 pt under a paragraph, and prose down to the page's foot (the pictures a PNG made here).
import struct, zlib
from docx.enum.text import WD_ALIGN_PARAGRAPH
def png(name, width, height, rgb):
    rows = b''.join(b'\\x00' + bytes(rgb) * width for _ in range(height))
    chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    with open(name, 'wb') as f:
        f.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
png('logo.png', 240, 120, (200, 30, 30))
png('stamp.png', 120, 120, (30, 30, 200))
h = docx.Document()
page_setup(h)
logo = h.add_paragraph()
logo.alignment = WD_ALIGN_PARAGRAPH.CENTER
logo.add_run().add_picture('logo.png', width=Inches(2.4))
for n in range(1, 4):
    h.add_paragraph(f'Letter paragraph {n}: ' + 'words of the letter run on under its letterhead, line after line. ' * 3)
stamp = h.add_paragraph()
stamp.alignment = WD_ALIGN_PARAGRAPH.RIGHT
stamp.paragraph_format.space_before = Pt(18)
stamp.add_run().add_picture('stamp.png', width=Inches(1.2))
for n in range(4, 8):
    h.add_paragraph(f'Letter paragraph {n}: ' + 'words of the letter run on under the stamp to the foot of the page. ' * 3)
h.save('letterhead.docx')

# Two tables drawn with a grid, columns of unequal widths: the first in 8-point text, a cell's
# text wrapping; the second with a wider padding in its cells.
from docx.oxml import OxmlElement
gr = docx.Document()
page_setup(gr)
gr.add_paragraph('Products and their notes, in a grid of three unequal columns:')
def indent(table, twips):
    ind = OxmlElement('w:tblInd')
    ind.set(qn('w:w'), str(twips))
    ind.set(qn('w:type'), 'dxa')
    table._tbl.tblPr.append(ind)
# Each table's left rule at the margin (its text a padding in from it), as the paragraphs' left edge.
t = gr.add_table(rows=4, cols=3)
t.style = 'Table Grid'
t.autofit = False
indent(t, 108)
for r in range(4):
    for col, width in enumerate([Inches(0.8), Inches(3.4), Inches(2.0)]):
        cell = t.cell(r, col)
        cell.width = width
        text = ['Code', 'Description', 'Status'][col] if r == 0 else [f'P-{r}0{col}', f'Product number {r} of the list, whose description runs on long enough to wrap onto a second line of its cell', f'Checked on day {r}'][col]
        cell.text = text
        for run in cell.paragraphs[0].runs:
            run.font.size = Pt(8)
gr.add_paragraph('Regions, in a grid of two columns with a wide padding:')
g = gr.add_table(rows=4, cols=2)
g.style = 'Table Grid'
g.autofit = False
margins = OxmlElement('w:tblCellMar')
for side in ['left', 'right']:
    m = OxmlElement(f'w:{side}')
    m.set(qn('w:w'), '288')
    m.set(qn('w:type'), 'dxa')
    margins.append(m)
g._tbl.tblPr.append(margins)
indent(g, 288)
for r, row in enumerate(g.rows):
    for col, width in enumerate([Inches(4.2), Inches(1.6)]):
        row.cells[col].width = width
        row.cells[col].text = (['Region name', 'Share'] if r == 0 else [f'Region number {r} of the country', f'{10 * r + 5} %'])[col]
gr.add_paragraph('The paragraph under both tables stands where the PDF sets it.')
gr.save('grids.docx')
`;

/**
 * Korean prose (ReportLab) in a face whose Hangul is 0.88 em wide, as KoPub sets it (WenQuanYi,
 * 1.32 pt a character less at 11 pt): five paragraphs of eight lines filling an A4 page to its foot.
 */
const KOREAN = `
from reportlab.pdfgen import canvas
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
pdfmetrics.registerFont(TTFont('ZenHei', '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', subfontIndex=0))
words = ['보험금', '지급', '문제와', '개선', '과제를', '살펴보고', '관련', '규정이', '변경되어', '적용됨에', '따라']
c = canvas.Canvas('korean.pdf', pagesize=(595, 842))
y = 770
for p in range(5):
    for line in range(8):
        text, k = '', p * 8 + line
        while True:
            nxt = (text + ' ' + words[k % len(words)]).strip()
            if pdfmetrics.stringWidth(nxt, 'ZenHei', 11) - 1.32 * len(nxt) > 440:
                break
            text, k = nxt, k + 1
        t = c.beginText(72, y)
        t.setFont('ZenHei', 11)
        t.setCharSpace(-1.32)
        t.textLine(text if line < 7 else text[: len(text) // 2])
        c.drawText(t)
        y -= 16
    y -= 10
c.save()
`;

/**
 * A page (ReportLab) whose box of text stands on a grey panel, a picture the text is set over,
 * then prose down the page: the panel is the page's background there, not a picture in the flow.
 */
const PANEL = `
import struct, zlib
from reportlab.pdfgen import canvas
def png(name, width, height, grey):
    rows = b''.join(b'\\x00' + bytes([grey]) * width for _ in range(height))
    chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    with open(name, 'wb') as f:
        f.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 0, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
png('panel.png', 400, 80, 225)
c = canvas.Canvas('panel.pdf', pagesize=(595, 842))
c.setFont('Helvetica', 11)
c.drawString(72, 770, 'A report whose summary stands in a grey box under this line.')
c.drawImage('panel.png', 66, 660, width=463, height=92)
# Lines 24 pt apart: each a paragraph of its own.
for k in range(3):
    c.drawString(78, 730 - 24 * k, f'Summary line {k + 1} of the box, set over its grey panel.')
y = 630
for k in range(1, 21):
    c.drawString(72, y, f'Body line {k} of the report runs on under the box down the page.')
    y -= 24
c.save()
`;

beforeAll(async () => {
  dir = tempDir('docwasm-editable-layout-');
  work = tempDir('docwasm-editable-layout-src-');
  execFileSync(PYTHON, ['-c', DOCUMENTS], { cwd: work });
  execFileSync(PYTHON, ['-c', KOREAN], { cwd: dir });
  execFileSync(PYTHON, ['-c', PANEL], { cwd: dir });
  // docling's list test document: Word's second-level bullets are "o" in Courier New, a tab from their text.
  fs.copyFileSync(path.join(ROOT, 'fixtures/reading/docling/docx_lists.docx'), path.join(work, 'lists.docx'));
  const sources = ['spaced', 'dense', 'columns', 'lists', 'portuguese', 'tables', 'notes', 'tallrows', 'breaks', 'letterhead', 'grids'].map((name) =>
    path.join(work, `${name}.docx`),
  );
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, ...sources]);
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

/** Each line's text and the top and left of its box (points), by page, from pdftotext's boxes. */
function lines(pdf: string): Map<string, { page: number; top: number; left: number }> {
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  const found = new Map<string, { page: number; top: number; left: number }>();
  let page = 0;
  for (const part of boxes.split(/<page /).slice(1)) {
    page++;
    for (const line of part.matchAll(/<line xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
      // A list's bullet is a word of the line where it is drawn as text, apart where it is a glyph of a symbol font.
      const words = [...(line[3] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]);
      const text = words.filter((word) => !/^[•·◦▪\uF0B7]$/u.test(word ?? '')).join(' ');
      // A text met twice (a table's cells) says nothing of where one line is.
      if (found.has(text)) found.set(text, { page: -1, top: 0, left: 0 });
      else found.set(text, { page, top: Number(line[2]), left: Number(line[1]) });
    }
  }
  return found;
}

/** Where each picture of a PDF stands (points from the page's top and left), by pdftohtml's XML (its files written to a folder removed after). */
function pictures(pdf: string): { top: number; left: number }[] {
  const scratch = fs.mkdtempSync(path.join(work, 'pictures-'));
  const xml = execFileSync('pdftohtml', ['-xml', '-stdout', '-zoom', '1', pdf, path.join(scratch, 'p')]).toString();
  fs.rmSync(scratch, { recursive: true, force: true });
  return [...xml.matchAll(/<image top="(\d+)" left="(\d+)"/g)].map((m) => ({ top: Number(m[1]), left: Number(m[2]) }));
}

/** The DOCX rendered by LibreOffice: its lines against the source PDF's, and both page counts. */
async function renderedAgainstSource(name: string): Promise<{ matched: number; total: number; worst: number; widest: number; pages: [number, number] }> {
  const answer = await service.post('/api/convert', { input: `${name}.pdf`, output: `${name}-out.docx` });
  expect(answer.status).toBe(200);
  const rendered = path.join(work, 'rendered');
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', rendered, path.join(dir, `${name}-out.docx`)]);
  const [source, back] = [path.join(dir, `${name}.pdf`), path.join(rendered, `${name}-out.pdf`)];
  const theirs = lines(back);
  let [matched, worst, widest] = [0, 0, 0];
  const ours = [...lines(source)].filter(([, at]) => at.page > 0);
  for (const [text, at] of ours) {
    const other = theirs.get(text);
    if (!other || other.page !== at.page) continue;
    matched++;
    worst = Math.max(worst, Math.abs(other.top - at.top));
    widest = Math.max(widest, Math.abs(other.left - at.left));
  }
  return { matched, total: ours.length, worst, widest, pages: [Number(pdfinfo(source).Pages), Number(pdfinfo(back).Pages)] };
}

describe('convert PDF → docx: the page as the PDF sets it', () => {
  it("sets paragraphs, list items and a table at the PDF's line pitch and spacing: rendered, each line stands within 6 points of the PDF's, on as many pages", async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('spaced');
    expect(pages[0]).toBe(2);
    expect(pages[1]).toBe(pages[0]);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
  }, 240_000);

  it('keeps a page of single-spaced prose filled to its foot on one page, its lines where the PDF has them', async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('dense');
    expect(pages[1]).toBe(pages[0]);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
  }, 240_000);

  it("sets a receipt's monospaced lines at the PDF's size: ReportLab's 8-point Courier receipt renders back on its one page", async () => {
    // A receipt printed by ReportLab on a 3-inch roll: its lines are code (Courier) and rules of `=` typed in Courier.
    fs.copyFileSync(path.join(ROOT, 'fixtures/reading/markitdown/RECEIPT-2024-TXN-98765_retail_purchase.pdf'), path.join(dir, 'receipt.pdf'));
    const { matched, total, pages } = await renderedAgainstSource('receipt');
    expect(pages).toEqual([1, 1]);
    expect(matched).toBeGreaterThan(total * 0.8);
    // Every run set in Courier New (the code lines and the typed rules alike) has the PDF's size:
    // 8 points (16 half-points), the total 9, the rules of `=` and the return policy at the foot 7 (pdftotext: TOTAL 5.4
    // and RETURN and the rule 4.2 pt a character, Courier's advance 0.6 em).
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'receipt-out.docx'), 'word/document.xml']).toString();
    const courier = [...xml.matchAll(/<w:r>(?:(?!<\/w:r>)[\s\S])*?w:ascii="Courier New"(?:(?!<\/w:r>)[\s\S])*?<\/w:r>/g)].map((m) => m[0]);
    const sizeOf = (text: string) => courier.find((run) => run.includes(text))?.match(/<w:sz w:val="(\d+)"/)?.[1];
    expect(courier.length).toBeGreaterThan(30);
    expect(courier.filter((run) => !/<w:sz w:val="1[468]"\/>/.test(run))).toEqual([]);
    expect([sizeOf('4567 Innovation'), sizeOf('>====='), sizeOf('>TOTAL $821.14<'), sizeOf('RETURN POLICY')]).toEqual(['16', '14', '18', '14']);
  }, 240_000);

  it('draws a table the PDF sets without lines without borders, and one drawn with a grid with its borders', async () => {
    expect((await service.post('/api/convert', { input: 'tables.pdf', output: 'tables-out.docx' })).status).toBe(200);
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'tables-out.docx'), 'word/document.xml']).toString();
    const tables = [...xml.matchAll(/<w:tbl>[\s\S]*?<\/w:tbl>/g)].map((m) => m[0]);
    const sides = (table: string) =>
      [...(/<w:tblBorders>([\s\S]*?)<\/w:tblBorders>/.exec(table)?.[1] ?? '').matchAll(/<w:(\w+) w:val="(\w+)"/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toContain('Washers');
    expect(sides(tables[0] as string)).toEqual(['top:none', 'left:none', 'bottom:none', 'right:none', 'insideH:none', 'insideV:none']);
    expect(tables[1]).toContain('Region');
    expect(sides(tables[1] as string).every((side) => side.endsWith(':single'))).toBe(true);
    expect(sides(tables[1] as string)).toHaveLength(6);
  }, 240_000);

  it("keeps the rows of a table set without lines as far apart as the PDF's: rendered, each row's line and the paragraph under the table within 6 points of the PDF's", async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('tallrows');
    expect(pages).toEqual([1, 1]);
    expect(total).toBeGreaterThanOrEqual(10);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
  }, 240_000);

  it('keeps a line the PDF ends short of its column (labels after line breaks) ended, and lets prose that wraps flow', async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('breaks');
    expect(pages).toEqual([1, 1]);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'breaks-out.docx'), 'word/document.xml']).toString();
    const paragraphs = [...xml.matchAll(/<w:p>(?:(?!<\/w:p>)[\s\S])*?<\/w:p>/g)].map((m) => m[0]);
    const labels = paragraphs.find((para) => para.includes('Report ID'));
    expect(labels?.match(/<w:br\/>/g)).toHaveLength(3);
    expect(paragraphs.find((para) => para.includes('The prose under'))).not.toContain('<w:br/>');
  }, 240_000);

  it("sets a picture where the PDF does: a letterhead's logo at the page's top and a picture under a paragraph, in from the left as on the page, the text's lines within 6 points of the PDF's", async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('letterhead');
    expect(pages).toEqual([1, 1]);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
    // Both pictures where the PDF has them, down and across.
    const [source, back] = [pictures(path.join(dir, 'letterhead.pdf')), pictures(path.join(work, 'rendered', 'letterhead-out.pdf'))];
    expect(source).toHaveLength(2);
    expect(back).toHaveLength(2);
    source.forEach((at, k) => {
      expect(Math.abs((back[k]?.top ?? 0) - at.top)).toBeLessThan(6);
      expect(Math.abs((back[k]?.left ?? 0) - at.left)).toBeLessThan(6);
    });
  }, 240_000);

  it('leaves out a picture the page sets text over (a panel behind a box of text): rendered, the lines under it stand where the PDF has them', async () => {
    const { matched, total, worst, pages } = await renderedAgainstSource('panel');
    expect(pages).toEqual([1, 1]);
    expect(total).toBeGreaterThanOrEqual(20);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
    expect(pictures(path.join(work, 'rendered', 'panel-out.pdf'))).toEqual([]);
  }, 240_000);

  it("sets a table drawn with a grid as the PDF does: each column as wide, the cells' padding and text size — rendered, each line within 6 points of the PDF's, down and across", async () => {
    const { matched, total, worst, widest, pages } = await renderedAgainstSource('grids');
    expect(pages).toEqual([1, 1]);
    expect(total).toBeGreaterThanOrEqual(20);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
    expect(widest).toBeLessThan(6);
  }, 240_000);

  it("sets a page in two columns as two columns between full-width paragraphs: rendered, each line stands within 6 points of the PDF's, down and across", async () => {
    const { matched, total, worst, widest, pages } = await renderedAgainstSource('columns');
    expect(pages).toEqual([1, 1]);
    expect(matched).toBeGreaterThan(total * 0.8);
    expect(worst).toBeLessThan(6);
    expect(widest).toBeLessThan(6);
  }, 240_000);
});

describe('convert PDF → docx: a page in two columns that ends its left column with notes', () => {
  it("keeps the right column's paragraphs out of the left column's last note, a paragraph indented below a note in it, and the notes' small print", async () => {
    expect((await service.post('/api/convert', { input: 'notes.pdf', output: 'notes-out.docx' })).status).toBe(200);
    const markdown = execFileSync('pandoc', ['-f', 'docx', '-t', 'gfm', '--wrap=none', path.join(dir, 'notes-out.docx')]).toString();
    expect(markdown).toMatch(/^1\.\s+Note one of the column, in small print, set on one line\.$/m);
    expect(markdown).toMatch(/^2\.\s+Note two of the column, in small print, set on one line\. A paragraph indented under note two goes on with it below\.$/m);
    expect(markdown).toMatch(/^3\.\s+Note three of the column, in small print, set on one line\.$/m);
    for (const k of [1, 2, 3]) expect(markdown).toMatch(new RegExp(`^Right column paragraph ${k}: words ${k}\\.1`, 'm'));
    // The notes keep their 8 points (16 half-points) where the body is 11 or 12.
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'notes-out.docx'), 'word/document.xml']).toString();
    const note = [...xml.matchAll(/<w:p>(?:(?!<\/w:p>)[\s\S])*?<\/w:p>/g)].map((m) => m[0]).find((para) => para.includes('Note one'));
    expect(note).toContain('<w:sz w:val="16"/>');
  }, 240_000);
});

describe('convert PDF → docx: CJK text set narrower than the East Asian font', () => {
  it("sets Korean prose whose face is 0.88 em a character at the PDF's width (Word's character scale): rendered on its one page", async () => {
    const { pages } = await renderedAgainstSource('korean');
    expect(pages).toEqual([1, 1]);
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'korean-out.docx'), 'word/document.xml']).toString();
    const scales = [...xml.matchAll(/<w:w w:val="(\d+)"\/>/g)].map((m) => Number(m[1]));
    expect(scales.length).toBeGreaterThanOrEqual(5);
    for (const scale of scales) expect(scale).toBeGreaterThan(75);
    for (const scale of scales) expect(scale).toBeLessThan(95);
  }, 240_000);
});

describe("convert PDF → docx: Word's lists", () => {
  it('nests the items under Word\'s "o" sub-bullets as a second-level list, and keeps paragraphs that open with the word "o" paragraphs', async () => {
    for (const name of ['lists', 'portuguese']) {
      expect((await service.post('/api/convert', { input: `${name}.pdf`, output: `${name}-out.docx` })).status).toBe(200);
    }
    const lists = docxMarkdown(path.join(dir, 'lists-out.docx'));
    // Test 3 of the document: two items, three nested under the second, one more (pandoc writes a nested item 4 spaces in).
    expect(lists).toMatch(/^-\s+List item 2\n\n {4}-\s+List item 1\.1\n\n {4}-\s+List item 1\.2\n\n {4}-\s+List item 1\.3\n\n-\s+List item 3$/m);
    // Test 4: one nested item between two, neither joined to the item above nor read as a table.
    expect(lists).toMatch(/^-\s+List item 1\n\n {4}-\s+List item 1\.1\n\n-\s+List item 2$/m);
    expect(lists).not.toMatch(/\|\s*\**o\**\s*\|/);
    const portuguese = docxMarkdown(path.join(dir, 'portuguese-out.docx'));
    expect(portuguese).toMatch(/^o livro está na mesa da sala desde ontem\.$/m);
    expect(portuguese).toMatch(/^o rio corre para o mar\.$/m);
    expect(portuguese).not.toMatch(/^\s*-\s/m);
  }, 240_000);
});
