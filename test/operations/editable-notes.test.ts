// Editable documents (issue 44): a list of notes in small print under a body set wide keeps the
// notes' own line pitch. Chrome prints each line as a block of its own, so a note's lines under
// its hanging indent come apart from its first line (as in docling's normal_4pages.pdf, whose
// footnotes ran a page onto the next). Chrome's print converted to DOCX in-process, rendered back
// by LibreOffice; pages counted by pdfinfo and lines placed by pdftotext's boxes, never by our reader.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const BODY =
  'The body of the report runs on over several lines of the page, set wide at nineteen points a line, as reports of this kind are set, so that the notes below it stand apart in their small print. ';
const NOTES = Array.from(
  { length: 10 },
  (_, k) =>
    `Note ${k + 1} explains a term of the text above in small print and runs on over three lines of the page under its hanging indent, as the notes at the foot of a page are set in a report of this kind, with one more clause to end it, and a last few words that carry it on over the third line of the note down to its end.`,
);

/**
 * One A4 page: body paragraphs at 19 points a line, then ten numbered notes of three lines each at
 * 8.5 points on 12.7, 2 points apart, their numbers 14 points before their text as a report's
 * footnotes hang (Chrome's own markers stand closer to the text than an em of the body): set at
 * the body's pitch, or at the step from one note to the next, they run onto a second page.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: A4; margin: 72pt; }
body { font-family: 'Liberation Serif'; font-size: 11pt; line-height: 19pt; margin: 0 }
p { margin: 0 0 6pt 0 }
ol { font-size: 8.5pt; line-height: 12.7pt; margin: 12pt 0 0 0; padding: 0; list-style: none; counter-reset: note }
li { margin-top: 2pt; padding-left: 14pt; text-indent: -14pt; counter-increment: note }
li::before { content: counter(note) "."; display: inline-block; width: 14pt; text-indent: 0 }
</style></head><body>
<p>${BODY.repeat(2)}</p><p>${BODY.repeat(2)}</p><p>${BODY.repeat(2)}</p>
<ol>${NOTES.map((note) => `<li>${note}</li>`).join('')}</ol></body></html>`;

/** The top (points) of each note's first line by the note's number, from pdftotext's boxes. */
function noteTops(pdf: string): Map<number, number> {
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  const tops = new Map<number, number>();
  for (const line of boxes.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const text = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    const note = /\bNote (\d+) explains\b/.exec(text)?.[1];
    if (note !== undefined) tops.set(Number(note), Number(line[1]));
  }
  return tops;
}

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printWithChrome(ops, PAGE, 'notes.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('convert PDF → docx: notes in small print whose lines the PDF sets apart', () => {
  it("sets each note's lines at their own pitch, not the body's: rendered on the PDF's one page, each note's line within 6 points of the PDF's", async () => {
    const source = ops.at('notes.pdf');
    expect(Number(pdfinfo(source).Pages)).toBe(1);
    await ops.ok('convert', { input: 'notes.pdf', output: 'notes.docx' });
    runSoffice(ops.at('profile'), ['--convert-to', 'pdf', '--outdir', ops.at('rendered'), ops.at('notes.docx')]);
    const rendered = ops.at('rendered/notes.pdf');
    expect(Number(pdfinfo(rendered).Pages)).toBe(1);
    // Each note's first line, by its opening words (the lines may wrap a word apart in the two).
    const [theirs, ours] = [noteTops(source), noteTops(rendered)];
    expect(theirs.size).toBe(NOTES.length);
    const offsets = [...theirs].flatMap(([note, top]) => (ours.has(note) ? [Math.abs((ours.get(note) as number) - top)] : []));
    expect(offsets.length).toBe(NOTES.length);
    expect(Math.max(...offsets)).toBeLessThan(6);
  }, 240_000);
});
