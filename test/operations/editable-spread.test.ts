// Editable documents (issue 44): a two-page spread printed on one sheet (as docling's
// table_mislabeled_as_picture.pdf, a questionnaire's pages 208–209): its body set in from the
// sheet's margins, where only the page numbers in the outer corners stand, the left page's
// numbered questions going on in the right page's, which ends with a table. Chrome's print
// converted to DOCX in-process, rendered back by LibreOffice; pages counted by pdfinfo and lines
// placed by pdftotext's boxes, never by our reader.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { runSoffice } from '../helpers/soffice.js';
import { printWithChrome } from './chrome-print.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;

const OPTIONS = ['Yes, at the national (federal) level', 'Yes, at the regional (district) level', 'Yes, at the local (municipal) level', 'No'];

/** A question of the questionnaire, numbered by the list, with its options under it. */
const question = (n: number) =>
  `<li>Question ${n} asks whether the institutional legal aid provider of your country sets limits on the work of its staff lawyers.<ul>${OPTIONS.map((option) => `<li>${option} ${n}</li>`).join('')}</ul></li>`;

/**
 * A US Letter sheet across (11 × 8.5 in), two pages side by side, each half of it: the body of
 * each page stands 80 points in from its outer edge and 40 from the fold, its page number alone
 * in the outer corner at the foot. Questions 23–25 on the left page, 26–28 on the right, then a
 * table of three rows set without lines.
 */
const SPREAD = `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: 11in 8.5in; margin: 0 }
body { margin: 0; font-family: 'Liberation Sans'; font-size: 9pt; line-height: 12pt }
.page { position: absolute; top: 48pt; width: 276pt }
.left { left: 80pt } .right { left: 436pt }
ol { margin: 0; padding-left: 18pt } ol > li { margin-bottom: 14pt }
ul { margin: 4pt 0 0 0; padding-left: 14pt; list-style: square }
table { border-collapse: collapse; margin-left: 18pt } td { padding: 1pt 12pt 1pt 0 }
.folio { position: absolute; top: 570pt; font-size: 9pt }
</style></head><body>
<div class="page left"><ol start="23">${[23, 24, 25].map(question).join('')}</ol></div>
<div class="page right"><ol start="26">${[26, 27, 28].map(question).join('')}</ol>
<table><tr><td>Persons with disabilities</td><td>State funded</td><td>Civil society</td></tr>
<tr><td>Children and their families</td><td>State funded</td><td>Civil society</td></tr>
<tr><td>Refugees and asylum seekers</td><td>State funded</td><td>Civil society</td></tr></table></div>
<div class="folio" style="left: 36pt">208</div><div class="folio" style="right: 36pt">209</div>
</body></html>`;

/** Each line's text and the top and left of its box (points), from pdftotext's boxes (a text met twice dropped). */
function lines(pdf: string): Map<string, { top: number; left: number }> {
  const boxes = execFileSync('pdftotext', ['-bbox-layout', pdf, '-']).toString();
  const found = new Map<string, { top: number; left: number }>();
  const twice = new Set<string>();
  for (const line of boxes.matchAll(/<line xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    // A list's square is a word of the line where it is drawn as text.
    const words = [...(line[3] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1] ?? '');
    // A list's number too: Chrome sets it on the line, LibreOffice apart from it.
    const text = words.filter((word) => !/^([▪■•\uF0A7\uF0B7]|\d+\.)$/u.test(word)).join(' ');
    if (found.has(text)) twice.add(text);
    found.set(text, { top: Number(line[2]), left: Number(line[1]) });
  }
  for (const text of twice) found.delete(text);
  return found;
}

beforeAll(async () => {
  ops = await inProcess({ workers: '1' });
  printWithChrome(ops, SPREAD, 'spread.pdf');
}, 240_000);
afterAll(() => ops.close());

describe('convert PDF → docx: a two-page spread on one sheet', () => {
  it("sets the two pages as two columns where their text stands, the numbered list going on in the right one and its closing table on the sheet: rendered on the PDF's one page, each line within 6 points of the PDF's, down and across", async () => {
    const source = ops.at('spread.pdf');
    expect(Number(pdfinfo(source).Pages)).toBe(1);
    await ops.ok('convert', { input: 'spread.pdf', output: 'spread.docx' });
    runSoffice(ops.at('profile'), ['--convert-to', 'pdf', '--outdir', ops.at('rendered'), ops.at('spread.docx')]);
    const rendered = ops.at('rendered/spread.pdf');
    expect(Number(pdfinfo(rendered).Pages)).toBe(1);
    const [theirs, ours] = [lines(source), lines(rendered)];
    const placed = [...theirs].flatMap(([text, at]) => {
      const other = ours.get(text);
      return other ? [{ text, down: Math.abs(other.top - at.top), across: Math.abs(other.left - at.left) }] : [];
    });
    // The right page's options and its table's rows among them, the folios aside.
    expect(placed.filter((line) => /^Yes, at the local \(municipal\) level 2[3-8]$/.test(line.text))).toHaveLength(6);
    expect(placed.some((line) => line.text.startsWith('Refugees and asylum seekers'))).toBe(true);
    // The questions of both pages too, their numbers aside.
    expect(placed.filter((line) => /^Question 2[3-8] asks/.test(line.text))).toHaveLength(6);
    expect(placed.length).toBeGreaterThan(theirs.size * 0.6);
    // Down, every line within 6 points of the PDF's. Across, a list's text stands where Word's list
    // indents set it (Chrome's differ), the same on both pages: the right page's questions stand
    // as far from the left page's as in the PDF, and the table's rows where the PDF's are.
    expect(placed.filter((line) => line.down >= 6)).toEqual([]);
    const across = (text: string) => placed.find((line) => line.text.startsWith(text))?.across ?? Infinity;
    for (const k of [26, 27, 28]) expect(Math.abs(across(`Question ${k} `) - across(`Question ${k - 3} `))).toBeLessThan(6);
    for (const row of ['Persons with', 'Children and', 'Refugees and']) expect(across(row)).toBeLessThan(6);
  }, 240_000);
});
