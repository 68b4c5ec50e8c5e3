// Reading rows: documents to Markdown through HTTP (`/api/read`) against what a user would
// otherwise run on the same file — pandoc (docx → GitHub Markdown), mammoth (docx → Markdown,
// the npm reader) and, for PDF, poppler's pdftotext (plain text: no Markdown reader for PDF is
// in Debian or on npm without native code).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SOFFICE } from '../helpers/documents.js';
import { ROOT } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

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

const suite: BenchSuite = async ({ service, work }) => {
  const dir = path.join(work, 'read');
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('/usr/bin/python3', ['-c', REPORT], { cwd: dir });
  execFileSync(SOFFICE, ['--headless', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'pdf', 'report.docx'], { cwd: dir, stdio: 'ignore' });
  const docx = path.join(dir, 'report.docx');
  const pdf = path.join(dir, 'report.pdf');
  const mammoth = path.join(ROOT, 'node_modules/.bin/mammoth');
  const cases: BenchCase[] = [
    {
      group: 'read',
      name: '60-page docx → Markdown',
      ours: () => postOk(service, '/api/read', { input: docx }),
      native: { tool: 'pandoc -t gfm', run: () => runCommand('pandoc', [docx, '-t', 'gfm', '-o', path.join(dir, 'pandoc.md')]) },
    },
    {
      group: 'read',
      name: '60-page docx → Markdown',
      ours: () => postOk(service, '/api/read', { input: docx }),
      native: { tool: 'mammoth --output-format=markdown', run: () => runCommand(mammoth, [docx, path.join(dir, 'mammoth.md'), '--output-format=markdown']) },
    },
    {
      group: 'read',
      name: `${execFileSync('qpdf', ['--show-npages', pdf]).toString().trim()}-page PDF → Markdown`,
      ours: () => postOk(service, '/api/read', { input: pdf }),
      native: { tool: 'pdftotext -layout (plain text)', run: () => runCommand('pdftotext', ['-layout', pdf, path.join(dir, 'pdftotext.txt')]) },
    },
  ];
  return cases;
};

export default suite;
