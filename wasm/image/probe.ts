// Reads an image's dimensions from its header, before anything is decoded, so that a
// decompression bomb (a small file that claims a huge canvas) is refused without allocating it.

import { ApiError } from '../../core/errors.js';
import type { SniffedType } from '../../core/sniff.js';

export interface Dimensions {
  width: number;
  height: number;
}

type Probe = (bytes: Uint8Array, view: DataView) => Dimensions | undefined;

const PROBES: Partial<Record<SniffedType, Probe>> = {
  jpeg: probeJpeg,
  png: (_bytes, view) => (view.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined),
  webp: probeWebp,
  avif: probeAvif,
  gif: (_bytes, view) => (view.byteLength >= 10 ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : undefined),
  bmp: probeBmp,
  tiff: probeTiff,
};

/** Header dimensions of an image of a known type; INVALID_INPUT when the header is unreadable. */
export function probeDimensions(type: SniffedType, bytes: Uint8Array): Dimensions {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let dims: Dimensions | undefined;
  try {
    dims = PROBES[type]?.(bytes, view);
  } catch {
    dims = undefined; // a header that points past the end of the file
  }
  if (!dims || dims.width < 1 || dims.height < 1) throw new ApiError('INVALID_INPUT', `The ${type.toUpperCase()} header is damaged or truncated`);
  return dims;
}

export function checkPixelLimit({ width, height }: Dimensions, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw new ApiError('TOO_LARGE', `The image is ${width}×${height} (${width * height} pixels); the limit is ${maxPixels} pixels`);
  }
}

/** Walks the marker segments up to the first SOFn frame header. */
function probeJpeg(bytes: Uint8Array, view: DataView): Dimensions | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
}

/** Lossy (VP8), lossless (VP8L) or extended (VP8X) WebP. */
function probeWebp(bytes: Uint8Array, view: DataView): Dimensions | undefined {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X') {
    const read24 = (at: number) => view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
    return { width: read24(24) + 1, height: read24(27) + 1 };
  }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return undefined;
}

/** The largest `ispe` (image spatial extents) property: a grid image declares its full canvas there. */
function probeAvif(bytes: Uint8Array, view: DataView): Dimensions | undefined {
  let best: Dimensions | undefined;
  const limit = Math.min(bytes.length - 16, 1 << 20);
  for (let i = 4; i < limit; i++) {
    if (bytes[i] !== 0x69 || bytes[i + 1] !== 0x73 || bytes[i + 2] !== 0x70 || bytes[i + 3] !== 0x65) continue; // 'ispe'
    const dims = { width: view.getUint32(i + 8), height: view.getUint32(i + 12) };
    if (!best || dims.width * dims.height > best.width * best.height) best = dims;
  }
  return best;
}

/** BITMAPCOREHEADER (12 bytes, 16-bit sizes) or any later header (32-bit, negative height = top-down). */
function probeBmp(_bytes: Uint8Array, view: DataView): Dimensions | undefined {
  const headerSize = view.getUint32(14, true);
  if (headerSize === 12) return { width: view.getUint16(18, true), height: view.getUint16(20, true) };
  return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
}

/** ImageWidth (256) and ImageLength (257) of the first IFD. */
function probeTiff(bytes: Uint8Array, view: DataView): Dimensions | undefined {
  const little = bytes[0] === 0x49;
  const ifd = view.getUint32(4, little);
  const entries = view.getUint16(ifd, little);
  let width: number | undefined;
  let height: number | undefined;
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    const tag = view.getUint16(entry, little);
    if (tag !== 256 && tag !== 257) continue;
    const type = view.getUint16(entry + 2, little);
    const value = type === 3 ? view.getUint16(entry + 8, little) : view.getUint32(entry + 8, little);
    if (tag === 256) width = value;
    else height = value;
  }
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}
