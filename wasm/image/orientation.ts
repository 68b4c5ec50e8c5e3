// JPEG EXIF orientation (tags 1–8): read from the APP1 segment and applied to decoded pixels,
// so every caller gets the image as a viewer shows it.

import type { Dimensions } from './probe.js';
import { createRgba, type RgbaImage } from './rgba.js';

/** The orientation tag of the EXIF block before the first scan; 1 when absent or unreadable. */
export function exifOrientation(jpeg: Uint8Array): number {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  try {
    for (let offset = 2; offset + 4 <= jpeg.length && jpeg[offset] === 0xff;) {
      const marker = jpeg[offset + 1] as number;
      if (marker === 0xda) break;
      const length = view.getUint16(offset + 2);
      if (marker === 0xe1 && readAscii(jpeg, offset + 4, 6) === 'Exif\0\0') return tiffOrientation(view, offset + 10);
      offset += 2 + length;
    }
  } catch {
    // a segment that points past the end of the file: no orientation
  }
  return 1;
}

/** Tag 0x0112 of IFD0 in the TIFF structure starting at `tiff`. */
function tiffOrientation(view: DataView, tiff: number): number {
  const little = view.getUint16(tiff) === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (view.getUint16(entry, little) !== 0x0112) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

function readAscii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** Orientations 5–8 turn the image a quarter: its sides swap. */
export function orientedSize(dims: Dimensions, orientation: number): Dimensions {
  return orientation >= 5 ? { width: dims.height, height: dims.width } : dims;
}

/**
 * How the output walks the stored image: [x, y] of the stored pixel that output pixel (0,0)
 * shows, then how far in the stored pixels (a row is `width`) one step right and one step down
 * in the output move.
 */
function walk(orientation: number, width: number, height: number): [number, number, number, number] {
  const row = width;
  switch (orientation) {
    case 2:
      return [width - 1, 0, -1, row]; // mirrored
    case 3:
      return [width - 1, height - 1, -1, -row]; // upside down
    case 4:
      return [0, height - 1, 1, -row]; // mirrored upside down
    case 5:
      return [0, 0, row, 1]; // transposed
    case 6:
      return [0, height - 1, -row, 1]; // turned a quarter clockwise to view
    case 7:
      return [width - 1, height - 1, -row, -1]; // transversed
    case 8:
      return [width - 1, 0, row, -1]; // turned a quarter anticlockwise to view
    default:
      return [0, 0, 1, row];
  }
}

/** The pixels as a viewer shows them; the same image when there is nothing to do. */
export function orient(image: RgbaImage, orientation: number): RgbaImage {
  if (orientation < 2 || orientation > 8) return image;
  const { width, height } = orientedSize(image, orientation);
  const out = createRgba(width, height);
  const src = new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
  const dst = new Uint32Array(out.data.buffer);
  const [startX, startY, right, down] = walk(orientation, image.width, image.height);
  let lineStart = startY * image.width + startX;
  for (let y = 0, q = 0; y < height; y++, lineStart += down) {
    for (let x = 0, p = lineStart; x < width; x++, p += right) dst[q++] = src[p] as number;
  }
  return out;
}
