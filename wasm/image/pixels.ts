// Pixel operations in plain JS that the codecs do not offer: alpha inspection, flattening onto
// white (JPEG has no alpha), cropping, and the cheap integer box pre-shrink used before lanczos3.

import { createRgba, type RgbaImage } from './rgba.js';

export function hasTransparency({ data }: RgbaImage): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}

/** Composites onto white in place: what a viewer shows for a transparent pixel. */
export function flattenOntoWhite(image: RgbaImage): RgbaImage {
  const { data } = image;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] as number;
    if (alpha === 255) continue;
    const white = 255 * (255 - alpha);
    data[i] = ((data[i] as number) * alpha + white) / 255;
    data[i + 1] = ((data[i + 1] as number) * alpha + white) / 255;
    data[i + 2] = ((data[i + 2] as number) * alpha + white) / 255;
    data[i + 3] = 255;
  }
  return image;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function crop(image: RgbaImage, rect: Rect): RgbaImage {
  if (rect.x === 0 && rect.y === 0 && rect.width === image.width && rect.height === image.height) return image;
  const out = createRgba(rect.width, rect.height);
  const rowBytes = rect.width * 4;
  for (let y = 0; y < rect.height; y++) {
    const start = ((rect.y + y) * image.width + rect.x) * 4;
    out.data.set(image.data.subarray(start, start + rowBytes), y * rowBytes);
  }
  return out;
}

/**
 * Halves both sides by averaging 2×2 blocks (an odd last row/column averages what it has).
 * Repeated, it is a power-of-two box filter. With transparency, colour is weighted by alpha so
 * transparent pixels do not darken their neighbours. Pixels are read as one 32-bit word each:
 * a 12 MP halving takes ~30 ms, where lanczos3 over the same pixels takes ~200 ms.
 */
export function halve(image: RgbaImage): RgbaImage {
  const out = createRgba(Math.ceil(image.width / 2), Math.ceil(image.height / 2));
  (hasTransparency(image) ? halveWeighted : halveOpaque)(words(image), image.width, image.height, out);
  return out;
}

/** Int32, not Uint32: opaque pixels exceed 2^31 and V8 would handle them as doubles. */
function words({ data }: RgbaImage): Int32Array {
  const aligned = data.byteOffset % 4 === 0 ? data : new Uint8ClampedArray(data);
  return new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
}

function halveOpaque(src: Int32Array, width: number, height: number, out: RgbaImage): void {
  const dst = out.data;
  for (let oy = 0; oy < out.height; oy++) {
    const top = oy * 2 * width;
    const bottom = oy * 2 + 1 < height ? top + width : top;
    let q = oy * out.width * 4;
    for (let x = 0; x < width; x += 2, q += 4) {
      const right = x + 1 < width ? x + 1 : x;
      const p0 = src[top + x] as number;
      const p1 = src[top + right] as number;
      const p2 = src[bottom + x] as number;
      const p3 = src[bottom + right] as number;
      dst[q] = ((p0 & 255) + (p1 & 255) + (p2 & 255) + (p3 & 255) + 2) >> 2;
      dst[q + 1] = (((p0 >> 8) & 255) + ((p1 >> 8) & 255) + ((p2 >> 8) & 255) + ((p3 >> 8) & 255) + 2) >> 2;
      dst[q + 2] = (((p0 >> 16) & 255) + ((p1 >> 16) & 255) + ((p2 >> 16) & 255) + ((p3 >> 16) & 255) + 2) >> 2;
      dst[q + 3] = 255;
    }
  }
}

function halveWeighted(src: Int32Array, width: number, height: number, out: RgbaImage): void {
  const dst = out.data;
  for (let oy = 0; oy < out.height; oy++) {
    const top = oy * 2 * width;
    const bottom = oy * 2 + 1 < height ? top + width : top;
    let q = oy * out.width * 4;
    for (let x = 0; x < width; x += 2, q += 4) {
      const right = x + 1 < width ? x + 1 : x;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const p of [src[top + x] as number, src[top + right] as number, src[bottom + x] as number, src[bottom + right] as number]) {
        const alpha = p >>> 24;
        r += (p & 255) * alpha;
        g += ((p >> 8) & 255) * alpha;
        b += ((p >> 16) & 255) * alpha;
        a += alpha;
      }
      if (a > 0) {
        dst[q] = r / a;
        dst[q + 1] = g / a;
        dst[q + 2] = b / a;
      }
      dst[q + 3] = a / 4;
    }
  }
}
