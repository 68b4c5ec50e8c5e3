// Editable documents (issue 44): a ruled table's cells keep the paragraphs and lists the PDF sets
// in them. A Word document made by python-docx (a grid table whose cells hold a bulleted list, two
// paragraphs, and a paragraph that wraps), printed to PDF by LibreOffice, converted to DOCX over
// HTTP; the DOCX read by its XML (unzip) and by pandoc, read's Markdown by its own table row —
// never by our own reader.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { PYTHON } from '../helpers/tools.js';

let service: RunningService;
let dir: string;
let work: string;

const WRAPPING =
  'This paragraph is long enough to wrap onto several lines inside its cell, and it stays one paragraph because each of its lines ran to the edge.';

const DOCUMENT = `
import docx
d = docx.Document()
d.add_paragraph('A table drawn with a grid, its cells holding lists and paragraphs:')
t = d.add_table(rows=2, cols=3)
t.style = 'Table Grid'
for col, text in enumerate(['Steps', 'Notes', 'Summary']):
    t.cell(0, col).text = text
steps = t.cell(1, 0)
steps.paragraphs[0].text = 'Before you start:'
for item in ['Unpack the kit', 'Charge the battery', 'Read the guide']:
    steps.add_paragraph(item, style='List Bullet')
notes = t.cell(1, 1)
notes.paragraphs[0].text = 'The first paragraph ends here.'
notes.add_paragraph('A second paragraph follows it.')
t.cell(1, 2).text = ${JSON.stringify(WRAPPING)}
d.add_paragraph('The end.')
d.save('cells.docx')
`;

beforeAll(async () => {
  dir = tempDir('docwasm-editable-cells-');
  work = tempDir('docwasm-editable-cells-src-');
  execFileSync(PYTHON, ['-c', DOCUMENT], { cwd: work });
  runSoffice(path.join(work, 'profile'), ['--convert-to', 'pdf', '--outdir', dir, path.join(work, 'cells.docx')]);
  service = await startService(['--base-dir', dir, '--allow-dir', dir, '--workers', '1']);
  expect((await service.post('/api/convert', { input: 'cells.pdf', output: 'cells-out.docx' })).status).toBe(200);
}, 240_000);
afterAll(() => service.stop());

/** The cells of the DOCX's table, each as its paragraphs' XML. */
function cellParagraphs(): string[][] {
  const xml = execFileSync('unzip', ['-p', path.join(dir, 'cells-out.docx'), 'word/document.xml']).toString();
  const table = /<w:tbl>[\s\S]*?<\/w:tbl>/.exec(xml)?.[0] ?? '';
  return [...table.matchAll(/<w:tc>([\s\S]*?)<\/w:tc>/g)].map((cell) => [...(cell[1] as string).matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) => p[0]));
}

const textOf = (paragraph: string) => [...paragraph.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('');

describe('convert PDF → docx: a ruled table whose cells hold lists and paragraphs', () => {
  it("keeps a cell's bulleted list as bulleted paragraphs (Word numbering) under its lead-in, without the Symbol font's bullet", () => {
    const cells = cellParagraphs();
    expect(cells).toHaveLength(6);
    const steps = cells[3] as string[];
    expect(steps.map(textOf)).toEqual(['Before you start:', 'Unpack the kit', 'Charge the battery', 'Read the guide']);
    expect(steps.map((p) => p.includes('<w:numPr>'))).toEqual([false, true, true, true]);
    const xml = execFileSync('unzip', ['-p', path.join(dir, 'cells-out.docx'), 'word/document.xml']).toString();
    expect(xml).not.toContain('\uF0B7');
  });

  it('keeps two paragraphs of a cell apart, and a paragraph that wraps in its cell one paragraph', () => {
    const cells = cellParagraphs();
    expect((cells[4] as string[]).map(textOf)).toEqual(['The first paragraph ends here.', 'A second paragraph follows it.']);
    expect((cells[5] as string[]).map(textOf)).toEqual([WRAPPING]);
  });

  it('reads back with pandoc as a list and paragraphs inside the cells', () => {
    const html = execFileSync('pandoc', ['-f', 'docx', '-t', 'html', '--wrap=none', path.join(dir, 'cells-out.docx')]).toString();
    // pandoc puts the second row under the header too (<th>): a cell is either tag.
    const cells = [...html.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) =>
      (m[1] as string)
        .replace(/<li><p>|<\/p><\/li>/g, (tag) => tag.replace(/<\/?p>/, ''))
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(cells.slice(3)).toEqual([
      '<p>Before you start:</p> <ul> <li>Unpack the kit</li> <li>Charge the battery</li> <li>Read the guide</li> </ul>',
      '<p>The first paragraph ends here.</p> <p>A second paragraph follows it.</p>',
      WRAPPING,
    ]);
  });

  it("leaves read's Markdown table with each cell on one line", async () => {
    const answer = await service.post('/api/read', { input: 'cells.pdf' });
    expect(answer.status).toBe(200);
    const markdown = answer.body.text ?? '';
    const row = markdown.split('\n').find((line) => line.includes('Unpack the kit')) ?? '';
    expect(row).toContain('Before you start:');
    expect(row).toContain('The first paragraph ends here. A second paragraph follows it.');
  }, 240_000);
});
