// pdf/stamp end to end over HTTP (and once from the CLI): text stamped as real text (pdftotext
// finds it, CJK included) where the position says on the page as a viewer shows it (pdftotext
// -bbox, turned pages included), only on the chosen pages, above a full-page scan (rendered by
// poppler); an image stamped above the content.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, serializePdf } from '../helpers/make-pdf.js';
import { pdfWithInfo } from '../helpers/pdf-tool-fixtures.js';
import { darkestIn, pixelAt } from '../helpers/pdf2-checks.js';
import { pageText } from '../helpers/pdf-inspect.js';
import { CLI, leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { qpdfCheck, sha256 } from '../helpers/tools.js';

interface WordBox {
  word: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** The words of page `page` with their boxes (points, origin top left of the page as shown), by pdftotext -bbox. */
function wordBoxes(file: string, page: number): WordBox[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']).toString();
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[5] as string,
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

/** The page size as shown, by pdfinfo. */
function shownSize(file: string): { width: number; height: number } {
  const match = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(execFileSync('pdfinfo', [file]).toString());
  const rotated = /Page rot:\s+(90|270)/.test(execFileSync('pdfinfo', [file]).toString());
  const [w, h] = [Number(match?.[1]), Number(match?.[2])];
  return rotated ? { width: h, height: w } : { width: w, height: h };
}

/** A "scan": one page that is a single opaque grey picture, edge to edge. */
function scanLikePdf(): Buffer {
  const grey = Buffer.alloc(10 * 10 * 3, 0xc0);
  const content = 'q 612 0 0 792 0 0 cm /Scan Do Q';
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Scan 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${grey.length} >>\nstream\n${grey.toString('latin1')}\nendstream`,
  ]);
}

describe('POST /api/pdf/stamp', () => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);
  const stampWord = (name: string, page = 1) => wordBoxes(file(name), page).find((box) => box.word === 'PAID');

  beforeAll(async () => {
    service = await startService();
    fs.writeFileSync(file('three.pdf'), makePdf({ pages: ['First page', 'Second page', 'Third page'] }));
    fs.writeFileSync(file('turned.pdf'), pdfWithInfo({ rotate: 90 }));
    fs.writeFileSync(file('scan.pdf'), scanLikePdf());
    execFileSync('convert', ['-size', '40x20', 'xc:#0000ff', file('logo.png')]);
    fs.writeFileSync(file('notes.txt'), 'not an image\n');
  });
  afterAll(async () => {
    await service.stop();
  });

  it('stamps text at the bottom right by default, 36 pt from the edges, as text', async () => {
    const response = await service.post('/api/pdf/stamp', { input: 'three.pdf', output: 'default.pdf', text: 'PAID' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(qpdfCheck(file('default.pdf'))).toBe(true);
    for (const page of [1, 2, 3]) expect(pageText(file('default.pdf'), page)).toContain('PAID');
    const box = stampWord('default.pdf');
    expect(box).toBeDefined();
    expect(box?.xMax).toBeCloseTo(612 - 36, -1);
    expect(792 - (box?.yMax ?? 0)).toBeGreaterThan(28);
    expect(792 - (box?.yMax ?? 0)).toBeLessThan(40);
  });

  it('puts the stamp where the position says on a turned page, as a viewer shows it', async () => {
    const response = await service.post('/api/pdf/stamp', {
      input: 'turned.pdf',
      output: 'turned-out.pdf',
      text: 'PAID',
      position: 'top-left',
      margin: 20,
      fontSize: 30,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const size = shownSize(file('turned-out.pdf'));
    expect(size.width).toBeGreaterThan(size.height);
    const box = stampWord('turned-out.pdf');
    expect(box?.xMin).toBeCloseTo(20, -1);
    // The word's box reaches above the capitals (the font's ascent).
    expect(box?.yMin).toBeGreaterThan(5);
    expect(box?.yMin).toBeLessThan(30);
    expect((box?.xMax ?? 0) - (box?.xMin ?? 0)).toBeGreaterThan((box?.yMax ?? 0) - (box?.yMin ?? 0));
  });

  it('stamps CJK text on the chosen pages only', async () => {
    const response = await service.post('/api/pdf/stamp', { input: 'three.pdf', output: 'cjk.pdf', text: '已付款 PAID', pages: '2', position: 'top' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(pageText(file('cjk.pdf'), 2)).toContain('已付款');
    expect(pageText(file('cjk.pdf'), 1)).not.toContain('已付款');
    expect(pageText(file('cjk.pdf'), 3)).not.toContain('已付款');
  });

  it('draws above a scan, where a watermark under the picture would be hidden', async () => {
    const response = await service.post('/api/pdf/stamp', { input: 'scan.pdf', output: 'scan-out.pdf', text: 'PAID', position: 'center', fontSize: 120 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const box = stampWord('scan-out.pdf');
    expect(box).toBeDefined();
    // Black ink on the grey picture where the word is.
    const word = { x: box?.xMin ?? 0, y: box?.yMin ?? 0, width: (box?.xMax ?? 0) - (box?.xMin ?? 0), height: (box?.yMax ?? 0) - (box?.yMin ?? 0) };
    expect(darkestIn(file('scan-out.pdf'), 1, word)).toBeLessThan(0.1);
    expect(pixelAt(file('scan-out.pdf'), 1, 10, 10)).toBe('srgb(192,192,192)');
  });

  it('stamps an image above the content at the given width, half transparent when asked', async () => {
    const response = await service.post('/api/pdf/stamp', {
      input: 'scan.pdf',
      output: 'image.pdf',
      image: 'logo.png',
      imageWidth: 100,
      position: 'bottom-left',
      margin: 10,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    // 100 x 50 pt from x 10, 10 pt above the bottom edge.
    expect(pixelAt(file('image.pdf'), 1, 60, 792 - 35)).toBe('srgb(0,0,255)');
    expect(pixelAt(file('image.pdf'), 1, 120, 792 - 35)).toBe('srgb(192,192,192)');
    const faint = await service.post('/api/pdf/stamp', {
      input: 'scan.pdf',
      output: 'faint.pdf',
      image: 'logo.png',
      imageWidth: 100,
      position: 'bottom-left',
      margin: 10,
      opacity: 0.5,
    });
    expect(faint.status).toBe(200);
    expect(pixelAt(file('faint.pdf'), 1, 60, 792 - 35)).toMatch(/^srgb\((9[5-7]),(9[5-7]),(22[2-5])\)$/);
  });

  it('answers the contract codes for bad requests, leaving no output and the input as it was', async () => {
    const before = sha256(file('three.pdf'));
    const cases: [Record<string, unknown>, number, string][] = [
      [{ input: 'three.pdf', output: 'bad.pdf' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'three.pdf', output: 'bad.pdf', text: 'A', image: 'logo.png' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'three.pdf', output: 'bad.pdf', text: 'A', position: 'middle' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'three.pdf', output: 'bad.pdf', text: 'A\nB' }, 400, 'VALIDATION_ERROR'],
      [{ input: 'three.pdf', output: 'bad.pdf', image: 'notes.txt' }, 422, 'UNSUPPORTED_FORMAT'],
      [{ input: 'three.pdf', output: 'bad.pdf', image: 'nope.png' }, 404, 'FILE_NOT_FOUND'],
      [{ input: 'three.pdf', output: 'bad.pdf', text: 'A', pages: '4' }, 422, 'INVALID_PAGE_RANGE'],
      [{ input: 'three.pdf', output: 'bad.pdf', text: '😀' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [body, status, code] of cases) {
      const response = await service.post('/api/pdf/stamp', body);
      expect([response.status, response.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(fs.existsSync(file('bad.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(sha256(file('three.pdf'))).toBe(before);
  });

  it('runs from the command line', () => {
    const result = spawnSync(
      process.execPath,
      [CLI, 'pdf', 'stamp', 'three.pdf', '-o', 'cli.pdf', '--text', 'PAID', '--position', 'top-right', '--pages', '1'],
      { cwd: service.dir, encoding: 'utf8' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('cli.pdf');
    expect(pageText(file('cli.pdf'), 1)).toContain('PAID');
    expect(pageText(file('cli.pdf'), 2)).not.toContain('PAID');
  });
});
