// Editable documents (issue 44) from scans: the DOCX of a scanned page is set as the scan was —
// the body's size and a face as wide as its letters, so rendered, its lines break where the
// scan's do and stand where they stand. Documents made by python-docx in two faces and sizes,
// printed to PDF by LibreOffice and scanned (pdftoppm, 200 dpi, grey; img2pdf), converted over
// HTTP; the DOCX is read by unzip, and rendered back by LibreOffice, its lines compared with the
// source PDF's by pdftotext's boxes (never by our own reader).

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

const DOCUMENTS = `
import docx
from docx.shared import Pt, Inches, Mm

# An A4 document with inch margins, its body in \`face\` at \`size\` points: its Normal style.
def a4(face, size):
    d = docx.Document()
    s = d.sections[0]
    s.page_width, s.page_height = Mm(210), Mm(297)
    s.left_margin = s.right_margin = s.top_margin = s.bottom_margin = Inches(1)
    normal = d.styles['Normal']
    normal.font.name, normal.font.size = face, Pt(size)
    return d, normal

def prose(name, face, size):
    d, normal = a4(face, size)
    normal.paragraph_format.space_after = Pt(8)
    words = 'plant output steady quarter costs budget spring north south east west line shift month price energy order stock'.split()
    for n in range(7):
        d.add_paragraph(f'Paragraph {n + 1} of the report. ' + ' '.join(f'The {words[(n + k) % 18]} kept its {words[(2 * n + 3 * k) % 18]} within the {words[(3 * n + k + 5) % 18]} agreed.' for k in range(6)))
    d.save(name + '.docx')

prose('serif', 'Liberation Serif', 11)
prose('sans', 'DejaVu Sans', 12)

# Headings and a short line or two under each, none of a paragraph's length (a form, an outline).
def outline(name, face, size):
    d, _ = a4(face, size)
    for n in range(1, 6):
        d.add_heading(f'Section {n}', level=1)
        for k in range(1, 4):
            d.add_paragraph(f'Item {n}.{k} checked')
    d.save(name + '.docx')

outline('outline12', 'Liberation Serif', 12)
outline('outline14', 'DejaVu Sans', 14)

# A Chinese report: a 16-pt title, 14-pt section headings of two and four characters, 12-pt body
# paragraphs, and a table of figures (PP-OCR pads a number's short box as tall as a heading's).
from docx.oxml.ns import qn
from docx.shared import RGBColor
zh = docx.Document()
s = zh.sections[0]
s.page_width, s.page_height = Mm(210), Mm(297)
s.left_margin = s.right_margin = s.top_margin = s.bottom_margin = Inches(1)
for name, size in [('Normal', 12), ('Heading 1', 16), ('Heading 2', 14)]:
    style = zh.styles[name]
    style.font.size, style.font.color.rgb = Pt(size), RGBColor(0, 0, 0)
    style.element.get_or_add_rPr().get_or_add_rFonts().set(qn('w:eastAsia'), 'Noto Sans CJK SC')
zh.add_heading('第三季度运营报告', level=1)
zh.add_paragraph('本报告总结了第三季度的运营情况。产量稳步增长，成本保持在春季商定的预算之内，各部门按计划完成了任务。')
zh.add_heading('生产情况', level=2)
zh.add_paragraph('各工厂的产量均有增长。北方工厂于八月完成了新生产线，并从九月起实行两班制，南方工厂保持稳定。')
t = zh.add_table(rows=4, cols=4)
for r, row in enumerate([['工厂', '七月', '八月', '九月'], ['北方', '120', '135', '160'], ['南方', '98', '101', '99'], ['东方', '77', '80', '84']]):
    for c, text in enumerate(row):
        t.cell(r, c).text = text
zh.add_heading('成本', level=2)
zh.add_paragraph('本季度能源价格下降，运输费用略有上升。三项措施控制了其余成本，总成本低于预算。')
zh.add_heading('展望', level=2)
zh.add_paragraph('预计第四季度将取得类似的结果。董事会将于十二月审议明年的预算和投资计划。')
zh.save('zh.docx')

# Tables without lines down a page (a form, an invoice), each under a line of text: the space above
# each table as the scan's, or every table stands lower than the one before it did.
d, _ = a4('DejaVu Sans', 12)
for n, region in enumerate(['North', 'South', 'East', 'West']):
    d.add_paragraph(f'Table {n + 1}: the {region.lower()} region by month')
    t = d.add_table(rows=3, cols=3)
    for r, row in enumerate([[f'{region} plant', 'July', 'August'], [f'{region} line A', f'{120 + n}', f'{135 + n}'], [f'{region} line B', f'{98 + n}', f'{101 + n}']]):
        for c, text in enumerate(row):
            t.cell(r, c).text = text
    d.add_paragraph(f'The {region.lower()} region kept to its budget.')
d.save('tables.docx')
`;

beforeAll(async () => {
  dir = tempDir('docwasm-editable-scans-');
  work = tempDir('docwasm-editable-scans-src-');
  execFileSync(PYTHON, ['-c', DOCUMENTS], { cwd: work });
  const names = ['serif', 'sans', 'zh', 'outline12', 'outline14', 'tables'];
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', work, ...names.map((name) => path.join(work, `${name}.docx`))]);
  for (const name of names) {
    execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-singlefile', path.join(work, `${name}.pdf`), path.join(work, `${name}-scan`)]);
    execFileSync('img2pdf', ['-o', path.join(dir, `${name}-scan.pdf`), path.join(work, `${name}-scan.png`)]);
  }
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

/** Each line's text and top (points) on the first page, from pdftotext's boxes. */
function lines(pdf: string): Map<string, number> {
  const boxes = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', pdf, '-']).toString();
  const found = new Map<string, number>();
  for (const line of boxes.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const text = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    found.set(text, Number(line[1]));
  }
  return found;
}

/** The scan's DOCX: its default run properties (unzip), and its rendering's lines against the source's. */
async function converted(
  name: string,
): Promise<{ defaults: string; matched: number; total: number; worst: number; pages: [number, number]; shifts: Map<string, number> }> {
  const answer = await service.post('/api/convert', { input: `${name}-scan.pdf`, output: `${name}.docx`, language: 'eng' });
  expect(answer.status).toBe(200);
  const docx = path.join(dir, `${name}.docx`);
  const styles = execFileSync('unzip', ['-p', docx, 'word/styles.xml']).toString();
  const defaults = /<w:rPrDefault>([\s\S]*?)<\/w:rPrDefault>/.exec(styles)?.[1] ?? '';
  const rendered = path.join(work, 'rendered');
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', rendered, docx]);
  const [source, back] = [path.join(work, `${name}.pdf`), path.join(rendered, `${name}.pdf`)];
  const theirs = lines(back);
  const ours = [...lines(source)];
  const tops = ours.flatMap(([text, top]) => (theirs.has(text) ? [Math.abs((theirs.get(text) as number) - top)] : []));
  return {
    shifts: new Map(ours.flatMap(([text, top]) => (theirs.has(text) ? [[text, (theirs.get(text) as number) - top] as const] : []))),
    defaults,
    matched: tops.length,
    total: ours.length,
    worst: Math.max(0, ...tops),
    pages: [Number(pdfinfo(source).Pages), Number(pdfinfo(back).Pages)],
  };
}

const halfPoints = (defaults: string) => Number(/<w:sz w:val="(\d+)"/.exec(defaults)?.[1]);
const latinFace = (defaults: string) => /<w:rFonts [^>]*w:ascii="([^"]+)"/.exec(defaults)?.[1];

describe('convert scan → docx: set as the scan was', () => {
  it("sets an 11-point serif scan's body at its size in a serif face as wide: rendered, its lines break and stand where the scan's do", async () => {
    const { defaults, matched, total, worst, pages } = await converted('serif');
    expect(Math.abs(halfPoints(defaults) - 22)).toBeLessThanOrEqual(1);
    expect(latinFace(defaults)).toBe('Times New Roman');
    expect(pages[1]).toBe(pages[0]);
    expect(matched).toBeGreaterThan(total * 0.7);
    expect(worst).toBeLessThan(6);
  }, 240_000);

  it("sets a 12-point DejaVu Sans scan's body at its size in a face as wide (its lines run a quarter longer than a serif's)", async () => {
    const { defaults, matched, total, worst, pages } = await converted('sans');
    expect(Math.abs(halfPoints(defaults) - 24)).toBeLessThanOrEqual(1);
    expect(latinFace(defaults)).toBe('DejaVu Sans');
    expect(pages[1]).toBe(pages[0]);
    expect(matched).toBeGreaterThan(total * 0.7);
    expect(worst).toBeLessThan(6);
  }, 240_000);
});

describe('convert scan → docx: a scan of short lines only', () => {
  it("sets the body at the scan's size where no line is a paragraph's length: 12-point serif and 14-point DejaVu Sans outlines, rendered, their lines stand where the scan's do", async () => {
    for (const [name, size] of [
      ['outline12', 24],
      ['outline14', 28],
    ] as const) {
      const { defaults, matched, total, worst, pages } = await converted(name);
      expect(Math.abs(halfPoints(defaults) - size), name).toBeLessThanOrEqual(1);
      expect(pages[1]).toBe(pages[0]);
      expect(matched).toBeGreaterThan(total * 0.7);
      expect(worst, name).toBeLessThan(6);
    }
  }, 480_000);
});

describe('convert scan → docx: tables without lines', () => {
  it("keeps the space above each table as the scan's: rendered, each table's rows stand where the scan's do, the fourth table as the first", async () => {
    const { shifts, pages } = await converted('tables');
    expect(pages[1]).toBe(pages[0]);
    // Each table's first row (its first cell, a line of its own in pdftotext's boxes) and the line under it.
    const rows = ['North plant', 'South plant', 'East plant', 'West plant', 'West line B'];
    for (const row of rows) expect(shifts.has(row), row).toBe(true);
    // A scan's table once stood an eighth of the body's em (1.5 pt) lower under the text above it
    // than a text layer's, one table lower than the one before: 1 pt at the first, 6 pt by the fourth.
    for (const row of rows) expect(Math.abs(shifts.get(row) as number), row).toBeLessThan(1.5);
  }, 240_000);
});

describe('convert scan → docx: a Chinese scan read by PP-OCR', () => {
  it('finds its title and section headings (two and four characters) by their width, the figures of its table not taken for headings', async () => {
    const answer = await service.post('/api/convert', { input: 'zh-scan.pdf', output: 'zh.docx', language: 'chi_sim', engine: 'paddle' });
    expect(answer.status).toBe(200);
    const headings = execFileSync('pandoc', ['-f', 'docx', '-t', 'gfm', path.join(dir, 'zh.docx')])
      .toString()
      .split('\n')
      .filter((line) => line.startsWith('#'));
    expect(headings).toEqual(['# 第三季度运营报告', '## 生产情况', '## 成本', '## 展望']);
  }, 240_000);
});
