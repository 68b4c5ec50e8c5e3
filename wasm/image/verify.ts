// Proof that an encoder's output is a whole image of the intended size, read from its structure:
// some option combinations make MozJPEG return its error message (22 bytes) as if it were the
// file. Decoding every output back caught that too, but cost a second decode (a 12 MP WebP:
// ~600 ms); the header, the size it declares and the format's closing structure cost nothing.

import { ApiError } from '../../core/errors.js';
import type { OutputFormat } from '../../core/image-formats.js';
import { sniffType } from '../../core/sniff.js';
import { probeDimensions } from './probe.js';

const PNG_IEND = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** What a complete file of each format must show beyond its header. */
const COMPLETE: Record<OutputFormat, (bytes: Uint8Array) => string | undefined> = {
  jpeg: (bytes) => (!hasJpegScan(bytes) ? 'no image scan' : !endsWith(bytes, [0xff, 0xd9]) ? 'no end-of-image marker' : undefined),
  png: (bytes) => (endsWith(bytes, PNG_IEND) ? undefined : 'no IEND chunk'),
  webp: (bytes) => (riffSize(bytes) === bytes.length ? undefined : 'its RIFF size is not its length'),
  avif: (bytes) => (topLevelBoxes(bytes).includes('mdat') ? undefined : 'no media data box'),
};

/** Non-empty, the right format by content, the intended size in its header, and complete. */
export function verifyEncoded(bytes: Uint8Array, format: OutputFormat, width: number, height: number): void {
  const fail = (why: string) => new ApiError('INTERNAL_ERROR', `The ${format.toUpperCase()} encoder produced an unusable file (${why})`);
  if (bytes.length === 0) throw fail('empty');
  const type = sniffType(bytes.subarray(0, 64));
  if (type !== format) throw fail(`it is ${type ?? 'not an image'}`);
  let dims;
  try {
    dims = probeDimensions(format, bytes);
  } catch {
    throw fail('its header is unreadable');
  }
  if (dims.width !== width || dims.height !== height) throw fail(`it is ${dims.width}×${dims.height}`);
  const incomplete = COMPLETE[format](bytes);
  if (incomplete) throw fail(incomplete);
}

function endsWith(bytes: Uint8Array, tail: readonly number[]): boolean {
  return bytes.length >= tail.length && tail.every((byte, i) => bytes[bytes.length - tail.length + i] === byte);
}

/** Walks the marker segments to the first start-of-scan. */
function hasJpegScan(bytes: Uint8Array): boolean {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return false;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xda) return true;
    if (marker === 0xff) offset += 1;
    else offset += 2 + (((bytes[offset + 2] as number) << 8) | (bytes[offset + 3] as number));
  }
  return false;
}

/** The length a RIFF container declares for itself, header included. */
function riffSize(bytes: Uint8Array): number {
  if (bytes.length < 12) return -1;
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true) + 8;
}

/** The types of an ISO-BMFF file's top-level boxes; none when their sizes do not add up to the file. */
function topLevelBoxes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const declared = view.getUint32(offset);
    const size = declared === 0 ? bytes.length - offset : declared === 1 && offset + 16 <= bytes.length ? Number(view.getBigUint64(offset + 8)) : declared;
    if (size < 8) return [];
    types.push(String.fromCharCode(...bytes.subarray(offset + 4, offset + 8)));
    offset += size;
  }
  return offset === bytes.length ? types : [];
}
