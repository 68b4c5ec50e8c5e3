// Flate with PNG predictors (PDF's /DecodeParms << /Predictor 15 >>), for the samples compress
// keeps lossless (soft masks): each row is stored as its difference from the row above or the
// pixel before, chosen per row as libpng chooses (smallest sum of absolute differences), which
// deflate then packs far tighter than the plain samples mupdf's save would flate.

import zlib from 'node:zlib';

export interface PredictedFlate {
  data: Uint8Array;
  /** The stream's /DecodeParms. */
  decodeParms: { Predictor: number; Colors: number; BitsPerComponent: number; Columns: number };
}

/** 8-bit samples, `colors` per pixel, `width` pixels a row, no padding. */
export function flateWithPngPredictor(samples: Uint8Array, width: number, colors: number): PredictedFlate {
  const stride = width * colors;
  const rows = samples.length / stride;
  const filtered = new Uint8Array(rows * (stride + 1));
  const candidate = new Uint8Array(stride);
  const best = new Uint8Array(stride);
  for (let y = 0; y < rows; y++) {
    const row = samples.subarray(y * stride, (y + 1) * stride);
    const above = y > 0 ? samples.subarray((y - 1) * stride, y * stride) : undefined;
    let bestType = 0;
    let bestCost = Infinity;
    for (let type = 0; type <= 4; type++) {
      const cost = filterRow(type, row, above, colors, candidate);
      if (cost < bestCost) {
        bestCost = cost;
        bestType = type;
        best.set(candidate);
      }
    }
    filtered[y * (stride + 1)] = bestType;
    filtered.set(best, y * (stride + 1) + 1);
  }
  return {
    data: new Uint8Array(zlib.deflateSync(filtered, { level: 9 })),
    decodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: 8, Columns: width },
  };
}

/** Writes the row filtered with PNG filter `type` into `out`; answers the sum of |signed bytes|. */
function filterRow(type: number, row: Uint8Array, above: Uint8Array | undefined, colors: number, out: Uint8Array): number {
  let cost = 0;
  for (let i = 0; i < row.length; i++) {
    const left = i >= colors ? (row[i - colors] as number) : 0;
    const up = above ? (above[i] as number) : 0;
    const upLeft = above && i >= colors ? (above[i - colors] as number) : 0;
    const value = ((row[i] as number) - predict(type, left, up, upLeft)) & 0xff;
    out[i] = value;
    cost += value < 128 ? value : 256 - value;
  }
  return cost;
}

function predict(type: number, left: number, up: number, upLeft: number): number {
  switch (type) {
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4:
      return paeth(left, up, upLeft);
    default:
      return 0;
  }
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}
