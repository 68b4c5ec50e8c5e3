// The pixels PP-OCR reads: 8-bit grey (what the PDF worker renders) or RGBA (decoded images),
// rows without padding, and the resampling the models' inputs need.

export interface Raster {
  width: number;
  height: number;
  /** 1 (grey) or 4 (RGBA) bytes per pixel. */
  channels: 1 | 4;
  data: Uint8Array | Uint8ClampedArray;
}

/**
 * Samples channel c (0 red, 1 green, 2 blue) at (x, y) with bilinear interpolation, the edge
 * pixels repeated beyond the border (OpenCV's BORDER_REPLICATE). Transparent pixels read as white.
 */
export function sample(image: Raster, x: number, y: number, c: number): number {
  const { width, height } = image;
  const fx = Math.min(Math.max(x, 0), width - 1);
  const fy = Math.min(Math.max(y, 0), height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const top = pixel(image, x0, y0, c) * (1 - ax) + pixel(image, x1, y0, c) * ax;
  const bottom = pixel(image, x0, y1, c) * (1 - ax) + pixel(image, x1, y1, c) * ax;
  return top * (1 - ay) + bottom * ay;
}

export function pixel({ width, channels, data }: Raster, x: number, y: number, c: number): number {
  const i = (y * width + x) * channels;
  if (channels === 1) return data[i] as number;
  const alpha = data[i + 3] as number;
  const value = data[i + c] as number;
  return alpha === 255 ? value : (value * alpha + 255 * (255 - alpha)) / 255;
}

/** Source pixels and weights that make up one target pixel along one axis. */
interface Taps {
  first: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  /** Stride between target pixels in `weights`. */
  span: number;
}

/**
 * Weights along one axis: the source area each target pixel covers when shrinking (OpenCV's
 * INTER_AREA, so thin strokes survive a large reduction), linear interpolation when enlarging.
 */
function axisTaps(source: number, target: number): Taps {
  const scale = source / target;
  const span = scale > 1 ? Math.ceil(scale) + 1 : 2;
  const taps: Taps = { first: new Int32Array(target), count: new Int32Array(target), weights: new Float32Array(target * span), span };
  for (let t = 0; t < target; t++) {
    if (scale > 1) {
      const from = t * scale;
      const to = Math.min(source, from + scale);
      const first = Math.floor(from);
      taps.first[t] = first;
      let n = 0;
      for (let s = first; s < to && n < span; s++, n++) taps.weights[t * span + n] = (Math.min(s + 1, to) - Math.max(s, from)) / (to - from);
      taps.count[t] = n;
    } else {
      const at = Math.min(Math.max((t + 0.5) * scale - 0.5, 0), source - 1);
      const first = Math.min(Math.floor(at), Math.max(0, source - 2));
      taps.first[t] = first;
      taps.count[t] = source > 1 ? 2 : 1;
      taps.weights[t * span] = source > 1 ? 1 - (at - first) : 1;
      taps.weights[t * span + 1] = at - first;
    }
  }
  return taps;
}

/**
 * Resizes to width × height into planar float channels (R, G, B planes, 0–255). With `rows`, only
 * target rows from…to are made (the same values as in the whole resize), from only the source
 * rows they need: a band of a long page without the whole page's planes.
 */
export function resizePlanar(image: Raster, width: number, height: number, rows: { from: number; to: number } = { from: 0, to: height }): Float32Array {
  const xTaps = axisTaps(image.width, width);
  const yTaps = axisTaps(image.height, height);
  const colours = image.channels === 1 ? 1 : 3;
  let sourceFrom = image.height;
  let sourceTo = 0;
  for (let y = rows.from; y < rows.to; y++) {
    sourceFrom = Math.min(sourceFrom, yTaps.first[y] as number);
    sourceTo = Math.max(sourceTo, (yTaps.first[y] as number) + (yTaps.count[y] as number));
  }
  // Horizontal pass into rows of the target width, one plane per colour.
  const rowPlane = Math.max(0, sourceTo - sourceFrom) * width;
  const horizontal = new Float32Array(colours * rowPlane);
  const { data, channels } = image;
  for (let y = sourceFrom; y < sourceTo; y++) {
    const rowStart = y * image.width;
    const at = (y - sourceFrom) * width;
    for (let x = 0; x < width; x++) {
      const first = xTaps.first[x] as number;
      const count = xTaps.count[x] as number;
      for (let c = 0; c < colours; c++) {
        let sum = 0;
        for (let k = 0; k < count; k++) {
          const i = (rowStart + first + k) * channels;
          const alpha = channels === 4 ? (data[i + 3] as number) : 255;
          const value = data[i + c] as number;
          sum += (xTaps.weights[x * xTaps.span + k] as number) * (alpha === 255 ? value : (value * alpha + 255 * (255 - alpha)) / 255);
        }
        horizontal[c * rowPlane + at + x] = sum;
      }
    }
  }
  const plane = width * (rows.to - rows.from);
  const out = new Float32Array(3 * plane);
  for (let y = rows.from; y < rows.to; y++) {
    const first = (yTaps.first[y] as number) - sourceFrom;
    const count = yTaps.count[y] as number;
    const at = (y - rows.from) * width;
    for (let c = 0; c < colours; c++) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = 0; k < count; k++) sum += (yTaps.weights[y * yTaps.span + k] as number) * (horizontal[c * rowPlane + (first + k) * width + x] as number);
        out[c * plane + at + x] = sum;
      }
    }
  }
  if (colours === 1) {
    out.copyWithin(plane, 0, plane);
    out.copyWithin(2 * plane, 0, plane);
  }
  return out;
}
