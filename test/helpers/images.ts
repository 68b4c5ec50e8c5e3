// Real test images, generated on the fly: sharp (a devDependency) encodes the common formats,
// BMP files are written byte by byte here (sharp cannot), and sharp decodes outputs back.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export type RGBA = [number, number, number, number];

/** A smooth, photo-like RGB image (gradients plus texture), deterministic. */
export function photoPixels(width: number, height: number): Raw {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = 128 + 100 * Math.sin(x / 7) * Math.cos(y / 11);
    }
  }
  return { data, width, height, channels: 3 };
}

/** Four solid quadrants (top-left red, top-right green, bottom-left blue, bottom-right yellow). */
export const QUADRANT_COLOURS: RGBA[] = [
  [255, 0, 0, 255],
  [0, 255, 0, 255],
  [0, 0, 255, 255],
  [255, 255, 0, 255],
];

export function quadrantPixels(width: number, height: number): Raw {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = QUADRANT_COLOURS[(x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2)] as RGBA;
      data.set(colour.slice(0, 3), (y * width + x) * 3);
    }
  }
  return { data, width, height, channels: 3 };
}

/** Left half fully transparent (black underneath), right half opaque blue. */
export function halfTransparentPixels(width: number, height: number): Raw {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(x < width / 2 ? [0, 0, 0, 0] : [0, 0, 255, 255], (y * width + x) * 4);
  }
  return { data, width, height, channels: 4 };
}

export function fromRaw(raw: Raw): Sharp {
  return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
}

export async function writeFixture(dir: string, name: string, image: Sharp | Buffer): Promise<string> {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.isBuffer(image) ? image : await image.toBuffer());
  return file;
}

/** Decodes any image file back with sharp (independent of the service's codecs). */
export async function readBack(file: string): Promise<{ format: string; width: number; height: number; pixels: Buffer }> {
  const meta = await sharp(file).metadata();
  const pixels = await sharp(file).ensureAlpha().raw().toBuffer();
  return { format: meta.format === 'heif' ? 'avif' : (meta.format ?? 'unknown'), width: meta.width ?? 0, height: meta.height ?? 0, pixels };
}

export function pixelAt(pixels: Buffer, width: number, x: number, y: number): RGBA {
  const i = (y * width + x) * 4;
  return [pixels[i] ?? -1, pixels[i + 1] ?? -1, pixels[i + 2] ?? -1, pixels[i + 3] ?? -1];
}

/** Largest per-channel difference between two colours. */
export function colourDistance(a: RGBA, b: RGBA): number {
  return Math.max(...a.map((v, i) => Math.abs(v - (b[i] as number))));
}

/** A 24-bit BMP with a BITMAPINFOHEADER (bottom-up rows, padded to 4 bytes). */
export function bmp24(raw: Raw): Buffer {
  const rowSize = Math.ceil((raw.width * 3) / 4) * 4;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + rowSize * raw.height, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(raw.width, 18);
  header.writeInt32LE(raw.height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(rowSize * raw.height, 34);
  const body = Buffer.alloc(rowSize * raw.height);
  for (let y = 0; y < raw.height; y++) {
    for (let x = 0; x < raw.width; x++) {
      const s = (y * raw.width + x) * raw.channels;
      const d = (raw.height - 1 - y) * rowSize + x * 3;
      body[d] = raw.data[s + 2] as number;
      body[d + 1] = raw.data[s + 1] as number;
      body[d + 2] = raw.data[s] as number;
    }
  }
  return Buffer.concat([header, body]);
}

/** A 32-bit BMP with a BITMAPV5HEADER and an alpha mask (the header bmp-js mis-reads). */
export function bmpV5(raw: Raw): Buffer {
  const headerSize = 14 + 124;
  const header = Buffer.alloc(headerSize);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(headerSize + raw.width * raw.height * 4, 2);
  header.writeUInt32LE(headerSize, 10);
  header.writeUInt32LE(124, 14);
  header.writeInt32LE(raw.width, 18);
  header.writeInt32LE(-raw.height, 22); // top-down
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(32, 28);
  header.writeUInt32LE(3, 30); // BI_BITFIELDS
  header.writeUInt32LE(raw.width * raw.height * 4, 34);
  header.writeUInt32LE(0x00ff0000, 54); // red mask
  header.writeUInt32LE(0x0000ff00, 58);
  header.writeUInt32LE(0x000000ff, 62);
  header.writeUInt32LE(0xff000000, 66); // alpha mask
  header.write('BGRs', 70, 'latin1'); // LCS_sRGB, stored little-endian
  const body = Buffer.alloc(raw.width * raw.height * 4);
  for (let p = 0; p < raw.width * raw.height; p++) {
    const s = p * raw.channels;
    body.writeUInt32LE(
      (((raw.channels === 4 ? (raw.data[s + 3] as number) : 255) << 24) |
        ((raw.data[s] as number) << 16) |
        ((raw.data[s + 1] as number) << 8) |
        (raw.data[s + 2] as number)) >>>
        0,
      p * 4,
    );
  }
  return Buffer.concat([header, body]);
}

/** A PNG file of these chunks' contents: IHDR says width×height at 8 bits of `colourType`. */
export function pngFile(width: number, height: number, colourType: number, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(typed), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose header claims width×height but that carries only a few bytes of data. */
export function pngBomb(width: number, height: number): Buffer {
  return pngFile(width, height, 6, zlib.deflateSync(Buffer.alloc(64)));
}

/**
 * A camera-like photo for benchmarks: smooth random structure plus sensor-like grain, so the
 * codecs see realistic entropy (a smooth gradient would flatter every encoder).
 */
export async function cameraPhoto(width: number, height: number): Promise<Sharp> {
  const cells = { width: Math.ceil(width / 50), height: Math.ceil(height / 50) };
  const seedPixels = Buffer.alloc(cells.width * cells.height * 3);
  let seed = 7;
  for (let i = 0; i < seedPixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    seedPixels[i] = seed & 255;
  }
  const base = await sharp(seedPixels, { raw: { width: cells.width, height: cells.height, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, (base[i] as number) + (grain[i] as number) - 128));
  return sharp(base, { raw: { width, height, channels: 3 } });
}
