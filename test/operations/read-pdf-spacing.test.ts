// Reading PDFs set at 1.5 or double spacing (a thesis, a manuscript, a court filing): each
// paragraph's lines stand further below each other than a single-spaced page's paragraphs do, and
// still make one paragraph; paragraphs set apart by space above them stay apart. Sources made by
// LibreOffice from python-docx documents and by pdflatex.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { PYTHON } from '../helpers/tools.js';
import { FIELD_REPORT as PARAGRAPHS } from './field-report.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** A python-docx document of PARAGRAPHS at `spacing` times the single line, `indent` inches in on the first line, `after` points below each. */
const DOCUMENT = `
import sys
from docx import Document
from docx.shared import Inches, Pt
name, spacing, indent, after = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
d = Document()
for text in sys.argv[5:]:
    p = d.add_paragraph(text)
    p.paragraph_format.line_spacing = spacing
    p.paragraph_format.first_line_indent = Inches(indent)
    p.paragraph_format.space_after = Pt(after)
    p.paragraph_format.space_before = Pt(0)
d.save(name)
`;

const LATEX = String.raw`\documentclass[11pt]{article}
\usepackage[a4paper,margin=4.5cm]{geometry}
\linespread{1.6}
\begin{document}
${PARAGRAPHS.join('\n\n')}
\end{document}
`;

/** Markdown's paragraphs, each one line of text. */
const paragraphsOf = (markdown: string) =>
  markdown
    .split(/\n{2,}/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p && !p.startsWith('<!--'));

function wordDocument(name: string, spacing: number, indent: number, after: number): void {
  execFileSync(PYTHON, ['-c', DOCUMENT, `${name}.docx`, String(spacing), String(indent), String(after), ...PARAGRAPHS], { cwd: ops.dir });
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', ops.dir, ops.at(`${name}.docx`)]);
}

beforeAll(async () => {
  ops = await inProcess();
  wordDocument('double-indented', 2, 0.5, 0);
  wordDocument('one-and-a-half-indented', 1.5, 0.5, 0);
  wordDocument('double-spaced-apart', 2, 0, 24);
  ops.put('thesis.tex', LATEX);
  execFileSync('pdflatex', ['-interaction=batchmode', 'thesis.tex'], { cwd: ops.dir, stdio: 'ignore' });
}, 240_000);
afterAll(() => ops.close());

describe('read: PDFs set at 1.5 or double spacing', () => {
  it.each(['double-indented', 'one-and-a-half-indented', 'thesis'])('reads each paragraph of %s as one paragraph, its lines joined', async (name) => {
    const text = (await ops.ok('read', { input: `${name}.pdf` })).text ?? '';
    expect(paragraphsOf(text)).toEqual(PARAGRAPHS);
  });

  it('keeps double-spaced paragraphs set apart by space below them (no indent) apart', async () => {
    const text = (await ops.ok('read', { input: 'double-spaced-apart.pdf' })).text ?? '';
    expect(paragraphsOf(text)).toEqual(PARAGRAPHS);
  });
});
