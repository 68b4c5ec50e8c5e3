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

const LINES = ['Typography and jeopardy apply quietly to every group', 'Account holder Zebulon Farnsworth signed today', 'Payment reference follows next week'];
const TARGET = 'Farnsworth';
const DPI = 300;
/**
 * Pixels from one baseline to the next: set solid (a 12 pt face at 300 dpi is about 50 px from
 * ascender to descender), so the OCR text box of a line, taller than its glyphs, reaches into
 * the descenders of the line above, as on a real single-spaced scan.
 */
const LINE_PITCH = 52;

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

/** The lines rendered one by one (black on white, 300 dpi) and laid on one page LINE_PITCH apart. */
async function solidScan(lines: readonly string[]): Promise<Buffer> {
  const rendered = await Promise.all(lines.map((line) => renderText(line, { points: 12, width: 2000 })));
  const sizes = await Promise.all(rendered.map((image) => sharp(image).metadata()));
  const width = Math.max(...sizes.map((size) => size.width ?? 0));
  const height = (sizes[0]?.height ?? 0) + LINE_PITCH * (lines.length - 1);
  const page = sharp({ create: { width, height, channels: 3, background: '#ffffff' } });
  // Multiplied: each line's white margin leaves the lines above it as they are.
  return page
    .composite(rendered.map((input, i) => ({ input, top: i * LINE_PITCH, left: 0, blend: 'multiply' as const })))
    .greyscale()
    .png()
    .toBuffer();
}

/** The top (pixels at DPI) of the invisible text's box of `word`, by pdftotext -bbox. */
function ocrTextTop(pdf: string, word: string): number {
  const html = execFileSync('pdftotext', ['-bbox', pdf, '-']).toString();
  const match = new RegExp(`<word xMin="[\\d.]+" yMin="([\\d.]+)"[^>]*>${word}</word>`).exec(html);
  expect(match, html).not.toBeNull();
  return (Number(match?.[1]) * DPI) / 72;
}

beforeAll(async () => {
  service = await startService(['--timeout', '300']);
  const scan = await solidScan(LINES);
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
    const response = await service.post('/api/pdf/redact', { input: 'searchable.pdf', output: 'redacted.pdf', text: [TARGET], fill: '#ffffff' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(allText(searchable)).toContain(TARGET);
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
    // Every row down to the bottom of the line above (its descenders reach into the word's OCR text box).
    const lastRow = Math.max(...above.map((word) => word.bottom));
    expect(lastRow).toBeGreaterThan(ocrTextTop(searchable, TARGET));
    let changedAbove = 0;
    for (let y = 0; y <= lastRow; y++) for (let x = 0; x < before.width; x++) if (pixel(before, x, y) !== pixel(after, x, y)) changedAbove++;
    // The word's ink is gone, the line above is unchanged pixel for pixel, the next word's ink is all there.
    expect({ wordInkLeft: darkIn(after, wordBox), changedAbove, nextWordInk: darkIn(after, next) }).toEqual({
      wordInkLeft: 0,
      changedAbove: 0,
      nextWordInk: darkIn(before, next),
    });

    const text = allText(redacted);
    expect(text).not.toContain(TARGET);
    for (const kept of [LINES[0], 'Zebulon', 'signed', LINES[2]]) expect(text).toContain(kept);
    expect(decompressed(redacted)).not.toContain(TARGET);
  });
});
