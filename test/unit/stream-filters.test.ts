// The bounded stream decoders of the PDF budget (wasm/pdf/stream-filters.ts), against data
// encoded by other programs: TIFF strips from ImageMagick (TIFF's LZW is PDF's LZWDecode with
// EarlyChange 1, TIFF's PackBits is RunLengthDecode), ASCII85 from Python, Flate from zlib.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBounded, decodedLength, OverBudget } from '../../wasm/pdf/stream-filters.js';
import { tempDir } from '../helpers/service.js';

/** The one strip of a single-strip TIFF (StripOffsets 273, StripByteCounts 279 of the first IFD). */
function tiffStrip(tiff: Buffer): Buffer {
  const little = tiff[0] === 0x49;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  const value = (tag: number) => {
    for (let i = 0; i < u16(ifd); i++) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) === tag) return u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
    }
    throw new Error(`no tag ${tag}`);
  };
  return tiff.subarray(value(273), value(273) + value(279));
}

/** A grey image made by ImageMagick as a one-strip TIFF with `compression` (no predictor), and its raw pixels. */
function magickStrip(image: string[], compression: string): { strip: Buffer; pixels: Buffer } {
  const dir = tempDir();
  const tiff = path.join(dir, 'image.tif');
  execFileSync('convert', [
    ...image,
    '-depth',
    '8',
    '-type',
    'Grayscale',
    '-compress',
    compression,
    '-define',
    'tiff:rows-per-strip=100000',
    ...(compression === 'LZW' ? ['-define', 'tiff:predictor=1'] : []),
    tiff,
  ]);
  const pixels = execFileSync('convert', [tiff, '-depth', '8', 'gray:-'], { maxBuffer: 1 << 28 });
  return { strip: tiffStrip(fs.readFileSync(tiff)), pixels };
}

const NOISE = ['-size', '300x200', 'plasma:', '-seed', '7', '+noise', 'Random'];
const FLAT = ['-size', '2000x1500', 'xc:gray50'];

describe('bounded stream decoding', () => {
  it('decodes LZW as PDF readers do (9- to 12-bit codes, table resets) and stops at the bound', () => {
    for (const image of [NOISE, FLAT]) {
      const { strip, pixels } = magickStrip(image, 'LZW');
      expect(Buffer.from(decodeBounded(strip, ['LZWDecode'], pixels.length)).equals(pixels)).toBe(true);
      expect(() => decodedLength(strip, ['LZWDecode'], pixels.length - 1)).toThrow(OverBudget);
    }
    expect(magickStrip(FLAT, 'LZW').strip.length).toBeLessThan(3_000_000 / 50); // a bomb: over 50:1
  });

  it('decodes RunLength (TIFF PackBits) and stops at the bound', () => {
    for (const image of [NOISE, FLAT]) {
      const { strip, pixels } = magickStrip(image, 'RLE');
      expect(Buffer.from(decodeBounded(strip, ['RunLengthDecode'], pixels.length)).equals(pixels)).toBe(true);
      expect(() => decodedLength(strip, ['RL'], pixels.length - 1)).toThrow(OverBudget);
    }
  });

  it('decodes ASCII85 (Python) and ASCIIHex before Flate, and stops Flate at the bound', () => {
    const content = Buffer.alloc(5_000_000, 'q Q\n');
    const deflated = deflateSync(content);
    const a85 = execFileSync('python3', ['-c', 'import base64,sys; sys.stdout.buffer.write(base64.a85encode(sys.stdin.buffer.read(), adobe=True)[2:])'], {
      input: deflated,
    });
    expect(decodedLength(a85, ['ASCII85Decode', 'FlateDecode'], content.length)).toBe(content.length);
    const hex = Buffer.from(`${deflated.toString('hex').replace(/(.{64})/g, '$1\n')}>`);
    expect(decodedLength(hex, ['AHx', 'Fl'], content.length)).toBe(content.length);
    expect(() => decodedLength(deflated, ['FlateDecode'], content.length - 1)).toThrow(OverBudget);
  });

  it('stops at an image codec and counts what comes before it', () => {
    expect(decodedLength(Buffer.alloc(100), ['DCTDecode'], 1000)).toBe(100);
    expect(decodedLength(deflateSync(Buffer.alloc(500)), ['FlateDecode', 'DCTDecode'], 1000)).toBe(500);
  });
});
