// Hands decoded pixels to tesseract.js as an uncompressed PNM (which Leptonica reads
// natively, with no decoder of its own involved): PGM when the image is grey, PPM otherwise.
// Transparency is flattened onto white, as text on a transparent background is meant to be read.

import type { RgbaImage } from '../image/rgba.js';

/**
 * tesseract.js greps the first 500 bytes of every image for an EXIF orientation tag; a
 * comment pads the header past that so pixel bytes can never be mistaken for one.
 */
const HEADER_PADDING = `# ${'docwasm'.padEnd(500, '.')}\n`;

export function toPnm({ data, width, height }: RgbaImage): Uint8Array {
  const grey = isGrey(data);
  const channels = grey ? 1 : 3;
  const header = Buffer.from(`${grey ? 'P5' : 'P6'}\n${HEADER_PADDING}${width} ${height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.byteLength + width * height * channels);
  out.set(header);
  let o = header.byteLength;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] as number;
    for (let c = 0; c < channels; c++) {
      const value = data[i + c] as number;
      out[o++] = alpha === 255 ? value : Math.round((value * alpha + 255 * (255 - alpha)) / 255);
    }
  }
  return out;
}

function isGrey(data: Uint8ClampedArray): boolean {
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] !== data[i + 1] || data[i] !== data[i + 2]) return false;
  }
  return true;
}

/**
 * The image at one byte per pixel when every pixel is grey (R = G = B; a scan, most pages),
 * transparency flattened onto white as toPnm does; else undefined. PP-OCR then resizes and
 * samples one channel instead of three (−0.65 s of CPU on an A4 300 dpi page) and tesseract gets
 * the same PGM toPnm would write.
 */
export function greyOf({ data, width, height }: RgbaImage): GreyImage | undefined {
  if (!isGrey(data)) return undefined;
  const pixels = new Uint8Array(width * height);
  for (let i = 0, o = 0; i < data.length; i += 4, o++) {
    const alpha = data[i + 3] as number;
    const value = data[i] as number;
    pixels[o] = alpha === 255 ? value : Math.round((value * alpha + 255 * (255 - alpha)) / 255);
  }
  return { width, height, pixels };
}

/** One byte per pixel, rows without padding: what the PDF worker renders for OCR. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

export function greyToPnm({ width, height, pixels }: GreyImage): Uint8Array {
  const header = Buffer.from(`P5\n${HEADER_PADDING}${width} ${height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.byteLength + pixels.byteLength);
  out.set(header);
  out.set(pixels, header.byteLength);
  return out;
}
