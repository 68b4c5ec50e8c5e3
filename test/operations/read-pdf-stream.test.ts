// A PDF read stops at maxCharacters: pages past the cut are not laid out and scans past it are
// not read with OCR (the PDF worker lays the document out in two passes, page by page). Text
// pages from pandoc + LibreOffice, scans written byte by byte, joined by qpdf.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOFFICE } from '../helpers/documents.js';
import { renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { inProcess, type InProcess } from './in-process.js';
import { PYTHON } from '../helpers/tools.js';

let ops: InProcess;
const TITLED = `
from docx import Document
from docx.shared import Inches
d = Document()
d.sections[0].top_margin = Inches(0.3)
d.add_heading('Yearly review', 0)
for c in range(1, 7):
    d.add_heading('Chapter %d' % c, 1)
    for p in range(3):
        d.add_paragraph('Body text of the chapter, long enough to wrap over several lines of the page. ' * 6)
d.save('titled.docx')
`;

const CHAPTERS = Array.from(
  { length: 6 },
  (_, c) => `# Chapter ${c + 1}\n\n${'Body text of the chapter, long enough to wrap over several lines of the page. '.repeat(12)}\n`,
).join('\n');

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('text.md', CHAPTERS);
  execFileSync('pandoc', ['text.md', '-o', 'text.docx'], { cwd: ops.dir });
  execFileSync(SOFFICE, ['--headless', `-env:UserInstallation=file://${ops.dir}/profile`, '--convert-to', 'pdf', 'text.docx'], {
    cwd: ops.dir,
    stdio: 'ignore',
  });
  ops.put('scan.pdf', await makeScannedPdf([{ image: await renderText('Scanned page with a line of text'), dpi: 300 }]));
  ops.put(
    'scans.pdf',
    await makeScannedPdf(await Promise.all([1, 2, 3, 4, 5].map(async (n) => ({ image: await renderText(`Scanned page number ${n} of five`), dpi: 300 })))),
  );
}, 120_000);

afterAll(() => ops.close());

describe('read: a PDF stops at maxCharacters', () => {
  it('does not OCR the scans of a 200-page PDF past a cut on its first page', async () => {
    const textPages = Number(
      execFileSync('qpdf', ['--show-npages', ops.at('text.pdf')])
        .toString()
        .trim(),
    );
    execFileSync('qpdf', ['--empty', '--pages', 'text.pdf', ...Array<string>(200 - textPages).fill('scan.pdf'), '--', 'mixed.pdf'], { cwd: ops.dir });
    const progress: [number, number][] = [];
    const answer = await ops.run('read', { input: 'mixed.pdf', maxCharacters: 300, language: 'eng' }, (done, total) => progress.push([done, total]));
    if (!answer.success) throw new Error(JSON.stringify(answer));
    expect(answer.data).toMatchObject({ format: 'pdf', pages: 200, truncated: true, ocrPages: [] });
    expect(answer.text).toMatch(/^<!-- page 1 -->\n\n# Chapter 1\n/);
    expect(answer.text).not.toContain('<!-- page 2 -->');
    // Every page is accounted for (those past the cut have nothing left to do).
    expect(progress.at(-1)).toEqual([200, 200]);
  }, 120_000);

  it('reads scans in page order only until their text passes the cut', async () => {
    const answer = await ops.run('read', { input: 'scans.pdf', maxCharacters: 60, language: 'eng' });
    if (!answer.success) throw new Error(JSON.stringify(answer));
    expect(answer.data).toMatchObject({ format: 'pdf', pages: 5, truncated: true });
    const ocrPages = (answer.data as { ocrPages: number[] }).ocrPages;
    // Pages 1 and 2 pass 60 characters: page 2 is the last one placed, whatever was started ahead.
    expect(ocrPages).toEqual([1, 2]);
    expect(answer.text).toContain('Scanned page number 1');
  }, 120_000);

  it('reads the scans of a 12-page scan cut on page 4 as the uncut read begins, and leaves the pages far past the cut unread', async () => {
    ops.put(
      'twelve.pdf',
      await makeScannedPdf(
        await Promise.all(Array.from({ length: 12 }, async (_, i) => ({ image: await renderText(`Scanned page number ${i + 1} of twelve`), dpi: 300 }))),
      ),
    );
    const whole = await ops.ok('read', { input: 'twelve.pdf', language: 'eng' });
    expect(whole.data).toMatchObject({ pages: 12, truncated: false, ocrPages: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] });
    const text = whole.text ?? '';
    expect(text).toContain('Scanned page number 4 of twelve');
    // A cut inside page 4's text: the answer is the uncut read's blocks while they fit.
    const maxCharacters = text.indexOf('<!-- page 5 -->') - 10;
    let expected = '';
    for (const block of text.trimEnd().split('\n\n')) {
      const longer = expected ? `${expected}\n\n${block}` : block;
      if (longer.length > maxCharacters) break;
      expected = longer;
    }
    expect(expected).toMatch(/<!-- page 4 -->$/);
    const recognize = vi.spyOn(ops.engines.ocr, 'recognize');
    const progress: [number, number][] = [];
    try {
      const cut = await ops.run('read', { input: 'twelve.pdf', language: 'eng', maxCharacters }, (done, total) => progress.push([done, total]));
      if (!cut.success) throw new Error(JSON.stringify(cut));
      expect(cut.text).toBe(`${expected}\n`);
      expect(cut.data).toMatchObject({ pages: 12, truncated: true, ocrPages: [1, 2, 3, 4] });
      // One OCR thread: two pages under way, none started more than four past the last page
      // placed, so pages 8–12 are never read; 1–4 are.
      expect(recognize.mock.calls.length).toBeGreaterThanOrEqual(4);
      expect(recognize.mock.calls.length).toBeLessThanOrEqual(7);
      expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
      expect(progress.at(-1)).toEqual([12, 12]);
    } finally {
      recognize.mockRestore();
    }
  }, 300_000);

  it('reads a 1,000-page PDF in a PDF worker whose heap is capped at 32 MB (the layout holds a page at a time, not the document)', async () => {
    const textPages = Number(
      execFileSync('qpdf', ['--show-npages', ops.at('text.pdf')])
        .toString()
        .trim(),
    );
    const copies = Math.ceil(1000 / textPages);
    execFileSync('qpdf', ['--empty', '--pages', ...Array<string>(copies).fill('text.pdf'), '--', 'long.pdf'], { cwd: ops.dir });
    // Before, every page's rows were held at once: this read ran out of a 32 MB heap (TOO_LARGE).
    // The job's time limit and the test's are hang detectors: this read took 30 s beside a test run
    // and a bench on 2 cores, and passed the default 120 s limit with the machine loaded 25 deep.
    const capped = await inProcess({ workers: '1', 'worker-heap-mb': '32', timeout: '600' });
    try {
      const answer = await capped.run('read', { input: ops.at('long.pdf'), maxCharacters: 5_000_000 });
      if (!answer.success) throw new Error(JSON.stringify(answer));
      expect(answer.data).toMatchObject({ format: 'pdf', pages: copies * textPages, truncated: false, ocrPages: [] });
      expect(answer.text?.match(/^<!-- page \d+ -->$/gm)).toHaveLength(copies * textPages);
      expect(answer.text?.match(/^# Chapter 6$/gm)).toHaveLength(copies);
    } finally {
      await capped.close();
    }
  }, 900_000);

  it('ranks a heading at the top of the first page, a line the first pass first takes for a running header', async () => {
    // Counted alone, page 1's top line looks like a header repeated on every page so far; once
    // every page is counted it is not one, and page 1 is counted again with it as text.
    // A small top margin puts the title in the header band; it is the only line in its size, so
    // were page 1 counted with it as a header no heading would have that size.
    execFileSync(PYTHON, ['-c', TITLED], { cwd: ops.dir });
    execFileSync(SOFFICE, ['--headless', `-env:UserInstallation=file://${ops.dir}/profile`, '--convert-to', 'pdf', 'titled.docx'], {
      cwd: ops.dir,
      stdio: 'ignore',
    });
    const answer = await ops.ok('read', { input: 'titled.pdf' });
    expect(answer.text).toMatch(/^<!-- page 1 -->\n\n# Yearly review\n\n## Chapter 1\n/);
    expect(answer.text).toMatch(/^## Chapter 2$/m);
  }, 60_000);

  it('reads the whole document the same with or without a cut it does not reach', async () => {
    const whole = await ops.ok('read', { input: 'text.pdf', maxCharacters: 5_000_000 });
    const cut = await ops.ok('read', { input: 'text.pdf', maxCharacters: (whole.text ?? '').length + 10 });
    expect(cut.text).toBe(whole.text);
    expect(cut.data).toMatchObject({ truncated: false });
  }, 60_000);
});
