// Editable documents (issue 44): a list's items keep the PDF's hanging indent. Notes in small print
// hang their lines a few points past a number at the column's edge (docling's normal_4pages.pdf:
// 11.5 points); at Word's list levels (marker at 18 points, text at 36) each note ran narrower than
// the PDF's and wrapped a line more. Chrome's print converted to DOCX in-process, rendered back by
// LibreOffice; lines placed by pdftotext's boxes, never by our reader.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const BODY = 'The body of the report runs on over several lines of the page in its own size, so that the notes below it stand apart in their small print. ';
const NOTES = Array.from(
  { length: 8 },
  (_, k) =>
    `Note ${k + 1} explains a term of the text above in small print and runs on over the lines of the page under its hanging indent, as the notes at the foot of a page are set in a report of this kind, with one more clause to end it and a last few words that carry it on over a third line of the note down to its end.`,
);

/** Points the notes' text hangs past their numbers, which stand at the column's left edge. */
const HANG = 11;

/**
 * One A4 page: a body, then eight numbered notes of three lines at 8.5 points, their numbers at the
 * column's edge and their text 11 points in (Chrome prints a line a block, the number on the first).
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 72pt; }
body { font-family: 'Liberation Serif'; font-size: 11pt; line-height: 15pt; margin: 0 }
p { margin: 0 0 6pt 0 }
ol { font-size: 8.5pt; line-height: 11pt; margin: 12pt 0 0 0; padding: 0; list-style: none; counter-reset: note }
li { margin-top: 2pt; padding-left: ${HANG}pt; text-indent: -${HANG}pt; counter-increment: note }
li::before { content: counter(note) "."; display: inline-block; width: ${HANG}pt; text-indent: 0 }
</style></head><body>
<p>${BODY.repeat(3)}</p><p>${BODY.repeat(3)}</p>
<ol>${NOTES.map((note) => `<li>${note}</li>`).join('')}</ol></body></html>`;

/**
 * The same in Chinese set narrower than its face's full em (letter-spacing, as Korean's KoPub sets
 * 0.9 em): notes of three lines and notes of one full line, in turn. The DOCX sets such text at
 * the width the PDF gives it; the marker counted in that width set the one-line notes too wide
 * for their line.
 */
const PHRASE = '本报告所称的条款是指保险合同中约定的责任范围与免责事项';
const CJK_NOTES = [...'一二三四五六'].map((n, k) => ({ one: k % 2 === 1, text: `注释第${n}条${PHRASE.repeat(5)}`.slice(0, k % 2 === 1 ? 54 : 150) }));
const CJK_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 72pt; }
body { font-family: 'WenQuanYi Zen Hei'; font-size: 11pt; line-height: 18pt; margin: 0 }
ol { font-size: 9pt; line-height: 13pt; letter-spacing: -0.9pt; margin: 12pt 0 0 0; padding: 0; list-style: none; counter-reset: note }
li { margin-top: 2pt; padding-left: 12pt; text-indent: -12pt; counter-increment: note }
li.one { white-space: nowrap }
li::before { content: counter(note) ")"; display: inline-block; width: 12pt; text-indent: 0; letter-spacing: 0 }
</style></head><body><p>${'本报告的正文在页面上占据若干行，注释以小字排在其下。'.repeat(6)}</p>
<ol>${CJK_NOTES.map((note) => `<li${note.one ? ' class="one"' : ''}>${note.text}</li>`).join('')}</ol></body></html>`;

interface Line {
  left: number;
  text: string;
}

/** The lines of the notes (those from the first note's on), with where each starts, from pdftotext's boxes. */
function noteLines(pdf: string, first = /\bNote 1 explains\b/): Line[] {
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  const lines = [...boxes.matchAll(/<line xMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)].map((line) => ({
    left: Number(line[1]),
    text: [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' '),
  }));
  return lines.slice(lines.findIndex((line) => first.test(line.text)));
}

/** Points the notes' lines under their first stand in from the numbers: the least start of a line that is not a note's first. */
function hang(lines: readonly Line[]): number {
  const numbers = Math.min(...lines.filter((line) => /\bNote \d+ explains\b/.test(line.text)).map((line) => line.left));
  const under = lines.filter((line) => !/\bNote \d+ explains\b/.test(line.text)).map((line) => line.left);
  return Math.min(...under) - numbers;
}

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printWithChrome(ops, PAGE, 'hung.pdf');
  printWithChrome(ops, CJK_PAGE, 'cjk.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('convert PDF → docx: a list whose lines hang a few points past their numbers', () => {
  it("keeps the PDF's hanging indent: rendered, the notes' lines start within 2 points of the PDF's and take no more lines", async () => {
    const source = ops.at('hung.pdf');
    expect(Number(pdfinfo(source).Pages)).toBe(1);
    const theirs = noteLines(source);
    // The print as meant: every note on more than one line, hung HANG points in.
    expect(theirs.filter((line) => /\bNote \d+ explains\b/.test(line.text)).length).toBe(NOTES.length);
    expect(theirs.length).toBeGreaterThan(NOTES.length);
    expect(Math.abs(hang(theirs) - HANG)).toBeLessThan(1);

    await ops.ok('convert', { input: 'hung.pdf', output: 'hung.docx' });
    runSoffice(ops.at('profile'), ['--convert-to', 'pdf', '--outdir', ops.at('rendered'), ops.at('hung.docx')]);
    const ours = noteLines(ops.at('rendered/hung.pdf'));
    expect(Math.abs(hang(ours) - hang(theirs))).toBeLessThan(2);
    expect(ours.length).toBeLessThanOrEqual(theirs.length);
  }, 240_000);

  it("sets CJK notes at the width their text takes in the PDF, the marker left out: rendered, the notes take the PDF's lines", async () => {
    const first = /注释第一条/;
    // Each line by its first characters, its number aside (the PDF's "1)", the list's "1.").
    const starts = (lines: readonly Line[]) => lines.map((line) => line.text.replace(/^\d+[.)] /, '').slice(0, 5));
    const theirs = noteLines(ops.at('cjk.pdf'), first);
    // The print as meant: three lines a note, then one, in turn; the one-line notes filling the line.
    expect(theirs.length).toBe(12);
    await ops.ok('convert', { input: 'cjk.pdf', output: 'cjk.docx' });
    runSoffice(ops.at('profile'), ['--convert-to', 'pdf', '--outdir', ops.at('rendered'), ops.at('cjk.docx')]);
    const ours = noteLines(ops.at('rendered/cjk.pdf'), first);
    expect(starts(ours)).toEqual(starts(theirs));
  }, 240_000);
});
