// A large image PP-OCR reads is decoded in a thread of its own (wasm/image/decode-apart.ts): the
// PNG decoder's WebAssembly memory only grows, and kept in the OCR thread it stayed beside the
// models through the whole read (issue 46: one-shot `docwasm ocr` of the dense A4 page ~65 MB
// higher than the same page given as BMP, which is decoded in JavaScript). The page: a few lines
// laid out by pango-view on an A4 sheet at 300 dpi by ImageMagick, as PNG and as BMP; each read by
// one-shot `docwasm ocr`, its peak from GNU time (the least of two reads).

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeAtEnd } from '../helpers/cleanup.js';
import { CLI, tempDir } from '../helpers/service.js';

const READ_TIMEOUT = 900_000;
const LINES = ['忽逢桃花林夹岸数百步中无杂树芳草鲜美', '林尽水源便得一山山有小口仿佛若有光'];
let dir: string;

beforeAll(() => {
  dir = removeAtEnd(tempDir('docwasm-decode-apart-'));
  const lines = path.join(dir, 'lines.png');
  execFileSync('pango-view', ['-q', '--font=AR PL UMing CN 12', '--dpi=300', '--margin=60', `--output=${lines}`, `--text=${LINES.join('\n')}`]);
  // An A4 sheet at 300 dpi (8.7 MP), the lines at its top: as RGB and grey PNGs (the PNG decoder's two paths) and as BMP.
  const sheet = (type: string, out: string) =>
    execFileSync('convert', [lines, '-background', 'white', '-flatten', '-gravity', 'north', '-extent', '2481x3507', '-type', type, out]);
  sheet('TrueColor', path.join(dir, 'page.png'));
  sheet('Grayscale', path.join(dir, 'grey.png'));
  sheet('TrueColor', `BMP3:${path.join(dir, 'page.bmp')}`);
});

/** One-shot `docwasm ocr FILE`: its text and its peak resident set (GNU time, kB). */
async function oneShot(file: string): Promise<{ text: string; peakKb: number }> {
  const report = path.join(dir, 'time.txt');
  const { stdout } = await promisify(execFile)('/usr/bin/time', [
    '-f',
    '%M',
    '-o',
    report,
    process.execPath,
    CLI,
    'ocr',
    file,
    '--language',
    'chi_sim+eng',
    '--timeout',
    '800',
  ]);
  return { text: stdout, peakKb: Number(fs.readFileSync(report, 'utf8').trim().split('\n').at(-1)) };
}

/**
 * The least peak of two one-shot reads of `file`: when the collector runs moves one read's peak by
 * ~10 MB on a quiet machine and by ~35 MB with the cores kept busy (a 35 MB RGBA page freed late),
 * while what a read must hold does not move.
 */
async function leastOfTwo(file: string): Promise<{ text: string; peakKb: number }> {
  const [first, second] = [await oneShot(file), await oneShot(file)];
  expect(second.text).toBe(first.text);
  return { text: first.text, peakKb: Math.min(first.peakKb, second.peakKb) };
}

describe('decoding a large image apart from the OCR thread', () => {
  it(
    'reads an A4 PNG, RGB or grey, with no more memory than the same page as BMP, decoded in JavaScript',
    async () => {
      const bmp = await leastOfTwo(path.join(dir, 'page.bmp'));
      expect(bmp.text.replace(/\s+/g, '')).toContain('桃花林');
      for (const file of ['page.png', 'grey.png']) {
        const png = await leastOfTwo(path.join(dir, file));
        expect(png.text).toBe(bmp.text);
        // Decoded in the OCR thread, the decoder's memory added 76 MB to the RGB page's peak.
        expect(png.peakKb - bmp.peakKb, `${file}: ${png.peakKb} kB against the BMP's ${bmp.peakKb} kB`).toBeLessThan(25_000);
      }
    },
    READ_TIMEOUT,
  );
});
