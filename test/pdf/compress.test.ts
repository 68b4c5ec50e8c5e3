// pdf/compress against Ghostscript's /ebook setting (Debian's `gs`, listed in .ci/run), both
// downsampling to 150 dpi, on a photo book whose photos are drawn at 267 dpi: our output is no
// larger than Ghostscript's and looks at least as close to the input (SSIM of the pages
// rendered by poppler), and the text is still text on the same pages. And soft masks follow
// their images down. Read back with poppler only.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mupdfEngine } from '../../wasm/pdf/mupdf-engine.js';
import { listFonts, listImages, pageText, pdfinfo, qdfText } from '../helpers/pdf-inspect.js';
import { pageSimilarities } from '../helpers/page-similarity.js';
import { makePhotoBook } from '../helpers/pdf-tool-fixtures.js';
import { makeMaskedPhotoPdf, photoPixmap, savedBytes } from '../helpers/make-photo-pdf.js';

/** Pages of the book, each a 2,000 x 1,500 photo drawn on 540 x 405 pt (267 dpi). */
const PAGES = 3;
/** Below this the photos would look visibly worse than the input at 150 dpi. */
const MIN_SIMILARITY = 0.94;

let dir: string;
const file = (name: string) => path.join(dir, name);
const size = (name: string) => fs.statSync(file(name)).size;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-compress-gs-'));
  fs.writeFileSync(file('book.pdf'), makePhotoBook(PAGES));
  await mupdfEngine.compress(new Uint8Array(fs.readFileSync(file('book.pdf'))), { quality: 70, maxDpi: 150 }, (pdf) => fs.writeFileSync(file('ours.pdf'), pdf));
  execFileSync('gs', [
    '-q',
    '-dNOPAUSE',
    '-dBATCH',
    '-dSAFER',
    '-sDEVICE=pdfwrite',
    '-dPDFSETTINGS=/ebook',
    `-sOutputFile=${file('gs.pdf')}`,
    file('book.pdf'),
  ]);
}, 300_000); // about 5 s on a quiet machine

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('pdf/compress against gs -dPDFSETTINGS=/ebook on a photo book', () => {
  it('downsamples the photos to 150 dpi, as Ghostscript does', () => {
    for (const image of listImages(file('ours.pdf'))) expect(image).toMatchObject({ width: 1125, height: 844, encoding: 'jpeg' });
    for (const image of listImages(file('gs.pdf'))) expect(image.width).toBe(1125);
  });

  it('is no larger than Ghostscript /ebook output, and far smaller than the input', () => {
    expect(size('ours.pdf')).toBeLessThanOrEqual(size('gs.pdf'));
    expect(size('ours.pdf')).toBeLessThan(size('book.pdf') / 50);
  });

  // About 5 s on a quiet machine (nine renders, six full-page SSIMs): the limit leaves room for a loaded one.
  it('looks at least as close to the input as Ghostscript /ebook output does', { timeout: 300_000 }, () => {
    const [ours, gs] = pageSimilarities(file('book.pdf'), [file('ours.pdf'), file('gs.pdf')]) as [number, number];
    expect(ours).toBeGreaterThanOrEqual(MIN_SIMILARITY);
    expect(ours).toBeGreaterThanOrEqual(gs);
  });

  it('keeps the text as text and the page count', () => {
    expect(Number(pdfinfo(file('ours.pdf')).Pages)).toBe(PAGES);
    for (let page = 1; page <= PAGES; page++) expect(pageText(file('ours.pdf'), page)).toBe(`Photo book page ${page}`);
    expect(listFonts(file('ours.pdf')).map((font) => font.name)).toEqual(['Helvetica']);
  });
});

describe('pdf/compress on a photo with a soft mask (alpha fading out at its edges)', () => {
  it('downsamples the mask with its image, keeps it lossless and smaller, and the page looks the same', { timeout: 120_000 }, async () => {
    fs.writeFileSync(file('masked.pdf'), makeMaskedPhotoPdf());
    await mupdfEngine.compress(new Uint8Array(fs.readFileSync(file('masked.pdf'))), { quality: 70, maxDpi: 150 }, (pdf) =>
      fs.writeFileSync(file('masked-ours.pdf'), pdf),
    );
    const [image, mask] = listImages(file('masked-ours.pdf'));
    // Drawn 360 x 270 pt: 750 x 563 px at 150 dpi.
    expect(image).toMatchObject({ width: 750, height: 563, encoding: 'jpeg' });
    expect(mask).toMatchObject({ width: 750, height: 563, encoding: 'image' });
    expect(mask?.bytes).toBeLessThan(listImages(file('masked.pdf'))[1]?.bytes ?? 0);
    expect(pageSimilarities(file('masked.pdf'), [file('masked-ours.pdf')])[0]).toBeGreaterThanOrEqual(0.98);
    expect(pageText(file('masked-ours.pdf'), 1)).toBe('Under the photo');
  });
});

/**
 * Two text pages, each with a thumbnail image (/Thumb) and an application's private data
 * (/PieceInfo, 100 KB that do not compress), the catalog too, and a title in the Info dictionary.
 */
function pdfWithThumbnailsAndPrivateData(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
    const privateData = () => ({ Illustrator: { LastModified: '(D:20240101000000Z)', Private: doc.addStream(randomBytes(100_000), {}) } });
    for (const text of ['Thumbnail page one', 'Thumbnail page two']) {
      const page = doc.addPage([0, 0, 612, 792], 0, doc.addObject({ Font: { F1: font } }), `BT /F1 20 Tf 72 700 Td (${text}) Tj ET`);
      page.put('Thumb', doc.addImage(new mupdf.Image(photoPixmap(76, 99))));
      page.put('PieceInfo', privateData());
      doc.insertPage(-1, page);
    }
    doc.getTrailer().get('Root').put('PieceInfo', privateData());
    doc.setMetaData('info:Title', 'Kept title');
    return savedBytes(doc);
  } finally {
    doc.destroy();
  }
}

describe('pdf/compress on pages with thumbnails and private application data', () => {
  it('drops /Thumb and /PieceInfo, keeps the metadata, the text and the pages', async () => {
    fs.writeFileSync(file('thumbs.pdf'), pdfWithThumbnailsAndPrivateData());
    expect(qdfText(file('thumbs.pdf'))).toMatch(/\/Thumb[\s\S]*\/PieceInfo/);
    const result = await mupdfEngine.compress(new Uint8Array(fs.readFileSync(file('thumbs.pdf'))), { quality: 70, maxDpi: 150 }, (pdf) =>
      fs.writeFileSync(file('thumbs-ours.pdf'), pdf),
    );
    expect(result.unchanged).toBe(false);
    const qdf = qdfText(file('thumbs-ours.pdf'));
    expect(qdf).not.toContain('/Thumb');
    expect(qdf).not.toContain('/PieceInfo');
    expect(size('thumbs-ours.pdf')).toBeLessThan(10_000);
    expect(listImages(file('thumbs-ours.pdf'))).toEqual([]);
    expect(pdfinfo(file('thumbs-ours.pdf'))).toMatchObject({ Title: 'Kept title', Pages: '2' });
    expect(pageText(file('thumbs-ours.pdf'), 2)).toBe('Thumbnail page two');
  });
});
