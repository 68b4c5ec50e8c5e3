// pdf/redact on a searchable PDF made by our own OCR from a scan (contract v0.4): a text match
// blanks the page image where the image shows the word — whole characters with a margin — not
// only under the invisible text's box, and does not clip the line above. Checked with
// independent tools: tesseract's own word boxes on poppler's rendering of the page before, and
// pdftoppm renderings compared pixel by pixel; pdftotext and qpdf --qdf for the text.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allText, decompressed } from '../helpers/pdf2-checks.js';
import { renderText } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { startService, type RunningService } from '../helpers/service.js';

const LINES = ['Quarterly report for the northern region', 'Account holder Zebulon Farnsworth signed today', 'Payment reference follows next week'];
const TARGET = 'Farnsworth';
const DPI = 300;

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

interface Word {
  text: string;
  line: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Tesseract's words (level 5 of its TSV) on an image, with the line each belongs to. */
function tesseractWords(png: string): Word[] {
  const tsv = execFileSync('tesseract', [png, '-', '-l', 'eng', 'tsv'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  return tsv
    .split('\n')
    .slice(1)
    .map((row) => row.split('\t'))
    .filter((cols) => cols[0] === '5' && (cols[11] ?? '').trim() !== '')
    .map((cols) => {
      const [left, top, width, height] = cols.slice(6, 10).map(Number) as [number, number, number, number];
      return { text: (cols[11] as string).trim(), line: cols.slice(1, 5).join('.'), left, top, right: left + width, bottom: top + height };
    });
}

/** Page 1 of `pdf` rendered by poppler in grey at the scan's resolution: raw pixels and width. */
async function render(pdf: string): Promise<{ png: string; pixels: Buffer; width: number }> {
  const prefix = `${pdf}.page`;
  execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-singlefile', '-png', pdf, prefix]);
  const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { png: `${prefix}.png`, pixels: data, width: info.width };
}

beforeAll(async () => {
  service = await startService(['--timeout', '300']);
  const scan = await renderText(LINES.join('\n'), { points: 12, width: 2000 });
  fs.writeFileSync(file('scan.pdf'), await makeScannedPdf([{ image: scan, dpi: DPI }]));
  const ocr = await service.post('/api/ocr', { input: 'scan.pdf', output: 'searchable.pdf', language: 'eng' });
  expect(ocr.status, JSON.stringify(ocr.body)).toBe(200);
}, 300_000);

afterAll(async () => {
  await service?.stop();
  if (service) fs.rmSync(service.dir, { recursive: true, force: true });
});

describe('pdf/redact on a searchable PDF from our OCR', () => {
  it("blanks the scanned word's ink, whole, and leaves the line above pixel for pixel", async () => {
    const searchable = file('searchable.pdf');
    expect(allText(searchable)).toContain(TARGET);
    const response = await service.post('/api/pdf/redact', { input: 'searchable.pdf', output: 'redacted.pdf', text: [TARGET], fill: '#ffffff' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const redacted = file('redacted.pdf');

    const before = await render(searchable);
    const after = await render(redacted);
    const words = tesseractWords(before.png);
    const target = words.find((word) => word.text === TARGET);
    expect(target, JSON.stringify(words.map((w) => w.text))).toBeDefined();
    const { left, top, right, bottom, line } = target as Word;
    const lines = [...new Set(words.map((word) => word.line))];
    const above = words.filter((word) => word.line === lines[lines.indexOf(line) - 1]);
    const next = words.find((word) => word.line === line && word.left > right) as Word;
    expect(above.map((word) => word.text).join(' ')).toBe(LINES[0]);

    const pixel = (image: typeof before, x: number, y: number) => image.pixels[y * image.width + x] as number;
    const darkIn = (image: typeof before, box: Pick<Word, 'left' | 'top' | 'right' | 'bottom'>) => {
      let dark = 0;
      for (let y = box.top; y < box.bottom; y++) for (let x = box.left; x < box.right; x++) if (pixel(image, x, y) < 160) dark++;
      return dark;
    };
    // The word's ink, as tesseract boxes it on the scan with a pixel around it, is gone.
    const wordBox = { left: left - 1, top: top - 1, right: right + 1, bottom: bottom + 1 };
    expect(darkIn(before, wordBox)).toBeGreaterThan(500);
    expect(darkIn(after, wordBox)).toBe(0);
    // The next word's ink is still there.
    expect(darkIn(after, next)).toBe(darkIn(before, next));
    // Every row down to the bottom of the line above is unchanged, pixel for pixel.
    const lastRow = Math.max(...above.map((word) => word.bottom));
    let changed = 0;
    for (let y = 0; y <= lastRow; y++) for (let x = 0; x < before.width; x++) if (pixel(before, x, y) !== pixel(after, x, y)) changed++;
    expect(changed).toBe(0);

    const text = allText(redacted);
    expect(text).not.toContain(TARGET);
    for (const kept of [LINES[0], 'Zebulon', 'signed', LINES[2]]) expect(text).toContain(kept);
    expect(decompressed(redacted)).not.toContain(TARGET);
  });
});
