// Reading rows: documents to Markdown through HTTP (`/api/read`) against what a user would
// otherwise run on the same file — pandoc (docx → GitHub Markdown), mammoth (docx → Markdown,
// the npm reader) and, for PDF, poppler's pdftotext (plain text: no Markdown reader for PDF is
// in Debian or on npm without native code).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT, startService, stopAndRemove } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchContext, type BenchSuite } from './harness.js';

/** A 60-page report: headings, paragraphs, bullet lists and a table per chapter (python-docx). */
const REPORT = `
from docx import Document
d = Document()
d.add_heading('Benchmark report', 0)
for c in range(1, 21):
    d.add_heading('Chapter %d' % c, 1)
    for p in range(8):
        d.add_paragraph('Body text of chapter %d, paragraph %d, long enough to wrap over several lines of the page. ' % (c, p) * 4)
    for b in range(4):
        d.add_paragraph('Bullet %d of chapter %d' % (b, c), style='List Bullet')
    t = d.add_table(rows=4, cols=3)
    for r in range(4):
        for k in range(3):
            t.cell(r, k).text = 'r%dc%d' % (r, k)
d.save('report.docx')
`;

/** 20 pages of Word (python-docx: 16 chapters of paragraphs, bullets and a table), a 1,000-row sheet. */
const TWENTY_PAGES = `
from docx import Document
import openpyxl
d = Document()
d.add_heading('Speed report', 0)
for c in range(1, 17):
    d.add_heading('Chapter %d' % c, 1)
    for p in range(6):
        d.add_paragraph('Body text of chapter %d, paragraph %d, long enough to wrap over several lines of the page. ' % (c, p) * 4)
    for b in range(4):
        d.add_paragraph('Bullet %d of chapter %d' % (b, c), style='List Bullet')
    t = d.add_table(rows=6, cols=4)
    for r in range(6):
        for k in range(4):
            t.cell(r, k).text = 'r%dc%d' % (r, k)
d.save('twenty.docx')
wb = openpyxl.Workbook(); ws = wb.active
for r in range(1000): ws.append(['row %d' % r, r, r * 1.5, 'text %d' % r])
wb.save('sheet.xlsx')
md = ''.join('## Slide %d\\n\\n- point one of %d\\n- point two\\n- point three\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\n' % (i, i) for i in range(20))
open('slides.md', 'w').write(md)
`;

/**
 * The speed targets: 50 ms for a 20-page office document, 0.05 s per born-digital PDF
 * page; and whether memory grows with pages: the 100- and 1,000-page PDFs are each read by a
 * service of their own, warmed on the 20-page one, so "job peak" is theirs alone (two reads:
 * the runner's warm-up and one timed; more would add the heap V8 has not yet collected).
 */
async function speedCases({ service, onFinish }: BenchContext, dir: string): Promise<BenchCase[]> {
  execFileSync('/usr/bin/python3', ['-c', TWENTY_PAGES], { cwd: dir });
  execFileSync('pandoc', ['slides.md', '--slide-level=2', '-o', 'slides.pptx'], { cwd: dir });
  runSoffice(path.join(dir, 'profile-speed'), ['--convert-to', 'pdf', 'twenty.docx'], dir);
  const pages = Number(
    execFileSync('qpdf', ['--show-npages', path.join(dir, 'twenty.pdf')])
      .toString()
      .trim(),
  );
  // The same 20 LibreOffice pages joined 5 and 50 times (qpdf): whether memory grows with pages.
  for (const copies of [5, 50])
    execFileSync('qpdf', ['--empty', '--pages', ...Array<string>(copies).fill('twenty.pdf'), '--', `pages-${copies * pages}.pdf`], { cwd: dir });
  const read = (file: string) => () => postOk(service, '/api/read', { input: path.join(dir, file), maxCharacters: 5_000_000 });
  return [
    { group: 'read', name: '20-page docx → Markdown', ours: read('twenty.docx'), targetMs: 50, iterations: 9 },
    { group: 'read', name: '1,000-row xlsx → Markdown', ours: read('sheet.xlsx'), targetMs: 50, iterations: 9 },
    { group: 'read', name: '20-slide pptx → Markdown', ours: read('slides.pptx'), targetMs: 50, iterations: 9 },
    { group: 'read', name: `${pages}-page PDF → Markdown`, ours: read('twenty.pdf'), targetMs: 50 * pages, iterations: 9 },
    await ownServiceCase(`${5 * pages}-page PDF → Markdown`, `pages-${5 * pages}.pdf`, 50 * 5 * pages),
    await ownServiceCase(`${50 * pages}-page PDF → Markdown`, `pages-${50 * pages}.pdf`, 50 * 50 * pages),
  ];

  async function ownServiceCase(name: string, file: string, targetMs: number): Promise<BenchCase> {
    const own = await startService(['--timeout', '600']);
    onFinish(() => stopAndRemove(own));
    await postOk(own, '/api/read', { input: path.join(dir, 'twenty.pdf') });
    return {
      group: 'read',
      name,
      ours: () => postOk(own, '/api/read', { input: path.join(dir, file), maxCharacters: 5_000_000 }),
      targetMs,
      iterations: 1,
      servicePid: own.child.pid as number,
    };
  }
}

const suite: BenchSuite = async (context) => {
  const { service, work } = context;
  const dir = path.join(work, 'read');
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('/usr/bin/python3', ['-c', REPORT], { cwd: dir });
  runSoffice(path.join(dir, 'profile'), ['--convert-to', 'pdf', 'report.docx'], dir);
  const docx = path.join(dir, 'report.docx');
  const pdf = path.join(dir, 'report.pdf');
  const mammoth = path.join(ROOT, 'node_modules/.bin/mammoth');
  const read = (input: string) => () => postOk(service, '/api/read', { input });
  // Each peer the same file against the same request, as its own row (one ratio each).
  const peers: [string, string, BenchCase['native']][] = [
    [docx, '60-page docx → Markdown', { tool: 'pandoc -t gfm', run: () => runCommand('pandoc', [docx, '-t', 'gfm', '-o', path.join(dir, 'pandoc.md')]) }],
    [
      docx,
      '60-page docx → Markdown',
      { tool: 'mammoth --output-format=markdown', run: () => runCommand(mammoth, [docx, path.join(dir, 'mammoth.md'), '--output-format=markdown']) },
    ],
    [
      pdf,
      `${execFileSync('qpdf', ['--show-npages', pdf]).toString().trim()}-page PDF → Markdown`,
      { tool: 'pdftotext -layout (plain text)', run: () => runCommand('pdftotext', ['-layout', pdf, path.join(dir, 'pdftotext.txt')]) },
    ],
  ];
  const cases: BenchCase[] = [
    ...peers.map(([input, name, native]): BenchCase => ({ group: 'read', name, ours: read(input), native })),
    ...(await speedCases(context, dir)),
  ];
  return cases;
};

export default suite;
