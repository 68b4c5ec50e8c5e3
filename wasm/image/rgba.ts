// The one in-memory image shape of the image pipeline: 8-bit RGBA, row-major, no padding.
// Structurally the same as the browser's ImageData, which the jSquash codecs accept.

export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export function createRgba(width: number, height: number): RgbaImage {
  return { data: new Uint8ClampedArray(width * height * 4), width, height };
}
