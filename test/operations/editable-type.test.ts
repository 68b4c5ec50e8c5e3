// Editable documents (issue 44): a heading keeps the PDF's weight, and a document of one-line
// paragraphs keeps the PDF's lines down the page. Documents made by python-docx and pandoc,
// printed to PDF by LibreOffice, converted to DOCX over HTTP; checked in the DOCX's XML (unzip),
// in the fonts of LibreOffice's render of it (pdffonts) and where its lines stand (pdftotext's
// boxes), never by our own reader.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfFontNames, zipPart } from '../helpers/documents.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

/** Headings in DejaVu Sans: Heading 1 and 2 in its regular weight (light.docx), Heading 2 bold (mixed.docx). */
const HEADINGS = `
import docx
for name, bold2 in [('light', False), ('mixed', True)]:
    d = docx.Document()
    for style, bold in [('Normal', False), ('Heading 1', False), ('Heading 2', bold2)]:
        d.styles[style].font.name = 'DejaVu Sans'
        d.styles[style].font.bold = bold
    d.add_heading('A report set in one weight', level=1)
    d.add_paragraph('The opening paragraph of the report, in the body text.')
    d.add_heading('Its first section', level=2)
    d.add_paragraph('The section goes on in the body text.')
    d.save(name + '.docx')
`;

/**
 * Bulleted items that open with a bold term and go on in the regular weight over three lines, a
 * label's paragraph that opens bold, and a paragraph with a bold word inside it (Liberation Serif).
 * The items' text stands half an inch in, as Word's bullets do: mupdf's lines each name one font,
 * and only a page with lines indented that far is read character by character, which sees the weight change.
 */
const TERMS = `
import docx
from docx.shared import Pt, Inches
d = docx.Document()
d.styles['Normal'].font.name = 'Liberation Serif'
d.styles['Normal'].font.size = Pt(12)
for term, rest in [
    ('IBM MT/ST (Magnetic Tape/Selectric Typewriter)', ': introduced in the sixties, this machine combined a typewriter with a store of its own, so that typed content could be recorded, edited and replayed, an early example of digital text storage.'),
    ('Wang Laboratories Office Information System', ': a dedicated word processor of the seventies, with a small screen and floppy disks, which made it a revolution in the offices of its time and long after.'),
]:
    p = d.add_paragraph(style='List Bullet')
    p.paragraph_format.left_indent = Inches(0.5)
    p.add_run(term).bold = True
    p.add_run(rest)
p = d.add_paragraph()
p.add_run('Report ID:').bold = True
p.add_run(' INV-2024-1234, counted at the warehouse by two people on the same day, its figures checked twice.')
p = d.add_paragraph('The regular words of this paragraph run on before a ')
p.add_run('bold').bold = True
p.add_run(' word set inside it, and after it they go on in the regular weight to the end of the line and beyond.')
d.save('terms.docx')
`;

/** Chinese documents of one-line paragraphs (no paragraph of two lines): headings and paragraphs, then headings and bulleted items. */
const PARAGRAPHS = ['# 第三季度运营报告', ...Array.from({ length: 22 }, (_, k) => `第${k + 1}段：本季度的产量稳步增长，成本保持在预算之内。`)].join('\n\n');
const LISTS = [
  '# 各工厂的情况',
  ...Array.from({ length: 4 }, (_, s) =>
    [`## 第${s + 1}节`, Array.from({ length: 4 }, (_, k) => `- 第${s + 1}节第${k + 1}项：工厂于八月完成了新生产线。`).join('\n')].join('\n\n'),
  ),
].join('\n\n');

beforeAll(async () => {
  dir = tempDir('docwasm-editable-type-');
  work = tempDir('docwasm-editable-type-src-');
  execFileSync(PYTHON, ['-c', HEADINGS], { cwd: work });
  execFileSync(PYTHON, ['-c', TERMS], { cwd: work });
  for (const [name, markdown] of [
    ['zh-lines', PARAGRAPHS],
    ['zh-list', LISTS],
  ] as const) {
    fs.writeFileSync(path.join(work, `${name}.md`), markdown);
    execFileSync('pandoc', [`${name}.md`, '-f', 'gfm', '-o', `${name}.docx`], { cwd: work });
  }
  const sources = ['light', 'mixed', 'terms', 'zh-lines', 'zh-list'].map((name) => path.join(work, `${name}.docx`));
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, ...sources]);
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
}, 240_000);
afterAll(() => service.stop());

/** The DOCX of `name`.pdf, and LibreOffice's render of it. */
async function converted(name: string): Promise<{ docx: string; rendered: string }> {
  const answer = await service.post('/api/convert', { input: `${name}.pdf`, output: `${name}-out.docx` });
  expect(answer.status).toBe(200);
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', path.join(work, 'rendered'), path.join(dir, `${name}-out.docx`)]);
  return { docx: path.join(dir, `${name}-out.docx`), rendered: path.join(work, 'rendered', `${name}-out.pdf`) };
}

/** The paragraphs of a DOCX's body, as XML. */
const paragraphsOf = (docx: string) => [...zipPart(docx, 'word/document.xml').matchAll(/<w:p>(?:(?!<\/w:p>)[\s\S])*?<\/w:p>/g)].map((m) => m[0]);

/** The names of the fonts a PDF uses (pdffonts), subset prefixes dropped. */
const fontsOf = (pdf: string) => pdfFontNames(pdf).map((name) => name.replace(/^[A-Z]{6}\+/, ''));

/** Each line's top (points) by its text, on page 1, from pdftotext's boxes. */
function lineTops(pdf: string): Map<string, number> {
  const boxes = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', pdf, '-']).toString();
  const tops = new Map<string, number>();
  for (const line of boxes.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const text = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)]
      .map((w) => w[1])
      .filter((word) => !/^[•·◦▪]$/u.test(word ?? ''))
      .join('');
    tops.set(text, Number(line[1]));
  }
  return tops;
}

describe('convert PDF → docx: the weight of headings', () => {
  it('sets a heading the PDF sets in the regular weight regular: no bold face in the render', async () => {
    const { docx, rendered } = await converted('light');
    const headings = paragraphsOf(docx).filter((p) => /<w:pStyle w:val="Heading[12]"\/>/.test(p));
    expect(headings).toHaveLength(2);
    for (const heading of headings) expect(heading).toMatch(/<w:b w:val="(false|0)"\/>/);
    const fonts = fontsOf(rendered);
    expect(fonts.some((font) => /DejaVuSans/.test(font))).toBe(true);
    expect(fonts.filter((font) => /bold/i.test(font))).toEqual([]);
  }, 240_000);

  it('keeps a heading the PDF sets bold bold, beside a regular one', async () => {
    const { docx, rendered } = await converted('mixed');
    const paragraphs = paragraphsOf(docx);
    const [first, second] = [paragraphs.find((p) => p.includes('A report set in one weight')), paragraphs.find((p) => p.includes('Its first section'))];
    expect(first).toMatch(/<w:b w:val="(false|0)"\/>/);
    expect(second).toMatch(/<w:pStyle w:val="Heading2"\/>/);
    expect(second).not.toMatch(/<w:b w:val="(false|0)"\/>/);
    expect(fontsOf(rendered).some((font) => /DejaVuSans-Bold/.test(font))).toBe(true);
  }, 240_000);
});

describe('convert PDF → docx: bold words a line starts with', () => {
  it("sets a list item's bold term and a label bold, the rest regular, and its lines within 6 points of the PDF's; a bold word inside a paragraph does not make its start bold", async () => {
    const { docx, rendered } = await converted('terms');
    const paragraphs = paragraphsOf(docx);
    const runsOf = (paragraph: string | undefined) => [...(paragraph ?? '').matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map((m) => m[1] as string);
    const bold = (run: string | undefined) => /<w:b\/>|<w:b w:val="(true|1)"\/>/.test(run ?? '');
    for (const term of ['IBM MT/ST (Magnetic Tape/Selectric Typewriter)', 'Wang Laboratories Office Information System', 'Report ID:']) {
      const runs = runsOf(paragraphs.find((p) => p.includes(term)));
      expect(runs[0]).toContain(`>${term}</w:t>`);
      expect(bold(runs[0])).toBe(true);
      expect(bold(runs[1])).toBe(false);
    }
    expect(bold(runsOf(paragraphs.find((p) => p.includes('The regular words')))[0])).toBe(false);
    const source = path.join(dir, 'terms.pdf');
    expect(Number(pdfinfo(rendered).Pages)).toBe(Number(pdfinfo(source).Pages));
    const [ours, theirs] = [lineTops(source), lineTops(rendered)];
    const offsets = [...ours].flatMap(([text, top]) => (theirs.has(text) ? [Math.abs((theirs.get(text) as number) - top)] : []));
    expect(offsets.length).toBeGreaterThan(ours.size * 0.8);
    expect(Math.max(...offsets)).toBeLessThan(6);
  }, 240_000);
});

describe('convert PDF → docx: a document of one-line paragraphs', () => {
  for (const name of ['zh-lines', 'zh-list']) {
    it(`keeps each line of ${name} (Chinese, no paragraph of two lines) within 4 points of the PDF's, on as many pages`, async () => {
      const { rendered } = await converted(name);
      const source = path.join(dir, `${name}.pdf`);
      expect(Number(pdfinfo(rendered).Pages)).toBe(Number(pdfinfo(source).Pages));
      const [ours, theirs] = [lineTops(source), lineTops(rendered)];
      const offsets = [...ours].flatMap(([text, top]) => (theirs.has(text) ? [Math.abs((theirs.get(text) as number) - top)] : []));
      expect(offsets.length).toBeGreaterThan(ours.size * 0.8);
      expect(Math.max(...offsets)).toBeLessThan(4);
    }, 240_000);
  }
});
