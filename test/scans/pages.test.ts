// PDF pages → image files and image files → PDF pages, over real HTTP against the built
// service; checked with ImageMagick (identify) and poppler (pdfinfo, pdfimages, pdftoppm).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourDistance, fromRaw, pixelAt, quadrantPixels, QUADRANT_COLOURS, halfTransparentPixels, photoPixels } from '../helpers/images.js';
import { makePdf, serializePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

beforeAll(async () => {
  service = await startService();
  fs.writeFileSync(file('report.pdf'), makePdf({ pages: Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`) }));
  // One page of 200 × 200 inches: 900 million pixels at 150 dpi.
  fs.writeFileSync(
    file('poster.pdf'),
    serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>',
    ]),
  );
  execFileSync('qpdf', ['--encrypt', 'pw', 'pw', '256', '--', file('report.pdf'), file('locked.pdf')]);
  await fromRaw(photoPixels(400, 300)).jpeg({ quality: 80 }).withMetadata({ density: 150 }).toFile(file('photo.jpg'));
  await fromRaw(quadrantPixels(400, 200)).jpeg({ quality: 95 }).withMetadata({ orientation: 6, density: 96 }).toFile(file('turned.jpg'));
  await fromRaw(halfTransparentPixels(120, 80)).png().withMetadata({ density: 144 }).toFile(file('alpha.png'));
  await fromRaw(quadrantPixels(100, 100)).webp({ lossless: true }).toFile(file('small.webp'));
}, 60_000);

afterAll(async () => {
  await service?.stop();
  if (service) fs.rmSync(service.dir, { recursive: true, force: true });
});

const identify = (image: string) => execFileSync('identify', ['-format', '%m %w %h', image]).toString();
const pageSizes = (pdf: string) =>
  [
    ...execFileSync('pdfinfo', ['-f', '1', '-l', '99', pdf])
      .toString()
      .matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm),
  ].map((m) => [round(Number(m[1])), round(Number(m[2]))]);
/** PNG stores resolution as whole pixels per metre: 144 dpi comes back as 143.99. */
const round = (points: number) => Math.round(points * 100) / 100;

/** `pdfimages -list` rows as "type width height color enc". */
function images(pdf: string): string[] {
  return execFileSync('pdfimages', ['-list', pdf])
    .toString()
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((row) => {
      const c = row.trim().split(/\s+/);
      return `${c[2]} ${c[3]}x${c[4]} ${c[5]} ${c[8]}`;
    });
}

describe('POST /api/pdf/to-images', () => {
  it('writes one PNG per page named <stem>_<n> zero-padded to the page count, at the dpi asked for', async () => {
    const { status, body } = await service.post('/api/pdf/to-images', { input: 'report.pdf', outputDir: 'png', dpi: 72 });
    expect(status).toBe(200);
    const names = Array.from({ length: 12 }, (_, i) => `report_${String(i + 1).padStart(2, '0')}.png`);
    expect(body.outputPath).toBe(file('png'));
    expect(body.data?.files).toEqual(names.map((name) => file(`png/${name}`)));
    expect(fs.readdirSync(file('png')).sort()).toEqual(names);
    for (const name of names) expect(identify(file(`png/${name}`))).toBe('PNG 612 792');
  });

  it('renders the pages asked for as JPEG or WebP, each side round(points × dpi / 72) ± 1', async () => {
    const jpeg = await service.post('/api/pdf/to-images', { input: 'report.pdf', outputDir: 'jpeg', format: 'jpeg', dpi: 100, pages: '2-3', quality: 70 });
    expect(jpeg.status).toBe(200);
    expect(fs.readdirSync(file('jpeg')).sort()).toEqual(['report_02.jpg', 'report_03.jpg']);
    const [format, width, height] = identify(file('jpeg/report_02.jpg')).split(' ');
    expect(format).toBe('JPEG');
    expect(Math.abs(Number(width) - 850)).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(height) - 1100)).toBeLessThanOrEqual(1);
    const webp = await service.post('/api/pdf/to-images', { input: 'report.pdf', outputDir: 'webp', format: 'webp', dpi: 36, pages: '12' });
    expect(webp.status).toBe(200);
    expect(identify(file('webp/report_12.webp'))).toBe('WEBP 306 396');
  });

  it('opens an encrypted PDF with its password', async () => {
    expect((await service.post('/api/pdf/to-images', { input: 'locked.pdf', outputDir: 'locked', pages: '1' })).body.code).toBe('PASSWORD_REQUIRED');
    const { status } = await service.post('/api/pdf/to-images', { input: 'locked.pdf', outputDir: 'locked', pages: '1', password: 'pw', dpi: 36 });
    expect(status).toBe(200);
    expect(fs.readdirSync(file('locked'))).toEqual(['locked_01.png']);
  });

  it('refuses with TOO_LARGE, before rendering anything, a page over the pixel limit', async () => {
    const { status, body } = await service.post('/api/pdf/to-images', { input: 'poster.pdf', outputDir: 'poster' });
    expect(status).toBe(413);
    expect(body.code).toBe('TOO_LARGE');
    expect(fs.existsSync(file('poster'))).toBe(false);
  });

  it('refuses bad fields and inputs', async () => {
    expect((await service.post('/api/pdf/to-images', { input: 'report.pdf', dpi: 35 })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.post('/api/pdf/to-images', { input: 'report.pdf', format: 'gif' })).body.code).toBe('VALIDATION_ERROR');
    expect((await service.post('/api/pdf/to-images', { input: 'report.pdf', pages: '13' })).body.code).toBe('INVALID_PAGE_RANGE');
    expect((await service.post('/api/pdf/to-images', { input: 'photo.jpg' })).body.code).toBe('INVALID_INPUT');
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});

describe('POST /api/pdf/from-images', () => {
  it('makes one page per image in order; JPEG kept as DCT at its size, pages sized by the declared resolution', async () => {
    const { status, body } = await service.post('/api/pdf/from-images', { files: ['photo.jpg', 'alpha.png', 'small.webp'], output: 'album.pdf' });
    expect(status).toBe(200);
    expect(body.data?.pages).toBe(3);
    expect(images(file('album.pdf'))).toEqual(['image 400x300 rgb jpeg', 'image 120x80 rgb image', 'smask 120x80 gray image', 'image 100x100 rgb image']);
    // photo.jpg declares 150 dpi (JFIF), alpha.png 144 dpi (pHYs); the WebP declares nothing: 96 dpi.
    expect(pageSizes(file('album.pdf'))).toEqual([
      [192, 144],
      [60, 40],
      [75, 75],
    ]);
    // The JPEG's bytes are in the PDF unchanged.
    execFileSync('pdfimages', ['-j', '-f', '1', '-l', '1', file('album.pdf'), file('extracted')]);
    expect(fs.readFileSync(file('extracted-000.jpg')).equals(fs.readFileSync(file('photo.jpg')))).toBe(true);
    fs.rmSync(file('extracted-000.jpg'));
  });

  it('turns a JPEG upright by its EXIF orientation through the page, not by re-encoding', async () => {
    const { status } = await service.post('/api/pdf/from-images', { files: ['turned.jpg'], output: 'turned.pdf' });
    expect(status).toBe(200);
    expect(images(file('turned.pdf'))).toEqual(['image 400x200 rgb jpeg']);
    expect(pageSizes(file('turned.pdf'))).toEqual([[150, 300]]);
    execFileSync('pdftoppm', ['-r', '96', '-png', file('turned.pdf'), file('turned')]);
    const { data, info } = await sharp(file('turned-1.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 400]);
    // Orientation 6 = turned 90° clockwise: the stored top-left (red) shows at the top right.
    const [red, green, blue, yellow] = QUADRANT_COLOURS;
    const at = (x: number, y: number) => pixelAt(data, info.width, x, y);
    expect(colourDistance(at(150, 50), red!)).toBeLessThan(40);
    expect(colourDistance(at(150, 350), green!)).toBeLessThan(40);
    expect(colourDistance(at(50, 50), blue!)).toBeLessThan(40);
    expect(colourDistance(at(50, 350), yellow!)).toBeLessThan(40);
    fs.rmSync(file('turned-1.png'));
  });

  it('centres images on A4 or Letter inside 36 pt margins, scaled down but never up', async () => {
    const a4 = await service.post('/api/pdf/from-images', { files: ['photo.jpg', 'small.webp'], output: 'a4.pdf', pageSize: 'a4' });
    expect(a4.status).toBe(200);
    expect(pageSizes(file('a4.pdf'))).toEqual([
      [595.28, 841.89],
      [595.28, 841.89],
    ]);
    const letter = await service.post('/api/pdf/from-images', { files: ['small.webp'], output: 'letter.pdf', pageSize: 'letter' });
    expect(letter.status).toBe(200);
    expect(pageSizes(file('letter.pdf'))).toEqual([[612, 792]]);
    // Not enlarged: the 100 px image is still drawn at its 96 dpi.
    const list = execFileSync('pdfimages', ['-list', file('letter.pdf')])
      .toString()
      .split('\n')[2]
      ?.trim()
      .split(/\s+/);
    expect(list?.[12]).toBe('96');
    // Centred: the image's box in the page content is symmetric within the page.
    const big = await fromRaw(photoPixels(3000, 1000)).jpeg().withMetadata({ density: 72 }).toBuffer();
    fs.writeFileSync(file('wide.jpg'), big);
    await service.post('/api/pdf/from-images', { files: ['wide.jpg'], output: 'wide.pdf', pageSize: 'letter' });
    const wideRow = execFileSync('pdfimages', ['-list', file('wide.pdf')])
      .toString()
      .split('\n')[2]
      ?.trim()
      .split(/\s+/);
    // 3000 px into 612 − 72 = 540 pt: 400 dpi.
    expect(Number(wideRow?.[12])).toBe(400);
  });

  it('refuses what is not an image, and more than 10,000 files', async () => {
    const bad = await service.post('/api/pdf/from-images', { files: ['photo.jpg', 'report.pdf'], output: 'bad.pdf' });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('UNSUPPORTED_FORMAT');
    expect(fs.existsSync(file('bad.pdf'))).toBe(false);
    const many = await service.post('/api/pdf/from-images', { files: Array<string>(10_001).fill('photo.jpg'), output: 'many.pdf' });
    expect(many.body.code).toBe('VALIDATION_ERROR');
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});
