// The PDF tools' engine functions (info, metadata, decrypt, passwords, rotate, rearrange,
// watermark, compress, PDF/A) called in-process on both engines; every output is read back with
// poppler and qpdf only.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpdfEngine } from '../../wasm/pdf/cpdf-engine.js';
import type { PdfEngine, PdfSink } from '../../wasm/pdf/engine.js';
import { mupdfEngine } from '../../wasm/pdf/mupdf-engine.js';
import { parsePageRanges } from '../../core/page-ranges.js';
import { makePdf, serializePdf } from '../helpers/make-pdf.js';
import { makePhotoPdf } from '../helpers/make-photo-pdf.js';
import { compactRawText, isEncrypted, listFonts, listImages, pageRotations, pageText, pdfinfo, qdfText, qpdfCheckStrict } from '../helpers/pdf-inspect.js';
import { outlineTitles, pageCount } from '../helpers/tools.js';
import { asyncErrorCodeOf, errorCodeOf } from '../helpers/error-code.js';

let dir: string;
const file = (name: string) => path.join(dir, name);
const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(file(name)));
/** A sink writing the (single) output to `name`. */
const into =
  (name: string): PdfSink =>
  (pdf) =>
    fs.writeFileSync(file(name), pdf);
const ranges = (spec: string) => parsePageRanges(spec, { allowDescending: true });

/** One text page with an Info dictionary and, on request, an XMP packet claiming PDF/A-2b. */
function pdfWithInfo({ xmp = false, rotate = 0 } = {}): Buffer {
  const stream = 'BT /F1 24 Tf 72 700 Td (Described) Tj ET';
  const packet =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" pdfaid:part="2" pdfaid:conformance="B"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old title</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
  return serializePdf(
    [
      `<< /Type /Catalog /Pages 2 0 R${xmp ? ' /Metadata 7 0 R' : ''} >>`,
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /CropBox [0 0 500 800] /Rotate ${rotate} /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
      "<< /Title (Old title) /Author (Ann Author) /Producer (Handmade) /CreationDate (D:20240131120000+01'00') >>",
      `<< /Type /Metadata /Subtype /XML /Length ${packet.length} >>\nstream\n${packet}\nendstream`,
    ],
    ' /Info 6 0 R',
  );
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-toolkit-'));
  fs.writeFileSync(
    file('five.pdf'),
    makePdf({
      pages: ['Page one', 'Page two', 'Page three', 'Page four', 'Page five'],
      bookmarks: [
        { title: 'Third', page: 2 },
        { title: 'Fifth', page: 4 },
      ],
    }),
  );
  fs.writeFileSync(file('info.pdf'), pdfWithInfo({ rotate: 90 }));
  fs.writeFileSync(file('xmp.pdf'), pdfWithInfo({ xmp: true }));
  execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', file('five.pdf'), file('locked.pdf')]);
  execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '128', '--use-aes=y', '--', file('info.pdf'), file('locked-info.pdf')]);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['mupdf', mupdfEngine],
  ['cpdf', cpdfEngine],
] as [string, PdfEngine][])('PDF tools on the %s engine', (name, engine) => {
  const out = (label: string) => `${name}-${label}.pdf`;

  describe('passwords', () => {
    it('answers PASSWORD_REQUIRED without a password or with a wrong one, on every reading method', () => {
      const locked = bytesOf('locked.pdf');
      const calls: ((password?: string) => unknown)[] = [
        (pw) => engine.pageCount(locked, pw),
        (pw) => engine.info(locked, pw),
        (pw) => engine.rotate(locked, { degrees: 90 }, into(out('never')), pw),
        (pw) => engine.rearrange(locked, ranges('1'), into(out('never')), pw),
        (pw) => engine.split(locked, ranges('1'), into(out('never')), pw),
        (pw) => engine.merge([bytesOf('five.pdf'), locked], into(out('never')), pw),
      ];
      for (const call of calls) {
        expect(errorCodeOf(() => call())).toBe('PASSWORD_REQUIRED');
        expect(errorCodeOf(() => call('wrong'))).toBe('PASSWORD_REQUIRED');
      }
      expect(errorCodeOf(() => engine.decrypt(locked, 'wrong', into(out('never'))))).toBe('PASSWORD_REQUIRED');
      expect(fs.existsSync(file(out('never')))).toBe(false);
    });

    it('opens with the user or the owner password and writes an unencrypted output', () => {
      for (const password of ['userpw', 'ownerpw']) {
        expect(engine.pageCount(bytesOf('locked.pdf'), password)).toBe(5);
        engine.rotate(bytesOf('locked.pdf'), { degrees: 180 }, into(out(`rotated-${password}`)), password);
        expect(isEncrypted(file(out(`rotated-${password}`)))).toBe(false);
        expect(pageText(file(out(`rotated-${password}`)), 2)).toBe('Page two');
      }
    });

    it('tries the password on each input of a merge', () => {
      const result = engine.merge([bytesOf('locked.pdf'), bytesOf('five.pdf'), bytesOf('locked.pdf')], into(out('merged')), 'userpw');
      expect(result).toEqual({ pages: 15 });
      expect(pageCount(file(out('merged')))).toBe(15);
      expect(pageText(file(out('merged')), 11)).toBe('Page one');
    });
  });

  describe('info', () => {
    it('reports pages, version, metadata (null when absent) and page sizes as a viewer shows them', () => {
      const info = engine.info(bytesOf('info.pdf'));
      expect(info).toEqual({
        pages: 1,
        pdfVersion: '1.7',
        encrypted: false,
        title: 'Old title',
        author: 'Ann Author',
        subject: null,
        keywords: null,
        creator: null,
        producer: 'Handmade',
        creationDate: '2024-01-31T12:00:00+01:00',
        modDate: null,
        // CropBox 500 x 800, turned by /Rotate 90.
        pageSizes: [{ width: 800, height: 500 }],
      });
      expect(pdfinfo(file('info.pdf'))['Page rot']).toBe('90');
    });

    it('reads an encrypted document with its password and says it is encrypted', () => {
      const info = engine.info(bytesOf('locked-info.pdf'), 'userpw');
      expect(info).toMatchObject({ pages: 1, encrypted: true, title: 'Old title', author: 'Ann Author' });
      expect(engine.info(bytesOf('five.pdf')).pageSizes).toEqual(Array(5).fill({ width: 612, height: 792 }));
    });
  });

  describe('decrypt', () => {
    it('writes a document that opens with no password', () => {
      expect(engine.decrypt(bytesOf('locked.pdf'), 'userpw', into(out('decrypted')))).toEqual({ wasEncrypted: true });
      expect(isEncrypted(file(out('decrypted')))).toBe(false);
      expect(qpdfCheckStrict(file(out('decrypted'))).ok).toBe(true);
      expect(pageText(file(out('decrypted')), 5)).toBe('Page five');
    });

    it('copies a document that is not encrypted as it is', () => {
      expect(engine.decrypt(bytesOf('five.pdf'), 'anything', into(out('copied')))).toEqual({ wasEncrypted: false });
      expect(fs.readFileSync(file(out('copied')))).toEqual(fs.readFileSync(file('five.pdf')));
    });
  });

  describe('rotate', () => {
    it('adds to /Rotate of the selected pages, normalised to 0–270', () => {
      engine.rotate(bytesOf('five.pdf'), { degrees: 90, ranges: ranges('1-2,4') }, into(out('rot1')));
      expect(pageRotations(file(out('rot1')), 5)).toEqual([90, 90, 0, 90, 0]);
      engine.rotate(bytesOf(out('rot1')), { degrees: 270, ranges: ranges('1,3') }, into(out('rot2')));
      expect(pageRotations(file(out('rot2')), 5)).toEqual([0, 90, 270, 90, 0]);
      engine.rotate(bytesOf(out('rot2')), { degrees: 180 }, into(out('rot3')));
      expect(pageRotations(file(out('rot3')), 5)).toEqual([180, 270, 90, 270, 180]);
      expect(qpdfCheckStrict(file(out('rot3'))).ok).toBe(true);
    });

    it('answers INVALID_PAGE_RANGE for pages beyond the last', () => {
      expect(errorCodeOf(() => engine.rotate(bytesOf('five.pdf'), { degrees: 90, ranges: ranges('6') }, into(out('never'))))).toBe('INVALID_PAGE_RANGE');
    });
  });

  describe('rearrange', () => {
    const texts = (label: string) => Array.from({ length: pageCount(file(out(label))) }, (_, i) => pageText(file(out(label)), i + 1));

    it('writes exactly the listed pages in order', () => {
      expect(engine.rearrange(bytesOf('five.pdf'), ranges('3,1-2'), into(out('order')))).toEqual({ pages: 3 });
      expect(texts('order')).toEqual(['Page three', 'Page one', 'Page two']);
      expect(qpdfCheckStrict(file(out('order'))).ok).toBe(true);
    });

    it('runs a descending range backwards', () => {
      expect(engine.rearrange(bytesOf('five.pdf'), ranges('5-1'), into(out('reversed')))).toEqual({ pages: 5 });
      expect(texts('reversed')).toEqual(['Page five', 'Page four', 'Page three', 'Page two', 'Page one']);
    });

    it('copies a repeated page into a page of its own', () => {
      expect(engine.rearrange(bytesOf('five.pdf'), ranges('2,2,4-3,2'), into(out('repeated')))).toEqual({ pages: 5 });
      expect(texts('repeated')).toEqual(['Page two', 'Page two', 'Page four', 'Page three', 'Page two']);
      const pageObjects =
        execFileSync('qpdf', ['--show-pages', file(out('repeated'))])
          .toString()
          .match(/^page \d+: (\d+ \d+ R)/gm) ?? [];
      expect(new Set(pageObjects.map((line) => line.split(': ')[1])).size).toBe(5);
      expect(qpdfCheckStrict(file(out('repeated'))).ok).toBe(true);
    });

    it('answers INVALID_PAGE_RANGE for pages beyond the last', () => {
      expect(errorCodeOf(() => engine.rearrange(bytesOf('five.pdf'), ranges('2,9-1'), into(out('never'))))).toBe('INVALID_PAGE_RANGE');
    });
  });

  if (name === 'cpdf') {
    it('answers BACKEND_UNAVAILABLE for metadata, watermark, compress and PDF/A', async () => {
      const pdf = bytesOf('five.pdf');
      const sink = into(out('never'));
      expect(errorCodeOf(() => engine.setMetadata(pdf, { title: 'x' }, sink))).toBe('BACKEND_UNAVAILABLE');
      expect(errorCodeOf(() => engine.watermark(pdf, { text: 'x', opacity: 0.3, fontSize: 48, rotation: 45 }, sink))).toBe('BACKEND_UNAVAILABLE');
      expect(errorCodeOf(() => engine.compress(pdf, { quality: 70, maxDpi: 150 }, sink))).toBe('BACKEND_UNAVAILABLE');
      expect(await asyncErrorCodeOf(() => engine.toPdfa(pdf, '2b', sink))).toBe('BACKEND_UNAVAILABLE');
    });
  }
});

describe('mupdf only', () => {
  const engine = mupdfEngine;

  it('rearrange keeps bookmarks, pointing at the first copy of their page', () => {
    engine.rearrange(bytesOf('five.pdf'), ranges('5-3,3'), into('bookmarked.pdf'));
    expect(outlineTitles(file('bookmarked.pdf'))).toEqual([
      { title: 'Third', page: 3 },
      { title: 'Fifth', page: 1 },
    ]);
  });

  describe('setMetadata', () => {
    it('sets the given fields, clears those given as "", keeps the rest', () => {
      engine.setMetadata(bytesOf('info.pdf'), { title: 'New title', author: '', keywords: 'a, b', creator: 'docwasm test' }, into('meta.pdf'));
      const info = pdfinfo(file('meta.pdf'));
      expect(info).toMatchObject({ Title: 'New title', Keywords: 'a, b', Creator: 'docwasm test', Producer: 'Handmade' });
      expect(info.Author).toBeUndefined();
      expect(info.CreationDate).toBeDefined();
      expect(pageText(file('meta.pdf'), 1)).toBe('Described');
    });

    it('keeps an XMP packet consistent with the Info dictionary, PDF/A identification included', () => {
      engine.setMetadata(bytesOf('xmp.pdf'), { title: 'Fresh <title> & more', subject: 'About it' }, into('meta-xmp.pdf'));
      expect(pdfinfo(file('meta-xmp.pdf'))).toMatchObject({ Title: 'Fresh <title> & more', Subject: 'About it', 'Metadata Stream': 'yes' });
      const xmp = execFileSync('pdfinfo', ['-meta', file('meta-xmp.pdf')]).toString();
      expect(xmp).toContain('Fresh &#60;title&#62; &#38; more');
      expect(xmp).toContain('<dc:description><rdf:Alt><rdf:li xml:lang="x-default">About it</rdf:li>');
      expect(xmp).toContain('<dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li>');
      expect(xmp).toContain('<pdfaid:part>2</pdfaid:part>');
      expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
      expect(xmp).not.toContain('Old title');
    });
  });

  describe('watermark', () => {
    it('stamps searchable text with the given opacity on the selected pages only', () => {
      engine.watermark(bytesOf('five.pdf'), { text: 'CONFIDENTIAL', opacity: 0.25, fontSize: 60, rotation: 45, ranges: ranges('2-3') }, into('stamped.pdf'));
      expect(pageText(file('stamped.pdf'), 1)).toBe('Page one');
      for (const page of [2, 3]) expect(compactRawText(file('stamped.pdf'), page)).toContain('CONFIDENTIAL');
      expect(pageText(file('stamped.pdf'), 2)).toContain('Page two');
      expect(qdfText(file('stamped.pdf'))).toMatch(/\/ca 0?\.25/);
      expect(listFonts(file('stamped.pdf')).filter((font) => font.embedded)).toHaveLength(1);
      expect(qpdfCheckStrict(file('stamped.pdf')).ok).toBe(true);
    });

    it('stamps CJK text with an embedded subset font that adds kilobytes, not megabytes', () => {
      engine.watermark(bytesOf('info.pdf'), { text: '机密文件 仅供内部使用', opacity: 0.3, fontSize: 48, rotation: 30 }, into('stamped-cjk.pdf'));
      expect(compactRawText(file('stamped-cjk.pdf'), 1)).toContain('机密文件仅供内部使用');
      const fonts = listFonts(file('stamped-cjk.pdf'));
      const stampFont = fonts.find((font) => font.embedded);
      expect(stampFont?.name).toMatch(/^[A-Z]{6}\+/); // a subset
      const added = fs.statSync(file('stamped-cjk.pdf')).size - fs.statSync(file('info.pdf')).size;
      expect(added).toBeLessThan(100 * 1024);
    });

    it('centres the text on the page as the viewer shows it', () => {
      engine.watermark(bytesOf('info.pdf'), { text: 'MIDDLE', opacity: 1, fontSize: 40, rotation: 0 }, into('centred.pdf'));
      const bbox = execFileSync('pdftotext', ['-bbox', file('centred.pdf'), '-']).toString();
      const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">MIDDLE<\/word>/.exec(bbox);
      expect(word).not.toBeNull();
      const [xMin, yMin, xMax, yMax] = (word as RegExpExecArray).slice(1).map(Number) as [number, number, number, number];
      // Viewed page: 800 x 500 (CropBox 500 x 800 turned by /Rotate 90); horizontal for the reader.
      expect(Math.abs((xMin + xMax) / 2 - 400)).toBeLessThan(20);
      expect(Math.abs((yMin + yMax) / 2 - 250)).toBeLessThan(20);
      expect(xMax - xMin).toBeGreaterThan(yMax - yMin);
    });
  });

  describe('compress', () => {
    let photo: ReturnType<typeof makePhotoPdf>;
    beforeAll(() => {
      photo = makePhotoPdf();
      fs.writeFileSync(file('photo.pdf'), photo.bytes);
    });

    it('downsamples images drawn above maxDpi, re-encodes them as JPEG, keeps text and pages', async () => {
      const result = await engine.compress(photo.bytes, { quality: 70, maxDpi: 150 }, into('compressed.pdf'));
      const size = fs.statSync(file('compressed.pdf')).size;
      expect(result).toEqual({ inputBytes: photo.bytes.length, outputBytes: size, unchanged: false });
      expect(size).toBeLessThan(photo.bytes.length / 4);
      const before = listImages(file('photo.pdf'));
      const after = listImages(file('compressed.pdf'));
      expect(after).toHaveLength(before.length);
      // Raw: 400 pt wide → 833 px at 150 dpi; Jpeg: widest drawing 540 pt → 1125 px.
      expect(after.map((image) => image.width)).toEqual([833, 1125, 1125]);
      for (const image of after) expect(image.encoding).toBe('jpeg');
      for (const [i, image] of after.entries()) expect(image.bytes).toBeLessThan((before[i] as { bytes: number }).bytes);
      expect(pageCount(file('compressed.pdf'))).toBe(2);
      expect(pageText(file('compressed.pdf'), 1)).toBe('Photo page one');
      expect(pageText(file('compressed.pdf'), 2)).toBe('Photo page two');
      expect(listFonts(file('compressed.pdf')).map((font) => font.name)).toEqual(['Helvetica']);
      expect(qpdfCheckStrict(file('compressed.pdf')).ok).toBe(true);
    });

    it('opens an encrypted input with its password', async () => {
      const result = await engine.compress(bytesOf('locked.pdf'), { quality: 70, maxDpi: 150 }, into('compressed-locked.pdf'), 'userpw');
      expect(result.outputBytes).toBeLessThanOrEqual(result.inputBytes);
      expect(pageText(file('compressed-locked.pdf'), 3, result.unchanged ? 'userpw' : undefined)).toBe('Page three');
    });

    it('never writes a larger file: the input bytes, unchanged', async () => {
      // Already compressed as far as mupdf goes: the second pass cannot win.
      await engine.compress(bytesOf('compressed.pdf'), { quality: 70, maxDpi: 150 }, into('twice.pdf'));
      const again = await engine.compress(bytesOf('twice.pdf'), { quality: 70, maxDpi: 150 }, into('thrice.pdf'));
      expect(again.outputBytes).toBeLessThanOrEqual(again.inputBytes);
      if (again.unchanged) expect(fs.readFileSync(file('thrice.pdf'))).toEqual(fs.readFileSync(file('twice.pdf')));
      const tiny = serializePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 9 9] >>',
      ]);
      const result = await engine.compress(new Uint8Array(tiny), { quality: 70, maxDpi: 150 }, into('tiny.pdf'));
      expect(result.outputBytes).toBeLessThanOrEqual(tiny.length);
      expect(result.unchanged).toBe(result.outputBytes === tiny.length);
      if (result.unchanged) expect(fs.readFileSync(file('tiny.pdf'))).toEqual(tiny);
    });
  });

  describe('toPdfa', () => {
    it.each([
      ['1b', '1', '1.4'],
      ['2b', '2', '1.7'],
      ['3b', '3', '1.7'],
    ] as const)('writes PDF/A-%s: pdfaid in XMP, an sRGB output intent, every font embedded', async (level, part, version) => {
      await engine.toPdfa(bytesOf('five.pdf'), level, into(`pdfa-${level}.pdf`));
      const output = file(`pdfa-${level}.pdf`);
      const xmp = execFileSync('pdfinfo', ['-meta', output]).toString();
      expect(xmp).toMatch(new RegExp(`pdfaid:part=['"]${part}['"]`));
      expect(xmp).toMatch(/pdfaid:conformance=['"]B['"]/);
      const qdf = qdfText(output);
      expect(qdf).toContain('/OutputIntents');
      expect(qdf).toContain('/S /GTS_PDFA1');
      expect(qdf).toMatch(/\/DestOutputProfile \d+ 0 R/);
      const fonts = listFonts(output);
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.every((font) => font.embedded)).toBe(true);
      expect(pdfinfo(output)['PDF version']).toBe(version);
      expect(pageCount(output)).toBe(5);
      expect(pageText(output, 4)).toBe('Page four');
      expect(qpdfCheckStrict(output).ok).toBe(true);
    });

    it('converts an encrypted input given its password; without it, PASSWORD_REQUIRED', async () => {
      expect(await asyncErrorCodeOf(() => engine.toPdfa(bytesOf('locked.pdf'), '2b', into('never.pdf')))).toBe('PASSWORD_REQUIRED');
      await engine.toPdfa(bytesOf('locked.pdf'), '2b', into('pdfa-locked.pdf'), 'userpw');
      expect(isEncrypted(file('pdfa-locked.pdf'))).toBe(false);
      expect(pageText(file('pdfa-locked.pdf'), 2)).toBe('Page two');
    });
  });
});
