// A watermark on a PDF made from an OFD, and on hand-written pages that leave their graphics
// state unbalanced or already use the watermark's resource names (issue 41, item 14): the text
// is read back whole by pdftotext (its default mode, which reads a diagonal line as scattered
// pieces unless the line says what it reads as), the page's own text is untouched, and the
// watermark is drawn where it should be (pdftoppm's pixels), whatever the page left behind.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from '../operations/in-process.js';

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8' });
const pageText = (pdf: string, page: number) => run('pdftotext', ['-q', '-f', String(page), '-l', String(page), pdf, '-']);
/** A text's characters, sorted, without white space: the same on a page whatever order pdftotext reads its words in. */
const characters = (text: string) => [...text.replace(/\s+/g, '')].sort().join('');
const pageCount = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [pdf]))?.[1]);

/** Pixels of a page darker than white, as pdftoppm renders it in grey at 18 dpi. */
function inkedPixels(pdf: string, page: number): number {
  const pgm = execFileSync('pdftoppm', ['-q', '-r', '18', '-gray', '-f', String(page), '-l', String(page), pdf]);
  // P5 <width> <height> 255 then one byte a pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
  const pixels = pgm.subarray((header?.[0] ?? '').length);
  return pixels.filter((value) => value < 240).length;
}

/**
 * A PDF written here, as another producer might: Helvetica named /DocwasmStampFont (the
 * watermark's own resource name) and each page's `content` as given.
 */
function handWrittenPdf(contents: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${contents.length} /Kids [${contents.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ...contents.flatMap((content, i) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /DocwasmStampFont 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ]),
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info << /Producer (a hand-written test PDF) >> >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const HELLO = 'BT /DocwasmStampFont 24 Tf 72 760 Td (Hello from the page) Tj ET';

let ops: InProcess;
beforeAll(async () => {
  ops = await inProcess();
});
afterAll(async () => {
  await ops.close();
});

describe('a watermark is read back whole by pdftotext, whatever the page', () => {
  it('OFD → PDF, then watermark COPY: pdftotext reads COPY on every page, beside the page text', async () => {
    for (const name of ['two-pages.ofd', 'invoice-templates.ofd']) {
      ops.put(name, fs.readFileSync(path.join(ROOT, 'fixtures/ofd', name)));
      await ops.ok('convert', { input: name, output: `${name}.pdf` });
      await ops.ok('pdf/watermark', { input: `${name}.pdf`, output: `${name}-copy.pdf`, text: 'COPY' });
      const marked = ops.at(`${name}-copy.pdf`);
      expect(pageCount(marked)).toBeGreaterThan(1);
      for (let page = 1; page <= pageCount(marked); page++) {
        const text = pageText(marked, page);
        expect(text, `${name} page ${page}`).toMatch(/\bCOPY\b/);
        // The page's own characters, all of them, and no other than the watermark's.
        expect(characters(text.replace('COPY', ''))).toBe(characters(pageText(ops.at(`${name}.pdf`), page)));
      }
    }
  }, 120_000);

  it("a page that leaves q open (clipped, invisible text, scaled), one that closes more than it opened, and one already using the watermark's names", async () => {
    const pages = [
      // A clip to 1 pt, text render mode 3 (invisible) and a 1/10 scale, then a q left open:
      // one Q after the page restores them.
      `${HELLO} 0 0 1 1 re W n 3 Tr 0.1 0 0 0.1 0 0 cm q 0 0 1 rg`,
      // One Q too many: it would close the watermark's own q, leaving what follows in force.
      `${HELLO} Q 0 0 1 1 re W n 3 Tr 0.1 0 0 0.1 0 0 cm`,
      HELLO,
    ];
    ops.put('hand.pdf', handWrittenPdf(pages));
    await ops.ok('pdf/watermark', { input: 'hand.pdf', output: 'hand-copy.pdf', text: 'COPY', opacity: 1 });
    // A second watermark: the first one's font and state are not replaced by the second's.
    await ops.ok('pdf/watermark', { input: 'hand-copy.pdf', output: 'hand-twice.pdf', text: 'DRAFT', opacity: 1, rotation: 0 });
    const twice = ops.at('hand-twice.pdf');
    for (let page = 1; page <= pages.length; page++) {
      const text = pageText(twice, page);
      expect(text, `page ${page}`).toContain('Hello from the page');
      expect(text, `page ${page}`).toMatch(/\bCOPY\b/);
      expect(text, `page ${page}`).toMatch(/\bDRAFT\b/);
      // Each watermark inks the page (not clipped away, not invisible): the page alone inks only its line.
      const alone = inkedPixels(ops.at('hand.pdf'), page);
      const once = inkedPixels(ops.at('hand-copy.pdf'), page);
      expect(once, `page ${page}`).toBeGreaterThan(alone + 50);
      expect(inkedPixels(twice, page), `page ${page}`).toBeGreaterThan(once + 50);
    }
    expect(run('qpdf', ['--check', twice])).toMatch(/No syntax or stream encoding errors found/);
  }, 120_000);
});
