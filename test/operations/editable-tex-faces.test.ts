// Editable documents (issue 44): a PDF pdfTeX set in Computer Modern (CMR10, CMBX12) is rebuilt in
// a face whose lines run as wide, so its paragraphs break about where the PDF's do; set in Times,
// as any face Word does not know was, each paragraph came out a line in six or so short (the EC
// fonts' names, SFRM1000 and kin, are told apart in test/unit/editable-tex-faces.test.ts: cm-super
// is not installed here). A LaTeX article made by pdflatex, converted to DOCX in process,
// the DOCX rendered back by LibreOffice; the lines counted on both PDFs by pdftotext's boxes, the
// face named read from the DOCX's XML (unzip) — never by our own reader.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { FIELD_REPORT as PARAGRAPHS } from './field-report.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

/** An article in LaTeX's own Computer Modern. */
const LATEX = String.raw`\documentclass{article}
\pagestyle{empty}
\begin{document}
\section{Field readings}
${PARAGRAPHS.join('\n\n')}
\end{document}
`;

beforeAll(async () => {
  ops = await inProcess();
  ops.put('cm.tex', LATEX);
  execFileSync('pdflatex', ['-interaction=batchmode', 'cm.tex'], { cwd: ops.dir, stdio: 'ignore' });
}, 240_000);
afterAll(() => ops.close());

/** The text lines pdftotext finds on a PDF's first page. */
function lineCount(pdf: string): number {
  const boxes = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', pdf, '-']).toString();
  return [...boxes.matchAll(/<line /g)].length;
}

describe('convert PDF → docx: a TeX document in Computer Modern', () => {
  it('sets its body in a face as wide, so the rendered page has as many lines as the PDF', async () => {
    const name = 'cm';
    await ops.ok('convert', { input: `${name}.pdf`, output: `${name}-out.docx` });
    const styles = execFileSync('unzip', ['-p', ops.at(`${name}-out.docx`), 'word/styles.xml']).toString();
    expect(styles).toMatch(/<w:rFonts [^>]*w:ascii="Palatino Linotype"/);
    const rendered = path.join(ops.dir, 'rendered');
    runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', rendered, ops.at(`${name}-out.docx`)]);
    const [source, back] = [lineCount(ops.at(`${name}.pdf`)), lineCount(path.join(rendered, `${name}-out.pdf`))];
    // A heading and four paragraphs of 5–6 lines, 22 lines: in Times they came out 17. TeX's
    // first-line indents are not kept (pandoc reads an indented paragraph as a quote), so a
    // paragraph's first line takes a word or two more and a line may be saved.
    expect(source).toBeGreaterThanOrEqual(20);
    expect(Math.abs(back - source)).toBeLessThanOrEqual(2);
  }, 240_000);
});
